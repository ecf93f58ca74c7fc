// Operator semantics, from Rhai's built-in operator table: checked i64 arithmetic (overflow and
// division by zero are errors), FLOAT with INT mixing, `+` building strings from any value,
// comparisons between different types giving `false` (`true` for `!=`), char/string comparisons,
// array and map concatenation, ranges, and `in`.

import { RuntimeFault } from './errors.js';
import { textLongerThan, toDisplay } from './format.js';
import type { Limits } from './limits.js';
import { charge } from './meter.js';
import { timestampOp } from './timestamps.js';
import { floatEquals, floatOp, shiftLeft, shiftRight } from './numbers.js';
import type { BinaryOp } from './token.js';
import {
  Char,
  FnPtr,
  INT_MAX,
  INT_MIN,
  RangeValue,
  Timestamp,
  charLength,
  compareStrings,
  deepClone,
  tagOf,
  typeName,
  type RMap,
  type Value,
} from './values.js';

export type ArithOp = Exclude<BinaryOp, '&&' | '||' | '??'>;

export function notFound(name: string, args: readonly Value[], offset: number): RuntimeFault {
  const sig = `${name} (${args.map(typeName).join(', ')})`;
  return new RuntimeFault('ErrorFunctionNotFound', `Function not found: ${sig}`, offset, null, [['function', sig]]);
}

function arith(message: string, offset: number): RuntimeFault {
  return new RuntimeFault('ErrorArithmetic', message, offset);
}

function checked(r: bigint, what: string, l: bigint, op: string, rr: bigint, offset: number): bigint {
  if (r > INT_MAX || r < INT_MIN) throw arith(`${what} overflow: ${l} ${op} ${rr}`, offset);
  return r;
}

export function checkStringSize(limits: Limits, s: string, offset: number): string {
  const max = limits.maxStringLength;
  if (s.length > max && charLength(s) > max)
    throw new RuntimeFault('ErrorDataTooLarge', 'Length of string too large', offset);
  return s;
}

/**
 * A string just made by joining, charged to the run for its new part: `l + r` shares the text of its parts (engines
 * join strings lazily), so only what was made for it counts.
 */
export function charged(s: string, made: number): string {
  charge(made);
  return s;
}

/** `toDisplay(v)`, refused before it is built when it would be far over the string length limit. */
export function displayChecked(limits: Limits, v: Value, offset: number): string {
  if (typeof v === 'string') return v;
  if (textLongerThan(v, 2 * limits.maxStringLength))
    throw new RuntimeFault('ErrorDataTooLarge', 'Length of string too large', offset);
  return toDisplay(v);
}

export function checkArraySize(limits: Limits, a: Value[], offset: number): Value[] {
  checkArrayLength(limits, a.length, offset);
  return a;
}

export function checkArrayLength(limits: Limits, length: number, offset: number): void {
  if (length > limits.maxArrayLength) throw new RuntimeFault('ErrorDataTooLarge', 'Size of array too large', offset);
}

export function checkMapSize(limits: Limits, m: RMap, offset: number): RMap {
  if (m.size > limits.maxMapSize) throw new RuntimeFault('ErrorDataTooLarge', 'Size of object map too large', offset);
  return m;
}

export function binaryOp(limits: Limits, op: ArithOp, l: Value, r: Value, offset: number): Value {
  if (typeof l === 'bigint' && typeof r === 'bigint') return intOp(op, l, r, offset);
  const lNum = typeof l === 'number' || typeof l === 'bigint';
  const rNum = typeof r === 'number' || typeof r === 'bigint';
  if (lNum && rNum) {
    const f = floatOp(op, Number(l), Number(r));
    if (f !== undefined) return f;
  }
  if (l instanceof Timestamp) {
    const t = timestampOpAt(op, l, r, offset);
    if (t !== undefined) return t;
  }
  switch (op) {
    case '..':
    case '..=':
      // `x..` and `x..=` with nothing after them: open to the end
      if (typeof l === 'bigint' && r === null) return new RangeValue(l, INT_MAX, op === '..=');
      break;
    case '+':
      return add(limits, l, r, offset);
    case '-':
      if (typeof l === 'string' && (typeof r === 'string' || r instanceof Char)) {
        const find = typeof r === 'string' ? r : r.ch;
        return find === '' ? l : l.split(find).join('');
      }
      break;
    case '&':
    case '|':
    case '^':
      if (typeof l === 'boolean' && typeof r === 'boolean') return op === '&' ? l && r : op === '|' ? l || r : l !== r;
      break;
    case '==':
      return equals(l, r);
    case '!=':
      return !equals(l, r);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compareOp(op, l, r, offset);
    case 'in':
    case '!in': {
      const found = contains(r, l, offset);
      return op === 'in' ? found : !found;
    }
    default:
      break;
  }
  throw notFound(op, [l, r], offset);
}

