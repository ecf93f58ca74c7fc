// Offsets are stored; line and column are computed only when reported (acorn's getLineInfo).

export interface LineColumn {
  readonly line: number; // 1-based
  readonly column: number; // 1-based, in UTF-16 code units
}

export function lineColumnAt(text: string, offset: number): LineColumn {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
