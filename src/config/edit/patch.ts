// Minimal text edits on TOML source: replace a value in place, rename a key, insert a key where its table
// lives, delete a pair, append an array element or a table. Nothing here reformats: every byte outside an
// edit's span stays as it was, comments included. Deciding what to edit is set-rule.ts's job.
import {
  deepestBody,
  findEntry,
  lineEnd,
  lineStart,
  tableSite,
  type Container,
  type Entry,
  type KeyPath,
  type Scope,
} from './spans.js';
import type { AST } from 'toml-eslint-parser';

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Apply non-overlapping edits; insertions at the same offset keep their order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.start - b.e.start || a.i - b.i);
  let out = '';
  let at = 0;
  for (const { e } of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at offset ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

// --- TOML spelling ---------------------------------------------------------------------------------

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

export function tomlKey(name: string): string {
  return BARE_KEY.test(name) ? name : tomlBasicString(name);
}

export function tomlDottedKey(parts: KeyPath): string {
  return parts.map(tomlKey).join('.');
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

export function tomlBasicString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const mapped = ESCAPES[ch];
    if (mapped !== undefined) out += mapped;
    else {
      const c = ch.codePointAt(0)!;
      out += c < 0x20 || c === 0x7f ? '\\u' + c.toString(16).toUpperCase().padStart(4, '0') : ch;
    }
  }
  return out + '"';
}

