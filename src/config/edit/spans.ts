// Where things are in a TOML text: the spans of the key/value pairs and tables that make up one "scope"
// (the whole document, or one `[[rules]]` element), found with toml-eslint-parser's ranges.
//
// A scope's keys can be spread over several places, and `set rule` must edit them where they are:
//   - the scope's own body (`[[rules]]` followed by key/value lines, or the document's top level);
//   - sub-tables whose header names a path inside the scope (`[rules.respond]`, `[service]`);
//   - inline tables (`respond = { text = "x" }`), which are closed: keys can only go between their braces;
//   - dotted keys (`when.request.url_path = "/x"`), which define tables implicitly in their own body.
// Each place is a Container; each key/value pair is an Entry with its full path relative to the scope.
// What is left out: writing (patch.ts) and deciding what to write (set-rule.ts).
import { parseTOML, getStaticTOMLValue, type AST } from 'toml-eslint-parser';
import { lineColumnAt } from '../../shared/position.js';
import { err, ok, type Result } from '../../shared/result.js';

export type TomlProgram = AST.TOMLProgram;
export type TomlKeyValue = AST.TOMLKeyValue;

export interface TomlSyntaxProblem {
  readonly message: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export function parseTomlText(text: string): Result<TomlProgram, TomlSyntaxProblem> {
  try {
    return ok(parseTOML(text));
  } catch (e) {
    const offset = typeof (e as { index?: unknown }).index === 'number' ? (e as { index: number }).index : 0;
    const { line, column } = lineColumnAt(text, offset);
    const message = e instanceof Error ? e.message : String(e);
    return err({ message, offset, line, column });
  }
}

/** Plain data for the whole document (tables as objects, arrays, strings, numbers, booleans, dates). */
export function staticValueOf(ast: TomlProgram): Record<string, unknown> {
  return getStaticTOMLValue(ast);
}

export type KeyPath = readonly string[];

export interface Container {
  /** `body`: a table header (or the top level) followed by key/value lines; `inline`: `{ … }` */
  readonly kind: 'body' | 'inline';
  /** the table this container defines, relative to the scope */
  readonly prefix: KeyPath;
  readonly entries: readonly Entry[];
  /** body: offset just after the header line's last character before its line break (top level: 0) */
  readonly headerEnd: number;
  /** true for the top level of the document (no header line) */
  readonly topLevel: boolean;
  /** inline: the `{ … }` node's range */
  readonly range: readonly [number, number];
}

export interface Entry {
  /** full path relative to the scope */
  readonly path: KeyPath;
  /** the key's parts as written (relative to its container) */
  readonly keyParts: KeyPath;
  readonly node: TomlKeyValue;
  readonly container: Container;
}

export interface Scope {
  readonly containers: readonly Container[];
  readonly entries: readonly Entry[];
}

function keyNames(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
}

function isPrefix(prefix: KeyPath, path: KeyPath): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

function samePath(a: KeyPath, b: KeyPath): boolean {
  return a.length === b.length && isPrefix(a, b);
}

/** Offset of the end of the line holding `offset` (the index of its '\n', or the text's length). */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl > 0 && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Offset of the start of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

class ScopeBuilder {
  readonly containers: Container[] = [];
  readonly entries: Entry[] = [];

