// TOML syntax errors at the mistake, with the fix for the common ones (docs/files-and-rules.md, "TOML mistakes").
// The located parser often notices a mistake only on the next line (`[[rules]` is reported where the next key
// starts); smol-toml stops where the text goes wrong, so its position is taken, and the line there is looked at
// for the usual slips: an unclosed `[`, JSON in a "…" string, a bare word for a string, a key with spaces.
import { parse as parseFast, TomlError } from 'smol-toml';

export interface TomlMistake {
  /** offset of the mistake in the text */
  readonly offset: number;
  readonly message: string;
}

/** The mistake in a text the located parser refused; undefined when smol-toml accepts it (keep the other message). */
export function findTomlMistake(text: string): TomlMistake | undefined {
  try {
    parseFast(text);
    return undefined;
  } catch (e) {
    if (!(e instanceof TomlError)) return undefined;
    const offset = offsetOf(text, e.line, e.column);
    const reason = firstLine(e.message).replace(/^Invalid TOML document: /, '');
    return explain(text, offset, e.line, reason);
  }
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + Math.max(0, column - 1));
}

function firstLine(s: string): string {
  const nl = s.indexOf('\n');
  return nl < 0 ? s : s.slice(0, nl);
}

function lineAt(text: string, line: number): { start: number; text: string } {
  let start = 0;
  for (let l = 1; l < line; l++) start = text.indexOf('\n', start) + 1;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  return { start, text: text.slice(start, end).replace(/\r$/, '') };
}

/** The end of the line's content, before a comment and trailing blanks: where a missing closer goes. */
function endOfContent(line: string): number {
  const hash = line.indexOf('#');
  return (hash < 0 ? line : line.slice(0, hash)).trimEnd().length;
}

function explain(text: string, offset: number, lineNo: number, reason: string): TomlMistake {
  const { start, text: line } = lineAt(text, lineNo);
  const trimmed = line.trim();
  const at = (column0: number, message: string): TomlMistake => ({ offset: start + column0, message });

  // table headers
  const header = /^\[\[?\s*([^\]#]*?)\s*(\]{0,2})\s*(?:#.*)?$/.exec(trimmed);
  if (trimmed.startsWith('[[') && header !== null && header[2] !== ']]') {
    return at(
      endOfContent(line),
      `missing "]" to close [[${header[1]}] (an array of tables is written [[${header[1]}]])`,
    );
  }
  if (trimmed.startsWith('[') && !trimmed.startsWith('[[') && header !== null && header[2] === '') {
    return at(endOfContent(line), `missing "]" to close [${header[1]} (a table header is written [${header[1]}])`);
  }
  if (/^\[[^[\]]+\]\]/.test(trimmed)) {
    const name = /^\[([^\]]+)\]/.exec(trimmed)![1]!;
    return at(
      line.indexOf(']]'),
      `one "]" too many: write [${name}] for a table or [[${name}]] for an array of tables`,
    );
  }

  const eq = line.indexOf('=');
  if (eq >= 0 && !trimmed.startsWith('[')) {
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    // JSON inside a basic string: the first inner quote ends it
    if (/^"\s*[[{]/.test(value) && /"\s*:|"\s*,|[{[]\s*"/.test(value.slice(1))) {
      const json = value.slice(1, value.lastIndexOf('"') > 0 ? value.lastIndexOf('"') : value.length);
      return at(
        eq + 1 + line.slice(eq + 1).indexOf('"'),
        `JSON inside "…" ends the string at the first inner quote: use a literal string '${json}' or a multi-line '''…'''`,
      );
    }
    if (key === '') return at(line.indexOf('='), 'missing key before "=" (write key = value)');
    if (value.startsWith('=')) return at(eq + 1, 'one "=" between a key and its value (write key = value)');
    if (value === '' || value.startsWith('#'))
      return at(Math.min(line.length, eq + 2), `missing value after "${key} =" (a string needs quotes: ${key} = "…")`);
    if (/^[A-Za-z_][\w-]*\s+[A-Za-z_][\w-]*$/.test(key) && !/^["']/.test(key)) {
      return at(line.indexOf(key) + key.search(/\s/), `a key with spaces needs quotes: "${key}" = …`);
    }
    if (/^(True|False|TRUE|FALSE|yes|no|on|off|null|nil|None)\b/.test(value)) {
      const word = /^\w+/.exec(value)![0];
      const fix = /^(true|yes|on)$/i.test(word) ? 'true' : /^(false|no|off)$/i.test(word) ? 'false' : `"${word}"`;
      return at(
        eq + 1 + line.slice(eq + 1).indexOf(word),
        `${word} is not a TOML value: write ${fix} (booleans are lowercase true and false; text needs quotes)`,
      );
    }
    if (/^[A-Za-z_/]/.test(value) && !/^(true|false|inf|nan)\b/.test(value)) {
      return at(
        eq + 1 + line.slice(eq + 1).indexOf(value[0]!),
        `a string value needs quotes: ${key} = "${value.replace(/\s*#.*$/, '')}"`,
      );
    }
    if (/^"(?:[^"\\]|\\.)*$/.test(value) && !value.startsWith('"""'))
      return at(
        endOfContent(line),
        'missing closing " (a "…" string ends on the same line; use """…""" for several lines)',
      );
    if (/^'[^']*$/.test(value) && !value.startsWith("'''"))
      return at(
        endOfContent(line),
        "missing closing ' (a '…' string ends on the same line; use '''…''' for several lines)",
      );
    if (/^\{/.test(value) && !/\}\s*(?:#.*)?$/.test(value)) {
      return at(
        endOfContent(line),
        'missing "}" to close the inline table (an inline table { … } is written on one line)',
      );
    }
    if (/,\s*\}\s*(?:#.*)?$/.test(value))
      return at(line.lastIndexOf(','), 'an inline table takes no comma after its last entry');
    if (/^\[/.test(value) && reason.startsWith('expected comma or end of structure') && !/\]\s*(?:#.*)?$/.test(value)) {
      return at(endOfContent(line), 'missing "]" to close the array');
    }
    if (/,\s*(?:#.*)?$/.test(value) && !/^[[{]/.test(value))
      return at(line.lastIndexOf(','), 'no "," after a value: each key = value stands on its own line');
  }
  // a multi-line array left open: the parser stops on the next line
  if (reason.startsWith('expected comma or end of structure')) {
    const prev = lineNo > 1 ? lineAt(text, lineNo - 1) : undefined;
    if (prev !== undefined && /=\s*\{/.test(prev.text))
      return {
        offset: prev.start + endOfContent(prev.text),
        message: 'missing "}" to close the inline table (an inline table { … } is written on one line)',
      };
    if (prev !== undefined && /=\s*\[/.test(prev.text))
      return { offset: prev.start + endOfContent(prev.text), message: 'missing "]" to close the array' };
  }
  if (reason.startsWith('trying to redefine')) {
    const key = /^\s*([^=\s]+)\s*=/.exec(line)?.[1] ?? /^\s*\[+\s*([^\]]+?)\s*\]/.exec(line)?.[1];
    return {
      offset,
      message:
        key === undefined
          ? 'this key or table is already defined above'
          : `the key \`${key}\` is already defined above (a key or table may appear once)`,
    };
  }
  return { offset, message: reason };
}
