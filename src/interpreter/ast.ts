// The syntax tree. Every node carries {start, end} source offsets. Variables are resolved while
// parsing: a `Var` points at its declaration, whose `slot` indexes the enclosing function's frame.
// Names that resolve to nothing become `Global` (looked up among the host's globals at run time
// when the code runs at the top level, otherwise "Variable not found").

import type { AssignOp, BinaryOp } from './token.js';
import type { FnPtr, Value } from './values.js';

export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface VarDecl {
  readonly name: string;
  readonly slot: number;
  readonly isConst: boolean;
  /** captured by a closure: the frame slot holds a Cell shared with the closure */
  boxed: boolean;
}

export interface FnDef extends Span {
  readonly name: string;
  readonly params: readonly VarDecl[];
  body: Block;
  frameSize: number;
  readonly isClosure: boolean;
  /** closures: the slots in this function's frame that receive the captured cells, in order */
  captureSlots: readonly VarDecl[];
}

export interface Literal extends Span {
  readonly type: 'Literal';
  readonly value: Value;
}
export interface Interpolated extends Span {
  readonly type: 'Interpolated';
  /** string literals and blocks, joined with to_string */
  readonly parts: readonly Expr[];
}
export interface ArrayLit extends Span {
  readonly type: 'ArrayLit';
  readonly items: readonly Expr[];
}
export interface MapLit extends Span {
  readonly type: 'MapLit';
  readonly entries: readonly { readonly key: string; readonly value: Expr }[];
}
export interface Var extends Span {
  readonly type: 'Var';
  readonly name: string;
  readonly decl: VarDecl;
}
export interface Global extends Span {
  readonly type: 'Global';
  readonly name: string;
  /** false inside `fn` bodies, which cannot see the host's globals */
  readonly visible: boolean;
  /** set after parsing when a script function has this name: the name is a function pointer */
  fnPtr: FnPtr | null;
}
/** `global::NAME`: a top-level `const`, read from anywhere (a function, a closure) */
export interface GlobalConst extends Span {
  readonly type: 'GlobalConst';
  readonly name: string;
}
export interface This extends Span {
  readonly type: 'This';
}
export interface Unary extends Span {
  readonly type: 'Unary';
  readonly op: '-' | '+' | '!';
  readonly operand: Expr;
}
export interface Binary extends Span {
  readonly type: 'Binary';
  readonly op: Exclude<BinaryOp, '&&' | '||' | '??'>;
  readonly left: Expr;
  readonly right: Expr;
  readonly opStart: number;
}
export interface Logical extends Span {
  readonly type: 'Logical';
  readonly op: '&&' | '||' | '??';
  readonly left: Expr;
  readonly right: Expr;
  readonly opStart: number;
}
/** What `?.`/`?[` skip when they meet `()`: the rest of the chain, up to the node marked root. */
export interface ChainLink {
  /** `?.` / `?[` */
  readonly safe: boolean;
  /** the outermost access of a chain that has a `?.`/`?[`: a short-circuit ends here, with `()` */
  chainRoot: boolean;
}
export interface Index extends Span, ChainLink {
  readonly type: 'Index';
  readonly target: Expr;
  readonly index: Expr;
}
export interface Prop extends Span, ChainLink {
  readonly type: 'Prop';
  readonly target: Expr;
  readonly name: string;
  readonly nameStart: number;
}
export interface Call extends Span {
  readonly type: 'Call';
  readonly name: string;
  readonly args: readonly Expr[];
  /** the script function of that name and arity, linked after parsing */
  fn: FnDef | null;
  /** a visible variable of the same name (it may hold a function pointer) */
  readonly fnVar: VarDecl | null;
}
export interface MethodCall extends Span, ChainLink {
  readonly type: 'MethodCall';
  readonly target: Expr;
  readonly name: string;
  readonly args: readonly Expr[];
  readonly nameStart: number;
}
export interface IsDefVar extends Span {
  readonly type: 'IsDefVar';
  readonly arg: Expr;
  /** names declared and in scope at this point */
  readonly visible: ReadonlySet<string>;
  /** whether the host's globals are visible here */
  readonly globals: boolean;
}
export interface ClosureExpr extends Span {
  readonly type: 'Closure';
  readonly def: FnDef;
  /** declarations in the creating frame whose cells the closure captures */
  readonly captures: readonly VarDecl[];
}
export interface Block extends Span {
  readonly type: 'Block';
  readonly body: readonly Stmt[];
}
export interface If extends Span {
  readonly type: 'If';
  readonly cond: Expr;
  readonly then: Block;
  readonly otherwise: Expr | null;
}
export interface SwitchCase {
  readonly values: readonly Value[];
  readonly ranges: readonly { readonly start: bigint; readonly end: bigint; readonly inclusive: boolean }[];
  readonly guard: Expr | null;
  readonly body: Stmt;
}
export interface Switch extends Span {
  readonly type: 'Switch';
  readonly subject: Expr;
  readonly cases: readonly SwitchCase[];
  /** debug text of a case value → indices of the cases listing it, in order */
  readonly table: ReadonlyMap<string, readonly number[]>;
  /** indices of cases with ranges, in order */
  readonly rangeCases: readonly number[];
  readonly fallback: Stmt | null;
}
export interface While extends Span {
  readonly type: 'While';
  readonly cond: Expr;
  readonly body: Block;
}
export interface Loop extends Span {
  readonly type: 'Loop';
  readonly body: Block;
}
export interface Do extends Span {
  readonly type: 'Do';
  readonly body: Block;
  readonly cond: Expr;
  /** `do … until cond` rather than `do … while cond` */
  readonly until: boolean;
}
export interface For extends Span {
  readonly type: 'For';
  readonly item: VarDecl;
  readonly counter: VarDecl | null;
  readonly iterable: Expr;
  readonly body: Block;
}
export interface Try extends Span {
  readonly type: 'Try';
  readonly body: Block;
  readonly errVar: VarDecl | null;
  readonly handler: Block;
}

