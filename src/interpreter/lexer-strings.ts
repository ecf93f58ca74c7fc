// The text literals of the lexer: normal strings (escapes, `\` line continuation, `""` for one
// quote), raw strings (`#"…"#` with any number of `#`, no escapes), chars, and back-tick strings
// with `${…}` interpolation (each interpolation is lexed into its own token list by `scan`; `\${`
// is a literal `${`).

import { SyntaxFault } from './errors.js';
import type { BacktickPart, Token } from './token.js';

export abstract class TextLexer {
  pos = 0;
  constructor(readonly src: string) {}

  fail(message: string, offset: number): never {
    throw new SyntaxFault(message, offset);
  }

  /** Lex until EOF, or (inside `${…}`) until the `}` that closes the interpolation. */
  abstract scan(inInterpolation: boolean, openedAt?: number): Token[];

  /** `#…#"…"#…#` starting at `start` (a `#`); null when the `#`s are not followed by `"`. */
  raw(start: number): Token | null {
    const src = this.src;
    let hashes = 0;
    while (src[start + hashes] === '#') hashes++;
    if (src[start + hashes] !== '"') return null;
    const close = '"' + '#'.repeat(hashes);
    const from = start + hashes + 1;
    const end = src.indexOf(close, from);
    if (end < 0) this.fail('Open string is not terminated', start);
    this.pos = end + close.length;
    return { kind: 'string', text: src.slice(from, end), start, end: this.pos };
  }

  /** One escape sequence after a backslash at `this.pos - 1`; returns the decoded text. */
  escape(escStart: number): string {
    const src = this.src;
    const e = src[this.pos];
    this.pos++;
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '\\':
        return '\\';
      case '"':
        return '"';
      case "'":
        return "'";
      case '0':
        return '\0';
      case 'x':
      case 'u':
      case 'U': {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = src.slice(this.pos, this.pos + len);
        const cp = /^[0-9a-fA-F]+$/.test(hex) && hex.length === len ? parseInt(hex, 16) : NaN;
        if (Number.isNaN(cp) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          this.fail(`Invalid escape sequence: '\\${e}${hex}'`, escStart);
        }
        this.pos += len;
        return String.fromCodePoint(cp);
      }
      default:
        return this.fail(`Invalid escape sequence: '\\${e ?? ''}'`, escStart);
    }
  }

  string(start: number): Token {
    const src = this.src;
    const quoteColumn = start - (src.lastIndexOf('\n', start - 1) + 1);
    this.pos = start + 1;
    let out = '';
    for (;;) {
      if (this.pos >= src.length) this.fail('Open string is not terminated', start);
      const ch = src[this.pos] as string;
      if (ch === '"') {
        if (src[this.pos + 1] === '"') {
          out += '"';
          this.pos += 2;
          continue;
        }
        this.pos++;
        return { kind: 'string', text: out, start, end: this.pos };
      }
      if (ch === '\n') this.fail('Open string is not terminated', start);
      if (ch === '\\') {
        const escStart = this.pos;
        this.pos++;
        const next = src[this.pos];
        if (next === '\n' || (next === '\r' && src[this.pos + 1] === '\n')) {
          this.pos += next === '\n' ? 1 : 2;
          let skipped = 0;
          while (skipped <= quoteColumn && (src[this.pos] === ' ' || src[this.pos] === '\t')) {
            this.pos++;
            skipped++;
          }
          continue;
        }
        out += this.escape(escStart);
        continue;
      }
      out += ch;
      this.pos++;
    }
  }

  char(start: number): Token {
    const src = this.src;
    this.pos = start + 1;
    let out = '';
    for (;;) {
      if (this.pos >= src.length || src[this.pos] === '\n') this.fail('Open string is not terminated', start);
      const ch = src[this.pos] as string;
      if (ch === "'") break;
      if (ch === '\\') {
        const escStart = this.pos;
        this.pos++;
        out += this.escape(escStart);
      } else {
        out += ch;
        this.pos++;
      }
    }
    this.pos++;
    const count = Array.from(out).length;
    if (count !== 1) this.fail(`Invalid character: '${out}'`, start);
    return { kind: 'char', text: out, start, end: this.pos };
  }

  backtick(start: number): Token {
    const src = this.src;
    this.pos = start + 1;
    if (src[this.pos] === '\n') this.pos++;
    else if (src[this.pos] === '\r' && src[this.pos + 1] === '\n') this.pos += 2;
    const parts: BacktickPart[] = [];
    let text = '';
    for (;;) {
      if (this.pos >= src.length) this.fail('Open string is not terminated', start);
      const ch = src[this.pos] as string;
      if (ch === '`') {
        if (src[this.pos + 1] === '`') {
          text += '`';
          this.pos += 2;
          continue;
        }
        this.pos++;
        break;
      }
      if (ch === '\\' && src.startsWith('${', this.pos + 1)) {
        // `\${` is a literal `${`
        text += '${';
        this.pos += 3;
        continue;
      }
      if (ch === '$' && src[this.pos + 1] === '{') {
        if (text.length > 0) parts.push({ kind: 'text', text });
        text = '';
        const codeStart = this.pos;
        this.pos += 2;
        const tokens = this.scan(true, start);
        parts.push({ kind: 'code', tokens, start: codeStart, end: this.pos });
        continue;
      }
      text += ch;
      this.pos++;
    }
    if (text.length > 0 || parts.length === 0) parts.push({ kind: 'text', text });
    return { kind: 'backtick', text: '`', start, end: this.pos, parts };
  }
}
