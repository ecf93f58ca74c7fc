// Reading and writing places: variables, globals, `this`, map properties, array elements, string
// chars and integer bits. Reads of a property missing from a map give `()`; properties of other
// types are getters (`len`, `is_empty`…), and anything else is Rhai's "Unknown property" error.

import type { Assign, ChainLink, Expr, Global, GlobalConst, Index, Prop } from './ast.js';
import type { AssignOp } from './token.js';
import { BUILTINS, GETTERS, type Builtin } from './builtins/registry.js';
import { RuntimeFault } from './errors.js';
import { evalExpr, mismatch, own } from './evaluate-expr.js';
import type { Machine } from './machine.js';
import {
  binaryOp,
  checkArrayLength,
  checkArraySize,
  checkMapSize,
  checkStringSize,
  displayChecked,
  type ArithOp,
} from './operators.js';
import { DerivedRef, SlotRef, TempRef, readSlot, writeSlot, type Ref } from './refs.js';
import { SHORT_CIRCUIT } from './signals.js';
import { charge, SLOT_BYTES } from './meter.js';
import { readBits, writeBits } from './bit-field.js';
import { getter } from './getters.js';
import { replaceSlice, sliceString } from './string-slice.js';
import { Char, RangeValue, charOf, deepClone, hasSurrogates, tagOf, toChars, typeName, type Value } from './values.js';

function notFoundVar(name: string, offset: number): RuntimeFault {
  return new RuntimeFault('ErrorVariableNotFound', `Variable not found: ${name}`, offset, null, [['variable', name]]);
}

export function readGlobal(m: Machine, e: Global): Value {
  if (e.fnPtr !== null) return e.fnPtr;
  const v = e.visible ? m.globals.get(e.name) : undefined;
  if (v === undefined) throw notFoundVar(e.name, e.start);
  return v;
}

export function readGlobalConst(m: Machine, e: GlobalConst): Value {
  const v = m.constants?.get(e.name);
  if (v === undefined) throw notFoundVar('global::' + e.name, e.start);
  return v;
}

export function readThis(m: Machine, offset: number): Value {
  const ref = m.frame.thisRef;
  if (ref === null) throw new RuntimeFault('ErrorUnboundThis', "'this' not bound", offset);
  return ref.get();
}

/** A safe link met `()`: the chain's value is `()` (thrown up to the chain's root from inner links). */
export function shortCircuit(e: ChainLink): null {
  if (e.chainRoot) return null;
  throw SHORT_CIRCUIT;
}

/** Evaluate a chain's root, ending a short-circuit from an inner link with `()`. */
export function atChainRoot<E extends ChainLink>(m: Machine, e: E, evaluate: (m: Machine, e: E) => Value): Value {
  try {
    return evaluate(m, e);
  } catch (x) {
    if (x === SHORT_CIRCUIT) return null;
    throw x;
  }
}

export function evalProp(m: Machine, e: Prop): Value {
  return e.chainRoot ? atChainRoot(m, e, propValue) : propValue(m, e);
}

function propValue(m: Machine, e: Prop): Value {
  const obj = evalExpr(m, e.target);
  if (obj === null && e.safe) return shortCircuit(e);
  return getProp(m, obj, e.name, e.nameStart);
}

export function getProp(m: Machine, obj: Value, name: string, offset: number): Value {
  if (obj instanceof Map) {
    const v = obj.get(name);
    return v === undefined ? null : v;
  }
  const v = getter(obj, name);
  if (v !== undefined) return v;
  if (GETTERS.has(name)) {
    const handler = BUILTINS.get(name)?.[tagOf(obj)];
    if (handler !== undefined) return callGetter(m, handler, obj, offset);
  }
  throw new RuntimeFault(
    'ErrorDotExpr',
    `Unknown property '${name}' - a getter is not registered for type '${typeName(obj)}'`,
    offset,
    null,
    [['property', name]],
  );
}

function callGetter(m: Machine, handler: Builtin, obj: Value, offset: number): Value {
  try {
    return handler(m, [obj], null);
  } catch (x) {
    if (x instanceof RuntimeFault && x.offset < 0) x.offset = offset;
    throw x;
  }
}

function setProp(m: Machine, parent: Ref, name: string, v: Value, offset: number): void {
  const obj = parent.get();
  if (obj instanceof Map) {
    obj.set(name, v);
    charge(2 * SLOT_BYTES);
    checkMapSize(m.limits, obj, offset);
    return;
  }
  throw new RuntimeFault(
    'ErrorDotExpr',
    `Unknown property '${name}' - a setter is not registered for type '${typeName(obj)}'`,
    offset,
    null,
    [['property', name]],
  );
}

export function evalIndex(m: Machine, e: Index): Value {
  return e.chainRoot ? atChainRoot(m, e, indexValue) : indexValue(m, e);
}

