// JSON5 text → minified JSON text, by transcoding lexemes rather than building JS values.
//
// Transcoding keeps what a parse into JS objects would lose: key order exactly as written (JS objects move
// integer-like keys such as "10" to the front) and integers of any size (no rounding past 2^53). A duplicate key
// keeps its first position and takes its last value, like the reference (serde_json with an ordered map).
// Grammar: https://spec.json5.org/ (comments, single quotes, trailing commas, identifier keys, hex, leading or
// trailing decimal point, explicit '+', Infinity and NaN, which become null as JSON has no form for them).
// The one JSON5 reader: files are served through it and checked with it at load (config/respond-files.ts), and
// `respond.json` is read with it (config/json-literal.ts), so what validates is what is served.
import { formatFloat, formatInteger } from './number-format.js';

export class Json5Error extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Infinity, NaN or a float too large for a double, where the caller refuses them (`nonFinite: 'refuse'`). */
export class Json5NonFiniteError extends Json5Error {}

/** An integer outside the caller's `integerRange`; `literal` is its decimal text. */
export class Json5RangeError extends Json5Error {
  constructor(
    message: string,
    offset: number,
    readonly literal: string,
  ) {
    super(message, offset);
  }
}

export interface Json5Options {
  /** Infinity, NaN and floats past a double's range: `null` in the output (the default, as served), or refused */
  readonly nonFinite?: 'null' | 'refuse';
  /** integers outside this range are refused (Json5RangeError); without it any size is kept as written */
  readonly integerRange?: { readonly min: bigint; readonly max: bigint };
}

const MAX_DEPTH = 1000;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

