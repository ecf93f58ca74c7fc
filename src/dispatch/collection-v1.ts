// The db file's collections answered in json-server 1.0's way (`--db-style v1`, docs/coming-from-json-server.md):
// its query language (state/collections/v1.ts), string ids (a path's id finds only the same string), a new item
// always given a random id, DELETE answering the deleted item, its children's foreign key set to null, and
// `?_dependent=comments` removing those. Errors are `{"error": …}`.
import type { Collection, CollectionItem } from '../model/collection.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { singular } from '../state/collections/relations.js';
import { embedsOf, embedV1, matchesWhere, pageOfQuery, pageV1, sortV1, whereOf } from '../state/collections/v1.js';
import type { StateStore } from '../state/store.js';
import {
  bodyItem,
  forgetDerived,
  jsonDraft,
  positionOf,
  readData,
  writeData,
  type CollectionAnswer,
} from './collection-parts.js';
import { groupOf } from './collection-relations.js';
import { planChange, planCreate, planResource } from './collection-writes.js';
import type { CollectionEnv, CollectionHit } from './collections.js';
import type { Draft } from './finalize.js';

const notFoundV1 = (): CollectionAnswer => ({ draft: jsonDraft(404, { error: 'Not Found' }) });

export function answerV1(
  hit: CollectionHit,
  req: RequestSnapshot,
  ws: Workspace,
  env: CollectionEnv,
): CollectionAnswer {
  const c = hit.collection;
  const store = env.state;
  const data = (name: string): unknown => {
    const s = groupOf(ws.collections ?? [], c.ruleSetIndex).get(name);
    return s === undefined ? undefined : readData(s, store);
  };
  if (c.kind === 'resource') {
    if (hit.action !== 'show' && typeof bodyItem(req) === 'string')
      return { draft: jsonDraft(400, { error: 'Body must be a JSON object' }) };
    return hit.action === 'create' ? notFoundV1() : planResource(hit, req, ws, store);
  }
  const items = readData(c, store) as CollectionItem[];
  const name = c.key ?? c.path.slice(1);
  const at = hit.id === undefined ? -1 : strictPosition(items, c.id, hit.id);
  const writes = hit.action === 'create' || hit.action === 'replace' || hit.action === 'update';
  if (writes && typeof bodyItem(req) === 'string')
    return { draft: jsonDraft(400, { error: 'Body must be a JSON object' }) };
  switch (hit.action) {
    case 'list':
      return { draft: jsonDraft(200, listV1(items, name, req, data)) };
    case 'show': {
      if (at < 0) return notFoundV1();
      let item = items[at]!;
      for (const e of embedsOf(req.parts.query)) item = embedV1(item, name, e, data);
      return { draft: jsonDraft(200, item) };
    }
    case 'create':
      return withoutLocation(planCreate(c, req, ws, store, env.random, { field: c.id, id: randomIdV1(env.random) }));
    case 'replace':
    case 'update':
      return at < 0 ? notFoundV1() : planChange(c, hit, req, ws, store);
    case 'delete':
      return at < 0 ? notFoundV1() : planDeleteV1(c, hit.id!, items[at]!, ws, store, req);
  }
}

/** the position of the item whose id is this very string (json-server 1.0 compares ids with ===) */
function strictPosition(items: readonly CollectionItem[], idField: string, id: string): number {
  const at = positionOf(items, idField, id);
  return at >= 0 && items[at]![idField] === id ? at : -1;
}

function listV1(
  items: readonly CollectionItem[],
  name: string,
  req: RequestSnapshot,
  data: (name: string) => unknown,
): unknown {
  const query = req.parts.query;
  let out: readonly CollectionItem[] = items;
  const embeds = embedsOf(query);
  if (embeds.length > 0) out = out.map((item) => embeds.reduce((it, e) => embedV1(it, name, e, data), item));
  const where = whereOf(query);
  if (Object.keys(where).length > 0) out = out.filter((item) => matchesWhere(item, where));
  const sort = query.get('_sort')?.[0];
  if (sort !== undefined && sort !== '') out = sortV1(out, sort);
  const page = pageOfQuery(query);
  if (page !== undefined) return pageV1(out, page.page, page.perPage);
  // 0.17's slices, kept under the switch (json-server 1.0.0-beta.3 had them)
  const int = (k: string): number => Number.parseInt(query.get(k)?.[0] ?? '', 10);
  const start = int('_start') || 0;
  const end = int('_end');
  const limit = int('_limit');
  if (!Number.isNaN(end)) return out.slice(start, end);
  if (!Number.isNaN(limit)) return out.slice(start, start + limit);
  if (start > 0) return out.slice(start);
  return out;
}

/** json-server 1.0's new ids: 8 random bytes, base64url (11 characters), drawn from the workspace's generator */
function randomIdV1(random: () => number): string {
  const bytes = new Uint8Array(8);
  for (let i = 0; i < 8; i++) bytes[i] = Math.floor(random() * 256) & 255;
  return Buffer.from(bytes).toString('base64url');
}

function withoutLocation(a: CollectionAnswer): CollectionAnswer {
  const strip = (d: Draft): Draft => ({
    ...d,
    headers: d.headers.filter(([k]) => k !== 'location' && k !== 'access-control-expose-headers'),
  });
  const write = a.write;
  return {
    draft: strip(a.draft),
    ...(write === undefined
      ? {}
      : {
          write: () => {
            const other = write();
            return other === undefined ? undefined : strip(other);
          },
        }),
  };
}

/** DELETE: the item answered; other collections' `<singular>Id` naming it set to null; `_dependent` ones removed. */
function planDeleteV1(
  c: Collection,
  id: string,
  item: CollectionItem,
  ws: Workspace,
  store: StateStore,
  req: RequestSnapshot,
): CollectionAnswer {
  const group = groupOf(ws.collections ?? [], c.ruleSetIndex);
  const name = c.key ?? c.path.slice(1);
  const fk = `${singular(name)}Id`;
  const dependents = new Set(req.parts.query.get('_dependent') ?? []);
  const others: Collection[] = [];
  const write = (): Draft | undefined => {
    const gone = writeData(c, store, (d) => {
      const items = d as CollectionItem[];
      const at = strictPosition(items, c.id, id);
      if (at < 0) return notFoundV1().draft;
      items.splice(at, 1);
      forgetDerived(items);
      return undefined;
    });
    if (gone !== undefined) return gone;
    for (const [otherName, o] of group) {
      if (o === c || o.kind !== 'collection') continue;
      const list = readData(o, store) as CollectionItem[];
      const drop = dependents.has(otherName);
      if (!list.some((x) => x[fk] === id || (drop && x[fk] === null))) continue;
      writeData(o, store, (d) => {
        const xs = d as CollectionItem[];
        for (let i = xs.length - 1; i >= 0; i--) {
          const x = xs[i]!;
          const v = x[fk] === id ? null : x[fk];
          if (drop && v === null && Object.hasOwn(x, fk)) xs.splice(i, 1);
          else if (v !== x[fk]) xs[i] = { ...x, [fk]: null };
        }
        forgetDerived(xs);
      });
      others.push(o);
    }
    return undefined;
  };
  return { draft: jsonDraft(200, item), write, others };
}