function indexValue(m: Machine, e: Index): Value {
  const obj = evalExpr(m, e.target);
  if (obj === null && e.safe) return shortCircuit(e);
  const idx = evalExpr(m, e.index);
  return indexGet(obj, idx, e.index.start);
}

function bounds(kind: 'Array' | 'String', len: number, idx: bigint, offset: number): RuntimeFault {
  const unit = kind === 'Array' ? 'element' : 'character';
  const where = kind === 'Array' ? 'array' : 'string';
  const tail =
    len === 0 ? `${where} is empty` : len === 1 ? `only 1 ${unit} in ${where}` : `only ${len} ${unit}s in ${where}`;
  return new RuntimeFault(
    kind === 'Array' ? 'ErrorArrayBounds' : 'ErrorStringBounds',
    `${kind} index ${idx} out of bounds: ${tail}`,
    offset,
    null,
    [
      ['length', BigInt(len)],
      ['index', idx],
    ],
  );
}

/** A position counted from the end when negative; out of range is an error. */
export function position(kind: 'Array' | 'String', len: number, idx: bigint, offset: number): number {
  if (idx < 0n) {
    if (-idx > BigInt(len)) throw bounds(kind, len, idx, offset);
    return len + Number(idx);
  }
  if (idx >= BigInt(len)) throw bounds(kind, len, idx, offset);
  return Number(idx);
}

function bitIndex(idx: bigint, offset: number): bigint {
  const i = idx < 0n ? 64n + idx : idx;
  if (i < 0n || i >= 64n) {
    throw new RuntimeFault(
      'ErrorBitFieldBounds',
      `Bit-field index ${idx} out of bounds: only 64 bits in bit-field`,
      offset,
    );
  }
  return i;
}

function indexingType(obj: Value, offset: number): RuntimeFault {
  return new RuntimeFault('ErrorIndexingType', `Indexer unavailable: ${typeName(obj)}`, offset, null, [
    ['type', typeName(obj)],
  ]);
}

function mapKey(idx: Value, offset: number): string {
  if (typeof idx === 'string') return idx;
  if (idx instanceof Char) return idx.ch;
  throw mismatch('string', idx, offset);
}

function intIndex(idx: Value, offset: number): bigint {
  if (typeof idx !== 'bigint') throw mismatch('i64', idx, offset);
  return idx;
}

export function indexGet(obj: Value, idx: Value, offset: number): Value {
  if (Array.isArray(obj)) return obj[position('Array', obj.length, intIndex(idx, offset), offset)] as Value;
  if (obj instanceof Map) {
    const v = obj.get(mapKey(idx, offset));
    return v === undefined ? null : v;
  }
  if (typeof obj === 'string') {
    if (idx instanceof RangeValue) return sliceString(obj, idx, offset);
    const i = intIndex(idx, offset);
    if (!hasSurrogates(obj)) return charOf(obj[position('String', obj.length, i, offset)] as string);
    const chars = toChars(obj);
    return charOf(chars[position('String', chars.length, i, offset)] as string);
  }
  if (typeof obj === 'bigint') {
    if (idx instanceof RangeValue) return readBits(obj, idx, offset);
    return ((BigInt.asUintN(64, obj) >> bitIndex(intIndex(idx, offset), offset)) & 1n) === 1n;
  }
  throw indexingType(obj, offset);
}

function indexSet(m: Machine, parent: Ref, idx: Value, v: Value, offset: number): void {
  const obj = parent.get();
  if (Array.isArray(obj)) {
    obj[position('Array', obj.length, intIndex(idx, offset), offset)] = v;
  } else if (obj instanceof Map) {
    obj.set(mapKey(idx, offset), v);
    charge(2 * SLOT_BYTES);
    checkMapSize(m.limits, obj, offset);
  } else if (typeof obj === 'string' && idx instanceof RangeValue) {
    if (typeof v !== 'string') throw mismatch('string', v, offset);
    parent.set(replaceSlice(obj, idx, v, offset));
  } else if (typeof obj === 'string') {
    if (!(v instanceof Char)) throw mismatch('char', v, offset);
    const chars = toChars(obj);
    chars[position('String', chars.length, intIndex(idx, offset), offset)] = v.ch;
    parent.set(chars.join(''));
  } else if (typeof obj === 'bigint' && idx instanceof RangeValue) {
    if (typeof v !== 'bigint') throw mismatch('i64', v, offset);
    parent.set(writeBits(obj, idx, v, offset));
  } else if (typeof obj === 'bigint') {
    if (typeof v !== 'boolean') throw mismatch('bool', v, offset);
    const bit = 1n << bitIndex(intIndex(idx, offset), offset);
    const u = BigInt.asUintN(64, obj);
    parent.set(BigInt.asIntN(64, v ? u | bit : u & ~bit));
  } else {
    throw indexingType(obj, offset);
  }
}

