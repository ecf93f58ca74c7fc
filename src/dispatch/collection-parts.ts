// The pieces the collection stage is made of (docs/state.md, "Collections"): reading and writing a collection's
// data in the state store with what is known of each stored array, and the answers' drafts. collections.ts routes a
// request and answers reads; collection-writes.ts plans writes, which are made at the commit point.
import { collectionKey, type Collection, type CollectionItem } from '../model/collection.js';
import { DEFAULTS } from '../model/config.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { depthOver, higherId, isItem } from '../state/collections/items.js';
import { jsText } from '../state/collections/query.js';
import type { StateStore } from '../state/store.js';
import type { Draft } from './finalize.js';
import { APPLICATION_JSON } from './respond.js';
import { changed } from './list-cache.js';

/** A collection route's answer, and the change it makes (applied at the commit point: dispatch/commit.ts). */
export interface CollectionAnswer {
  readonly draft: Draft;
  /**
   * makes the change in the store, when the answer is written; a draft when the change can no longer be made as
   * planned (the item went meanwhile, or an id was taken): that is answered instead
   */
  readonly write?: () => Draft | undefined;
  /** after `write`: other collections it changed too (a DELETE's dependants), to be written back as well */
  readonly others?: readonly Collection[];
}

const JSON_TYPE = `${APPLICATION_JSON}; charset=utf-8`;
const encoder = new TextEncoder();

// ---- reading and writing the store -------------------------------------------------------------------------------

// What is known of each stored array, made on first need and kept up to date by the writes below (items keep their
// ids: PUT and PATCH put a new object in the same place): its id → position index, its highest id, and its items'
// field names. A removal drops them all; a replacement drops the field names. The stored arrays are changed only
// here, so these caches cannot go stale; an array put in the store by anyone else is a new key of these maps.
//
// A store's copy of a collection is a new array holding the loaded items themselves (items are never changed in
// place, so they can be shared): a session's first write costs one pointer per item, not a copy of the data. Its
// id index starts as the loaded array's (the positions are the same) with the copy's own additions over it, until
// a removal moves positions; so a thousand sessions that each add an item share one index and one set of items.
interface IdIndex {
  /** the loaded array's index, while the copy's positions are still its own */
  readonly base: ReadonlyMap<string, number> | undefined;
  readonly own: Map<string, number>;
}
export const indexes = new WeakMap<readonly CollectionItem[], IdIndex>();
const highest = new WeakMap<readonly CollectionItem[], { max: unknown }>();
export const fieldNames = new WeakMap<readonly CollectionItem[], Set<string>>();
/** a store's copy → the array it was copied from, until a removal */
const copiedFrom = new WeakMap<readonly CollectionItem[], readonly CollectionItem[]>();
/** each item's answer: items are never changed in place (a PUT or PATCH stores a new object), so it stays right */
export const drafts = new WeakMap<CollectionItem, Draft>();

export function maxIdOf(items: readonly CollectionItem[], idField: string): { max: unknown } {
  let m = highest.get(items);
  if (m === undefined) {
    const from = copiedFrom.get(items);
    let max: unknown;
    if (from !== undefined) max = maxIdOf(from, idField).max;
    for (let i = from?.length ?? 0; i < items.length; i++) max = higherId(max, items[i]![idField]);
    highest.set(items, (m = { max }));
  }
  return m;
}

export function fieldsOf(items: readonly CollectionItem[]): Set<string> {
  let f = fieldNames.get(items);
  if (f === undefined) {
    f = new Set();
    for (const item of items) for (const k of Object.keys(item)) f.add(k);
    fieldNames.set(items, f);
  }
  return f;
}

export function forgetDerived(items: readonly CollectionItem[]): void {
  indexes.delete(items);
  highest.delete(items);
  fieldNames.delete(items);
  copiedFrom.delete(items);
}

