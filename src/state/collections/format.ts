// How a persisted data file is written back: in the style it was found in (its indent, one line or many, a final
// newline), with the data's own key order. Pure; the write itself is the server's (server/collections-persist.ts).

export interface JsonStyle {
  /** '' for a one-line file; else the indent of its first indented line ('  ' when there is none) */
  readonly indent: string;
  readonly finalNewline: boolean;
}

/** The style of a JSON text as written: json-server's own files are 2-space JSON with no final newline. */
export function styleOf(text: string): JsonStyle {
  const finalNewline = text.endsWith('\n');
  const body = text.trimEnd();
  if (!body.includes('\n')) return { indent: body.length === 0 ? '  ' : '', finalNewline };
  const m = /\n([ \t]+)\S/.exec(body);
  return { indent: m === null ? '  ' : m[1]!, finalNewline };
}

/** The data as text in that style. */
export function renderJson(data: unknown, style: JsonStyle): string {
  const text = style.indent === '' ? JSON.stringify(data) : JSON.stringify(data, null, style.indent);
  return style.finalNewline ? `${text}\n` : text;
}