export function isPlace(e: Expr): boolean {
  return e.type === 'Var' || e.type === 'Global' || e.type === 'This' || e.type === 'Prop' || e.type === 'Index';
}

/** The place a chain link names; at a chain's root, a short-circuit reads `()` and writes nothing. */
function chainRef(e: ChainLink, read: () => Value, write: (v: Value) => void, constName: string | null): Ref {
  if (!e.chainRoot) return new DerivedRef(read, write, constName);
  const ended = (x: unknown): null => {
    if (x === SHORT_CIRCUIT) return null;
    throw x;
  };
  const safeRead = (): Value => {
    try {
      return read();
    } catch (x) {
      return ended(x);
    }
  };
  const safeWrite = (v: Value): void => {
    try {
      write(v);
    } catch (x) {
      ended(x);
    }
  };
  return new DerivedRef(safeRead, safeWrite, constName);
}

/** A reference to the place an expression names; a temporary for other expressions. */
export function refOf(m: Machine, e: Expr): Ref {
  switch (e.type) {
    case 'Var':
      return new SlotRef(m.frame.slots, e.decl);
    case 'Global': {
      if (e.fnPtr !== null) return new TempRef(e.fnPtr);
      if (!e.visible || !m.globals.has(e.name)) throw notFoundVar(e.name, e.start);
      const globals = m.globals;
      return new DerivedRef(
        () => globals.get(e.name) ?? null,
        (v) => globals.set(e.name, v),
        null,
      );
    }
    case 'This': {
      const ref = m.frame.thisRef;
      if (ref === null) throw new RuntimeFault('ErrorUnboundThis', "'this' not bound", e.start);
      return ref;
    }
    case 'Prop': {
      const parent = refOf(m, e.target);
      const read = (): Value => {
        const obj = parent.get();
        return obj === null && e.safe ? shortCircuit(e) : getProp(m, obj, e.name, e.nameStart);
      };
      // assigning through a safe link that meets `()` does nothing
      const write = (v: Value): void =>
        void (e.safe && parent.get() === null ? null : setProp(m, parent, e.name, v, e.nameStart));
      return chainRef(e, read, write, parent.constName);
    }
    case 'Index': {
      const parent = refOf(m, e.target);
      const idx = evalExpr(m, e.index);
      const read = (): Value => {
        const obj = parent.get();
        return obj === null && e.safe ? shortCircuit(e) : indexGet(obj, idx, e.index.start);
      };
      const write = (v: Value): void =>
        void (e.safe && parent.get() === null ? null : indexSet(m, parent, idx, v, e.index.start));
      return chainRef(e, read, write, parent.constName);
    }
    default:
      return new TempRef(evalExpr(m, e));
  }
}

const COMPOUND: Readonly<Record<Exclude<AssignOp, '='>, ArithOp>> = {
  '+=': '+',
  '-=': '-',
  '*=': '*',
  '/=': '/',
  '%=': '%',
  '**=': '**',
  '<<=': '<<',
  '>>=': '>>',
  '&=': '&',
  '|=': '|',
  '^=': '^',
};

/** `target = value` and the compound forms (`+=`…). The right-hand side is evaluated first. */
export function assign(m: Machine, s: Assign): void {
  const rhs = evalExpr(m, s.value);
  const target = s.target;
  if (s.op === '=') {
    const v = own(s.value, rhs);
    if (target.type === 'Var') writeSlot(m.frame.slots, target.decl, v);
    else refOf(m, target).set(v);
    return;
  }
  const op = COMPOUND[s.op];
  if (target.type === 'Var' && (typeof rhs !== 'object' || rhs === null)) {
    const slots = m.frame.slots;
    const cur = readSlot(slots, target.decl);
    if (typeof cur === 'bigint' || typeof cur === 'number') {
      writeSlot(slots, target.decl, binaryOp(m.limits, op, cur, rhs, s.opStart));
      return;
    }
  }
  const ref = refOf(m, target);
  const cur = ref.get();
  if (op === '+' && Array.isArray(cur)) {
    if (Array.isArray(rhs)) {
      checkArrayLength(m.limits, cur.length + rhs.length, s.opStart);
      for (const x of rhs.slice()) cur.push(deepClone(x));
    } else cur.push(own(s.value, rhs));
    charge(SLOT_BYTES);
    checkArraySize(m.limits, cur, s.opStart);
    return;
  }
  if (op === '+' && cur instanceof Map && rhs instanceof Map) {
    for (const [k, x] of rhs) cur.set(k, deepClone(x));
    checkMapSize(m.limits, cur, s.opStart);
    return;
  }
  if (op === '+' && typeof cur === 'string') {
    const t = displayChecked(m.limits, rhs, s.opStart);
    ref.set(checkStringSize(m.limits, cur + t, s.opStart));
    charge(t.length);
    return;
  }
  ref.set(binaryOp(m.limits, op, cur, rhs, s.opStart));
}
