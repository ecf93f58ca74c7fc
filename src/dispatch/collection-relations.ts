// The relations of a collection route (docs/state.md, "Relations"): the collections one collection may name (the
// db file's others, or its own rule set's), nested routes (`/posts/1/comments`), and the absolute URLs json-server
// puts in `location` and `link`. The relations themselves are pure, in state/collections/relations.ts.
import type { Collection, CollectionItem } from '../model/collection.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { foreignKey, type Siblings } from '../state/collections/relations.js';
import type { StateStore } from '../state/store.js';
import { readData } from './collection-parts.js';

/** json-server's default foreign key suffix: `postId` names a post */
const DEFAULT_SUFFIX = 'Id';

/** A collection's name in its group: the db file's key, else its path's last segment. */
export function nameOf(c: Collection): string {
  return c.key ?? c.path.slice(c.path.lastIndexOf('/') + 1);
}

/** each workspace's collections by group (a rule set's index, or -1 for the db file's), then by name */
const groups = new WeakMap<readonly Collection[], Map<number, Map<string, Collection>>>();

export function groupOf(all: readonly Collection[], ruleSetIndex: number | undefined): ReadonlyMap<string, Collection> {
  let byGroup = groups.get(all);
  if (byGroup === undefined) {
    byGroup = new Map<number, Map<string, Collection>>();
    for (const c of all) {
      const g = c.ruleSetIndex ?? -1;
      let m = byGroup.get(g);
      if (m === undefined) byGroup.set(g, (m = new Map<string, Collection>()));
      if (!m.has(nameOf(c))) m.set(nameOf(c), c);
    }
    groups.set(all, byGroup);
  }
  return byGroup.get(ruleSetIndex ?? -1) ?? new Map();
}

export function foreignKeySuffix(ws: Workspace): string {
  return ws.config.service.dbOptions?.foreignKeySuffix ?? DEFAULT_SUFFIX;
}

/** The collections `c` may name, with their current data in `store`. */
export function siblingsOf(ws: Workspace, c: Collection, store: StateStore): Siblings {
  const group = groupOf(ws.collections ?? [], c.ruleSetIndex);
  return {
    data: (name) => {
      const s = group.get(name);
      return s === undefined ? undefined : (readData(s, store) as readonly CollectionItem[] | CollectionItem);
    },
    foreignKeySuffix: foreignKeySuffix(ws),
  };
}

/** A nested route: `/posts/1/comments` is the comments whose `postId` is "1". */
export interface Nested {
  /** the child's foreign key field (`postId`) */
  readonly field: string;
  /** the parent's id as written in the path */
  readonly id: string;
}

/**
 * The collection a nested route `<dir>/<parent>/<id>/<child>` lists or adds to, when `<dir>/<child>` is one of
 * the group's collections (the parent need not be one, as in json-server, which only makes its name singular).
 */
export function nestedRoute(
  ws: Workspace,
  candidates: readonly Collection[],
  ruleSetIndex: number | undefined,
  req: RequestSnapshot,
): { readonly collection: Collection; readonly nested: Nested } | undefined {
  const segs = req.segments;
  const n = segs.length;
  if (n < 3) return undefined;
  const child = groupOf(candidates, ruleSetIndex).get(segs[n - 1]!);
  if (child === undefined || child.kind !== 'collection') return undefined;
  const dir = child.path.slice(0, child.path.lastIndexOf('/'));
  const prefix = segs.slice(0, n - 3);
  if ((prefix.length === 0 ? '' : `/${prefix.join('/')}`) !== dir) return undefined;
  const parent = segs[n - 3]!;
  const id = segs[n - 2]!;
  if (parent === '' || id === '') return undefined;
  return { collection: child, nested: { field: foreignKey(parent, foreignKeySuffix(ws)), id } };
}

/**
 * The scheme and host a client reached the server at, for json-server's absolute `location` and `link` URLs:
 * from the `host` header (behind a proxy, the address the proxy used); '' without one (the URLs stay relative).
 */
export function originOf(req: RequestSnapshot, ws: Workspace): string {
  let host: string | undefined;
  for (const [k, v] of req.headers)
    if (k === 'host') {
      host = v;
      break;
    }
  if (host === undefined || host === '' || /[\s/\\?#@]/.test(host)) return '';
  const tls = ws.config.listener.tls;
  return `${tls !== undefined && tls.port === undefined ? 'https' : 'http'}://${host}`;
}