function timestampOpAt(op: ArithOp, l: Timestamp, r: Value, offset: number): Value | undefined {
  try {
    return timestampOp(op, l, r);
  } catch (x) {
    if (x instanceof RuntimeFault) x.offset = offset;
    throw x;
  }
}

function intOp(op: ArithOp, l: bigint, r: bigint, offset: number): Value {
  switch (op) {
    case '+':
      return checked(l + r, 'Addition', l, '+', r, offset);
    case '-':
      return checked(l - r, 'Subtraction', l, '-', r, offset);
    case '*':
      return checked(l * r, 'Multiplication', l, '*', r, offset);
    case '/':
      if (r === 0n) throw arith(`Division by zero: ${l} / ${r}`, offset);
      return checked(l / r, 'Division', l, '/', r, offset);
    case '%':
      if (r === 0n || (l === INT_MIN && r === -1n))
        throw arith(`Modulo division by zero or overflow: ${l} % ${r}`, offset);
      return l % r;
    case '**':
      return power(l, r, offset);
    case '<<':
      return shiftLeft(l, r);
    case '>>':
      return shiftRight(l, r);
    case '&':
      return l & r;
    case '|':
      return l | r;
    case '^':
      return l ^ r;
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    case '>=':
      return l >= r;
    case '..':
      return new RangeValue(l, r, false);
    case '..=':
      return new RangeValue(l, r, true);
    case 'in':
    case '!in':
      throw notFound('contains', [r, l], offset);
  }
}

function power(l: bigint, r: bigint, offset: number): bigint {
  if (r < 0n) throw arith(`Integer raised to a negative power: ${l} ** ${r}`, offset);
  if (l === 0n || l === 1n) return r === 0n ? 1n : l;
  if (l === -1n) return r % 2n === 0n ? 1n : -1n;
  if (r > 64n) throw arith(`Exponential overflow: ${l} ** ${r}`, offset);
  const v = l ** r;
  if (v > INT_MAX || v < INT_MIN) throw arith(`Exponential overflow: ${l} ** ${r}`, offset);
  return v;
}

function add(limits: Limits, l: Value, r: Value, offset: number): Value {
  if (typeof l === 'string') {
    const t = displayChecked(limits, r, offset);
    return charged(checkStringSize(limits, l + t, offset), t.length);
  }
  if (typeof r === 'string') {
    const t = displayChecked(limits, l, offset);
    return charged(checkStringSize(limits, t + r, offset), t.length);
  }
  if (l instanceof Char && r instanceof Char) return l.ch + r.ch;
  if (Array.isArray(l) && Array.isArray(r)) {
    checkArrayLength(limits, l.length + r.length, offset);
    return [...l, ...r].map(deepClone);
  }
  if (l instanceof Map && r instanceof Map) {
    const out: RMap = new Map();
    for (const [k, v] of l) out.set(k, deepClone(v));
    for (const [k, v] of r) out.set(k, deepClone(v));
    return checkMapSize(limits, out, offset);
  }
  throw notFound('+', [l, r], offset);
}

