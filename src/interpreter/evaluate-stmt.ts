// Statements, blocks, `switch` and `try`. A block's value is the value of its last statement
// (`()` for `let` and assignments). Every statement counts one operation.

import type { Block, Stmt, Switch, SwitchCase, Try } from './ast.js';
import { RuntimeFault, callContext, lineColumn } from './errors.js';
import { assign } from './evaluate-access.js';
import { evalBool, evalExpr, own } from './evaluate-expr.js';
import { hostDebug, toDisplay } from './format.js';
import { BREAK, CONTINUE as CONTINUE_SIGNAL, NONE, RETURN, type Machine } from './machine.js';
import { bindSlot } from './refs.js';
import { BreakSignal, CONTINUE, ReturnSignal } from './signals.js';
import { deepClone, type RMap, type Value } from './values.js';

export function execBlock(m: Machine, block: Block): Value {
  const body = block.body;
  let v: Value = null;
  for (let i = 0; i < body.length; i++) {
    const s = body[i] as Stmt;
    m.tick(s.start);
    v = execStmt(m, s);
    if (m.signal !== NONE) return null;
  }
  return v;
}

function execStmt(m: Machine, s: Stmt): Value {
  switch (s.type) {
    case 'Let': {
      const v = s.init === null ? null : own(s.init, evalExpr(m, s.init));
      bindSlot(m.frame.slots, s.decl, v);
      if (s.toGlobal) m.setConstant(s.decl.name, deepClone(v));
      return null;
    }
    case 'Assign':
      assign(m, s);
      return null;
    case 'Return':
    case 'Break': {
      const v = s.value === null ? null : evalExpr(m, s.value);
      if (!s.viaSignal) throw s.type === 'Return' ? new ReturnSignal(v) : new BreakSignal(v);
      m.signalValue = v;
      m.signal = s.type === 'Return' ? RETURN : BREAK;
      return null;
    }
    case 'Continue':
      if (!s.viaSignal) throw CONTINUE;
      m.signal = CONTINUE_SIGNAL;
      return null;
    case 'Throw': {
      if (s.value === null) {
        const current = m.caught[m.caught.length - 1];
        if (current !== undefined) throw current;
        throw new RuntimeFault('ErrorRuntime', 'Runtime error', s.start, null);
      }
      const v = evalExpr(m, s.value);
      const text = toDisplay(v);
      throw new RuntimeFault(
        'ErrorRuntime',
        v === null || text === '' ? 'Runtime error' : `Runtime error: ${text}`,
        s.start,
        v,
      );
    }
    default:
      return evalExpr(m, s);
  }
}

export function evalSwitch(m: Machine, e: Switch): Value {
  m.tick(e.start);
  const subject = evalExpr(m, e.subject);
  const candidates = e.table.get(hostDebug(subject));
  if (candidates !== undefined) {
    for (const i of candidates) {
      const c = e.cases[i];
      if (c !== undefined && (c.guard === null || evalBool(m, c.guard))) return execStmt(m, c.body);
    }
  }
  // Rhai 1.25 tries the range cases only when no exact case matched the value (even if every
  // matching case's condition was false); a float is matched against them as a float
  if (candidates === undefined && (typeof subject === 'bigint' || typeof subject === 'number')) {
    for (const i of e.rangeCases) {
      const c = e.cases[i];
      if (c === undefined) continue;
      const hit = c.ranges.some((r) => inRange(subject, r));
      if (hit && (c.guard === null || evalBool(m, c.guard))) return execStmt(m, c.body);
    }
  }
  return e.fallback === null ? null : execStmt(m, e.fallback);
}

function inRange(v: bigint | number, r: SwitchCase['ranges'][number]): boolean {
  if (typeof v === 'bigint') return v >= r.start && (r.inclusive ? v <= r.end : v < r.end);
  return v >= Number(r.start) && (r.inclusive ? v <= Number(r.end) : v < Number(r.end));
}

/** The value a `catch (err)` receives: the thrown value, or a map describing a system error. */
function errorValue(m: Machine, f: RuntimeFault): Value {
  if (f.kind === 'ErrorRuntime') return f.thrown;
  const map: RMap = new Map();
  map.set('error', f.kind);
  map.set('message', f.message + callContext(f.calls));
  if (f.offset >= 0) {
    const { line, column } = lineColumn(m.program.source, f.offset);
    map.set('line', BigInt(line));
    map.set('position', BigInt(column));
  }
  for (const [k, v] of f.fields) map.set(k, v);
  return map;
}

export function evalTry(m: Machine, e: Try): Value {
  m.tick(e.start);
  const frame = m.frame;
  const depth = m.depth;
  try {
    return execBlock(m, e.body);
  } catch (x) {
    if (!(x instanceof RuntimeFault) || !x.catchable) throw x;
    m.frame = frame;
    m.depth = depth;
    if (e.errVar !== null) bindSlot(m.frame.slots, e.errVar, deepClone(errorValue(m, x)));
    m.caught.push(x);
    try {
      return execBlock(m, e.handler);
    } finally {
      m.caught.pop();
    }
  }
}
