// The collection stage (docs/state.md, "Collections"): json-server 0.17's routes over data kept in the state store
// under `collection:<path>`. A rule set's collections answer when none of its rules matched (before its prefix's
// 404); the db file's answer after every rule set, before the fallback folder. A method a collection does not take
// passes the request on. The pure query and item logic is state/collections/; this file reads the request, reads
// and writes the store, and makes the draft.
import { collectionKey, type Collection, type CollectionItem } from '../model/collection.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { jsText, listItems } from '../state/collections/query.js';
import {
  depthOver,
  higherId,
  idAfter,
  isItem,
  patched,
  randomId,
  replaced,
  unsafeId,
} from '../state/collections/items.js';
import type { StateStore } from '../state/store.js';
import { DEFAULTS } from '../model/config.js';
import type { Draft } from './finalize.js';
import { APPLICATION_JSON } from './respond.js';

export type CollectionAction = 'list' | 'show' | 'create' | 'replace' | 'update' | 'delete';

export interface CollectionHit {
  readonly collection: Collection;
  readonly action: CollectionAction;
  /** the item's id as written in the path */
  readonly id?: string;
}

export interface CollectionAnswer {
  readonly draft: Draft;
  /** the store's data changed (a persisted collection is written back) */
  readonly changed: boolean;
}

const JSON_TYPE = `${APPLICATION_JSON}; charset=utf-8`;
const encoder = new TextEncoder();

/** The collection route this request takes among `candidates`, or undefined (the next stage answers). */
export function collectionRoute(
  candidates: readonly Collection[],
  ruleSetIndex: number | undefined,
  req: RequestSnapshot,
): CollectionHit | undefined {
  const path = req.path;
  for (const c of candidates) {
    if (c.ruleSetIndex !== ruleSetIndex) continue;
    if (path === c.path) {
      const action = rootAction(c, req.method);
      if (action !== undefined) return { collection: c, action };
      continue;
    }
    if (c.kind !== 'collection' || !path.startsWith(c.path) || path.charCodeAt(c.path.length) !== 47) continue;
    const rest = c.path === '/' ? path.slice(1) : path.slice(c.path.length + 1);
    if (rest === '' || rest.includes('/')) continue;
    const action = itemAction(req.method);
    if (action !== undefined) return { collection: c, action, id: req.segments[req.segments.length - 1] ?? rest };
  }
  return undefined;
}

function rootAction(c: Collection, method: string): CollectionAction | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return c.kind === 'collection' ? 'list' : 'show';
    case 'POST':
      return 'create';
    case 'PUT':
      return c.kind === 'resource' ? 'replace' : undefined;
    case 'PATCH':
      return c.kind === 'resource' ? 'update' : undefined;
    default:
      return undefined;
  }
}

function itemAction(method: string): CollectionAction | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return 'show';
    case 'PUT':
      return 'replace';
    case 'PATCH':
      return 'update';
    case 'DELETE':
      return 'delete';
    default:
      return undefined;
  }
}

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
const indexes = new WeakMap<readonly CollectionItem[], IdIndex>();
const highest = new WeakMap<readonly CollectionItem[], { max: unknown }>();
const fieldNames = new WeakMap<readonly CollectionItem[], Set<string>>();
/** a store's copy → the array it was copied from, until a removal */
const copiedFrom = new WeakMap<readonly CollectionItem[], readonly CollectionItem[]>();
/** each item's answer: items are never changed in place (a PUT or PATCH stores a new object), so it stays right */
const drafts = new WeakMap<CollectionItem, Draft>();