/** Rhai compares a char with a string as the pairs [c, '\0'] and [s0, s1] (missing chars are '\0'). */
function charStringOrder(c: Char, s: string): number {
  const it = s[Symbol.iterator]();
  const a = [c.ch.codePointAt(0) ?? 0, 0];
  const first = it.next();
  const second = it.next();
  const b = [
    first.done === true ? 0 : (first.value.codePointAt(0) ?? 0),
    second.done === true ? 0 : (second.value.codePointAt(0) ?? 0),
  ];
  for (let i = 0; i < 2; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1;
  return 0;
}

export function equals(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') return floatEquals(a, b);
  if (a === b) return true;
  const ta = tagOf(a);
  const tb = tagOf(b);
  if (ta !== tb) {
    if ((ta === 'int' || ta === 'float') && (tb === 'int' || tb === 'float')) return floatEquals(Number(a), Number(b));
    if (ta === 'char' && tb === 'string') return charStringOrder(a as Char, b as string) === 0;
    if (ta === 'string' && tb === 'char') return charStringOrder(b as Char, a as string) === 0;
    return false;
  }
  switch (ta) {
    case 'char':
      return (a as Char).ch === (b as Char).ch;
    case 'array': {
      const x = a as Value[];
      const y = b as Value[];
      return x.length === y.length && x.every((v, i) => equals(v, y[i] as Value));
    }
    case 'map': {
      const x = a as RMap;
      const y = b as RMap;
      if (x.size !== y.size) return false;
      for (const [k, v] of x) {
        const w = y.get(k);
        if (w === undefined || !equals(v, w)) return false;
      }
      return true;
    }
    case 'fn': {
      const x = a as FnPtr;
      const y = b as FnPtr;
      return x.name === y.name && x.closure === y.closure && equals([...x.curry], [...y.curry]);
    }
    case 'timestamp':
      return (a as Timestamp).ms === (b as Timestamp).ms;
    case 'range': {
      const x = a as RangeValue;
      const y = b as RangeValue;
      return x.start === y.start && x.end === y.end && x.inclusive === y.inclusive && x.step === y.step;
    }
    default:
      return false;
  }
}

function compareOp(op: '<' | '<=' | '>' | '>=', l: Value, r: Value, offset: number): boolean {
  const order = ordering(l, r);
  if (order === undefined) {
    if (tagOf(l) === tagOf(r) && l !== null) throw notFound(op, [l, r], offset);
    return false;
  }
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/** The order of two values that have one, else undefined. */
export function ordering(l: Value, r: Value): number | undefined {
  if (typeof l === 'bigint' && typeof r === 'bigint') return l < r ? -1 : l > r ? 1 : 0;
  if ((typeof l === 'bigint' || typeof l === 'number') && (typeof r === 'bigint' || typeof r === 'number')) {
    const x = Number(l);
    const y = Number(r);
    if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof l === 'string' && typeof r === 'string') return compareStrings(l, r);
  if (l instanceof Char && r instanceof Char) return compareStrings(l.ch, r.ch);
  if (l instanceof Char && typeof r === 'string') return charStringOrder(l, r);
  if (typeof l === 'string' && r instanceof Char) return -charStringOrder(r, l);
  if (typeof l === 'boolean' && typeof r === 'boolean') return Number(l) - Number(r);
  return undefined;
}

/** `needle in haystack` */
export function contains(haystack: Value, needle: Value, offset: number): boolean {
  if (Array.isArray(haystack)) return haystack.some((x) => equals(x, needle));
  if (typeof haystack === 'string') {
    if (typeof needle === 'string') return haystack.includes(needle);
    if (needle instanceof Char) return haystack.includes(needle.ch);
  } else if (haystack instanceof Map) {
    if (typeof needle === 'string') return haystack.has(needle);
    if (needle instanceof Char) return haystack.has(needle.ch);
  } else if (haystack instanceof RangeValue && typeof needle === 'bigint') {
    return needle >= haystack.start && (haystack.inclusive ? needle <= haystack.end : needle < haystack.end);
  }
  throw notFound('contains', [haystack, needle], offset);
}

export function unaryOp(op: '-' | '+' | '!', v: Value, offset: number): Value {
  if (op === '!') {
    if (typeof v === 'boolean') return !v;
  } else if (typeof v === 'bigint') {
    if (op === '+') return v;
    if (v === INT_MIN) throw arith(`Negation overflow: -${v}`, offset);
    return -v;
  } else if (typeof v === 'number') {
    return op === '-' ? -v : v;
  }
  throw notFound(op, [v], offset);
}
