// The journal's HTTP API, as pure functions over a Journal: (method, target, body) → (status, headers, body).
// The management listener mounts them; its binding, Host check and cross-origin guards are its own (they come
// before these). JSON answers use the CLI's envelope, `{schema: 1, mock, result | error}`, compact.
//
//   GET    /__mock/api/requests?path=&path_regex=&method=&since=&stage=&rule_set=&rule=&limit=
//                                      → {entries, last_id, dropped}   (never an overflow error: `dropped` says it)
//   GET    /__mock/api/requests/<id>   → the entry (410 evicted, 404 unknown or reset)
//   DELETE /__mock/api/requests        → 204, the journal cleared (ids keep counting)
//   POST   /__mock/api/reset           → 204; body `{journal?, rotation?, state?, collections?, session?}`: every part
//                                        by default (with sessions and overrides: everything, docs/library.md#what-reset-clears);
//                                        a part set to false is kept; `session`: that session's share only
//   `session=<id>` on the list: that session's view (docs/library.md#sessions)
import type { HeaderList } from '../shared/headers.js';
import { SCHEMA_VERSION, type Wire } from '../shared/wire.js';
import type { RequestFilter } from './filter.js';
import { filterFromQuery } from './http-query.js';
import type { Journal } from './journal.js';
import { entryToWire } from './wire.js';

export const JOURNAL_ROUTES = {
  requests: '/__mock/api/requests',
  entryPrefix: '/__mock/api/requests/',
  reset: '/__mock/api/reset',
} as const;

export interface JournalHttpRequest {
  /** upper-case */
  readonly method: string;
  /** the request target: path and query, as received */
  readonly target: string;
  /** the request body as text ('' when none) */
  readonly body?: string;
}

export interface JournalHttpResponse {
  readonly status: number;
  readonly headers: HeaderList;
  /** '' for 204 */
  readonly body: string;
}

export interface JournalRouteDeps {
  readonly journal: Journal;
  /** the `mock` of the envelope: the program's version */
  readonly version: string;
  /** restart the round-robin counters (the server owns them) */
  readonly resetRotation: () => void;
  /** put every scenario back to `started` (docs/state.md) */
  readonly resetState?: () => void;
  /** put every collection back to its file's data */
  readonly resetCollections?: () => void;
  /** sessions and overrides (launch/runtime.ts): a session's view of the journal, and the resets beyond it */
  readonly runtime?: {
    /** globally (no session): the journal, counters, state, overrides and every session; else that session's share */
    reset(session?: string): void;
    viewFilter(session: string | undefined, filter: RequestFilter): RequestFilter;
  };
}

/** the parts a reset body may name */
const RESET_PARTS = ['journal', 'rotation', 'state', 'collections'] as const;

export const ROUTE_MESSAGES = {
  notAnId: (raw: string) => `'${raw}' is not a journal entry id (a whole number from 1)`,
  evicted: (id: number, size: number) =>
    `entry ${id} was evicted (the journal keeps ${size} entries): raise the journal size to keep more`,
  reset: (id: number) => `entry ${id} was removed by a reset`,
  unknown: (id: number, last: number) => `no entry ${id} yet (the newest is ${last})`,
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    `${method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`,
  resetBody:
    'the reset body must be a JSON object with optional boolean fields journal, rotation, state and collections, and an optional session id',
} as const;

const JSON_HEADERS: HeaderList = Object.freeze([
  ['content-type', 'application/json; charset=utf-8'],
  ['cache-control', 'no-store'],
] as const);

/** The answer for a journal route, or undefined when the target is none of them. */
export function handleJournalRoute(req: JournalHttpRequest, deps: JournalRouteDeps): JournalHttpResponse | undefined {
  const q = req.target.indexOf('?');
  const path = q < 0 ? req.target : req.target.slice(0, q);
  const query = q < 0 ? '' : req.target.slice(q + 1);
  if (path === JOURNAL_ROUTES.requests) {
    if (req.method === 'GET') return listRequests(query, deps);
    if (req.method === 'DELETE') {
      deps.journal.reset();
      return NO_CONTENT;
    }
    return notAllowed(req.method, path, ['GET', 'DELETE'], deps);
  }
  if (path.startsWith(JOURNAL_ROUTES.entryPrefix)) {
    if (req.method !== 'GET') return notAllowed(req.method, path, ['GET'], deps);
    return oneEntry(path.slice(JOURNAL_ROUTES.entryPrefix.length), deps);
  }
  if (path === JOURNAL_ROUTES.reset) {
    if (req.method !== 'POST') return notAllowed(req.method, path, ['POST'], deps);
    return reset(req.body ?? '', deps);
  }
  return undefined;
}

