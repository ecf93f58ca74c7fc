// Decides how each `return`, `break` and `continue` unwinds. Throwing costs microseconds in V8, so
// a jump that sits in statement position all the way up to its function (or loop) sets a flag on
// the machine instead, which blocks and loops check after each statement. A jump nested inside a
// larger expression (an operand, an argument, a condition…) still throws, so that no sibling
// expression is evaluated after it.

import type { Block, Expr, FnDef, Stmt } from './ast.js';

interface Context {
  /** a `return` here may use the flag */
  readonly ret: boolean;
  /** a `break`/`continue` here may use the flag */
  readonly loop: boolean;
}

const OPERAND: Context = { ret: false, loop: false };

export function markControlFlow(def: FnDef): void {
  block(def.body, { ret: true, loop: false });
}

function block(b: Block, ctx: Context): void {
  for (const s of b.body) stmt(s, ctx);
}

function stmt(s: Stmt, ctx: Context): void {
  switch (s.type) {
    case 'Let':
      if (s.init !== null) expr(s.init, ctx);
      return;
    case 'Assign':
      expr(s.target, OPERAND);
      expr(s.value, s.target.type === 'Var' || s.target.type === 'Global' ? ctx : OPERAND);
      return;
    case 'Return':
      s.viaSignal = ctx.ret;
      if (s.value !== null) expr(s.value, OPERAND);
      return;
    case 'Break':
      s.viaSignal = ctx.loop;
      if (s.value !== null) expr(s.value, OPERAND);
      return;
    case 'Continue':
      s.viaSignal = ctx.loop;
      return;
    case 'Throw':
      if (s.value !== null) expr(s.value, OPERAND);
      return;
    default:
      expr(s, ctx);
  }
}

/** `ctx` applies to statement-like parts of `e`; every operand is in OPERAND context. */
function expr(e: Expr, ctx: Context): void {
  const inLoop: Context = { ret: ctx.ret, loop: true };
  switch (e.type) {
    case 'Block':
      return block(e, ctx);
    case 'If':
      expr(e.cond, OPERAND);
      block(e.then, ctx);
      if (e.otherwise !== null) expr(e.otherwise, ctx);
      return;
    case 'Switch':
      expr(e.subject, OPERAND);
      for (const c of e.cases) {
        if (c.guard !== null) expr(c.guard, OPERAND);
        stmt(c.body, ctx);
      }
      if (e.fallback !== null) stmt(e.fallback, ctx);
      return;
    case 'While':
      expr(e.cond, OPERAND);
      return block(e.body, inLoop);
    case 'Loop':
      return block(e.body, inLoop);
    case 'Do':
      block(e.body, inLoop);
      return expr(e.cond, OPERAND);
    case 'For':
      expr(e.iterable, OPERAND);
      return block(e.body, inLoop);
    case 'Try':
      block(e.body, ctx);
      return block(e.handler, ctx);
    case 'Closure':
      return markControlFlow(e.def);
    case 'Unary':
      return expr(e.operand, OPERAND);
    case 'Binary':
    case 'Logical':
      expr(e.left, OPERAND);
      return expr(e.right, OPERAND);
    case 'Index':
      expr(e.target, OPERAND);
      return expr(e.index, OPERAND);
    case 'Prop':
      return expr(e.target, OPERAND);
    case 'Call':
      for (const a of e.args) expr(a, OPERAND);
      return;
    case 'MethodCall':
      expr(e.target, OPERAND);
      for (const a of e.args) expr(a, OPERAND);
      return;
    case 'ArrayLit':
      for (const a of e.items) expr(a, OPERAND);
      return;
    case 'MapLit':
      for (const entry of e.entries) expr(entry.value, OPERAND);
      return;
    case 'Interpolated':
      for (const part of e.parts) expr(part, OPERAND);
      return;
    case 'IsDefVar':
      return expr(e.arg, OPERAND);
    case 'Literal':
    case 'Var':
    case 'Global':
    case 'GlobalConst':
    case 'This':
      return;
  }
}
