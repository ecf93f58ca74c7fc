// String and char functions (Rhai's MoreStringPackage). Positions count characters, not UTF-16
// units; negative positions count from the end. Mutating methods (trim, pad, truncate, replace,
// remove, crop, clear, append, make_upper…) change the receiver in place and return `()`.

import { charge, SLOT_BYTES } from '../meter.js';
import type { Ref } from '../refs.js';
import { toDisplay } from '../format.js';
import { Char, RangeValue, charOf, compareStrings, hasSurrogates, toChars, type Value } from '../values.js';
import {
  arity,
  asChar,
  asInt,
  asRange,
  asText,
  checkString,
  checkTextOf,
  fail,
  define,
  mismatch,
  offsetLen,
  writeBack,
  type CallContext,
} from './registry.js';

const str = (a: Value[]): string => a[0] as string;
const chars = (s: string): string[] => toChars(s);
const len = (s: string): number => (hasSurrogates(s) ? toChars(s).length : s.length);

/** Store a mutating method's result; the run is charged for what it adds (strings share their unchanged text). */
function mutate(self: Ref | null, ctx: CallContext, next: string, before = ''): null {
  writeBack(self, checkString(ctx, next, next.length - before.length));
  return null;
}

/** Refuse a result of `length` characters over the limit before it is built. */
function checkLength(ctx: CallContext, length: number): void {
  if (length > ctx.limits.maxStringLength) fail('ErrorDataTooLarge', 'Length of string too large');
}

define('len', 'string', (_c, a) => (arity(a, 1), BigInt(len(str(a)))));
define('is_empty', 'string', (_c, a) => (arity(a, 1), str(a).length === 0));
define('bytes', 'string', (_c, a) => (arity(a, 1), BigInt(new TextEncoder().encode(str(a)).length)));
define('to_chars', 'string', (_c, a) => (arity(a, 1), charge(str(a).length * SLOT_BYTES), chars(str(a)).map(charOf)));
/** `chars(s)`, `chars(s, start)`, `chars(s, start, len)`, `chars(s, range)`: negative start counts from the end. */
define('chars', 'string', (c, a) => {
  arity(a, 1, 2, 3);
  const all = chars(str(a));
  charge(all.length * SLOT_BYTES);
  if (a.length === 1) return all.map(charOf);
  let from: bigint;
  let len: bigint;
  const r = a[1];
  if (r instanceof RangeValue) {
    from = r.start < 0n ? 0n : r.start;
    const to = r.inclusive ? (r.end > from - 1n ? r.end : from - 1n) : r.end > from ? r.end : from;
    len = to - from + (r.inclusive ? 1n : 0n);
  } else {
    from = asInt(r);
    len = a.length === 3 ? asInt(a[2]) : BigInt(all.length);
  }
  if (len <= 0n) return [];
  const start =
    from >= 0n
      ? Number(from > BigInt(all.length) ? BigInt(all.length) : from)
      : Math.max(0, all.length + Number(from < -BigInt(all.length) ? -BigInt(all.length) : from));
  const end = BigInt(start) + len > BigInt(all.length) ? all.length : start + Number(len);
  return all.slice(start, end).map(charOf);
});

function upper(s: string): string {
  return s.toUpperCase();
}
function upperChar(c: Char): Char {
  const u = c.ch.toUpperCase();
  return Array.from(u).length === 1 ? charOf(u) : c;
}
function lowerChar(c: Char): Char {
  const l = c.ch.toLowerCase();
  return Array.from(l).length === 1 ? charOf(l) : c;
}

define('to_upper', 'string', (_c, a) => (arity(a, 1), upper(str(a))));
define('to_lower', 'string', (_c, a) => (arity(a, 1), str(a).toLowerCase()));
define('to_upper', 'char', (_c, a) => (arity(a, 1), upperChar(a[0] as Char)));
define('to_lower', 'char', (_c, a) => (arity(a, 1), lowerChar(a[0] as Char)));
define('make_upper', 'string', (c, a, self) => (arity(a, 1), mutate(self, c, upper(str(a)))), true);
define('make_lower', 'string', (c, a, self) => (arity(a, 1), mutate(self, c, str(a).toLowerCase())), true);
define('make_upper', 'char', (_c, a, self) => (arity(a, 1), writeBack(self, upperChar(a[0] as Char)), null), true);
define('make_lower', 'char', (_c, a, self) => (arity(a, 1), writeBack(self, lowerChar(a[0] as Char)), null), true);

