// wild_card patterns (docs/reference/operators.md) → an anchored RegExp, compiled once at load.
// `*` is zero or more of any characters, '/' included; `?` is exactly one character (one code point);
// every other character is literal and case-sensitive; the whole string must match.
// No classes, escapes or braces; no leading '/' is added.

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

export function wildcardToRegExp(pattern: string): RegExp {
  let src = '';
  for (const ch of pattern) {
    if (ch === '*') src += '[\\s\\S]*';
    else if (ch === '?') src += '[\\s\\S]';
    else if (REGEX_SPECIAL.test(ch)) src += '\\' + ch;
    else src += ch;
  }
  return new RegExp(`^${src}$`, 'u');
}
