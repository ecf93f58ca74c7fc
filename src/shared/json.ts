// JSON values as plain data, parsed without losing integers beyond 2^53, printed compactly with key order kept.
//
// Json numbers are JS numbers, except integers outside the safe range, which parse as bigint so that
// body conditions such as equal_integer stay exact. Everything that walks Json must accept bigint.
//
// A typed parse (TypedJson) also keeps what a number's lexeme says of its type, as serde_json does: `42` is an
// integer, `42.0` and `1e3` are floats. A float with a fraction (`1.5`) is a plain number either way; a float
// with an integer value is a JsonFloat, since the number 42 alone cannot say how it was written.

export type Json = null | boolean | number | bigint | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

export function isJsonObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A number written as a float (`42.0`, `1e3`) whose value is an integer, in a typed parse. A Number object, so
 * that code which cannot import this module (the interpreter's fromJson) still tells it from an integer.
 */
export class JsonFloat extends Number {}

/** JSON with each number typed by its lexeme: Json, plus JsonFloat for an integral number written as a float. */
export type TypedJson = Json | JsonFloat | readonly TypedJson[] | TypedJsonObject;
export interface TypedJsonObject {
  readonly [key: string]: TypedJson;
}

export function isTypedJsonObject(v: TypedJson | undefined): v is TypedJsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

/** Parse JSON text with each number typed by its lexeme (see TypedJson). Throws JsonSyntaxError. */
export function parseTypedJson(text: string): TypedJson {
  return new ExactParser(text, true).parseDocument();
}

/** `[0-9].0…` ending the number, or an exponent: the lexemes of a float that may have an integer value */
const INTEGRAL_FLOAT = /[0-9]\.0+(?![0-9])|[0-9][eE]/;

/**
 * Whether JSON `text` may hold a number written as a float with an integer value (`42.0`, `1e3`). When it does
 * not, its typed parse is its exact parse. A cheap scan of the text; text inside strings may say yes wrongly.
 */
export function mayHoldIntegralFloat(text: string): boolean {
  return INTEGRAL_FLOAT.test(text);
}

/** An integer anywhere in `v` (a number with an integer value, or a bigint): the values a lexeme may type otherwise. */
export function holdsInteger(v: Json): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  if (typeof v === 'bigint') return true;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (const x of v as readonly Json[]) if (holdsInteger(x)) return true;
    return false;
  }
  for (const k in v as JsonObject) if (holdsInteger((v as JsonObject)[k]!)) return true;
  return false;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Parse JSON text. Throws JsonSyntaxError with a readable message and offset. */
export function parseJson(text: string): Json {
  let fast: Json;
  try {
    fast = JSON.parse(text) as Json;
  } catch {
    return new ExactParser(text, false).parseDocument() as Json; // throws with a position
  }
  return exactJson(text, fast);
}

/**
 * `fast`, the text as JSON.parse gave it, made exact: JSON.parse rounds integers beyond 2^53, so only when it
 * holds such an integer is the text parsed again, exactly.
 */
export function exactJson(text: string, fast: Json): Json {
  return holdsUnsafeInteger(fast) ? (new ExactParser(text, false).parseDocument() as Json) : fast;
}

/**
 * An integer outside the safe range anywhere in `v`: a value JSON.parse may have rounded. (A rounded integer is
 * still outside the range: rounding never crosses 2^53.)
 */
export function holdsUnsafeInteger(v: Json): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (const x of v as readonly Json[]) if (holdsUnsafeInteger(x)) return true;
    return false;
  }
  for (const k in v as JsonObject) if (holdsUnsafeInteger((v as JsonObject)[k]!)) return true;
  return false;
}

/** Compact JSON text, key order as stored; a JsonFloat as serde_json prints a float (`42.0`, `1e16`). */
export function stringifyJson(v: TypedJson): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (v instanceof JsonFloat) return integralFloatText(v.valueOf());
  if (Array.isArray(v)) return '[' + v.map(stringifyJson).join(',') + ']';
  let out = '{';
  let first = true;
  for (const k of Object.keys(v)) {
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + stringifyJson((v as TypedJsonObject)[k]!);
  }
  return out + '}';
}

/** A float with an integer value as ryu (serde_json) prints it: `42.0`, `1000.0`, `1e16`, `1.5e20`. */
function integralFloatText(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (Math.abs(n) < 1e16) return (Object.is(n, -0) ? '-0' : String(n)) + '.0';
  return n.toExponential().replace('e+', 'e');
}

/** Pretty JSON text (2-space indent), key order as stored. */
export function prettyJson(v: Json, indent = ''): string {
  if (typeof v !== 'object' || v === null) return stringifyJson(v);
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[\n' + (v as readonly Json[]).map((x) => inner + prettyJson(x, inner)).join(',\n') + '\n' + indent + ']';
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return (
    '{\n' +
    keys.map((k) => inner + JSON.stringify(k) + ': ' + prettyJson((v as JsonObject)[k]!, inner)).join(',\n') +
    '\n' +
    indent +
    '}'
  );
}

/** A JSON parser that keeps integers beyond 2^53 exact (bigint) and, when `typed`, the type of each lexeme. */
class ExactParser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly typed: boolean,
  ) {}

  parseDocument(): TypedJson {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected trailing characters');
    return v;
  }

  private fail(msg: string): never {
    throw new JsonSyntaxError(`${msg} at offset ${this.i}`, this.i);
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  private value(): TypedJson {
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    if (this.s.startsWith('true', this.i)) return ((this.i += 4), true);
    if (this.s.startsWith('false', this.i)) return ((this.i += 5), false);
    if (this.s.startsWith('null', this.i)) return ((this.i += 4), null);
    return this.fail(c === undefined ? 'unexpected end of JSON input' : `unexpected character '${c}'`);
  }

  private object(): TypedJsonObject {
    const out: Record<string, TypedJson> = {};
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, out);
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a string key');
      const k = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail("expected ':'");
      this.i++;
      this.ws();
      Object.defineProperty(out, k, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.ws();
      const c = this.s[this.i];
      if (c === ',') this.i++;
      else if (c === '}') return (this.i++, out);
      else this.fail("expected ',' or '}'");
    }
  }

  private array(): TypedJson[] {
    const out: TypedJson[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return (this.i++, out);
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      const c = this.s[this.i];
      if (c === ',') this.i++;
      else if (c === ']') return (this.i++, out);
      else this.fail("expected ',' or ']'");
    }
  }

  private string(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        try {
          return JSON.parse(this.s.slice(start, this.i)) as string;
        } catch {
          this.i = start;
          this.fail('invalid string');
        }
      } else this.i++;
    }
    return this.fail('unterminated string');
  }

  private number(): number | bigint | JsonFloat {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) return this.fail('invalid number');
    this.i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      if (!Number.isSafeInteger(n)) return BigInt(m[0]);
      return n;
    }
    const f = Number(m[0]);
    return this.typed && Number.isInteger(f) ? new JsonFloat(f) : f;
  }
}
