// The collection stage (docs/state.md, "Collections"): json-server 0.17's routes over data kept in the state store
// under `collection:<path>`. A rule set's collections answer when none of its rules matched (before its prefix's
// 404); the db file's answer after every rule set, before the fallback folder. A method a collection does not take
// passes the request on. The pure query and item logic is state/collections/; this file routes a request and
// answers reads; collection-writes.ts plans the writes, made at the commit point (dispatch/commit.ts).
import type { Collection, CollectionItem } from '../model/collection.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { listItems } from '../state/collections/query.js';
import type { StateStore } from '../state/store.js';
import {
  drafts,
  fieldsOf,
  jsonDraft,
  notFound,
  positionOf,
  problem,
  readData,
  type CollectionAnswer,
} from './collection-parts.js';
import { planChange, planCreate, planDelete, planResource } from './collection-writes.js';
import { groupOf, nameOf, nestedRoute, originOf, siblingsOf, type Nested } from './collection-relations.js';
import { cachedDraft, versionsOf } from './list-cache.js';
import { embedded } from '../state/collections/relations.js';
import { answerV1 } from './collection-v1.js';

export type { CollectionAnswer };
export { notSavedDraft } from './collection-parts.js';

export type CollectionAction = 'list' | 'show' | 'create' | 'replace' | 'update' | 'delete';

export interface CollectionHit {
  readonly collection: Collection;
  readonly action: CollectionAction;
  /** the item's id as written in the path */
  readonly id?: string;
  /** a nested route's parent (`/posts/1/comments`): listed by, or created with, its foreign key */
  readonly nested?: Nested;
}

/** The collection route this request takes among `candidates`, or undefined (the next stage answers). */
export function collectionRoute(
  ws: Workspace,
  candidates: readonly Collection[],
  ruleSetIndex: number | undefined,
  req: RequestSnapshot,
): CollectionHit | undefined {
  const hit = directRoute(candidates, ruleSetIndex, req);
  if (hit !== undefined || (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST')) return hit;
  const n = nestedRoute(ws, candidates, ruleSetIndex, req);
  if (n === undefined) return undefined;
  return { collection: n.collection, action: req.method === 'POST' ? 'create' : 'list', nested: n.nested };
}

function directRoute(
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
  if (c.ruleSetIndex === undefined && ws.config.service.dbOptions?.style === 'v1')
    return hit.nested === undefined ? answerV1(hit, req, ws, env) : { draft: jsonDraft(404, { error: 'Not Found' }) };
  if (c.kind === 'resource') return planResource(hit, req, ws, store);
  const idField = c.id;
  switch (hit.action) {
    case 'list':
      return listAnswer(hit, req, ws, store);
    case 'show': {
      const items = readData(c, store) as CollectionItem[];
      const at = positionOf(items, idField, hit.id!);
      if (at < 0) return notFound();
      const item = items[at]!;
      const rel = relationsOf(req);
      if (rel !== undefined) {
        const [one] = embedded([item], nameOf(c), idField, rel.embeds, rel.expands, siblingsOf(ws, c, store));
        return { draft: jsonDraft(200, one) };
      }
      let draft = drafts.get(item);
      if (draft === undefined) drafts.set(item, (draft = { ...jsonDraft(200, item), fresh: false }));
      return { draft };
    }
    case 'create':
      return planCreate(c, req, ws, store, env.random, hit.nested);
    case 'replace':
    case 'update':
      return planChange(c, hit, req, ws, store);
    case 'delete':
      return planDelete(c, hit.id!, ws, store);
  }
}

/** `_embed` and `_expand` as given (each value one name, as json-server takes them); undefined: neither */
function relationsOf(req: RequestSnapshot): { embeds: readonly string[]; expands: readonly string[] } | undefined {
  if (req.query === '') return undefined;
  const q = req.parts.query;
  const embeds = q.get('_embed') ?? [];
  const expands = q.get('_expand') ?? [];
  return embeds.length === 0 && expands.length === 0 ? undefined : { embeds, expands };
}

/** GET of a collection: its items through the query (a nested route's parent as one more filter), then relations. */
function listAnswer(hit: CollectionHit, req: RequestSnapshot, ws: Workspace, store: StateStore): CollectionAnswer {
  const c = hit.collection;
  const items = readData(c, store) as CollectionItem[];
  const url = `${originOf(req, ws)}${req.rawPath}${req.query === '' ? '' : `?${req.query}`}`;
  // made once while the group's data is unchanged (list-cache.ts): the relations read the other collections
  const group = [...groupOf(ws.collections ?? [], c.ruleSetIndex).values()].map((g) => readData(g, store));
  const key = `${versionsOf(group)}|${url}`;
  let refused: string | undefined;
  const draft = cachedDraft(items, key, () => {
    let query = req.parts.query;
    if (hit.nested !== undefined) query = new Map([...query, [hit.nested.field, [hit.nested.id]]]);
    const listed = listItems(items, query, url, fieldsOf(items));
    if (!listed.ok) {
      refused = listed.message;
      return undefined;
    }
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
    const rel = relationsOf(req);
    const out =
      rel === undefined
        ? result.items
        : embedded(result.items, nameOf(c), c.id, rel.embeds, rel.expands, siblingsOf(ws, c, store));
    return jsonDraft(200, out, headers);
  });
  return draft === undefined ? problem(400, refused ?? 'the query is not taken') : { draft };
}
