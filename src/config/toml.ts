// The one wrapper over the TOML parser (toml-eslint-parser). It turns the parser's AST into a small
// located value tree: every value and every key keeps its source offset, so any diagnostic can name a
// line and column. Syntax errors come back as a value, never thrown. Swapping parsers touches only this file.
import { parseTOML, ParseError, type AST } from 'toml-eslint-parser';
import { parse as parseFast, TomlDate } from 'smol-toml';
import { err, ok, type Result } from '../shared/result.js';
import { lineColumnAt } from '../shared/position.js';
import { findTomlMistake } from './toml-errors.js';

export type TomlNode = TomlString | TomlInteger | TomlFloat | TomlBoolean | TomlDateTime | TomlArray | TomlTable;

interface Located {
  /** offset of the value's first character (for a table made by a header or a dotted key: that key) */
  readonly offset: number;
}
export interface TomlString extends Located {
  readonly kind: 'string';
  readonly value: string;
}
export interface TomlInteger extends Located {
  readonly kind: 'integer';
  readonly value: bigint;
}
export interface TomlFloat extends Located {
  readonly kind: 'float';
  readonly value: number;
}
export interface TomlBoolean extends Located {
  readonly kind: 'boolean';
  readonly value: boolean;
}
export interface TomlDateTime extends Located {
  readonly kind: 'datetime';
  readonly value: string;
}
export interface TomlArray extends Located {
  readonly kind: 'array';
  readonly items: readonly TomlNode[];
}
export interface TomlEntry {
  /** offset of the key as written (the last segment of a dotted key) */
  readonly keyOffset: number;
  readonly node: TomlNode;
}
export interface TomlTable extends Located {
  readonly kind: 'table';
  /** insertion order is the order written */
  readonly entries: ReadonlyMap<string, TomlEntry>;
}

