// Runtime values. Rhai's `Dynamic` maps onto plain JS data where it can:
//
//   ()      → null                 bool  → boolean
//   INT     → bigint (exact i64)   FLOAT → number
//   string  → string               char  → Char (one Unicode scalar)
//   array   → Value[]              map   → Map<string, Value> (insertion order kept)
//   Fn      → FnPtr                range → RangeValue
//   timestamp → Timestamp (a reading of the run's monotonic clock, in milliseconds)
//
// Arrays and maps have value semantics in Rhai: they are copied when stored. The evaluator copies
// at the points where a value is stored (see `own` in evaluate-expr.ts); values read from a
// variable are borrowed.

import type { FnDef } from './ast.js';
import { charge, SLOT_BYTES } from './meter.js';

export class Char {
  constructor(readonly ch: string) {}
}

const ASCII: Char[] = [];
for (let i = 0; i < 128; i++) ASCII.push(new Char(String.fromCharCode(i)));

export function charOf(ch: string): Char {
  const code = ch.length === 1 ? ch.charCodeAt(0) : 128;
  return code < 128 ? (ASCII[code] as Char) : new Char(ch);
}

export class RangeValue {
  constructor(
    readonly start: bigint,
    readonly end: bigint,
    readonly inclusive: boolean,
    /** only `range(from, to, step)` sets a step other than 1 */
    readonly step: bigint = 1n,
  ) {}
}

/** Rhai's `timestamp`: an instant of the run's monotonic clock (`RunOptions.clock`), in ms. */
export class Timestamp {
  constructor(readonly ms: number) {}
}

/** A captured variable shared between a closure and the scope that created it. */
export class Cell {
  constructor(public value: Value) {}
}

export interface Closure {
  readonly def: FnDef;
  readonly captures: readonly Cell[];
}

export class FnPtr {
  constructor(
    readonly name: string,
    readonly curry: readonly Value[],
    readonly closure: Closure | null,
  ) {}
}

export type RMap = Map<string, Value>;
export type Value = null | boolean | bigint | number | string | Char | Value[] | RMap | FnPtr | RangeValue | Timestamp;

/** The unit value `()`. */
export const UNIT = null;

export const INT_MIN = -(2n ** 63n);
export const INT_MAX = 2n ** 63n - 1n;

export type TypeTag =
  | 'unit'
  | 'bool'
  | 'int'
  | 'float'
  | 'string'
  | 'char'
  | 'array'
  | 'map'
  | 'fn'
  | 'range'
  | 'timestamp';

export function tagOf(v: Value): TypeTag {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      if (v === null) return 'unit';
      if (Array.isArray(v)) return 'array';
      if (v instanceof Map) return 'map';
      if (v instanceof Char) return 'char';
      if (v instanceof FnPtr) return 'fn';
      if (v instanceof Timestamp) return 'timestamp';
      return 'range';
  }
}

const TYPE_NAMES: Readonly<Record<TypeTag, string>> = {
  unit: '()',
  bool: 'bool',
  int: 'i64',
  float: 'f64',
  string: 'string',
  char: 'char',
  array: 'array',
  map: 'map',
  fn: 'Fn',
  range: 'range',
  timestamp: 'timestamp',
};

/** Rhai's `type_of` name. */
export function typeName(v: Value): string {
  if (v instanceof RangeValue) return v.inclusive ? 'range=' : 'range';
  return TYPE_NAMES[tagOf(v)];
}

export function isMap(v: Value): v is RMap {
  return v instanceof Map;
}

/** Deep copy of arrays and maps; every other value is immutable and returned as is. */
export function deepClone(v: Value): Value {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    charge(v.length * SLOT_BYTES);
    const out: Value[] = new Array<Value>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = deepClone(v[i] as Value);
    return out;
  }
  if (v instanceof Map) {
    charge(v.size * 2 * SLOT_BYTES);
    const out: RMap = new Map();
    for (const [k, x] of v) out.set(k, deepClone(x));
    return out;
  }
  return v;
}

// ---- strings as sequences of Unicode scalars -------------------------------------------------

const SURROGATE = /[\uD800-\uDFFF]/;

export function hasSurrogates(s: string): boolean {
  return SURROGATE.test(s);
}

/** Number of chars (Unicode scalars), not UTF-16 units. */
export function charLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function toChars(s: string): string[] {
  return hasSurrogates(s) ? Array.from(s) : s.split('');
}

/** Code-point order, which is Rust's `str` order (UTF-8 byte order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Map keys in Rhai's order (a BTreeMap: sorted by key). */
export function sortedKeys(m: RMap): string[] {
  return Array.from(m.keys()).sort(compareStrings);
}