  add(
    kind: Container['kind'],
    prefix: KeyPath,
    body: readonly TomlKeyValue[],
    headerEnd: number,
    topLevel: boolean,
    range: readonly [number, number],
  ): void {
    const entries: Entry[] = [];
    const container: Container = { kind, prefix, entries, headerEnd, topLevel, range };
    this.containers.push(container);
    for (const node of body) {
      const keyParts = keyNames(node.key);
      const entry: Entry = { path: [...prefix, ...keyParts], keyParts, node, container };
      entries.push(entry);
      this.entries.push(entry);
      if (node.value.type === 'TOMLInlineTable') {
        this.add('inline', entry.path, node.value.body, node.value.range[0], false, node.value.range);
      }
    }
  }
}

function tableHeaderEnd(text: string, table: AST.TOMLTable): number {
  return lineEnd(text, table.key.range[1]);
}

/** The document as one scope: top-level pairs plus every standard `[table]` (array tables are skipped). */
export function documentScope(text: string, ast: TomlProgram): Scope {
  const b = new ScopeBuilder();
  const top = ast.body[0];
  const topPairs = top.body.filter((n): n is TomlKeyValue => n.type === 'TOMLKeyValue');
  b.add('body', [], topPairs, 0, true, top.range);
  for (const n of top.body) {
    if (n.type !== 'TOMLTable' || n.kind !== 'standard') continue;
    if (n.resolvedKey.some((k) => typeof k === 'number')) continue;
    b.add('body', n.resolvedKey as string[], n.body, tableHeaderEnd(text, n), false, n.range);
  }
  return b;
}

export interface RulesLayout {
  /** number of elements in the top-level `rules` array of tables */
  readonly count: number;
  /** `rules` is written some other way than `[[rules]]` tables (an inline array, a dotted key…) */
  readonly notArrayOfTables: boolean;
}

export function rulesLayout(ast: TomlProgram): RulesLayout {
  const top = ast.body[0];
  let count = 0;
  let other = false;
  for (const n of top.body) {
    if (n.type === 'TOMLKeyValue') {
      if (keyNames(n.key)[0] === 'rules') other = true;
      continue;
    }
    const k = n.resolvedKey;
    if (k[0] !== 'rules') continue;
    if (n.kind === 'array' && k.length === 2 && typeof k[1] === 'number') count = Math.max(count, k[1] + 1);
    else if (k.length === 1 || typeof k[1] !== 'number') other = true;
  }
  return { count, notArrayOfTables: other };
}

/** One `[[rules]]` element as a scope, or undefined when there is no element `index`. */
export function ruleScope(text: string, ast: TomlProgram, index: number): Scope | undefined {
  const b = new ScopeBuilder();
  for (const n of ast.body[0].body) {
    if (n.type !== 'TOMLTable') continue;
    const k = n.resolvedKey;
    if (k[0] !== 'rules' || k[1] !== index) continue;
    const rest = k.slice(2);
    if (rest.some((x) => typeof x === 'number')) continue;
    b.add('body', rest as string[], n.body, tableHeaderEnd(text, n), false, n.range);
  }
  return b.containers.length === 0 ? undefined : b;
}

export function findEntry(scope: Scope, path: KeyPath): Entry | undefined {
  return scope.entries.find((e) => samePath(e.path, path));
}

/** How a table at `path` exists in the scope, if it does. */
export type TableSite =
  | { readonly kind: 'container'; readonly container: Container }
  /** defined by dotted keys in `container`; `anchor` is the last pair there that passes through it */
  | { readonly kind: 'dotted'; readonly container: Container; readonly anchor: Entry }
  /** exists only as the parent of a deeper `[table]` header */
  | { readonly kind: 'implicit' };

export function tableSite(scope: Scope, path: KeyPath): TableSite | undefined {
  const own = scope.containers.find((c) => samePath(c.prefix, path));
  if (own !== undefined) return { kind: 'container', container: own };
  let anchor: Entry | undefined;
  for (const e of scope.entries) {
    if (e.path.length > path.length && isPrefix(path, e.path) && e.container.prefix.length < path.length) anchor = e;
  }
  if (anchor !== undefined) return { kind: 'dotted', container: anchor.container, anchor };
  if (scope.containers.some((c) => c.prefix.length > path.length && isPrefix(path, c.prefix)))
    return { kind: 'implicit' };
  return undefined;
}

/** The deepest body container whose table contains `path` (the scope's own body at worst). */
export function deepestBody(scope: Scope, path: KeyPath): Container | undefined {
  let best: Container | undefined;
  for (const c of scope.containers) {
    if (c.kind !== 'body' || !isPrefix(c.prefix, path)) continue;
    if (best === undefined || c.prefix.length > best.prefix.length) best = c;
  }
  return best;
}