function maxIdOf(items: readonly CollectionItem[], idField: string): { max: unknown } {
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

function fieldsOf(items: readonly CollectionItem[]): Set<string> {
  let f = fieldNames.get(items);
  if (f === undefined) {
    f = new Set();
    for (const item of items) for (const k of Object.keys(item)) f.add(k);
    fieldNames.set(items, f);
  }
  return f;
}

function forgetDerived(items: readonly CollectionItem[]): void {
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

function positionOf(items: readonly CollectionItem[], idField: string, id: string): number {
  const ix = indexOf(items, idField);
  return ix.own.get(id) ?? ix.base?.get(id) ?? -1;
}

/**
 * A collection's current data for the `collection` template helper: by its path (`/api/users`) or its last
 * segment (`users`); with `id`, that one item. Undefined when there is no such collection or item.
 */
export function readCollection(ws: Workspace, store: StateStore, name: string, id: string | undefined): unknown {
  const all = ws.collections ?? [];
  const want = name.startsWith('/') ? name : `/${name}`;
  const c = all.find((x) => x.path === want) ?? all.find((x) => x.path.endsWith(want));
  if (c === undefined) return undefined;
  const data = readData(c, store);
  if (id === undefined || c.kind === 'resource') return data;
  const items = data as CollectionItem[];
  const at = positionOf(items, c.id, id);
  return at < 0 ? undefined : items[at];
}

/** The current data, without copying: the loaded (frozen) seed when the store has none yet. */
function readData(c: Collection, store: StateStore): unknown {
  return store.get(collectionKey(c)) ?? c.seed;
}

/** Change the data as one step; the store gets its own copy of the seed's array on the first change (see above). */
function writeData<T>(c: Collection, store: StateStore, fn: (data: unknown) => T): T {
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
    return data;
  });
  return out as T;
}

// ---- answers ------------------------------------------------------------------------------------------------------