function indexOf(items: readonly CollectionItem[], idField: string): IdIndex {
  let index = indexes.get(items);
  if (index === undefined) {
    const from = copiedFrom.get(items);
    const base = from === undefined ? undefined : flatIndex(indexOf(from, idField));
    const own = new Map<string, number>();
    for (let i = from?.length ?? 0; i < items.length; i++) {
      const v = items[i]![idField];
      if (v === undefined || v === null) continue;
      const k = jsText(v);
      if (!own.has(k) && base?.has(k) !== true) own.set(k, i);
    }
    index = { base, own };
    indexes.set(items, index);
  }
  return index;
}

/** the loaded array's index as one map (it has no base: it is never a copy) */
function flatIndex(ix: IdIndex): ReadonlyMap<string, number> {
  return ix.base === undefined ? ix.own : new Map([...ix.base, ...ix.own]);
}

export function positionOf(items: readonly CollectionItem[], idField: string, id: string): number {
  const ix = indexOf(items, idField);
  return ix.own.get(id) ?? ix.base?.get(id) ?? -1;
}

/** The current data, without copying: the loaded (frozen) seed when the store has none yet. */
export function readData(c: Collection, store: StateStore): unknown {
  return store.get(collectionKey(c)) ?? c.seed;
}

/** Change the data as one step; the store gets its own copy of the seed's array on the first change (see above). */
export function writeData<T>(c: Collection, store: StateStore, fn: (data: unknown) => T): T {
  let out: T | undefined;
  store.update<unknown>(collectionKey(c), (current) => {
    let data = current;
    if (data === undefined) {
      const seed = c.seed as CollectionItem[];
      const copy = seed.slice();
      copiedFrom.set(copy, seed);
      data = copy;
    }
    out = fn(data);
    changed(data as object);
    return data;
  });
  return out as T;
}

// ---- answers ------------------------------------------------------------------------------------------------------

export function jsonDraft(status: number, value: unknown, headers: [string, string][] = []): Draft {
  return {
    status,
    body: encoder.encode(JSON.stringify(value, null, 2)),
    contentType: JSON_TYPE,
    headers,
    delayMs: 0,
    fresh: true,
  };
}

/** The answer to a change the server kept in memory but could not write to its data file (not acknowledged). */
export function notSavedDraft(file: string, e: unknown): Draft {
  return jsonDraft(500, {
    error: `the change is not saved: writing ${file} failed (${e instanceof Error ? e.message : String(e)})`,
  });
}

export const notFound = (): CollectionAnswer => ({ draft: jsonDraft(404, {}) });
export const problem = (status: number, error: string): CollectionAnswer => ({
  draft: jsonDraft(status, { error }),
});

/** The body as an item: a JSON object, or a form's fields; anything else is refused (400). */
export function bodyItem(req: RequestSnapshot): CollectionItem | string {
  const b = req.body;
  if (b.kind === 'json') {
    const v: unknown = b.unchecked ?? JSON.parse(req.parts.bodyText ?? 'null');
    return isItem(v)
      ? v
      : `the body must be a JSON object, not ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}`;
  }
  if (b.kind === 'none') return 'the body must be a JSON object (there is none)';
  const form = req.parts.form;
  if (form !== undefined) {
    const item: CollectionItem = {};
    for (const [k, vs] of form.fields) item[k] = vs.length === 1 ? vs[0] : [...vs];
    return item;
  }
  try {
    const v: unknown = JSON.parse(req.parts.bodyText ?? '');
    if (isItem(v)) return v;
  } catch {
    // not JSON at all: refused below
  }
  return 'the body must be a JSON object (send it with content-type: application/json)';
}

/** Why an item is refused before it is stored (too deep to answer or write back), or undefined. */
export function itemProblem(item: CollectionItem, ws: Workspace): string | undefined {
  const most = ws.config.service.collectionMaxDepth ?? DEFAULTS.collectionMaxDepth;
  const depth = depthOver(item, most);
  if (depth === undefined) return undefined;
  return (
    `the item nests objects and arrays more than ${most} deep (at least ${depth}), ` +
    `the most service.collection_max_depth takes (raise it in mock.toml, up to 1000)`
  );
}
