// JSON in both directions. Inside scripts: `parse_json(text)` (integers exact as INT, other
// numbers FLOAT, objects as maps in document order, null as `()`) and `to_json` (compact, keys in
// Rhai's sorted map order). At the host boundary: fromJson/toJson convert plain JS data.

import { RuntimeFault } from './errors.js';
import { floatToDebug } from './format.js';
import { Char, FnPtr, INT_MAX, INT_MIN, RangeValue, sortedKeys, type RMap, type Value } from './values.js';

const I64_LIMIT = 2 ** 63;

/**
 * Plain JS JSON data (numbers, bigints, strings, booleans, null, arrays, objects) → Value. A number with an
 * integer value is an INT, unless it comes as a Number object: the host's mark for a number written as a
 * float (`5.0`, `1e3`), which stays a FLOAT.
 */
export function fromJson(json: unknown): Value {
  switch (typeof json) {
    case 'boolean':
    case 'string':
      return json;
    case 'number':
      return Number.isInteger(json) && Math.abs(json) < I64_LIMIT ? BigInt(json) : json;
    case 'bigint':
      return json >= INT_MIN && json <= INT_MAX ? json : Number(json);
    case 'object': {
      if (json === null) return null;
      if (json instanceof Number) return json.valueOf();
      if (Array.isArray(json)) return json.map(fromJson);
      const out: RMap = new Map();
      for (const [k, v] of Object.entries(json)) out.set(k, fromJson(v));
      return out;
    }
    default:
      return null;
  }
}

export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

/** Value → plain JS data: INT as number when exact, else bigint; maps as objects in insertion order. */
export function toJson(v: Value): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Char) return v.ch;
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof Map) {
    const out: { [key: string]: Json } = {};
    for (const [k, x] of v)
      Object.defineProperty(out, k, { value: toJson(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (v instanceof FnPtr) return `Fn(${v.name})`;
  if (v instanceof RangeValue) return `${v.start}${v.inclusive ? '..=' : '..'}${v.end}`;
  return null;
}

/** Rhai's `to_json`: compact JSON text; map keys in sorted order. */
export function toJsonText(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? floatToDebug(v) : 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Char) return JSON.stringify(v.ch);
  if (Array.isArray(v)) return '[' + v.map(toJsonText).join(',') + ']';
  if (v instanceof Map)
    return (
      '{' +
      sortedKeys(v)
        .map((k) => JSON.stringify(k) + ':' + toJsonText(v.get(k) ?? null))
        .join(',') +
      '}'
    );
  // a function pointer is its name, or [name, curried…]
  if (v instanceof FnPtr) return v.curry.length === 0 ? JSON.stringify(v.name) : toJsonText([v.name, ...v.curry]);
  return JSON.stringify(toJson(v));
}

/** Rhai's `parse_json`: errors read like serde_json's (`expected value at line 1 column 1`). */
export function parseJsonText(text: string): Value {
  return new JsonReader(text).document();
}

class JsonReader {
  private pos = 0;
  constructor(private readonly text: string) {}

  private fail(what: string, at: number = this.pos): never {
    let line = 1;
    let col = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 10) {
        line++;
        col = 0;
      } else col++;
    }
    const message = `${what} at line ${line} column ${Math.max(col, 1)}`;
    throw new RuntimeFault('ErrorRuntime', `Runtime error: ${message}`, -1, message);
  }

  private ws(): void {
    while (this.pos < this.text.length && /[ \t\r\n]/.test(this.text[this.pos] as string)) this.pos++;
  }

  document(): Value {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.pos < this.text.length) this.fail('trailing characters', this.pos + 1);
    return v;
  }

  private value(): Value {
    const c = this.text[this.pos];
    if (c === undefined) return this.fail('EOF while parsing a value');
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail('expected value', this.pos + 1);
  }

  private object(): Value {
    const out: RMap = new Map();
    this.pos++;
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"')
        this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'key must be a string', this.pos + 1);
      const key = this.string();
      this.ws();
      if (this.text[this.pos] !== ':')
        this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'expected `:`', this.pos + 1);
      this.pos++;
      this.ws();
      out.set(key, this.value());
      this.ws();
      const c = this.text[this.pos++];
      if (c === '}') return out;
      if (c !== ',') this.fail(c === undefined ? 'EOF while parsing an object' : 'expected `,` or `}`', this.pos);
    }
  }

  private array(): Value {
    const out: Value[] = [];
    this.pos++;
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      const c = this.text[this.pos++];
      if (c === ']') return out;
      if (c !== ',') this.fail(c === undefined ? 'EOF while parsing a list' : 'expected `,` or `]`', this.pos);
    }
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) return this.fail('EOF while parsing a string');
      if (c === '"') break;
      if (c === '\\') this.pos++;
      else if (c < ' ') this.fail('control character (\\u0000-\\u001F) found while parsing a string', this.pos + 1);
      this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return this.fail('invalid escape', this.pos);
    }
  }

  private number(): Value {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (m === null) return this.fail('invalid number', this.pos + 1);
    this.pos += m[0].length;
    if (m[2] === undefined && m[3] === undefined) {
      const big = BigInt(m[0]);
      if (big >= INT_MIN && big <= INT_MAX) return big;
    }
    return Number(m[0]);
  }
}