interface UnicodePatterns {
  readonly whitespace: RegExp;
  readonly idStart: RegExp;
  readonly idPart: RegExp;
}
let unicodePatterns: UnicodePatterns | undefined;
/** made on first use: a pattern of Unicode properties takes ~0.1 ms to create, a cost every start would pay */
function unicode(): UnicodePatterns {
  return (unicodePatterns ??= {
    whitespace: /[\t\v\f \u00a0\ufeff\n\r\u2028\u2029\p{Zs}]/u,
    idStart: /[\p{L}\p{Nl}$_]/u,
    idPart: /[\p{L}\p{Nl}$_\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]/u,
  });
}
// sticky: matched at `lastIndex` only, so a number in a large document costs no slicing
const HEX_NUMBER = /0[xX]([0-9a-fA-F]+)/y;
const DECIMAL_NUMBER = /(?:(0|[1-9][0-9]*)(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/y;
const STRING_RUN = /[^"'\\\n\r]+/y;
const SINGLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** Transcode a JSON5 document to minified JSON. Throws Json5Error (message and offset) on invalid input. */
export function json5ToJson(text: string, opts: Json5Options = {}): string {
  const parser = new Transcoder(text, opts.nonFinite === 'refuse', opts.integerRange);
  parser.skipSpace();
  const out = parser.value(0);
  parser.skipSpace();
  if (parser.pos < text.length) parser.fail('unexpected content after the value');
  return out;
}

class Transcoder {
  pos = 0;
  constructor(
    private readonly text: string,
    private readonly refuseNonFinite: boolean,
    private readonly integerRange: Json5Options['integerRange'],
  ) {}

  fail(message: string, at = this.pos): never {
    throw new Json5Error(message, at);
  }

  skipSpace(): void {
    const t = this.text;
    const whitespace = unicode().whitespace;
    while (this.pos < t.length) {
      const c = t[this.pos]!;
      if (whitespace.test(c)) {
        this.pos++;
      } else if (c === '/' && t[this.pos + 1] === '/') {
        this.pos += 2;
        while (this.pos < t.length && !LINE_TERMINATOR.test(t[this.pos]!)) this.pos++;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('unterminated block comment');
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  value(depth: number): string {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const c = this.text[this.pos];
    switch (c) {
      case undefined:
        return this.fail('unexpected end of input');
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
      case "'":
        return JSON.stringify(this.string(c));
      default:
        if (this.literal('null')) return 'null';
        if (this.literal('true')) return 'true';
        if (this.literal('false')) return 'false';
        return this.number();
    }
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.pos)) return false;
    const next = this.text.codePointAt(this.pos + word.length);
    if (next !== undefined && unicode().idPart.test(String.fromCodePoint(next))) return false;
    this.pos += word.length;
    return true;
  }

  private object(depth: number): string {
    this.pos++; // {
    const members = new Map<string, string>();
    this.skipSpace();
    while (this.text[this.pos] !== '}') {
      const key = this.key();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail("expected ':' after an object key");
      this.pos++;
      this.skipSpace();
      members.set(key, this.value(depth + 1));
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.skipSpace();
      } else if (this.text[this.pos] !== '}') {
        this.fail("expected ',' or '}' in an object");
      }
    }
    this.pos++; // }
    let out = '{';
    for (const [key, value] of members) out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + value;
    return out + '}';
  }

  private array(depth: number): string {
    this.pos++; // [
    const items: string[] = [];
    this.skipSpace();
    while (this.text[this.pos] !== ']') {
      items.push(this.value(depth + 1));
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.skipSpace();
      } else if (this.text[this.pos] !== ']') {
        this.fail("expected ',' or ']' in an array");
      }
    }
    this.pos++; // ]
    return '[' + items.join(',') + ']';
  }

  private key(): string {
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string(c);
    let name = '';
    for (let first = true; ; first = false) {
      let ch: string;
      const start = this.pos;
      if (this.text[this.pos] === '\\') {
        if (this.text[this.pos + 1] !== 'u') this.fail('invalid escape in an identifier');
        this.pos += 2;
        ch = String.fromCharCode(this.hex(4));
      } else {
        const cp = this.text.codePointAt(this.pos);
        if (cp === undefined) break;
        ch = String.fromCodePoint(cp);
        this.pos += ch.length;
      }
      if (!(first ? unicode().idStart : unicode().idPart).test(ch)) {
        this.pos = start;
        if (first) this.fail('expected an object key');
        break;
      }
      name += ch;
    }
    return name;
  }

  private hex(count: number): number {
    const digits = this.text.slice(this.pos, this.pos + count);
    if (!new RegExp(`^[0-9a-fA-F]{${count}}$`).test(digits)) this.fail('invalid hexadecimal escape');
    this.pos += count;
    return parseInt(digits, 16);
  }

  private string(quote: string): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) this.fail('unterminated string', start);
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === '\n' || c === '\r') this.fail('line break inside a string');
      if (c !== '\\') {
        STRING_RUN.lastIndex = this.pos + 1;
        const run = STRING_RUN.exec(this.text);
        const end = run === null ? this.pos + 1 : STRING_RUN.lastIndex;
        out += this.text.slice(this.pos, end);
        this.pos = end;
        continue;
      }
      const e = this.text[this.pos + 1];
      this.pos += 2;
      if (e === undefined) this.fail('unterminated string', start);
      else if (e === 'x') out += String.fromCharCode(this.hex(2));
      else if (e === 'u') out += String.fromCharCode(this.hex(4));
      else if (e === '0') {
        if (/[0-9]/.test(this.text[this.pos] ?? '')) this.fail('invalid escape \\0 followed by a digit');
        out += '\0';
      } else if (/[1-9]/.test(e)) this.fail('invalid numeric escape');
      else if (e === '\r') {
        if (this.text[this.pos] === '\n') this.pos++;
      } else if (e === '\n' || e === '\u2028' || e === '\u2029') {
        // line continuation: contributes nothing
      } else out += SINGLE_ESCAPES[e] ?? e;
    }
  }

  private number(): string {
    const start = this.pos;
    const t = this.text;
    let sign: '' | '+' | '-' = '';
    if (t[this.pos] === '+' || t[this.pos] === '-') sign = t[this.pos++] as '+' | '-';
    if (this.literal('Infinity') || this.literal('NaN')) {
      if (this.refuseNonFinite) throw new Json5NonFiniteError('Infinity and NaN have no JSON form', start);
      return 'null';
    }
    HEX_NUMBER.lastIndex = this.pos;
    const hex = HEX_NUMBER.exec(t);
    if (hex !== null) {
      this.pos += hex[0].length;
      return this.integer(formatInteger(sign, '0x' + hex[1]!), start);
    }
    DECIMAL_NUMBER.lastIndex = this.pos;
    const decimal = DECIMAL_NUMBER.exec(t);
    if (decimal === null || decimal[0] === '')
      return this.fail(`unexpected character '${t[this.pos] ?? ''}'`, this.pos);
    this.pos += decimal[0].length;
    if (decimal[1] !== undefined && decimal[2] === undefined && decimal[3] === undefined)
      return this.integer(formatInteger(sign, decimal[1]), start);
    const value = Number((sign === '-' ? '-' : '') + decimal[0]);
    if (this.refuseNonFinite && !Number.isFinite(value))
      throw new Json5NonFiniteError('number out of range for a double', start);
    return formatFloat(value);
  }

  private integer(text: string, start: number): string {
    const range = this.integerRange;
    if (range !== undefined) {
      const n = BigInt(text);
      if (n < range.min || n > range.max) throw new Json5RangeError('integer out of range', start, text);
    }
    return text;
  }
}
