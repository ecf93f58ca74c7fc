// A collection's writes (docs/state.md, "Collections"): each is planned when the request is dispatched (the answer,
// from the data as it is then) and made at the commit point, when the answer is written (dispatch/commit.ts). An
// answer that is never written (its client left during a delay) changes nothing. A write made later than planned
// looks at the data again: an id another write took meanwhile is drawn anew (or, chosen by the client, is a 409),
// an item deleted meanwhile is a 404, and a PATCH merges into the item as it is then; the answer says what was done.
import { collectionKey, type Collection, type CollectionItem } from '../model/collection.js';
import { DEFAULTS } from '../model/config.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { higherId, idAfter, patched, randomId, replaced, unsafeId } from '../state/collections/items.js';
import { jsText } from '../state/collections/query.js';
import type { StateStore } from '../state/store.js';
import {
  bodyItem,
  fieldNames,
  forgetDerived,
  indexes,
  itemProblem,
  jsonDraft,
  maxIdOf,
  notFound,
  positionOf,
  problem,
  readData,
  writeData,
  type CollectionAnswer,
} from './collection-parts.js';
import type { CollectionHit } from './collections.js';
import { danglingItems } from '../state/collections/relations.js';
import { groupOf, originOf, siblingsOf, type Nested } from './collection-relations.js';
import type { Draft } from './finalize.js';

/** POST to a collection: the item with its id (the client's, or the next one), 201. */
export function planCreate(
  c: Collection,
  req: RequestSnapshot,
  ws: Workspace,
  store: StateStore,
  random: () => number,
  nested?: Nested,
): CollectionAnswer {
  const idField = c.id;
  const given0 = bodyItem(req);
  if (typeof given0 === 'string') return problem(400, given0);
  // a nested route's POST (`/posts/1/comments`) names the parent as json-server does: its id as written, a string
  const body = nested === undefined ? given0 : { ...given0, [nested.field]: nested.id };
  const refused = itemProblem(body, ws) ?? unsafeId(idField, body[idField]);
  if (refused !== undefined) return problem(400, refused);
  const most = ws.config.service.collectionMaxItems ?? DEFAULTS.collectionMaxItems;
  const full = (items: readonly CollectionItem[]): CollectionAnswer | undefined =>
    items.length >= most
      ? problem(507, `the collection ${c.path} holds ${items.length} items, its most (service.collection_max_items)`)
      : undefined;
  const given = body[idField];
  const chosen = given !== undefined && given !== null && given !== false && given !== 0 && given !== '';
  const planned = readData(c, store) as CollectionItem[];
  const over = full(planned);
  if (over !== undefined) return over;
  const item = withFreeId(planned, body, idField, chosen, random);
  if (item === undefined) return problem(409, `an item with ${idField} ${jsText(given)} exists already`);
  // the id is taken now, so a second create planned before this one is committed draws the next one
  const max = maxIdOf(planned, idField);
  max.max = higherId(max.max, item[idField]);
  const origin = originOf(req, ws);
  const answer = (made: CollectionItem): Draft => {
    const location = `${origin}${req.rawPath.replace(/\/$/, '')}/${encodeURIComponent(jsText(made[idField]))}`;
    return jsonDraft(201, made, [
      ['location', location],
      ['access-control-expose-headers', 'Location'],
    ]);
  };
  const write = (): Draft | undefined =>
    writeData(c, store, (data) => {
      const items = data as CollectionItem[];
      const stillFull = full(items);
      if (stillFull !== undefined) return stillFull.draft;
      const id = jsText(item[idField]);
      const made = positionOf(items, idField, id) < 0 ? item : withFreeId(items, body, idField, chosen, random);
      if (made === undefined) return problem(409, `an item with ${idField} ${id} exists already`).draft;
      add(items, made, idField);
      return made === item ? undefined : answer(made);
    });
  return { draft: answer(item), write };
}

/** The item with an id no item of `items` has: the client's (undefined when taken), else the next one. */
function withFreeId(
  items: readonly CollectionItem[],
  body: CollectionItem,
  idField: string,
  chosen: boolean,
  random: () => number,
): CollectionItem | undefined {
  if (chosen) return positionOf(items, idField, jsText(body[idField])) >= 0 ? undefined : body;
  let item: CollectionItem = { ...body, [idField]: idAfter(maxIdOf(items, idField).max, random) };
  // a new id that is taken (ids compare as text: a string "8" beside the numbers, or a random one drawn twice) is
  // drawn again
  for (let tries = 0; tries < 100 && positionOf(items, idField, jsText(item[idField])) >= 0; tries++)
    item = { ...body, [idField]: randomId(random) };
  return positionOf(items, idField, jsText(item[idField])) >= 0 ? undefined : item;
}

