// Listing a collection the way json-server 0.17 does (docs/state.md, "Collections"): full-text `q`, field filters
// with `_gte` / `_lte` / `_ne` / `_like`, `_sort` / `_order`, then `_page` / `_limit` or `_start` / `_end` /
// `_limit`. Pure: items and query in, the page and its headers' values out. The quirks kept on purpose (a filter on
// a field no item has is ignored; `_gte` compares as JavaScript does; the `link` URLs are made by replacing
// `page=<n>` in the request URL) are json-server's, so a client written against it sees the same answers.
import { linearRegex, linearRegexLoaded, patternExcerpt, type LinearRegex } from '../../shared/linear-regex.js';
import type { CollectionItem } from '../../model/collection.js';

export type Query = ReadonlyMap<string, readonly string[]>;

/** true when listing with this query needs the `_like` engine and it is not loaded yet (loadLinearRegex first) */
export function needsLikeEngine(query: Query): boolean {
  if (linearRegexLoaded()) return false;
  for (const key of query.keys()) if (key.endsWith('_like')) return true;
  return false;
}

export interface ListResult {
  readonly items: readonly CollectionItem[];
  /** `x-total-count`: the count before slicing; set when `_page`, `_limit` or `_end` is given */
  readonly totalCount?: number;
  /** `link`: set (possibly empty) when `_page` is given */
  readonly link?: string;
}

export type ListAnswer =
  | { readonly ok: true; readonly result: ListResult }
  | { readonly ok: false; readonly message: string };

/** names json-server takes out of the query before filtering (`_page` is not among them: see `kept`) */
const RESERVED = new Set(['q', '_start', '_end', '_sort', '_order', '_limit', '_embed', '_expand']);
const SUFFIX = /(_lte|_gte|_ne|_like)$/;

/**
 * One page of `items` for `query`. `url` is the request's path and query as received: the `link` header's URLs are
 * made from it. A `_like` value that is not a regular expression is refused (json-server answers 500), and so is
 * one the linear-time engine does not take (see likePatterns).
 */
export function listItems(
  items: readonly CollectionItem[],
  query: Query,
  url: string,
  fields?: ReadonlySet<string>,
): ListAnswer {
  const first = (name: string): string | undefined => query.get(name)?.[0];
  // a new array only where a step makes one: listing a page of a large collection copies nothing else
  let out: readonly CollectionItem[] = items;

  const q = first('q');
  if (q !== undefined && q !== '') {
    const needle = q.toLowerCase();
    out = out.filter((item) => deepQuery(item, needle));
  }

  for (const [key, values] of query) {
    if (RESERVED.has(key) || key === 'callback' || key === '_' || !kept(items, key, fields)) continue;
    const m = SUFFIX.exec(key);
    const op = m === null ? '' : m[1]!;
    const path = m === null ? key : key.slice(0, -op.length);
    let patterns: LinearRegex[] | undefined;
    if (op === '_like') {
      const compiled = likePatterns(key, values);
      if (typeof compiled === 'string') return { ok: false, message: compiled };
      patterns = compiled;
    }
    out = out.filter((item) => {
      const v = getPath(item, path);
      if (v === undefined || v === null) return false;
      if (op === '_ne') return values.every((value) => value !== jsText(v));
      if (op === '_gte') return values.some((value) => looseCompare(value, v) <= 0);
      if (op === '_lte') return values.some((value) => looseCompare(value, v) >= 0);
      if (patterns !== undefined) return patterns.some((p) => p.test(jsText(v)));
      return values.some((value) => value === jsText(v));
    });
  }

  const sort = first('_sort');
  if (sort !== undefined && sort !== '') {
    const keys = sort.split(',');
    const orders = (first('_order') ?? '').split(',').map((s) => s.toLowerCase());
    out = orderBy(out, keys, orders);
  }

  const page = first('_page');
  const end = first('_end');
  const limit = first('_limit');
  const counted = truthy(end) || truthy(limit) || truthy(page);
  const totalCount = out.length;
  let link: string | undefined;
  if (truthy(page)) {
    const n = parseIntLoose(page);
    const current = n >= 1 ? n : 1;
    const perPage = parseIntLoose(limit) || 10;
    const p = pageOf(out, current, perPage);
    const links: [string, number | undefined][] = [
      ['first', p.first],
      ['prev', p.prev],
      ['next', p.next],
      ['last', p.last],
    ];
    link = links
      .filter(([, to]) => to !== undefined && to !== 0)
      .map(([rel, to]) => `<${url.replace(`page=${p.current}`, `page=${to}`)}>; rel="${rel}"`)
      .join(', ');
    out = p.items;
  } else if (truthy(end)) {
    out = out.slice(parseIntLoose(first('_start')) || 0, parseIntLoose(end));
  } else if (truthy(limit)) {
    const start = parseIntLoose(first('_start')) || 0;
    out = out.slice(start, start + parseIntLoose(limit));
  }
  const result: ListResult = {
    items: out,
    ...(counted ? { totalCount } : {}),
    ...(link === undefined ? {} : { link }),
  };
  return { ok: true, result };
}

/**
 * A `_like` filter's patterns, compiled for RE2's linear-time engine (re2js), case-insensitive as json-server's:
 * the pattern comes from the request, and a backtracking engine lets one pattern (`^(a+)+$`) hold the server for
 * minutes. A pattern JavaScript refuses is refused with JavaScript's message; one RE2 refuses (backreferences,
 * lookahead, lookbehind, a repeat count over 1,000) is refused saying so (docs/state.md#differences-from-json-server).
 */
