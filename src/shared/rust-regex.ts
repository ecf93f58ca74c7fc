// Rust `regex` crate syntax → a JavaScript RegExp, compiled once at load.
//
// Rule files are written for the Rust regex dialect (the one apimock-rs uses). Most of it is valid JavaScript with the
// 'u' flag; this translator rewrites the common differences and leaves the rest to the JS engine:
//   leading (?i) (?m) (?s) (and combinations such as (?is))  → JS flags
//   (?P<name>…)                                              → (?<name>…)
//   \A  \z                                                   → ^  $
//   \pL  \PL (one-letter class without braces)               → \p{L}  \P{L}
//   [[:alpha:]] and the other ASCII classes inside […]        → explicit ranges
//   \# \& \~ … (escaped punctuation JS 'u' mode refuses)      → the literal character
// Matching stays unanchored, as Rust's is_match is. Flags in mid-pattern and (?x) are not translated;
// the engine then refuses the pattern, which becomes a load error.
import { err, ok, type Result } from './result.js';

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Characters JS accepts after a backslash in 'u' mode outside a class (besides letters and digits). */
const JS_SYNTAX_CHARS = new Set('^$\\.*+?()[]{}|/');
const LEADING_FLAGS = /^\(\?([a-zA-Z]+)\)/;
const JS_FLAG_FOR: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 's' };

/** Compile a Rust-dialect pattern. The error is the engine's reason, without the pattern echoed. */
export function compileRustRegex(pattern: string): Result<RegExp, string> {
  const translated = translateRustRegex(pattern);
  if (!translated.ok) return translated;
  try {
    return ok(new RegExp(translated.value.source, translated.value.flags));
  } catch (e) {
    return err(reasonOf(e));
  }
}

/** The JS source and flags for a Rust-dialect pattern (exported for tests). */
export function translateRustRegex(pattern: string): Result<{ source: string; flags: string }, string> {
  let flags = 'u';
  let rest = pattern;
  const lead = LEADING_FLAGS.exec(rest);
  if (lead !== null) {
    for (const f of lead[1]!) {
      const js = JS_FLAG_FOR[f];
      if (js === undefined) return err(`the inline flag \`${f}\` is not supported`);
      if (!flags.includes(js)) flags += js;
    }
    rest = rest.slice(lead[0].length);
  }
  return ok({ source: translateBody(rest), flags });
}

function translateBody(p: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      const n = p[i + 1];
      if (n === undefined) return out + c; // dangling backslash: let the engine refuse it
      i++;
      if (!inClass && n === 'A') out += '^';
      else if (!inClass && n === 'z') out += '$';
      else if ((n === 'p' || n === 'P') && p[i + 1] !== undefined && p[i + 1] !== '{') {
        out += `\\${n}{${p[i + 1]}}`;
        i++;
      } else if (/[A-Za-z0-9]/.test(n) || JS_SYNTAX_CHARS.has(n) || (inClass && n === '-')) out += '\\' + n;
      else out += n;
      continue;
    }
    if (inClass) {
      if (c === '[' && p[i + 1] === ':') {
        const end = p.indexOf(':]', i + 2);
        const name = end < 0 ? undefined : p.slice(i + 2, end);
        const range = name === undefined ? undefined : POSIX_CLASSES[name];
        if (range !== undefined) {
          out += range;
          i = end + 1;
          continue;
        }
      }
      if (c === '[') {
        out += '\\['; // a literal '[' inside a class must be escaped in 'u' mode
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // a leading ']' (or '^]') is a literal in Rust
      if (p[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (p[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && p.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    out += c;
  }
  return out;
}

function reasonOf(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  // V8: "Invalid regular expression: /(/u: Unterminated group" → "unterminated group"
  const m = /^Invalid regular expression: \/.*\/[a-z]*: (.*)$/s.exec(message);
  const reason = m?.[1] ?? message;
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}
