// Expressions: precedence climbing over the operator table in token.ts, then unary operators,
// postfix chains (`.prop`, `.method()`, `[i]` and their `?.`/`?[` forms) and primaries. Statement
// expressions (`if`, `switch`, loops, `try`, blocks) are delegated to parse-statement.ts.

import type { Block, Call, ClosureExpr, Expr, FnDef, Global, Index, MethodCall, Prop, VarDecl } from './ast.js';
import { parseArrayLit, parseInterpolated, parseMapLit } from './parse-literals.js';
import type { ParserState } from './parser-state.js';
import { parseBlock, parseStatement, parseStatementExpression, STATEMENT_EXPRESSIONS } from './parse-statement.js';
import { PRECEDENCE, RESERVED, bindsRight, isBinaryOp, type BinaryOp, type Token } from './token.js';
import { unsupported } from './unsupported.js';
import { Char, charOf } from './values.js';

export function parseExpr(p: ParserState, minPrec = 0): Expr {
  p.enterNesting();
  let left = parseUnary(p);
  for (;;) {
    const op = binaryOpAt(p.peek());
    if (op === null) break;
    const prec = PRECEDENCE[op];
    if (prec < minPrec) break;
    const opTok = p.next();
    const right = rightOperand(p, op, prec);
    left = makeBinary(op, left, right, opTok.start);
  }
  p.leaveNesting();
  return left;
}

/** Tokens after which `x..` / `x..=` has no end (an open range, as Rhai parses it). */
const RANGE_ENDS: ReadonlySet<string> = new Set([']', ')', '}', ',', ';', '=>']);
/** Statements that may follow `??` (`x ?? break`, `x ?? return 1`). */
const JUMPS: ReadonlySet<string> = new Set(['break', 'continue', 'return', 'throw']);

function rightOperand(p: ParserState, op: BinaryOp, prec: number): Expr {
  const t = p.peek();
  if ((op === '..' || op === '..=') && t.kind === 'punct' && RANGE_ENDS.has(t.text)) {
    return { type: 'Literal', value: null, start: t.start, end: t.start };
  }
  if (op === '??' && t.kind === 'keyword' && JUMPS.has(t.text)) {
    const stmt = parseStatement(p);
    return { type: 'Block', body: [stmt], start: stmt.start, end: stmt.end };
  }
  return parseExpr(p, bindsRight(op) ? prec : prec + 1);
}

function binaryOpAt(t: Token): BinaryOp | null {
  if (t.kind === 'punct' && isBinaryOp(t.text)) return t.text;
  if (t.kind === 'keyword' && t.text === 'in') return 'in';
  return null;
}

function makeBinary(op: BinaryOp, left: Expr, right: Expr, opStart: number): Expr {
  const span = { start: left.start, end: right.end };
  if (op === '&&' || op === '||' || op === '??') return { type: 'Logical', op, left, right, opStart, ...span };
  return { type: 'Binary', op, left, right, opStart, ...span };
}

function parseUnary(p: ParserState): Expr {
  const t = p.peek();
  if (t.kind === 'punct' && (t.text === '-' || t.text === '+' || t.text === '!')) {
    p.next();
    p.enterNesting();
    const operand = parseUnary(p);
    p.leaveNesting();
    const span = { start: t.start, end: operand.end };
    if (t.text === '-' && operand.type === 'Literal') {
      if (typeof operand.value === 'bigint') return { type: 'Literal', value: -operand.value, ...span };
      if (typeof operand.value === 'number') return { type: 'Literal', value: -operand.value, ...span };
    }
    return { type: 'Unary', op: t.text, operand, ...span };
  }
  return parsePostfix(p, parsePrimary(p));
}

/** `.prop`, `.method()`, `[i]` and their `?.`/`?[` forms; a chain with a safe link gets its root marked. */
function parsePostfix(p: ParserState, first: Expr): Expr {
  const expr = parseChain(p, first);
  if (expr !== first && hasSafeLink(expr, first)) (expr as Prop | Index | MethodCall).chainRoot = true;
  return expr;
}

function hasSafeLink(e: Expr, stop: Expr): boolean {
  for (let x = e; x !== stop && (x.type === 'Prop' || x.type === 'Index' || x.type === 'MethodCall'); x = x.target) {
    if (x.safe) return true;
  }
  return false;
}