function listRequests(query: string, deps: JournalRouteDeps): JournalHttpResponse {
  const filter = filterFromQuery(query);
  if (!filter.ok) return failure(400, deps, filter.error.join('; '));
  const r = deps.journal.query(deps.runtime?.viewFilter(filter.value.session, filter.value) ?? filter.value);
  return success(deps, { entries: r.entries.map(entryToWire), last_id: r.lastId, dropped: r.dropped });
}

function oneEntry(raw: string, deps: JournalRouteDeps): JournalHttpResponse {
  if (!/^[1-9]\d{0,14}$/.test(raw)) return failure(400, deps, ROUTE_MESSAGES.notAnId(raw));
  const id = Number(raw);
  const found = deps.journal.lookup(id);
  switch (found.kind) {
    case 'found':
      return success(deps, entryToWire(found.entry));
    case 'evicted':
      return failure(410, deps, ROUTE_MESSAGES.evicted(id, deps.journal.limits.size));
    case 'reset':
      return failure(404, deps, ROUTE_MESSAGES.reset(id));
    case 'unknown':
      return failure(404, deps, ROUTE_MESSAGES.unknown(id, deps.journal.lastId));
  }
}

function reset(body: string, deps: JournalRouteDeps): JournalHttpResponse {
  let what: Partial<Record<(typeof RESET_PARTS)[number], boolean>> = {};
  let session: string | undefined;
  if (body.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return failure(400, deps, ROUTE_MESSAGES.resetBody);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return failure(400, deps, ROUTE_MESSAGES.resetBody);
    const o = parsed as Record<string, unknown>;
    const keysOk = Object.keys(o).every(
      (k) =>
        ((RESET_PARTS as readonly string[]).includes(k) && typeof o[k] === 'boolean') ||
        (k === 'session' && typeof o[k] === 'string' && o[k] !== ''),
    );
    if (!keysOk) return failure(400, deps, ROUTE_MESSAGES.resetBody);
    const { session: named, ...parts } = o;
    what = parts;
    if (typeof named === 'string') session = named;
  }
  // a session's share, or everything (the default): sessions and overrides go too
  const everything = RESET_PARTS.every((k) => what[k] !== false);
  if (deps.runtime !== undefined && (session !== undefined || everything)) {
    deps.runtime.reset(session);
    return NO_CONTENT;
  }
  if (what.journal !== false) deps.journal.reset();
  if (what.rotation !== false) deps.resetRotation();
  if (what.state !== false) deps.resetState?.();
  if (what.collections !== false) deps.resetCollections?.();
  return NO_CONTENT;
}

const NO_CONTENT: JournalHttpResponse = Object.freeze({
  status: 204,
  headers: Object.freeze([['cache-control', 'no-store']] as const),
  body: '',
});

function success(deps: JournalRouteDeps, result: Wire): JournalHttpResponse {
  return {
    status: 200,
    headers: JSON_HEADERS,
    body: JSON.stringify({ schema: SCHEMA_VERSION, mock: deps.version, result }) + '\n',
  };
}

/** Client errors carry the envelope's `usage` kind (the CLI's closed set of kinds); the status tells them apart. */
function failure(status: number, deps: JournalRouteDeps, message: string): JournalHttpResponse {
  return {
    status,
    headers: JSON_HEADERS,
    body: JSON.stringify({ schema: SCHEMA_VERSION, mock: deps.version, error: { kind: 'usage', message } }) + '\n',
  };
}

function notAllowed(
  method: string,
  path: string,
  allowed: readonly string[],
  deps: JournalRouteDeps,
): JournalHttpResponse {
  const answer = failure(405, deps, ROUTE_MESSAGES.methodNotAllowed(method, path, allowed));
  return { ...answer, headers: [...answer.headers, ['allow', allowed.join(', ')]] };
}
