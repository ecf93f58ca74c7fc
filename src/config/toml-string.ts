// Where a character of a TOML string value stands in the file: a template's syntax error is found inside the
// decoded string, and is reported at the file's own line and column. Walks the literal as written: quotes, the
// newline a multi-line string drops after its opening quotes, escapes, and a line-ending backslash's trimming.

/** The file offset of the decoded string's character `index`, for the string literal starting at `start`. */
export function offsetInTomlString(text: string, start: number, index: number): number {
  const quote = text[start];
  if (quote !== '"' && quote !== "'") return start;
  const multi = text.startsWith(quote.repeat(3), start);
  let i = start + (multi ? 3 : 1);
  if (multi && text[i] === '\n') i += 1;
  else if (multi && text[i] === '\r' && text[i + 1] === '\n') i += 2;
  let n = 0;
  while (i < text.length && n < index) {
    const c = text[i]!;
    if (quote === "'" || c !== '\\') {
      i += 1;
      n += 1;
      continue;
    }
    const e = text[i + 1];
    if (e === 'u') {
      i += 6;
      n += 1;
    } else if (e === 'U') {
      const cp = parseInt(text.slice(i + 2, i + 10), 16);
      i += 10;
      n += cp > 0xffff ? 2 : 1;
    } else if (multi && (e === ' ' || e === '\t' || e === '\n' || e === '\r')) {
      i += 1;
      while (i < text.length && /[ \t\r\n]/.test(text[i]!)) i += 1;
    } else {
      i += 2;
      n += 1;
    }
  }
  return i;
}

/** The index in `source` of a 1-based line and column. */
export function indexOfLineColumn(source: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', at);
    if (nl < 0) return source.length;
    at = nl + 1;
  }
  return Math.min(source.length, at + column - 1);
}