function parseChain(p: ParserState, expr: Expr): Expr {
  for (;;) {
    const t = p.peek();
    if (t.kind !== 'punct') return expr;
    if (t.text === '.' || t.text === '?.') {
      p.next();
      const name = p.peek();
      if (name.kind !== 'ident') p.fail('Expecting name of a property', name.start);
      p.next();
      const safe = t.text === '?.';
      if (p.is('(')) {
        const args = parseArgs(p, name.text);
        expr = {
          type: 'MethodCall',
          target: expr,
          name: name.text,
          args,
          safe,
          chainRoot: false,
          nameStart: name.start,
          start: expr.start,
          end: p.lastEnd,
        };
      } else {
        expr = {
          type: 'Prop',
          target: expr,
          name: name.text,
          safe,
          chainRoot: false,
          nameStart: name.start,
          start: expr.start,
          end: name.end,
        };
      }
    } else if (t.text === '[' || t.text === '?[') {
      p.next();
      const index = parseExpr(p);
      checkIndexType(p, expr, index);
      p.expect(']', 'for a matching [ in this index expression');
      expr = {
        type: 'Index',
        target: expr,
        index,
        safe: t.text === '?[',
        chainRoot: false,
        start: expr.start,
        end: p.lastEnd,
      };
    } else {
      return expr;
    }
  }
}

/** What an index literal is, for Rhai's compile-time check of literal indexing (null: not checked). */
function literalKind(e: Expr): string | null {
  if (e.type === 'Logical' && e.op !== '??') return 'a boolean';
  if (e.type === 'Interpolated') return 'a string';
  if (e.type !== 'Literal') return null;
  const v = e.value;
  if (typeof v === 'bigint') return 'a number';
  if (typeof v === 'number') return 'a float';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  if (v === null) return '()';
  return v instanceof Char ? 'a character' : null;
}

/** Rhai refuses, at compile time, a literal index of the wrong type on a literal map, array, string or integer. */
function checkIndexType(p: ParserState, target: Expr, index: Expr): void {
  const kind = literalKind(index);
  if (kind === null) return;
  if (target.type === 'MapLit') {
    if (kind !== 'a string') p.fail(`Object map expects string index, not ${kind}`, index.start);
    return;
  }
  const indexable =
    target.type === 'ArrayLit' ||
    target.type === 'Interpolated' ||
    (target.type === 'Literal' && (typeof target.value === 'bigint' || typeof target.value === 'string'));
  if (!indexable || kind === 'a number') return;
  if (kind === 'a string') p.fail('Array, string or bit-field expects numeric index, not a string', index.start);
  p.fail(`Array, string or bit-field expects integer index, not ${kind}`, index.start);
}

function parseArgs(p: ParserState, name: string): Expr[] {
  p.expect('(', 'to start the arguments list');
  const args: Expr[] = [];
  while (!p.is(')')) {
    if (p.peek().kind === 'eof')
      p.unexpected(`Expecting ')' to close the arguments list of this function call '${name}'`);
    args.push(parseExpr(p));
    if (!p.eat(',') && !p.is(')'))
      p.unexpected(`Expecting ')' to close the arguments list of this function call '${name}'`);
  }
  p.next();
  return args;
}

function parsePrimary(p: ParserState): Expr {
  const t = p.peek();
  const span = { start: t.start, end: t.end };
  switch (t.kind) {
    case 'int':
      p.next();
      return { type: 'Literal', value: t.int ?? 0n, ...span };
    case 'float':
      p.next();
      return { type: 'Literal', value: t.float ?? 0, ...span };
    case 'string':
      p.next();
      return { type: 'Literal', value: t.text, ...span };
    case 'char':
      p.next();
      return { type: 'Literal', value: charOf(t.text), ...span };
    case 'backtick':
      p.next();
      return parseInterpolated(p, t);
    case 'ident':
      return parseIdentifier(p);
    case 'keyword':
      return parseKeywordPrimary(p, t);
    case 'punct':
      return parsePunctPrimary(p, t);
    default:
      return p.unexpected();
  }
}

