// Text forms of values, following Rhai: `to_string`/`print` use Display, `to_debug`/`debug` use
// Debug. Arrays and maps always show their items in Debug form (`[1, "a"]`, `#{"k": 'c'}`).
//
// Floats follow Rust's f64 formatting as wrapped by Rhai:
//   Display: 0 → "0.0"; |x| > 1e13 or |x| < 1e-13 (the f32 thresholds) → scientific ("1e15",
//            "1.5e-14"); otherwise plain decimal with at least one decimal ("1.0", "0.1").
//   Debug:   Rust's `{:?}`: scientific when |x| ≥ 1e16 or 0 < |x| < 1e-4, else plain with ".0";
//            keeps the sign of -0.0.
// Digits are the shortest that round-trip, which JavaScript and Rust agree on.

import { Char, FnPtr, RangeValue, sortedKeys, tagOf, type Value } from './values.js';

const MAX_NATURAL = Math.fround(10_000_000_000_000);
const MIN_NATURAL = Math.fround(0.000_000_000_000_1);

interface Decomposed {
  readonly negative: boolean;
  /** significant digits, no leading zeros */
  readonly digits: string;
  /** decimal exponent of the first digit */
  readonly exp: number;
}

function decompose(x: number): Decomposed {
  const s = Math.abs(x).toExponential();
  const e = s.indexOf('e');
  return { negative: x < 0, digits: s.slice(0, e).replace('.', ''), exp: Number(s.slice(e + 1)) };
}

function plain(d: Decomposed): string {
  const { digits, exp } = d;
  let out: string;
  if (exp >= digits.length - 1) out = digits + '0'.repeat(exp - digits.length + 1) + '.0';
  else if (exp >= 0) out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  else out = '0.' + '0'.repeat(-exp - 1) + digits;
  return (d.negative ? '-' : '') + out;
}

function scientific(d: Decomposed): string {
  const mantissa = d.digits.length > 1 ? d.digits[0] + '.' + d.digits.slice(1) : d.digits;
  return (d.negative ? '-' : '') + mantissa + 'e' + String(d.exp);
}

function nonFinite(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  return x > 0 ? 'inf' : '-inf';
}

export function floatToDisplay(x: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  const abs = Math.abs(x);
  if (abs === 0) return '0.0';
  const d = decompose(x);
  return abs > MAX_NATURAL || abs < MIN_NATURAL ? scientific(d) : plain(d);
}

export function floatToDebug(x: number): string {
  if (!Number.isFinite(x)) return nonFinite(x);
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  const d = decompose(x);
  return abs >= 1e16 || abs < 1e-4 ? scientific(d) : plain(d);
}

function escapeChar(ch: string, quote: '"' | "'"): string {
  switch (ch) {
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\0':
      return '\\0';
    case quote:
      return '\\' + quote;
    default: {
      const cp = ch.codePointAt(0) ?? 0;
      if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return '\\u{' + cp.toString(16) + '}';
      return ch;
    }
  }
}

const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u007f-\u009f]/;

export function debugString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  for (const ch of s) out += escapeChar(ch, '"');
  return out + '"';
}

function debugChar(c: Char): string {
  return "'" + escapeChar(c.ch, "'") + "'";
}

function rangeText(r: RangeValue): string {
  return `${r.start}${r.inclusive ? '..=' : '..'}${r.end}`;
}

function fnText(f: FnPtr): string {
  return `Fn(${f.name})`;
}

/** Rhai Display (`to_string`, `print`, string interpolation, `+` with a string). */
export function toDisplay(v: Value): string {
  switch (tagOf(v)) {
    case 'unit':
      return '';
    case 'string':
      return v as string;
    case 'int':
      return (v as bigint).toString();
    case 'float':
      return floatToDisplay(v as number);
    case 'bool':
      return v ? 'true' : 'false';
    case 'char':
      return (v as Char).ch;
    case 'fn':
      return fnText(v as FnPtr);
    case 'range':
      return rangeText(v as RangeValue);
    case 'timestamp':
      return '<timestamp>';
    default:
      return toDebug(v);
  }
}

/**
 * Rhai's `to_debug` and `debug` as a script sees them: a string is quoted, a char alone is the bare character
 * (Rhai's `to_debug` for a char returns the character itself); the items inside an array or map are printed as
 * the host prints them, so a char there is quoted (`['c', 'b']`), as Rhai prints it.
 */
export function toDebug(v: Value): string {
  return debugText(v, false);
}

/**
 * The host's view of a value (Rust's `{:?}` of a Rhai `Dynamic`): like {@link toDebug}, but a char is quoted
 * (`'a'`), so `'1'` and `1` stay apart. Used for results shown to the user and as switch-table keys.
 */
export function hostDebug(v: Value): string {
  return debugText(v, true);
}

function debugText(v: Value, quoteChars: boolean): string {
  switch (tagOf(v)) {
    case 'unit':
      return '()';
    case 'string':
      return debugString(v as string);
    case 'float':
      return floatToDebug(v as number);
    case 'char':
      return quoteChars ? debugChar(v as Char) : (v as Char).ch;
    case 'array':
      // an item is always in the host's form: Rhai prints `['a', 'b']` for an array of chars
      return '[' + (v as Value[]).map((x) => debugText(x, true)).join(', ') + ']';
    case 'map': {
      const m = v as Map<string, Value>;
      const parts = sortedKeys(m).map((k) => debugString(k) + ': ' + debugText(m.get(k) ?? null, true));
      return '#{' + parts.join(', ') + '}';
    }
    default:
      return toDisplay(v);
  }
}

/**
 * Whether the text form of `v` (Display, Debug or JSON: about the same size) would be longer than `cap` characters,
 * estimated without building it and stopping as soon as it is: an array can hold the same long string many times
 * over, so its text can be far larger than the memory the run has made.
 */
export function textLongerThan(v: Value, cap: number): boolean {
  let total = 0;
  const walk = (x: Value): boolean => {
    if (typeof x === 'string') total += x.length + 2;
    else if (Array.isArray(x)) {
      total += 2;
      for (const y of x) if (walk(y)) return true;
    } else if (x instanceof Map) {
      total += 3;
      for (const [k, y] of x) {
        total += k.length + 4;
        if (walk(y)) return true;
      }
    } else if (x instanceof FnPtr) {
      total += x.name.length + 2;
      for (const y of x.curry) if (walk(y)) return true;
    } else total += 4;
    return total > cap;
  };
  return walk(v);
}