define('trim', 'string', (c, a, self) => (arity(a, 1), mutate(self, c, str(a).trim())), true);
define('clear', 'string', (c, a, self) => (arity(a, 1), mutate(self, c, '')), true);
define(
  'append',
  'string',
  (c, a, self) => (
    arity(a, 2), checkTextOf(c, a[1] as Value), mutate(self, c, str(a) + toDisplay(a[1] as Value), str(a))
  ),
  true,
);
define('contains', 'string', (_c, a) => (arity(a, 2), str(a).includes(asText(a[1]))));
define('starts_with', 'string', (_c, a) => (arity(a, 2), str(a).startsWith(asText(a[1]))));
define('ends_with', 'string', (_c, a) => (arity(a, 2), str(a).endsWith(asText(a[1]))));

define('index_of', 'string', (_c, a) => {
  arity(a, 2, 3);
  const cs = chars(str(a));
  const find = asText(a[1]);
  let start = 0;
  if (a.length === 3) {
    const s = asInt(a[2]);
    if (s < 0n) start = -s > BigInt(cs.length) ? 0 : cs.length + Number(s);
    else if (s >= BigInt(cs.length)) return cs.length === 0 && s === 0n && find === '' ? 0n : -1n;
    else start = Number(s);
  }
  const hay = cs.slice(start).join('');
  const at = hay.indexOf(find);
  return at < 0 ? -1n : BigInt(start + len(hay.slice(0, at)));
});

function slice(s: string, a: Value[], from: number): string {
  const cs = chars(s);
  const spec = a[from];
  if (spec !== undefined && typeof spec !== 'bigint') {
    const r = asRange(spec);
    const start = r.start < 0n ? 0n : r.start;
    const end = r.end < start ? start : r.end;
    const [st, n] = offsetLen(cs.length, start, end - start + (r.inclusive ? 1n : 0n));
    return cs.slice(st, st + n).join('');
  }
  const start = asInt(spec);
  if (start >= BigInt(cs.length)) return '';
  const count = a.length > from + 1 ? asInt(a[from + 1]) : BigInt(cs.length);
  const [st, n] = offsetLen(cs.length, start, count);
  return cs.slice(st, st + n).join('');
}

define('sub_string', 'string', (_c, a) => (arity(a, 2, 3), slice(str(a), a, 1)));
define('crop', 'string', (c, a, self) => (arity(a, 2, 3), mutate(self, c, slice(str(a), a, 1))), true);
define(
  'truncate',
  'string',
  (c, a, self) => {
    arity(a, 2);
    const n = asInt(a[1]);
    return mutate(
      self,
      c,
      n <= 0n
        ? ''
        : chars(str(a))
            .slice(0, Number(n > 1_000_000_000n ? 1_000_000_000n : n))
            .join(''),
    );
  },
  true,
);

define(
  'pad',
  'string',
  (c, a, self) => {
    arity(a, 3);
    const target = asInt(a[1]);
    const padding = asText(a[2]);
    if (target > BigInt(c.limits.maxStringLength)) checkLength(c, c.limits.maxStringLength + 1);
    const s = str(a);
    const n = len(s);
    const want = Number(target);
    const padChars = chars(padding);
    if (padChars.length === 0 || n >= want) return null;
    // whole copies of the padding, then the first characters of one more (one copy of the text, not one per step)
    const whole = Math.floor((want - n) / padChars.length);
    const rest = padChars.slice(0, want - n - whole * padChars.length).join('');
    return mutate(self, c, s + padding.repeat(whole) + rest, s);
  },
  true,
);

define(
  'replace',
  'string',
  (c, a, self) => {
    arity(a, 3);
    const find = asText(a[1]);
    const sub = asText(a[2]);
    const s = str(a);
    if (find === '') checkLength(c, len(s) + sub.length * (len(s) + 1));
    const parts = find === '' ? ['', ...chars(s), ''] : s.split(find);
    // the result's size is known from the pieces: refuse it before building it
    checkLength(c, s.length - (find.length - sub.length) * (parts.length - 1));
    return mutate(self, c, parts.join(sub));
  },
  true,
);
define(
  'remove',
  'string',
  (c, a, self) => {
    arity(a, 2);
    const find = asText(a[1]);
    return mutate(self, c, find === '' ? str(a) : str(a).split(find).join(''));
  },
  true,
);