/** A literal string ('…', no escapes) when the text allows one, else a basic string. Used for JSON bodies. */
export function tomlPreferLiteralString(s: string): string {
  return /['\u0000-\u0008\u000a-\u001f\u007f]/.test(s) ? tomlBasicString(s) : `'${s}'`;
}

// --- reading the layout around an offset -----------------------------------------------------------

function indentOfLine(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

function newlineOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

// --- operations ------------------------------------------------------------------------------------

/** Replace the value of an existing pair. */
export function replaceValue(entry: Entry, valueText: string): TextEdit {
  const [start, end] = entry.node.value.range;
  return { start, end, text: valueText };
}

/** Rename the last part of an existing pair's key and replace its value (`text = "x"` → `json = '{}'`). */
export function renameAndReplace(entry: Entry, newName: string, valueText: string): TextEdit[] {
  const last = entry.node.key.keys[entry.node.key.keys.length - 1]!;
  return [{ start: last.range[0], end: last.range[1], text: tomlKey(newName) }, replaceValue(entry, valueText)];
}

/** Remove a pair: its whole line in a body (trailing comment included), or the pair and one comma inline. */
export function deleteEntry(text: string, entry: Entry): TextEdit {
  const [start, end] = entry.node.range;
  if (entry.container.kind === 'body') {
    const ls = lineStart(text, start);
    const from = /^[ \t]*$/.test(text.slice(ls, start)) ? ls : start;
    const le = lineEnd(text, end);
    if (from !== ls || !/^[ \t]*(#.*)?$/.test(text.slice(end, le))) return { start, end, text: '' };
    const nl = text.indexOf('\n', le);
    return { start: from, end: nl < 0 ? text.length : nl + 1, text: '' };
  }
  const siblings = entry.container.entries;
  const i = siblings.indexOf(entry);
  const next = siblings[i + 1];
  if (next !== undefined) return { start, end: next.node.range[0], text: '' };
  const prev = siblings[i - 1];
  if (prev !== undefined) return { start: prev.node.range[1], end, text: '' };
  return { start, end, text: '' };
}

/** Insert `key = value` as a new line after `anchor` (or after the header when the body is empty). */
function insertLineInBody(
  text: string,
  container: Container,
  anchor: Entry | undefined,
  keyParts: KeyPath,
  valueText: string,
): TextEdit {
  const nl = newlineOf(text);
  const line = `${tomlDottedKey(keyParts)} = ${valueText}`;
  if (anchor !== undefined) {
    const at = lineEnd(text, anchor.node.range[1]);
    return { start: at, end: at, text: nl + indentOfLine(text, anchor.node.range[0]) + line };
  }
  if (container.topLevel) return { start: 0, end: 0, text: line + nl };
  const at = container.headerEnd;
  return { start: at, end: at, text: nl + line };
}

/** Insert `key = value` into an inline table, after `anchor` (or as its only pair). */
function insertIntoInline(
  text: string,
  container: Container,
  anchor: Entry | undefined,
  keyParts: KeyPath,
  valueText: string,
): TextEdit {
  const pair = `${tomlDottedKey(keyParts)} = ${valueText}`;
  if (anchor !== undefined) {
    const at = anchor.node.range[1];
    return { start: at, end: at, text: `, ${pair}` };
  }
  const [start, end] = container.range;
  const inner = text.slice(start + 1, end - 1);
  if (/^\s*$/.test(inner)) return { start, end, text: `{ ${pair} }` };
  return { start: start + 1, end: start + 1, text: ` ${pair},` };
}

function lastEntryUnder(container: Container, prefix: KeyPath): Entry | undefined {
  let found: Entry | undefined;
  for (const e of container.entries) if (prefix.every((p, i) => e.path[i] === p)) found = e;
  return found;
}

function insertInto(
  text: string,
  container: Container,
  anchor: Entry | undefined,
  path: KeyPath,
  valueText: string,
): TextEdit {
  const keyParts = path.slice(container.prefix.length);
  return container.kind === 'inline'
    ? insertIntoInline(text, container, anchor, keyParts, valueText)
    : insertLineInBody(text, container, anchor, keyParts, valueText);
}

/**
 * Insert a pair for `path`, which must not exist yet, where its nearest existing table lives:
 * into that table's own container; beside the dotted keys that define it; or, when the table exists only
 * as the parent of a deeper header, as a dotted key in the deepest body that contains it.
 * Returns undefined when no container holds any part of the path (the caller appends a table instead).
 */
export function insertPair(text: string, scope: Scope, path: KeyPath, valueText: string): TextEdit | undefined {
  for (let n = path.length - 1; n >= 0; n--) {
    const table = path.slice(0, n);
    const site = tableSite(scope, table);
    if (site === undefined) continue;
    switch (site.kind) {
      case 'container':
        return insertInto(text, site.container, lastEntryOf(site.container), path, valueText);
      case 'dotted':
        return insertInto(text, site.container, lastEntryUnder(site.container, table), path, valueText);
      case 'implicit': {
        const body = deepestBody(scope, table);
        if (body === undefined) return undefined;
        return insertInto(text, body, lastEntryOf(body), path, valueText);
      }
    }
  }
  return undefined;
}

function lastEntryOf(container: Container): Entry | undefined {
  return container.entries[container.entries.length - 1];
}

/** Set `path` to `valueText`: replace in place when the pair exists, else insert it. */
export function setPair(text: string, scope: Scope, path: KeyPath, valueText: string): TextEdit | undefined {
  const existing = findEntry(scope, path);
  if (existing !== undefined) return replaceValue(existing, valueText);
  return insertPair(text, scope, path, valueText);
}

/**
 * Append one element to an array value, following its layout: on the same line for a one-line array;
 * on a new line, after any comment that ends the last element's line, for one element per line.
 */
export function appendArrayElement(text: string, array: AST.TOMLArray, elementText: string): TextEdit[] {
  const [start, end] = array.range;
  const last = array.elements[array.elements.length - 1];
  if (last === undefined) {
    const inner = text.slice(start + 1, end - 1);
    if (/^\s*$/.test(inner)) return [{ start, end, text: `[${elementText}]` }];
    return [{ start: start + 1, end: start + 1, text: `${elementText}, ` }];
  }
  const comma = /^\s*,/.exec(text.slice(last.range[1], end - 1));
  const afterLast = last.range[1] + (comma === null ? 0 : comma[0].length);
  const first = array.elements[0]!;
  if (!text.slice(start, first.range[0]).includes('\n')) {
    return comma === null
      ? [{ start: afterLast, end: afterLast, text: `, ${elementText}` }]
      : [{ start: afterLast, end: afterLast, text: ` ${elementText},` }];
  }
  const indent = indentOfLine(text, last.range[0]);
  const nl = newlineOf(text);
  const eol = lineEnd(text, afterLast);
  const at = /^[ \t]*(#.*)?$/.test(text.slice(afterLast, eol)) ? eol : afterLast;
  const added = { start: at, end: at, text: `${nl}${indent}${elementText}${comma === null ? '' : ','}` };
  return comma === null ? [{ start: afterLast, end: afterLast, text: ',' }, added] : [added];
}

/** Append a block of lines (a new table) at the end of the text, separated by one blank line. */
export function appendBlock(text: string, block: string): TextEdit {
  const nl = newlineOf(text);
  const body = block.replace(/\r?\n/g, nl);
  let lead = '';
  if (text.length > 0) {
    if (!text.endsWith('\n')) lead = nl + nl;
    else if (!/\n[ \t]*\r?\n$/.test(text)) lead = nl;
  }
  return { start: text.length, end: text.length, text: lead + body };
}
