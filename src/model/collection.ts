// Collections (docs/state.md, "Collections"): json-server-style CRUD over data loaded from a file. What loading
// produces; the data itself lives in the state store under `collection:<path>`, seeded from `seed` when absent.
import type { HeaderList } from '../shared/headers.js';

/** One collection (an array of items) or single resource (one object), as loaded. Immutable. */
export interface Collection {
  /** canonical URL path it answers at, e.g. "/api/users" (a rule set's prefix already joined) */
  readonly path: string;
  /** 'collection': an array of objects; 'resource': one object (json-server's singular routes) */
  readonly kind: 'collection' | 'resource';
  /** the item field that holds each item's id (default "id") */
  readonly id: string;
  /** absolute path of the data file */
  readonly file: string;
  /** `service.db`: the top-level key of the file this collection is; undefined: the whole file */
  readonly key?: string;
  /** the data as loaded (frozen); each store seeds its own copy from it */
  readonly seed: CollectionData;
  /** write changes back to the file */
  readonly persist: boolean;
  /** headers on every answer (lower-cased names) */
  readonly headers?: HeaderList;
  /** the rule set that declares it; undefined for `service.db` / `--db` */
  readonly ruleSetIndex?: number;
  /** the data file's text as read: a reload reseeds only when the file changed for another reason than our write */
  readonly sourceText: string;
}

export type CollectionItem = Record<string, unknown>;
export type CollectionData = CollectionItem[] | CollectionItem;

/** The store key of a collection's current data (docs/state.md): absent means "seed it from the loaded data". */
export const COLLECTION_KEY = 'collection:';

export function collectionKey(c: Collection): string {
  return COLLECTION_KEY + c.path;
}

/**
 * The json-server flags of `mock --db` (docs/coming-from-json-server.md): how the db file's collections answer.
 * Absent: json-server 0.17's defaults.
 */
export interface DbOptions {
  /** `--db-style` / `service.db_style`: `v1` json-server 1.0's query language and ids (docs/coming-from-json-server.md); absent or `v0`: 0.17's */
  readonly style?: 'v0' | 'v1';
  /** `--foreignKeySuffix`: the end of a foreign key's name (default `Id`: `postId`) */
  readonly foreignKeySuffix?: string;
  /** `--read-only`: the db file's collections answer only GET (and HEAD); other methods are 403 */
  readonly readOnly?: boolean;
  /** `--no-cors`: the db file's answers carry no CORS headers */
  readonly noCors?: boolean;
  /** `--delay <ms>`: every answer of the db file's is held this long (a request's `?_delay=` instead) */
  readonly delayMs?: number;
  /** `--id`: the db file's id field (default `id`) */
  readonly id?: string;
  /** `--routes`: rewrites tried in order before the db file's routes (docs/coming-from-json-server.md#routes) */
  readonly routes?: readonly RouteRewrite[];
}

/** One `--routes` entry: `"/api/*": "/$1"`, `"/blog/:resource/:id/show": "/:resource/:id"`. */
export interface RouteRewrite {
  readonly from: string;
  readonly to: string;
}