export type Expr =
  | Literal
  | Interpolated
  | ArrayLit
  | MapLit
  | Var
  | Global
  | GlobalConst
  | This
  | Unary
  | Binary
  | Logical
  | Index
  | Prop
  | Call
  | MethodCall
  | IsDefVar
  | ClosureExpr
  | Block
  | If
  | Switch
  | While
  | Loop
  | Do
  | For
  | Try;

export interface Let extends Span {
  readonly type: 'Let';
  readonly decl: VarDecl;
  readonly init: Expr | null;
  /** a top-level `const` in a script that reads `global::`: also stored for `global::NAME` */
  toGlobal: boolean;
}
export interface Assign extends Span {
  readonly type: 'Assign';
  readonly op: AssignOp;
  readonly target: Expr;
  readonly value: Expr;
  readonly opStart: number;
}
export interface Return extends Span {
  readonly type: 'Return';
  readonly value: Expr | null;
  /** set by control-flow.ts: unwind with a flag rather than an exception */
  viaSignal: boolean;
}
export interface Throw extends Span {
  readonly type: 'Throw';
  readonly value: Expr | null;
}
export interface Break extends Span {
  readonly type: 'Break';
  readonly value: Expr | null;
  viaSignal: boolean;
}
export interface Continue extends Span {
  readonly type: 'Continue';
  viaSignal: boolean;
}

export type Stmt = Expr | Let | Assign | Return | Throw | Break | Continue;

/** What `compile` produces. */
export interface Program {
  readonly fileName: string;
  readonly source: string;
  /** the top level, as a function with no parameters */
  readonly main: FnDef;
  /** script functions keyed by `name/arity` */
  readonly functions: ReadonlyMap<string, FnDef>;
}

export function fnKey(name: string, arity: number): string {
  return name + '/' + String(arity);
}
