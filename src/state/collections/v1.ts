// json-server 1.0's query language (`mock --db db.json --db-style v1`, docs/coming-from-json-server.md#json-server-10),
// as its README writes it and 1.0.0-beta.15 answers: `field:op=value` conditions (lt, lte, gt, gte, eq, ne, in,
// contains, startsWith, endsWith; no operator is eq; 0.17's `field_gte` is read as `field:gte`), dotted paths,
// `_where=<JSON>` (with `or`), `_sort=a,-b`, `_page` with `_per_page` and its page envelope, `_embed` (children by
// `<singular>Id`, or a parent by a singular name), ids compared as the same value (a path's id is a string). Pure.
import type { CollectionItem } from '../../model/collection.js';
import type { Query } from './query.js';
import { getPath } from './query.js';
import { plural, singular } from './relations.js';

const OPERATORS = new Set(['lt', 'lte', 'gt', 'gte', 'eq', 'ne', 'in', 'contains', 'startsWith', 'endsWith']);
const RESERVED = new Set(['_sort', '_page', '_per_page', '_embed', '_where', '_start', '_end', '_limit', '_dependent']);

type Where = { [key: string]: unknown };

/** `true`, `false`, `null` and finite numbers as such; any other text as it is */
function coerce(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (v.trim() === '') return v;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

function splitKey(key: string): { path: string; op: string } | undefined {
  const colon = key.lastIndexOf(':');
  if (colon >= 0) {
    const op = key.slice(colon + 1);
    if (op === '') return { path: key, op: 'eq' };
    return OPERATORS.has(op) ? { path: key.slice(0, colon), op } : undefined;
  }
  const m = /^(.*)_([a-z]+)$/.exec(key);
  if (m !== null && m[1] !== '' && OPERATORS.has(m[2]!)) return { path: m[1]!, op: m[2]! };
  return { path: key, op: 'eq' };
}

/** The conditions of a query: `_where` when it is a JSON object, else the fields (`views:gt=100`). */
export function whereOf(query: Query): Where {
  const raw = query.get('_where')?.[0];
  if (raw !== undefined) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'object' && parsed !== null) return parsed as Where;
    } catch {
      // not JSON: the fields decide, as json-server 1.0 does
    }
  }
  const out: Where = {};
  for (const [key, values] of query) {
    if (RESERVED.has(key)) continue;
    const k = splitKey(key);
    if (k === undefined) continue;
    for (const v of values) {
      // a dotted path nests (`author.name:eq=x` is { author: { name: { eq: "x" } } })
      let at = out;
      for (const part of k.path.split('.')) {
        const next = at[part];
        at = (typeof next === 'object' && next !== null ? next : (at[part] = {})) as Where;
      }
      at[k.op] = k.op === 'in' ? v.split(',').map((p) => coerce(p.trim())) : coerce(v);
    }
  }
  return out;
}

const isObject = (v: unknown): v is Where => typeof v === 'object' && v !== null && !Array.isArray(v);

export function matchesWhere(item: Where, where: Where): boolean {
  for (const [key, value] of Object.entries(where)) {
    if (key === 'or') {
      if (!Array.isArray(value) || !value.some((w) => isObject(w) && matchesWhere(item, w))) return false;
      continue;
    }
    if (!isObject(value)) return false;
    const field = item[key];
    const ops = Object.keys(value).filter((k) => OPERATORS.has(k));
    if (ops.length === 0) {
      if (isObject(field) && !matchesWhere(field, value)) return false;
      continue;
    }
    if (field === undefined) return false;
    for (const op of ops) if (!holds(op, field, value[op])) return false;
  }
  return true;
}