function jsonDraft(status: number, value: unknown, headers: [string, string][] = []): Draft {
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

const notFound = (): CollectionAnswer => ({ draft: jsonDraft(404, {}), changed: false });
const problem = (status: number, error: string): CollectionAnswer => ({
  draft: jsonDraft(status, { error }),
  changed: false,
});

/** The body as an item: a JSON object, or a form's fields; anything else is refused (400). */
function bodyItem(req: RequestSnapshot): CollectionItem | string {
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
function itemProblem(item: CollectionItem, ws: Workspace): string | undefined {
  const most = ws.config.service.collectionMaxDepth ?? DEFAULTS.collectionMaxDepth;
  const depth = depthOver(item, most);
  if (depth === undefined) return undefined;
  return (
    `the item nests objects and arrays more than ${most} deep (at least ${depth}), ` +
    `the most service.collection_max_depth takes (raise it in mock.toml, up to 1000)`
  );
}

export interface CollectionEnv {
  readonly state: StateStore;
  readonly random: () => number;
}

/** The answer of a collection route. */
export function answerCollection(
  hit: CollectionHit,
  req: RequestSnapshot,
  ws: Workspace,
  env: CollectionEnv,
): CollectionAnswer {
  const c = hit.collection;
  const store = env.state;
  if (c.kind === 'resource') return answerResource(hit, req, ws, store);
  const idField = c.id;
  switch (hit.action) {
    case 'list': {
      const items = readData(c, store) as CollectionItem[];
      const q = req.query === '' ? `${req.rawPath}` : `${req.rawPath}?${req.query}`;
      const listed = listItems(items, req.parts.query, q, fieldsOf(items));
      if (!listed.ok) return problem(400, listed.message);
      const { result } = listed;
      const headers: [string, string][] = [];
      if (result.totalCount !== undefined) {
        headers.push(['x-total-count', String(result.totalCount)]);
        headers.push([
          'access-control-expose-headers',
          result.link === undefined ? 'X-Total-Count' : 'X-Total-Count, Link',
        ]);
      }
      if (result.link !== undefined) headers.push(['link', result.link]);
      return { draft: jsonDraft(200, result.items, headers), changed: false };
    }
    case 'show': {
      const items = readData(c, store) as CollectionItem[];
      const at = positionOf(items, idField, hit.id!);
      if (at < 0) return notFound();
      const item = items[at]!;
      let draft = drafts.get(item);
      if (draft === undefined) drafts.set(item, (draft = { ...jsonDraft(200, item), fresh: false }));
      return { draft, changed: false };
    }
    case 'create': {
      const body = bodyItem(req);
      if (typeof body === 'string') return problem(400, body);
      const refused = itemProblem(body, ws) ?? unsafeId(idField, body[idField]);
      if (refused !== undefined) return problem(400, refused);
      const most = ws.config.service.collectionMaxItems ?? DEFAULTS.collectionMaxItems;
      return writeData(c, store, (data) => {
        const items = data as CollectionItem[];
        if (items.length >= most)
          return problem(
            507,
            `the collection ${c.path} holds ${items.length} items, its most (service.collection_max_items)`,
          );
        const given = body[idField];
        const max = maxIdOf(items, idField);
        const chosen = given !== undefined && given !== null && given !== false && given !== 0 && given !== '';
        let item: CollectionItem = chosen ? body : { ...body, [idField]: idAfter(max.max, env.random) };
        let id = jsText(item[idField]);
        // a new id that is taken (ids compare as text: a string "8" beside the numbers, or a random one drawn
        // twice) is drawn again; only an id the client chose is a conflict
        for (let tries = 0; !chosen && tries < 100 && positionOf(items, idField, id) >= 0; tries++) {
          item = { ...body, [idField]: randomId(env.random) };
          id = jsText(item[idField]);
        }
        if (positionOf(items, idField, id) >= 0) return problem(409, `an item with ${idField} ${id} exists already`);
        items.push(item);
        indexes.get(items)?.own.set(id, items.length - 1);
        max.max = higherId(max.max, item[idField]);
        const fields = fieldNames.get(items);
        if (fields !== undefined) for (const k of Object.keys(item)) fields.add(k);
        const location = `${req.rawPath.replace(/\/$/, '')}/${encodeURIComponent(id)}`;
        const headers: [string, string][] = [
          ['location', location],
          ['access-control-expose-headers', 'Location'],
        ];
        return { draft: jsonDraft(201, item, headers), changed: true };
      });
    }
    case 'replace':
    case 'update': {
      const body = bodyItem(req);
      if (typeof body === 'string') return problem(400, body);
      const refused = itemProblem(body, ws);
      if (refused !== undefined) return problem(400, refused);
      return writeData(c, store, (data) => {
        const items = data as CollectionItem[];
        const at = positionOf(items, idField, hit.id!);
        if (at < 0) return notFound();
        const old = items[at]!;
        const item = hit.action === 'replace' ? replaced(old, body, idField) : patched(old, body, idField);
        items[at] = item;
        fieldNames.delete(items);
        return { draft: jsonDraft(200, item), changed: true };
      });
    }
    case 'delete':
      return writeData(c, store, (data) => {
        const items = data as CollectionItem[];
        const at = positionOf(items, idField, hit.id!);
        if (at < 0) return notFound();
        items.splice(at, 1);
        forgetDerived(items);
        return { draft: jsonDraft(200, {}), changed: true };
      });
  }
}

/** A single resource (a db file's top-level object): GET it, POST or PUT to replace it, PATCH to merge into it. */
function answerResource(hit: CollectionHit, req: RequestSnapshot, ws: Workspace, store: StateStore): CollectionAnswer {
  const c = hit.collection;
  if (hit.action === 'show') return { draft: jsonDraft(200, readData(c, store)), changed: false };
  const body = bodyItem(req);
  if (typeof body === 'string') return problem(400, body);
  const refused = itemProblem(body, ws);
  if (refused !== undefined) return problem(400, refused);
  const next = hit.action === 'update' ? { ...(readData(c, store) as CollectionItem), ...body } : body;
  store.set(collectionKey(c), next);
  if (hit.action === 'create')
    return {
      draft: jsonDraft(201, next, [
        ['location', req.rawPath],
        ['access-control-expose-headers', 'Location'],
      ]),
      changed: true,
    };
  return { draft: jsonDraft(200, next), changed: true };
}