function likePatterns(key: string, values: readonly string[]): LinearRegex[] | string {
  const out: LinearRegex[] = [];
  for (const v of values) {
    const re = linearRegex(v, { ignoreCase: true, jsFlags: 'i' });
    if ('invalid' in re) return `${key}: ${re.invalid}`;
    if ('refused' in re)
      return (
        `${key}: ${patternExcerpt(v)} is not taken: patterns from a request are matched in linear time (RE2 syntax), ` +
        `which has no backreferences, lookahead or lookbehind and repeats at most 1000 times ` +
        `(${re.refused}); see docs/state.md#differences-from-json-server-0174`
      );
    out.push(re);
  }
  return out;
}

/**
 * A JSON value as JavaScript's `toString` writes it, which is what json-server compares query values with: an
 * object is `[object Object]`, an array its items joined by commas.
 */
export function jsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return String(v);
  return (v as { toString(): string }).toString();
}

function truthy(v: string | undefined): v is string {
  return v !== undefined && v !== '';
}

/** parseInt(v, 10) with NaN for an absent value, as JavaScript's (Array#slice reads NaN as 0) */
function parseIntLoose(v: string | undefined): number {
  return v === undefined ? Number.NaN : Number.parseInt(v, 10);
}

/**
 * json-server drops a plain filter no item has the field of (and keeps the operator ones whenever it has items).
 * `fields`, when given, is every top-level field name of the items (the caller keeps it, so a page of a large
 * collection is not a scan of it).
 */
function kept(items: readonly CollectionItem[], key: string, fields: ReadonlySet<string> | undefined): boolean {
  if (items.length === 0) return false;
  if (SUFFIX.test(key)) return true;
  if (fields !== undefined && fields.has(key)) return true;
  if (fields !== undefined && !key.includes('.')) return false;
  return items.some((item) => hasPath(item, key));
}

/** A field by name, or by a dotted path (`address.city`) when no field has the whole name. */
export function getPath(item: unknown, path: string): unknown {
  if (typeof item !== 'object' || item === null) return undefined;
  if (path in item) return (item as Record<string, unknown>)[path];
  let v: unknown = item;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function hasPath(item: unknown, path: string): boolean {
  if (typeof item !== 'object' || item === null) return false;
  if (Object.hasOwn(item, path)) return true;
  const parts = path.split('.');
  if (parts.length === 1) return false;
  let v: unknown = item;
  for (const part of parts) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, part)) return false;
    v = (v as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * Does `q` (lower case) occur in the value's text, or in any value nested in it? Falsy values never match. A walk
 * with its own stack, in json-server's order: a data file's item may nest deeper than the call stack goes.
 */
function deepQuery(value: unknown, q: string): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === undefined || v === null || v === false || v === 0 || v === '') continue;
    if (typeof v === 'object') {
      const children = Array.isArray(v) ? v : Object.values(v);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    } else if (jsText(v).toLowerCase().includes(q)) return true;
  }
  return false;
}

/**
 * The query text compared with a field's value as JavaScript's `<=` does (what json-server's `_gte`/`_lte` run):
 * with a number or boolean, as numbers; with a string, as strings; an object by its text. Negative: a < v.
 * NaN (a text that is not a number, against a number) compares as neither, so both `_gte` and `_lte` fail.
 */
function looseCompare(a: string, v: unknown): number {
  if (typeof v === 'number' || typeof v === 'boolean') {
    const x = Number(a);
    const y = Number(v);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const s = typeof v === 'string' ? v : jsText(v);
  return a < s ? -1 : a > s ? 1 : 0;
}

/** lodash's orderBy: stable, one direction per key (`desc`, else ascending), its order for null and undefined */
function orderBy(
  items: readonly CollectionItem[],
  keys: readonly string[],
  orders: readonly string[],
): CollectionItem[] {
  const rows = items.map((item, index) => ({ item, index, values: keys.map((k) => getPath(item, k)) }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareAscending(a.values[i], b.values[i]);
      if (c !== 0) return orders[i] === 'desc' ? -c : c;
    }
    return a.index - b.index;
  });
  return rows.map((r) => r.item);
}

/** lodash's compareAscending (without symbols): undefined after everything, null after defined values, NaN last */
function compareAscending(value: unknown, other: unknown): number {
  if (value === other) return 0;
  const valDefined = value !== undefined;
  const valNull = value === null;
  const valReflexive = !Number.isNaN(value);
  const othDefined = other !== undefined;
  const othNull = other === null;
  const othReflexive = !Number.isNaN(other);
  if (
    (!othNull && gt(value, other)) ||
    (valNull && othDefined && othReflexive) ||
    (!valDefined && othReflexive) ||
    !valReflexive
  )
    return 1;
  if (
    (!valNull && gt(other, value)) ||
    (othNull && valDefined && valReflexive) ||
    (!othDefined && valReflexive) ||
    !othReflexive
  )
    return -1;
  return 0;
}

/** JavaScript's `a > b` for JSON values (numbers and strings compare as numbers when either is one) */
function gt(a: unknown, b: unknown): boolean {
  return (a as number) > (b as number);
}

interface Page {
  readonly items: readonly CollectionItem[];
  readonly current?: number;
  readonly first?: number;
  readonly prev?: number;
  readonly next?: number;
  readonly last?: number;
}

/** json-server's getPage: no links for an empty page, `current`/`first`/`last` only when there is more than one */
function pageOf(all: readonly CollectionItem[], page: number, perPage: number): Page {
  const start = (page - 1) * perPage;
  const end = page * perPage;
  const items = all.slice(start, end);
  if (items.length === 0) return { items };
  const more = items.length !== all.length;
  return {
    items,
    ...(page > 1 ? { prev: page - 1 } : {}),
    ...(end < all.length ? { next: page + 1 } : {}),
    ...(more ? { current: page, first: 1, last: Math.ceil(all.length / perPage) } : {}),
  };
}
