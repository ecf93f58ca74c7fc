// Number parsing for body conditions, with the reference's (Rust's) rules rather than JavaScript's
// forgiving Number(): no surrounding whitespace, no hex, no empty string.
import { JsonFloat, type TypedJson } from '../shared/json.js';

const F64 = /^[+-]?(?:inf|infinity|nan|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)$/i;

/** Rust `f64::from_str`: `42`, `-1.5`, `1e1`, `.5`, `5.`, `+3`, `inf`, `NaN`; not ` 10`, `0x10`, ``. */
export function parseF64(s: string): number | undefined {
  if (!F64.test(s)) return undefined;
  const body = s.replace(/^[+-]/, '').toLowerCase();
  const sign = s.startsWith('-') ? -1 : 1;
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  if (body === 'nan') return NaN;
  return Number(s);
}

const I64 = /^[+-]?[0-9]+$/;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Rust `i64::from_str`: optional sign and ASCII digits, within range. */
export function parseI64(s: string): bigint | undefined {
  if (!I64.test(s)) return undefined;
  return inI64(BigInt(s));
}

function inI64(n: bigint): bigint | undefined {
  return n >= I64_MIN && n <= I64_MAX ? n : undefined;
}

/** A body value as f64: a number, or a string that parses as one. Booleans, null, arrays, objects: undefined. */
export function bodyAsF64(v: TypedJson): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof JsonFloat) return v.valueOf();
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') return parseF64(v);
  return undefined;
}

/**
 * A body value as an exact i64: an integer number (a JS number outside the safe range must have been
 * written as a float, since integer literals that large parse as bigint), or a string that parses as i64.
 * A number written as a float (`42.0`, a JsonFloat when typed) is not an integer, whatever its value.
 */
export function bodyAsI64(v: TypedJson): bigint | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (typeof v === 'bigint') return inI64(v);
  if (typeof v === 'string') return parseI64(v);
  return undefined;
}