define('get', 'string', (_c, a) => {
  arity(a, 2);
  const cs = chars(str(a));
  const i = asInt(a[1]);
  const at = i < 0n ? BigInt(cs.length) + i : i;
  const ch = at >= 0n && at < BigInt(cs.length) ? cs[Number(at)] : undefined;
  return ch === undefined ? null : charOf(ch);
});
define(
  'set',
  'string',
  (c, a, self) => {
    arity(a, 3);
    const cs = chars(str(a));
    const i = asInt(a[1]);
    const ch = asChar(a[2]);
    const at = i < 0n ? BigInt(cs.length) + i : i;
    if (at < 0n || at >= BigInt(cs.length)) return null;
    cs[Number(at)] = ch.ch;
    return mutate(self, c, cs.join(''));
  },
  true,
);
define(
  'pop',
  'string',
  (c, a, self) => {
    arity(a, 1, 2);
    const cs = chars(str(a));
    if (a.length === 1) {
      const last = cs.pop();
      if (last === undefined) return null;
      mutate(self, c, cs.join(''));
      return charOf(last);
    }
    const n = asInt(a[1]);
    if (n <= 0n || cs.length === 0) return '';
    const take = n > BigInt(cs.length) ? cs.length : Number(n);
    const tail = cs.splice(cs.length - take, take);
    mutate(self, c, cs.join(''));
    return tail.join('');
  },
  true,
);

function splitBy(s: string, sep: string): string[] {
  const parts = sep === '' ? ['', ...chars(s), ''] : s.split(sep);
  charge(s.length + parts.length * SLOT_BYTES);
  return parts;
}

define('split', 'string', (_c, a) => {
  arity(a, 1, 2, 3);
  const s = str(a);
  if (a.length === 1) return s.trim() === '' ? [] : s.trim().split(/\s+/);
  const sep = a[1];
  if (typeof sep === 'bigint') {
    if (a.length !== 2) mismatch();
    const cs = chars(s);
    const n = BigInt(cs.length);
    let at: number;
    if (sep <= 0n) at = -sep > n ? 0 : cs.length - Number(-sep);
    else at = sep > n ? cs.length : Number(sep);
    return [cs.slice(0, at).join(''), cs.slice(at).join('')];
  }
  const text = asText(sep);
  const parts = splitBy(s, text);
  if (a.length === 2) return parts;
  const n = asInt(a[2]);
  if (n < 1n) return [s];
  if (parts.length <= Number(n)) return parts;
  return [...parts.slice(0, Number(n) - 1), parts.slice(Number(n) - 1).join(text)];
});
define('split_rev', 'string', (_c, a) => {
  arity(a, 2, 3);
  const s = str(a);
  const sep = asText(a[1]);
  const parts = splitBy(s, sep).reverse();
  if (a.length === 2) return parts;
  const n = asInt(a[2]);
  if (n < 1n) return [s];
  if (parts.length <= Number(n)) return parts;
  const head = parts.slice(0, Number(n) - 1);
  return [
    ...head,
    parts
      .slice(Number(n) - 1)
      .reverse()
      .join(sep),
  ];
});

define('max', ['string', 'char'], (_c, a) => {
  arity(a, 2);
  const [x, y] = [a[0] as Value, a[1] as Value];
  if (typeof x === 'string' && typeof y === 'string') return compareStrings(x, y) >= 0 ? x : y;
  return compareStrings(asChar(x).ch, asChar(y).ch) >= 0 ? x : y;
});
define('min', ['string', 'char'], (_c, a) => {
  arity(a, 2);
  const [x, y] = [a[0] as Value, a[1] as Value];
  if (typeof x === 'string' && typeof y === 'string') return compareStrings(x, y) <= 0 ? x : y;
  return compareStrings(asChar(x).ch, asChar(y).ch) <= 0 ? x : y;
});