export interface TomlSyntaxError {
  readonly message: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** Parse a TOML document into a located tree, or the first syntax error (TOML parsing stops there). */
export function parseToml(text: string): Result<TomlTable, TomlSyntaxError> {
  let program: AST.TOMLProgram;
  try {
    program = parseTOML(text);
  } catch (e) {
    const mistake = findTomlMistake(text);
    if (mistake !== undefined)
      return err({ message: mistake.message, offset: mistake.offset, ...lineColumnAt(text, mistake.offset) });
    const raw = e instanceof Error ? e.message : String(e);
    const offset = unterminatedAt(text, e instanceof ParseError ? e.index : 0, raw);
    return err({ message: lowerFirst(raw), offset, ...lineColumnAt(text, offset) });
  }
  return ok(buildTree(program));
}

/**
 * The same tree as parseToml, made faster for large files: `smol-toml` reads the values (several times faster, and
 * far less garbage, than the located parser), and offsets are found only when something asks for one (a
 * diagnostic): the first such question parses the text again with the located parser and looks the node up by its
 * key path. A document the fast parser refuses, or one it would give in another order (integer-like keys, which JS
 * objects sort first) or shape (date-times, `__proto__`), goes straight to parseToml.
 */
export function parseTomlLazily(text: string): Result<TomlTable, TomlSyntaxError> {
  let doc: Record<string, unknown>;
  try {
    doc = parseFast(text, { integersAsBigInt: true });
  } catch {
    return parseToml(text); // the located parser's message and position
  }
  if (!representable(doc)) return parseToml(text);
  let located: TomlTable | undefined;
  const locator = (path: readonly (string | number)[]): { keyOffset?: number; offset: number } => {
    if (located === undefined) {
      const r = parseToml(text);
      located = r.ok ? r.value : newTable(0);
    }
    return locate(located, path) ?? { offset: 0 };
  };
  return ok(lazyNode(doc, undefined, '', locator) as TomlTable);
}

type Locator = (path: readonly (string | number)[]) => { keyOffset?: number; offset: number };
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;

/** Whether the fast parser's value can stand for the located tree (see parseTomlLazily). */
function representable(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'bigint':
    case 'number':
    case 'boolean':
      return true;
    default:
      break;
  }
  if (Array.isArray(v)) return v.every(representable);
  if (typeof v !== 'object' || v === null || v instanceof TomlDate || v instanceof Date) return false;
  for (const key in v) {
    if (INTEGER_LIKE.test(key) || key === '__proto__' || !representable((v as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/**
 * A view of one value of the fast parser's tree, made on demand. A table's entries are made once, on first read,
 * and kept by that view; an array's items are made afresh on each read and never kept, so a caller walking a long
 * array (a rule set's [[rules]]) can let each item's views go once it is done with it, rather than holding a
 * second copy of the whole tree: that copy, all alive at once, was most of the start-up garbage collection and of
 * the young generation's growth on large rule sets.
 */
class LazyNode {
  readonly kind: TomlNode['kind'];
  constructor(
    private readonly raw: unknown,
    private readonly parent: LazyNode | undefined,
    private readonly step: string | number,
    private readonly locator: Locator,
  ) {
    this.kind = kindOf(raw);
  }
  get value(): unknown {
    return this.kind === 'table' || this.kind === 'array' ? undefined : this.raw;
  }
  get items(): readonly TomlNode[] | undefined {
    if (this.kind !== 'array') return undefined;
    const raw = this.raw as readonly unknown[];
    const out: TomlNode[] = new Array<TomlNode>(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = lazyNode(raw[i], this, i, this.locator);
    return out;
  }
  private made: Map<string, TomlEntry> | undefined;
  get entries(): ReadonlyMap<string, TomlEntry> | undefined {
    if (this.kind !== 'table') return undefined;
    if (this.made !== undefined) return this.made;
    const raw = this.raw as Record<string, unknown>;
    const out = new Map<string, TomlEntry>();
    for (const key in raw) out.set(key, new LazyEntry(lazyNode(raw[key], this, key, this.locator)));
    return (this.made = out);
  }
  get offset(): number {
    return this.at().offset;
  }
  /** this value's offsets in the text (the located parser runs on the first call for the document) */
  at(): { keyOffset?: number; offset: number } {
    const path: (string | number)[] = [];
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a walk up the tree, starting here
    for (let n: LazyNode | undefined = this; n !== undefined && n.parent !== undefined; n = n.parent) path.push(n.step);
    return this.locator(path.reverse());
  }
}

class LazyEntry implements TomlEntry {
  constructor(readonly node: TomlNode) {}
  get keyOffset(): number {
    const at = (this.node as unknown as LazyNode).at();
    return at.keyOffset ?? at.offset;
  }
}

function kindOf(v: unknown): TomlNode['kind'] {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'bigint':
      return 'integer';
    case 'number':
      return 'float';
    case 'boolean':
      return 'boolean';
    default:
      return Array.isArray(v) ? 'array' : 'table';
  }
}

function lazyNode(v: unknown, parent: LazyNode | undefined, step: string | number, locator: Locator): TomlNode {
  return new LazyNode(v, parent, step, locator) as unknown as TomlNode;
}

/** The key and value offsets of a key path, when the path exists. */
export function locate(
  root: TomlTable,
  path: readonly (string | number)[],
): { keyOffset?: number; offset: number } | undefined {
  let node: TomlNode = root;
  let keyOffset: number | undefined;
  for (const step of path) {
    if (typeof step === 'number') {
      if (node.kind !== 'array') return undefined;
      const item: TomlNode | undefined = node.items[step];
      if (item === undefined) return undefined;
      node = item;
      keyOffset = undefined;
    } else {
      if (node.kind !== 'table') return undefined;
      const entry = node.entries.get(step);
      if (entry === undefined) return undefined;
      node = entry.node;
      keyOffset = entry.keyOffset;
    }
  }
  return keyOffset === undefined ? { offset: node.offset } : { keyOffset, offset: node.offset };
}

/** A short noun for a node's type, for "expected a string, found …" messages. */
export function describeKind(node: TomlNode): string {
  switch (node.kind) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'float':
      return 'a float';
    case 'boolean':
      return 'a boolean';
    case 'datetime':
      return 'a date-time';
    case 'array':
      return 'an array';
    case 'table':
      return 'a table';
  }
}

// ---- building the tree ------------------------------------------------------------------------------

interface MutableTable {
  kind: 'table';
  offset: number;
  entries: Map<string, TomlEntry>;
}
interface MutableArray {
  kind: 'array';
  offset: number;
  items: TomlNode[];
}

function buildTree(program: AST.TOMLProgram): TomlTable {
  const root = newTable(0);
  const top = program.body[0];
  for (const item of top.body) {
    if (item.type === 'TOMLKeyValue') addKeyValue(root, item);
    else {
      const table = openTable(root, item);
      for (const kv of item.body) addKeyValue(table, kv);
    }
  }
  return root;
}

function newTable(offset: number): MutableTable {
  return { kind: 'table', offset, entries: new Map() };
}

/** Walk a `[a.b]` or `[[a.b]]` header's resolved key, creating what is missing (the parser has checked validity). */
function openTable(root: MutableTable, header: AST.TOMLTable): MutableTable {
  let table = root;
  let array: MutableArray | undefined;
  let keyIndex = 0;
  const resolved = header.resolvedKey;
  for (let i = 0; i < resolved.length; i++) {
    const step = resolved[i]!;
    if (typeof step === 'number') {
      const items = array!.items;
      let item = items[step];
      if (item === undefined) {
        item = newTable(header.range[0]);
        items[step] = item;
      }
      table = item as MutableTable;
      array = undefined;
      continue;
    }
    const keyNode = header.key.keys[keyIndex++];
    const keyOffset = keyNode?.range[0] ?? header.range[0];
    const nextIsIndex = typeof resolved[i + 1] === 'number';
    let entry = table.entries.get(step);
    if (entry === undefined) {
      const last = i === resolved.length - 1;
      const node: MutableTable | MutableArray = nextIsIndex
        ? { kind: 'array', offset: header.range[0], items: [] }
        : newTable(last ? header.range[0] : keyOffset);
      entry = { keyOffset, node: node as TomlNode };
      table.entries.set(step, entry);
    }
    const node = entry.node as MutableTable | MutableArray;
    if (node.kind === 'array') array = node;
    else table = node;
  }
  return table;
}

function addKeyValue(table: MutableTable, kv: AST.TOMLKeyValue): void {
  const keys = kv.key.keys;
  let cur = table;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]!;
    const name = keyName(k);
    let entry = cur.entries.get(name);
    if (entry === undefined) {
      entry = { keyOffset: k.range[0], node: newTable(k.range[0]) as TomlNode };
      cur.entries.set(name, entry);
    }
    cur = entry.node as MutableTable;
  }
  const last = keys[keys.length - 1]!;
  cur.entries.set(keyName(last), { keyOffset: last.range[0], node: convertValue(kv.value) });
}

function keyName(k: AST.TOMLBare | AST.TOMLQuoted): string {
  return k.type === 'TOMLBare' ? k.name : k.value;
}

function convertValue(v: AST.TOMLContentNode): TomlNode {
  const offset = v.range[0];
  if (v.type === 'TOMLArray') return { kind: 'array', offset, items: v.elements.map(convertValue) };
  if (v.type === 'TOMLInlineTable') {
    const t = newTable(offset);
    for (const kv of v.body) addKeyValue(t, kv);
    return t;
  }
  switch (v.kind) {
    case 'string':
      return { kind: 'string', offset, value: v.value };
    case 'integer':
      return { kind: 'integer', offset, value: v.bigint };
    case 'float':
      return { kind: 'float', offset, value: v.value };
    case 'boolean':
      return { kind: 'boolean', offset, value: v.value };
    default:
      return { kind: 'datetime', offset, value: v.datetime };
  }
}

/** An unterminated construct is reported at the next line's start; point at the end of its own line instead. */
function unterminatedAt(text: string, offset: number, message: string): number {
  if (!/^unterminated/i.test(message) || offset === 0 || text[offset - 1] !== '\n') return offset;
  return text[offset - 2] === '\r' ? offset - 2 : offset - 1;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