function parseKeywordPrimary(p: ParserState, t: Token): Expr {
  switch (t.text) {
    case 'true':
    case 'false':
      p.next();
      return { type: 'Literal', value: t.text === 'true', start: t.start, end: t.end };
    case 'this':
      p.next();
      return { type: 'This', start: t.start, end: t.end };
    case 'fn':
      return p.fail('Function definitions must be at global level and cannot be inside a block or another function');
    case 'global':
      return parseGlobalConst(p, t);
    case 'import':
    case 'export':
      return p.fail(unsupported('modules', t.text));
    default:
      return STATEMENT_EXPRESSIONS.has(t.text) ? parseStatementExpression(p) : p.unexpected();
  }
}

function parseGlobalConst(p: ParserState, t: Token): Expr {
  p.next();
  if (!p.eat('::')) p.fail(unsupported('modules', 'global'), t.start);
  const name = p.peek();
  if (name.kind !== 'ident') p.fail('Expecting name of a variable', name.start);
  p.next();
  p.readsGlobalModule = true;
  return { type: 'GlobalConst', name: name.text, start: t.start, end: name.end };
}

function parsePunctPrimary(p: ParserState, t: Token): Expr {
  switch (t.text) {
    case '..':
    case '..=':
      // `..x` is `0..x`: the operator is left for the binary loop
      return { type: 'Literal', value: 0n, start: t.start, end: t.start };
    case '(': {
      p.next();
      if (p.eat(')')) return { type: 'Literal', value: null, start: t.start, end: p.lastEnd };
      const inner = parseExpr(p);
      p.expect(')', 'for a matching ( in this expression');
      return inner;
    }
    case '[':
      return parseArrayLit(p);
    case '#{':
      return parseMapLit(p);
    case '{':
      return parseBlock(p);
    case '|':
    case '||':
      return parseClosure(p);
    default:
      return p.unexpected();
  }
}

function parseIdentifier(p: ParserState): Expr {
  const t = p.next();
  const name = t.text;
  if (RESERVED.has(name)) p.fail(`'${name}' is a reserved keyword`, t.start);
  if (p.is('::')) p.fail(unsupported('modules', `${name}::`));
  if (p.is('(')) {
    const args = parseArgs(p, name);
    const span = { start: t.start, end: p.lastEnd };
    if (name === 'is_def_var' && args.length === 1) {
      const arg = args[0] as Expr;
      return { type: 'IsDefVar', arg, visible: p.scope.visibleNames(), globals: p.scope.seesGlobals, ...span };
    }
    const resolved = p.scope.resolve(name);
    const call: Call = {
      type: 'Call',
      name,
      args,
      fn: null,
      fnVar: typeof resolved === 'object' ? resolved : null,
      ...span,
    };
    p.calls.push(call);
    return call;
  }
  const span = { start: t.start, end: t.end };
  const r = p.scope.resolve(name);
  if (typeof r === 'object') return { type: 'Var', name, decl: r, ...span };
  const global: Global = { type: 'Global', name, visible: r === 'global', fnPtr: null, ...span };
  p.globals.push(global);
  return global;
}

function parseClosure(p: ParserState): ClosureExpr {
  const open = p.next();
  const name = p.anonName();
  return p.inFunction('closure', (scope) => {
    const params: VarDecl[] = [];
    if (open.text === '|') {
      while (!p.eat('|')) {
        const id = p.peek();
        if (id.kind !== 'ident') p.fail('Expecting name of a variable', id.start);
        p.next();
        if (params.some((d) => d.name === id.text))
          p.fail(`Duplicated parameter ${id.text} for function ${name}`, id.start);
        params.push(scope.declare(id.text, false));
        if (!p.eat(',') && !p.is('|')) p.unexpected("Expecting '|' to close the parameters list of this closure");
      }
    }
    const bodyStmt = parseStatement(p);
    const body: Block =
      bodyStmt.type === 'Block'
        ? bodyStmt
        : { type: 'Block', body: [bodyStmt], start: bodyStmt.start, end: bodyStmt.end };
    const def: FnDef = {
      name,
      params,
      body,
      frameSize: scope.frameSize,
      isClosure: true,
      captureSlots: scope.captures.map((c) => c.inner),
      start: open.start,
      end: body.end,
    };
    return { type: 'Closure', def, captures: scope.captures.map((c) => c.source), start: open.start, end: body.end };
  });
}
