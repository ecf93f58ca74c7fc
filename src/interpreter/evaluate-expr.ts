// The tree walker for expressions: an exhaustive switch over the node types. Values read from
// variables are borrowed; `own` copies arrays and maps at the points where a value is stored
// (let, assignment, parameters, array and map literals), which gives Rhai's value semantics.

import type { Expr, IsDefVar, Logical } from './ast.js';
import { RuntimeFault } from './errors.js';
import { evalIndex, evalProp, readGlobal, readGlobalConst, readThis } from './evaluate-access.js';
import { evalCall, evalMethodCall } from './evaluate-call.js';
import { evalDo, evalFor, evalLoop, evalWhile } from './evaluate-loop.js';
import { evalSwitch, evalTry, execBlock } from './evaluate-stmt.js';
import type { Machine } from './machine.js';
import { charge } from './meter.js';
import { binaryOp, checkArraySize, checkMapSize, checkStringSize, displayChecked, unaryOp } from './operators.js';
import { readSlot } from './refs.js';
import { Cell, FnPtr, deepClone, typeName, type RMap, type Value } from './values.js';

/** Copy an array or map about to be stored, unless the expression just created it. */
export function own(e: Expr, v: Value): Value {
  if (typeof v !== 'object' || v === null) return v;
  if (!Array.isArray(v) && !(v instanceof Map)) return v;
  return e.type === 'ArrayLit' || e.type === 'MapLit' ? v : deepClone(v);
}

export function mismatch(expected: string, v: Value, offset: number): RuntimeFault {
  const actual = typeName(v);
  return new RuntimeFault(
    'ErrorMismatchDataType',
    `Data type incorrect: ${actual} (expecting ${expected})`,
    offset,
    null,
    [
      ['requested', expected],
      ['actual', actual],
    ],
  );
}

export function evalBool(m: Machine, e: Expr): boolean {
  const v = evalExpr(m, e);
  if (typeof v !== 'boolean') throw mismatch('bool', v, e.start);
  return v;
}

export function evalExpr(m: Machine, e: Expr): Value {
  switch (e.type) {
    case 'Literal':
      return e.value;
    case 'Var':
      return readSlot(m.frame.slots, e.decl);
    case 'Global':
      return readGlobal(m, e);
    case 'GlobalConst':
      return readGlobalConst(m, e);
    case 'This':
      return readThis(m, e.start);
    case 'Binary': {
      m.tick(e.start);
      const l = evalExpr(m, e.left);
      const r = evalExpr(m, e.right);
      return binaryOp(m.limits, e.op, l, r, e.opStart);
    }
    case 'Logical':
      m.tick(e.start);
      return evalLogical(m, e);
    case 'Unary':
      m.tick(e.start);
      return unaryOp(e.op, evalExpr(m, e.operand), e.start);
    case 'Prop':
      return evalProp(m, e);
    case 'Index':
      return evalIndex(m, e);
    case 'Call':
      return evalCall(m, e);
    case 'MethodCall':
      return evalMethodCall(m, e);
    case 'ArrayLit': {
      m.tick(e.start);
      const out: Value[] = new Array<Value>(e.items.length);
      for (let i = 0; i < e.items.length; i++) {
        const item = e.items[i] as Expr;
        out[i] = own(item, evalExpr(m, item));
      }
      return checkArraySize(m.limits, out, e.start);
    }
    case 'MapLit': {
      m.tick(e.start);
      const out: RMap = new Map();
      for (const { key, value } of e.entries) out.set(key, own(value, evalExpr(m, value)));
      return checkMapSize(m.limits, out, e.start);
    }
    case 'Interpolated': {
      m.tick(e.start);
      let s = '';
      for (const part of e.parts) {
        const t = displayChecked(m.limits, evalExpr(m, part), e.start);
        s = checkStringSize(m.limits, s + t, e.start);
        charge(t.length);
      }
      return s;
    }
    case 'IsDefVar':
      return isDefVar(m, e);
    case 'Closure': {
      const slots = m.frame.slots;
      const cells = e.captures.map((d) => slots[d.slot] as Cell);
      return new FnPtr(e.def.name, [], { def: e.def, captures: cells });
    }
    case 'Block':
      return execBlock(m, e);
    case 'If': {
      m.tick(e.start);
      if (evalBool(m, e.cond)) return execBlock(m, e.then);
      return e.otherwise === null ? null : evalExpr(m, e.otherwise);
    }
    case 'Switch':
      return evalSwitch(m, e);
    case 'While':
      return evalWhile(m, e);
    case 'Loop':
      return evalLoop(m, e);
    case 'Do':
      return evalDo(m, e);
    case 'For':
      return evalFor(m, e);
    case 'Try':
      return evalTry(m, e);
  }
}

function evalLogical(m: Machine, e: Logical): Value {
  if (e.op === '??') {
    const l = evalExpr(m, e.left);
    return l !== null ? l : evalExpr(m, e.right);
  }
  const l = evalBool(m, e.left);
  if (e.op === '&&' ? !l : l) return l;
  return evalBool(m, e.right);
}

function isDefVar(m: Machine, e: IsDefVar): boolean {
  const name = evalExpr(m, e.arg);
  if (typeof name !== 'string') throw mismatch('string', name, e.arg.start);
  return e.visible.has(name) || (e.globals && m.globals.has(name));
}
