// Source text → tokens with offsets. Handles `//`, `///`, `//!` and nested `/* */` comments,
// symbols, identifiers and numbers (decimal with `_`, hex/octal/binary, floats with fraction or
// exponent, `5.` as a float). Text literals are lexed by the base class in lexer-strings.ts.

import { TextLexer } from './lexer-strings.js';
import { KEYWORDS, SYMBOLS, isIdentPart, isIdentStart, type Token } from './token.js';

const U64_MAX = 2n ** 64n - 1n;
const RADIX: ReadonlyMap<string, number> = new Map([
  ['x', 16],
  ['o', 8],
  ['b', 2],
  ['X', 16],
  ['O', 8],
  ['B', 2],
]);
const I64_MAX = 2n ** 63n - 1n;

export function tokenize(src: string): Token[] {
  const lexer = new Lexer(src);
  if (src.startsWith('#!')) lexer.skipLine();
  return lexer.scan(false);
}

class Lexer extends TextLexer {
  skipLine(): void {
    while (this.pos < this.src.length && this.src.charCodeAt(this.pos) !== 10) this.pos++;
  }

  /** Lex until EOF, or (inside `${…}`) until the `}` that closes the interpolation. */
  scan(inInterpolation: boolean, openedAt = 0): Token[] {
    const out: Token[] = [];
    let depth = 0;
    for (;;) {
      this.skipTrivia();
      const start = this.pos;
      if (start >= this.src.length) {
        if (inInterpolation) this.fail('Open string is not terminated', openedAt);
        out.push({ kind: 'eof', text: '', start, end: start });
        return out;
      }
      const c = this.src.charCodeAt(start);
      if (inInterpolation && c === 125 /* } */ && depth === 0) {
        this.pos++;
        out.push({ kind: 'eof', text: '', start, end: start });
        return out;
      }
      const tok = this.next(c, start);
      if (tok.kind === 'punct') {
        if (tok.text === '{' || tok.text === '#{') depth++;
        else if (tok.text === '}') depth--;
      }
      out.push(tok);
    }
  }

  skipTrivia(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) {
        this.pos++;
      } else if (c === 47 && src.charCodeAt(this.pos + 1) === 47) {
        this.skipLine();
      } else if (c === 47 && src.charCodeAt(this.pos + 1) === 42) {
        this.skipBlockComment();
      } else {
        return;
      }
    }
  }

  skipBlockComment(): void {
    let depth = 0;
    const src = this.src;
    while (this.pos < src.length) {
      if (src.startsWith('/*', this.pos)) {
        depth++;
        this.pos += 2;
      } else if (src.startsWith('*/', this.pos)) {
        depth--;
        this.pos += 2;
        if (depth === 0) return;
      } else {
        this.pos++;
      }
    }
  }

  next(c: number, start: number): Token {
    if (isIdentStart(c)) {
      let end = start + 1;
      while (end < this.src.length && isIdentPart(this.src.charCodeAt(end))) end++;
      this.pos = end;
      const text = this.src.slice(start, end);
      return { kind: KEYWORDS.has(text) ? 'keyword' : 'ident', text, start, end };
    }
    if (c >= 48 && c <= 57) return this.number(start);
    if (c === 34) return this.string(start);
    if (c === 39) return this.char(start);
    if (c === 96) return this.backtick(start);
    if (c === 35 /* # */ && this.src[start + 1] !== '{') {
      const raw = this.raw(start);
      if (raw !== null) return raw;
      return this.fail("Unknown operator: '#'", start);
    }
    for (const sym of SYMBOLS) {
      if (this.src.startsWith(sym, start)) {
        if (sym === '!in' && isIdentPart(this.src.charCodeAt(start + 3))) continue;
        this.pos = start + sym.length;
        return { kind: 'punct', text: sym, start, end: this.pos };
      }
    }
    const ch = String.fromCodePoint(this.src.codePointAt(start) ?? c);
    return this.fail(`Unexpected '${ch}'`, start);
  }

  number(start: number): Token {
    const src = this.src;
    let p = start;
    const radix = src[p] === '0' ? RADIX.get(src[p + 1] ?? '') : undefined;
    if (radix !== undefined) {
      p += 2;
      const digitsStart = p;
      while (p < src.length && (isRadixDigit(src.charCodeAt(p), radix) || src[p] === '_')) p++;
      this.pos = p;
      const digits = src.slice(digitsStart, p).replace(/_/g, '');
      const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : '0b';
      if (digits.length === 0) this.fail(`Invalid number: '${src.slice(start, p)}'`, start);
      const value = BigInt(prefix + digits);
      if (value > U64_MAX) this.fail(`Invalid number: '${src.slice(start, p)}'`, start);
      return { kind: 'int', text: src.slice(start, p), start, end: p, int: BigInt.asIntN(64, value) };
    }
    while (p < src.length && (isDigit(src.charCodeAt(p)) || src[p] === '_')) p++;
    let isFloat = false;
    if (src[p] === '.' && isDigit(src.charCodeAt(p + 1))) {
      isFloat = true;
      p++;
      while (p < src.length && (isDigit(src.charCodeAt(p)) || src[p] === '_')) p++;
    } else if (src[p] === '.' && src[p + 1] !== '.' && !isIdentStart(src.charCodeAt(p + 1))) {
      // `5.` is a float unless a property, method or range follows
      this.pos = p + 1;
      const text = src.slice(start, p + 1);
      return { kind: 'float', text, start, end: p + 1, float: Number(text.replace(/_/g, '').slice(0, -1)) };
    }
    if (src[p] === 'e' || src[p] === 'E') {
      const sign = src[p + 1] === '+' || src[p + 1] === '-' ? 1 : 0;
      if (isDigit(src.charCodeAt(p + 1 + sign))) {
        isFloat = true;
        p += 1 + sign;
        while (p < src.length && isDigit(src.charCodeAt(p))) p++;
      }
    }
    this.pos = p;
    const text = src.slice(start, p);
    const clean = text.replace(/_/g, '');
    if (!isFloat) {
      const value = BigInt(clean);
      if (value <= I64_MAX) return { kind: 'int', text, start, end: p, int: value };
    }
    return { kind: 'float', text, start, end: p, float: Number(clean) };
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isRadixDigit(c: number, radix: number): boolean {
  if (radix === 2) return c === 48 || c === 49;
  if (radix === 8) return c >= 48 && c <= 55;
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}
