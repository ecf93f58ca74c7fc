// The one wrapper over the TOML parser (toml-eslint-parser). It turns the parser's AST into a small
// located value tree: every value and every key keeps its source offset, so any diagnostic can name a
// line and column. Syntax errors come back as a value, never thrown. Swapping parsers touches only this file.
import { parseTOML, ParseError, type AST } from 'toml-eslint-parser';
import { parse as parseFast, TomlDate } from 'smol-toml';
import { err, ok, type Result } from '../shared/result.js';
import { lineColumnAt } from '../shared/position.js';

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
    doc = parseFast(text, { integersAsBigInt: true }) as Record<string, unknown>;
  } catch {
    return parseToml(text); // the located parser's message and position
  }
  let located: TomlTable | undefined;
  const locator = (path: readonly (string | number)[]): { keyOffset?: number; offset: number } => {
    if (located === undefined) {
      const r = parseToml(text);
      located = r.ok ? r.value : newTable(0);
    }
    return locate(located, path) ?? { offset: 0 };
  };
  const tree = fastNode(doc, [], locator);
  return tree === undefined || tree.kind !== 'table' ? parseToml(text) : ok(tree);
}

type Locator = (path: readonly (string | number)[]) => { keyOffset?: number; offset: number };
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;

class LazyNode {
  constructor(
    readonly kind: TomlNode['kind'],
    private readonly path: readonly (string | number)[],
    private readonly locator: Locator,
    readonly value?: unknown,
    readonly items?: readonly TomlNode[],
    readonly entries?: ReadonlyMap<string, TomlEntry>,
  ) {}
  get offset(): number {
    return this.locator(this.path).offset;
  }
}

class LazyEntry implements TomlEntry {
  constructor(
    readonly node: TomlNode,
    private readonly path: readonly (string | number)[],
    private readonly locator: Locator,
  ) {}
  get keyOffset(): number {
    const at = this.locator(this.path);
    return at.keyOffset ?? at.offset;
  }
}

/** undefined: this value cannot be represented faithfully (the caller falls back to the located parser) */
function fastNode(v: unknown, path: readonly (string | number)[], locator: Locator): TomlNode | undefined {
  switch (typeof v) {
    case 'string':
      return new LazyNode('string', path, locator, v) as unknown as TomlNode;
    case 'bigint':
      return new LazyNode('integer', path, locator, v) as unknown as TomlNode;
    case 'number':
      return new LazyNode('float', path, locator, v) as unknown as TomlNode;
    case 'boolean':
      return new LazyNode('boolean', path, locator, v) as unknown as TomlNode;
  }
  if (Array.isArray(v)) {
    const items: TomlNode[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = fastNode(v[i], [...path, i], locator);
      if (item === undefined) return undefined;
      items.push(item);
    }
    return new LazyNode('array', path, locator, undefined, items) as unknown as TomlNode;
  }
  if (typeof v !== 'object' || v === null || v instanceof TomlDate || v instanceof Date) return undefined;
  const entries = new Map<string, TomlEntry>();
  for (const key of Object.keys(v)) {
    if (INTEGER_LIKE.test(key) || key === '__proto__') return undefined;
    const childPath = [...path, key];
    const node = fastNode((v as Record<string, unknown>)[key], childPath, locator);
    if (node === undefined) return undefined;
    entries.set(key, new LazyEntry(node, childPath, locator));
  }
  return new LazyNode('table', path, locator, undefined, undefined, entries) as unknown as TomlNode;
}

/** The key and value offsets of a key path, when the path exists. */
export function locate(root: TomlTable, path: readonly (string | number)[]): { keyOffset?: number; offset: number } | undefined {
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
    return t as TomlNode;
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
