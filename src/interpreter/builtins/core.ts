// Language core: type_of, print/debug, to_string/to_debug, function pointers (Fn, call, curry),
// exit, is_def_fn, range, and the conversions parse_int, parse_float, to_int, to_float, to_char,
// parse_json and to_json.

import { toDebug, toDisplay } from '../format.js';
import { parseJsonText, toJsonText } from '../json.js';
import { ExitSignal } from '../signals.js';
import { isValidIdentifier } from '../token.js';
import { Char, FnPtr, INT_MAX, INT_MIN, RangeValue, charOf, deepClone, typeName, type Value } from '../values.js';
import {
  arity,
  asFloat,
  asInt,
  asString,
  checkString,
  checkTextOf,
  define,
  fail,
  type CallContext,
} from './registry.js';

define('type_of', 'any', (_c, a) => (arity(a, 1), typeName(a[0] as Value)));
define('print', 'any', (c, a) => (arity(a, 1), c.print(checkString(c, textOf(c, a[0] as Value, toDisplay))), null));
define('debug', 'any', (c, a) => (arity(a, 1), c.debug(checkString(c, textOf(c, a[0] as Value, toDebug))), null));
define('to_string', 'any', (c, a) => (arity(a, 1), checkString(c, textOf(c, a[0] as Value, toDisplay))));
define('to_debug', 'any', (c, a) => (arity(a, 1), checkString(c, textOf(c, a[0] as Value, toDebug))));

function textOf(c: CallContext, v: Value, form: (v: Value) => string): string {
  checkTextOf(c, v);
  return form(v);
}

define('Fn', 'string', (_c, a) => {
  arity(a, 1);
  const name = a[0] as string;
  if (!isValidIdentifier(name)) fail('ErrorFunctionNotFound', `Function not found: ${name}`);
  return new FnPtr(name, [], null);
});
define('call', 'fn', (c, a) => c.callFn(a[0] as FnPtr, a.slice(1).map(deepClone)));
define('curry', 'fn', (_c, a) => {
  const fp = a[0] as FnPtr;
  return new FnPtr(fp.name, [...fp.curry, ...a.slice(1).map(deepClone)], fp.closure);
});
define('name', 'fn', (_c, a) => (arity(a, 1), (a[0] as FnPtr).name));
define('is_anonymous', 'fn', (_c, a) => (arity(a, 1), (a[0] as FnPtr).closure !== null));
define('exit', ['none', 'any'], (_c, a) => {
  arity(a, 0, 1);
  throw new ExitSignal(a.length === 0 ? null : deepClone(a[0] as Value));
});
define('is_def_fn', 'string', (c, a) => (arity(a, 2), c.hasFunction(a[0] as string, Number(asInt(a[1])))));

define('range', 'int', (_c, a) => {
  arity(a, 2, 3);
  const from = a[0] as bigint;
  const to = asInt(a[1]);
  if (a.length === 2) return new RangeValue(from, to, false);
  const step = asInt(a[2]);
  if (step === 0n) fail('ErrorArithmetic', 'step value cannot be zero');
  return new RangeValue(from, to, false, step);
});

/**
 * `range(from, to, step)` over floats: Rhai iterates it lazily; here it is the array of its values
 * (so a loop sees the same ones), within the array size limit.
 */
define('range', 'float', (c, a) => {
  arity(a, 3);
  const [from, to, step] = [a[0] as number, asFloat(a[1]), asFloat(a[2])];
  if (from + step === from) fail('ErrorArithmetic', 'step value cannot be zero');
  const dir = from < to && from + step > from ? 1 : from > to && from + step < from ? -1 : 0;
  const out: Value[] = [];
  for (let x = from; dir > 0 ? x < to : dir < 0 ? x > to : false; x += step) {
    out.push(x);
    if (out.length > c.limits.maxArrayLength) fail('ErrorDataTooLarge', 'Size of array too large');
  }
  return out;
});

const INT_TEXT = /^[+-]?[0-9a-zA-Z]+$/;

define('parse_int', 'string', (_c, a) => {
  arity(a, 1, 2);
  const text = a[0] as string;
  const radix = a.length === 2 ? asInt(a[1]) : 10n;
  if (radix < 2n || radix > 36n) fail('ErrorArithmetic', `Invalid radix: '${radix}'`);
  const s = text.trim();
  const reason = (r: string): never => fail('ErrorArithmetic', `Error parsing integer number '${text}': ${r}`);
  if (s === '' || s === '+' || s === '-') reason('cannot parse integer from empty string');
  if (!INT_TEXT.test(s)) reason('invalid digit found in string');
  const negative = s.startsWith('-');
  let value = 0n;
  for (const ch of s.replace(/^[+-]/, '')) {
    const d = parseInt(ch, Number(radix));
    if (Number.isNaN(d)) reason('invalid digit found in string');
    value = value * radix + BigInt(d);
  }
  if (negative) value = -value;
  if (value > INT_MAX) reason('number too large to fit in target type');
  if (value < INT_MIN) reason('number too small to fit in target type');
  return value;
});

const FLOAT_TEXT = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)$/i;

define('parse_float', 'string', (_c, a) => {
  arity(a, 1);
  const text = a[0] as string;
  const s = text.trim();
  if (!FLOAT_TEXT.test(s))
    fail('ErrorArithmetic', `Error parsing floating-point number '${text}': invalid float literal`);
  const lower = s.toLowerCase().replace(/^\+/, '');
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return lower.startsWith('-') ? -Infinity : Infinity;
  if (lower.endsWith('nan')) return NaN;
  return Number(s);
});

define('to_int', ['int', 'float', 'char', 'bool'], (_c, a) => {
  arity(a, 1);
  const v = a[0] as Value;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (v instanceof Char) return BigInt(v.ch.codePointAt(0) ?? 0);
  const f = v as number;
  if (!Number.isFinite(f) || f >= 2 ** 63 || f < -(2 ** 63))
    fail('ErrorArithmetic', `Integer overflow: to_int(${toDisplay(f)})`);
  return BigInt(Math.trunc(f));
});
define('to_float', ['int', 'float'], (_c, a) => (arity(a, 1), Number(a[0])));
define('to_char', 'int', (_c, a) => {
  arity(a, 1);
  const n = a[0] as bigint;
  if (n < 0n || n > 0x10ffffn || (n >= 0xd800n && n <= 0xdfffn))
    fail('ErrorArithmetic', `Invalid character code: ${n}`);
  return charOf(String.fromCodePoint(Number(n)));
});

// The engine apimock-rs embeds parses JSON as a Rhai object-map literal, so the top level must be an object:
// `parse_json("[1]")` is an error there ("Output type incorrect: array (expecting map)"), and so it is here.
define('parse_json', 'string', (_c, a) => {
  arity(a, 1);
  const value = parseJsonText(asString(a[0]));
  if (!(value instanceof Map))
    fail('ErrorMismatchOutputType', `Output type incorrect: ${typeName(value)} (expecting map)`);
  return value;
});
define('to_json', ['map', 'array', 'unit', 'int', 'float', 'string', 'bool', 'char'], (c, a) => {
  arity(a, 1);
  return checkString(c, textOf(c, a[0] as Value, toJsonText));
});

define('is_shared', 'any', (_c, a) => (arity(a, 1), false));
