// JSON values as plain data, parsed without losing integers beyond 2^53, printed compactly with key order kept.
//
// Json numbers are JS numbers, except integers outside the safe range, which parse as bigint so that
// body conditions such as equal_integer stay exact. Everything that walks Json must accept bigint.

export type Json = null | boolean | number | bigint | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

export function isJsonObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
    return new ExactParser(text).parseDocument(); // throws with a position
  }
  return exactJson(text, fast);
}

/**
 * `fast`, the text as JSON.parse gave it, made exact: JSON.parse rounds integers beyond 2^53, so only when it
 * holds such an integer is the text parsed again, exactly.
 */
export function exactJson(text: string, fast: Json): Json {
  return holdsUnsafeInteger(fast) ? new ExactParser(text).parseDocument() : fast;
}

/**
 * An integer outside the safe range anywhere in `v`: a value JSON.parse may have rounded. (A rounded integer is
 * still outside the range: rounding never crosses 2^53.)
 */
export function holdsUnsafeInteger(v: Json): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (holdsUnsafeInteger(x)) return true;
    return false;
  }
  for (const k in v as JsonObject) if (holdsUnsafeInteger((v as JsonObject)[k]!)) return true;
  return false;
}

/** Compact JSON text, key order as stored. */
export function stringifyJson(v: Json): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(stringifyJson).join(',') + ']';
  let out = '{';
  let first = true;
  for (const k of Object.keys(v)) {
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + stringifyJson((v as JsonObject)[k]!);
  }
  return out + '}';
}

/** Pretty JSON text (2-space indent), key order as stored. */
export function prettyJson(v: Json, indent = ''): string {
  if (typeof v !== 'object' || v === null) return stringifyJson(v);
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[\n' + v.map((x) => inner + prettyJson(x, inner)).join(',\n') + '\n' + indent + ']';
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

class ExactParser {
  private i = 0;
  constructor(private readonly s: string) {}

  parseDocument(): Json {
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

  private value(): Json {
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    if (this.s.startsWith('true', this.i)) return (this.i += 4), true;
    if (this.s.startsWith('false', this.i)) return (this.i += 5), false;
    if (this.s.startsWith('null', this.i)) return (this.i += 4), null;
    return this.fail(c === undefined ? 'unexpected end of JSON input' : `unexpected character '${c}'`);
  }

  private object(): JsonObject {
    const out: Record<string, Json> = {};
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return this.i++, out;
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
      else if (c === '}') return this.i++, out;
      else this.fail("expected ',' or '}'");
    }
  }

  private array(): Json[] {
    const out: Json[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return this.i++, out;
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      const c = this.s[this.i];
      if (c === ',') this.i++;
      else if (c === ']') return this.i++, out;
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

  private number(): number | bigint {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) return this.fail('invalid number');
    this.i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      if (!Number.isSafeInteger(n)) return BigInt(m[0]);
      return n;
    }
    return Number(m[0]);
  }
}