function add(items: CollectionItem[], item: CollectionItem, idField: string): void {
  items.push(item);
  indexes.get(items)?.own.set(jsText(item[idField]), items.length - 1);
  const max = maxIdOf(items, idField);
  max.max = higherId(max.max, item[idField]);
  const fields = fieldNames.get(items);
  if (fields !== undefined) for (const k of Object.keys(item)) fields.add(k);
}

/** PUT or PATCH of an item: the new item, 200; made from the item as it is when committed. */
export function planChange(
  c: Collection,
  hit: CollectionHit,
  req: RequestSnapshot,
  ws: Workspace,
  store: StateStore,
): CollectionAnswer {
  const idField = c.id;
  const body = bodyItem(req);
  if (typeof body === 'string') return problem(400, body);
  const refused = itemProblem(body, ws);
  if (refused !== undefined) return problem(400, refused);
  const id = hit.id!;
  const changed = (old: CollectionItem): CollectionItem =>
    hit.action === 'replace' ? replaced(old, body, idField) : patched(old, body, idField);
  const planned = readData(c, store) as CollectionItem[];
  const at = positionOf(planned, idField, id);
  if (at < 0) return notFound();
  const old = planned[at]!;
  const item = changed(old);
  const write = (): Draft | undefined =>
    writeData(c, store, (data) => {
      const items = data as CollectionItem[];
      const now = positionOf(items, idField, id);
      if (now < 0) return notFound().draft;
      const made = items[now] === old ? item : changed(items[now]!);
      items[now] = made;
      fieldNames.delete(items);
      return made === item ? undefined : jsonDraft(200, made);
    });
  return { draft: jsonDraft(200, item), write };
}

/**
 * DELETE of an item: 200 with an empty object. Then, as json-server does, every item of the group whose foreign key
 * names an item that is not there is removed too (relations.ts: not only the deleted item's children).
 */
export function planDelete(c: Collection, id: string, ws: Workspace, store: StateStore): CollectionAnswer {
  const idField = c.id;
  if (positionOf(readData(c, store) as CollectionItem[], idField, id) < 0) return notFound();
  const others: Collection[] = [];
  const write = (): Draft | undefined => {
    const gone = writeData(c, store, (data) => {
      const items = data as CollectionItem[];
      const at = positionOf(items, idField, id);
      if (at < 0) return notFound().draft;
      items.splice(at, 1);
      forgetDerived(items);
      return undefined;
    });
    if (gone !== undefined) return gone;
    others.push(...removeDangling(c, ws, store));
    return undefined;
  };
  return { draft: jsonDraft(200, {}), write, others };
}

/** Removes the group's dangling items (see planDelete); the collections it changed. */
function removeDangling(c: Collection, ws: Workspace, store: StateStore): Collection[] {
  const group = groupOf(ws.collections ?? [], c.ruleSetIndex);
  const dangling = danglingItems([...group.keys()], siblingsOf(ws, c, store), c.id);
  const changed = new Set<Collection>();
  for (const d of dangling) {
    const from = group.get(d.name);
    if (from === undefined || d.id === undefined || d.id === null) continue;
    writeData(from, store, (data) => {
      const items = data as CollectionItem[];
      const at = positionOf(items, from.id, jsText(d.id));
      if (at < 0) return;
      items.splice(at, 1);
      forgetDerived(items);
      changed.add(from);
    });
  }
  return [...changed];
}

/** A single resource (a db file's top-level object): GET it, POST or PUT to replace it, PATCH to merge into it. */
export function planResource(
  hit: CollectionHit,
  req: RequestSnapshot,
  ws: Workspace,
  store: StateStore,
): CollectionAnswer {
  const c = hit.collection;
  if (hit.action === 'show') return { draft: jsonDraft(200, readData(c, store)) };
  const body = bodyItem(req);
  if (typeof body === 'string') return problem(400, body);
  const refused = itemProblem(body, ws);
  if (refused !== undefined) return problem(400, refused);
  const nextOf = (current: unknown): CollectionItem =>
    hit.action === 'update' ? { ...(current as CollectionItem), ...body } : body;
  const answer = (next: CollectionItem): Draft =>
    hit.action === 'create'
      ? jsonDraft(201, next, [
          ['location', `${originOf(req, ws)}${req.rawPath}`],
          ['access-control-expose-headers', 'Location'],
        ])
      : jsonDraft(200, next);
  const planned = readData(c, store);
  const next = nextOf(planned);
  return {
    draft: answer(next),
    // a PATCH merges into the resource as it is when committed: a change made meanwhile is kept, and answered
    write: () => {
      const now = readData(c, store);
      const merged = now === planned ? next : nextOf(now);
      store.set(collectionKey(c), merged);
      return merged === next ? undefined : answer(merged);
    },
  };
}
