// Range indexing of strings, by characters, as Rhai does it: `s[a..b]` and `s[a..=b]` read a
// substring, `s[a..b] = "text"` replaces one. A negative start counts from the end (beyond the
// start is an error); a negative end counts from the end (beyond the start is 0); an end past the
// string or before the start is clamped, so the slice may be empty.

import { RuntimeFault } from './errors.js';
import type { RangeValue } from './values.js';
import { toChars } from './values.js';

function outOfBounds(len: number, idx: bigint, offset: number): RuntimeFault {
  const tail =
    len === 0 ? 'string is empty' : len === 1 ? 'only 1 character in string' : `only ${len} characters in string`;
  return new RuntimeFault('ErrorStringBounds', `String index ${idx} out of bounds: ${tail}`, offset, null, [
    ['length', BigInt(len)],
    ['index', idx],
  ]);
}

/** Rhai's calc_index for a negative position, or undefined when it lies before the start. */
function fromEnd(len: number, idx: bigint): number | undefined {
  const abs = -idx;
  return abs <= BigInt(len) && len > 0 ? len - Number(abs) : undefined;
}

/** [first char, number of chars] that `r` selects in a string of `len` chars. */
function bounds(len: number, r: RangeValue, offset: number): [number, number] {
  let start: number;
  if (r.start >= 0n) start = r.start > BigInt(len) ? len : Number(r.start);
  else {
    const at = fromEnd(len, r.start);
    if (at === undefined) throw outOfBounds(len, r.start, offset);
    start = at;
  }
  const end = r.end >= 0n ? (r.end > BigInt(len) ? len + 1 : Number(r.end)) : (fromEnd(len, r.end) ?? 0);
  const take = r.inclusive ? (end > start ? end - start + 1 : 0) : Math.max(0, end - start);
  return [start, Math.min(take, len - start)];
}

export function sliceString(s: string, r: RangeValue, offset: number): string {
  if (s.length === 0) return s;
  const chars = toChars(s);
  const [start, take] = bounds(chars.length, r, offset);
  if (start === 0 && take >= chars.length) return s;
  return chars.slice(start, start + take).join('');
}

export function replaceSlice(s: string, r: RangeValue, text: string, offset: number): string {
  if (s.length === 0) return text;
  const chars = toChars(s);
  const [start, take] = bounds(chars.length, r, offset);
  return chars.slice(0, start).join('') + text + chars.slice(start + take).join('');
}