/** JavaScript's comparisons, as json-server 1.0 runs them */
function holds(op: string, field: unknown, v: unknown): boolean {
  const f = field as number;
  const w = v as number;
  const text = (): string | undefined => (typeof field === 'string' ? field.toLowerCase() : undefined);
  switch (op) {
    case 'lt':
      return f < w;
    case 'lte':
      return f <= w;
    case 'gt':
      return f > w;
    case 'gte':
      return f >= w;
    case 'eq':
      return field === v;
    case 'ne':
      return field !== v;
    case 'in':
      return (Array.isArray(v) ? v : [v]).some((x) => x === field);
    case 'contains':
      return text()?.includes(String(v).toLowerCase()) ?? false;
    case 'startsWith':
      return text()?.startsWith(String(v).toLowerCase()) ?? false;
    default:
      return text()?.endsWith(String(v).toLowerCase()) ?? false;
  }
}

/** `_sort=a,-b`: as the `sort-on` package orders (absent and falsy values after the others, strings by localeCompare) */
export function sortV1(items: readonly CollectionItem[], spec: string): CollectionItem[] {
  const keys = spec
    .split(',')
    .map((k) => (k.startsWith('-') ? { path: k.slice(1), desc: true } : { path: k, desc: false }));
  return [...items].sort((a, b) => {
    for (const { path, desc } of keys) {
      const x = getPath(a, path);
      const y = getPath(b, path);
      if (x === y) continue;
      if (y !== 0 && !y) return desc ? 1 : -1;
      if (x !== 0 && !x) return desc ? -1 : 1;
      if (typeof x === 'string' && typeof y === 'string') {
        const c = desc ? y.localeCompare(x) : x.localeCompare(y);
        if (c !== 0) return c;
        continue;
      }
      return (x as number) < (y as number) ? (desc ? 1 : -1) : desc ? -1 : 1;
    }
    return 0;
  });
}

export interface PageEnvelope {
  readonly first: number;
  readonly prev: number | null;
  readonly next: number | null;
  readonly last: number;
  readonly pages: number;
  readonly items: number;
  readonly data: readonly CollectionItem[];
}

/** `_page` with `_per_page` (default 10), out-of-range values brought into range */
export function pageV1(items: readonly CollectionItem[], page: number, perPage: number): PageEnvelope {
  const per = Number.isFinite(perPage) && perPage > 0 ? Math.floor(perPage) : 1;
  const pages = Math.max(1, Math.ceil(items.length / per));
  const current = Math.max(1, Math.min(Number.isFinite(page) ? Math.floor(page) : 1, pages));
  const start = (current - 1) * per;
  return {
    first: 1,
    prev: current > 1 ? current - 1 : null,
    next: current < pages ? current + 1 : null,
    last: pages,
    pages,
    items: items.length,
    data: items.slice(start, start + per),
  };
}

/**
 * `_embed=<name>` on an item of collection `name`: a singular name is a parent (`post` by `postId`), a plural one
 * the children (`comments` by `postId`), each matched by the same value. A name that is no collection: unchanged.
 */
export function embedV1(
  item: CollectionItem,
  name: string,
  related: string,
  data: (name: string) => unknown,
): CollectionItem {
  if (singular(related) === related) {
    const parents = data(plural(related));
    if (!Array.isArray(parents)) return item;
    const ref = item[`${related}Id`];
    const parent = (parents as CollectionItem[]).find((p) => p['id'] === ref);
    const out: CollectionItem = { ...item };
    if (parent === undefined) delete out[related];
    else out[related] = parent;
    return out;
  }
  const children = data(related);
  if (!Array.isArray(children)) return item;
  const fk = `${singular(name)}Id`;
  return { ...item, [related]: (children as CollectionItem[]).filter((c) => c[fk] === item['id']) };
}

/** Every value a query gives for `_embed`, in order. */
export function embedsOf(query: Query): readonly string[] {
  return query.get('_embed') ?? [];
}

/** Whether a query asks for a page (`_page` that reads as an integer), and which. */
export function pageOfQuery(query: Query): { page: number; perPage: number } | undefined {
  const page = Number.parseInt(query.get('_page')?.[0] ?? '', 10);
  if (Number.isNaN(page)) return undefined;
  const per = Number.parseInt(query.get('_per_page')?.[0] ?? '', 10);
  return { page, perPage: Number.isNaN(per) ? 10 : per };
}
