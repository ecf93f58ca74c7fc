// What `mock --db db.json` answers besides the collections' routes, as json-server 0.17 does
// (docs/coming-from-json-server.md): `--routes` rewrites, `--read-only`, `GET /db` (the live data), its home page
// and its `404 {}`, `?_delay=`, and its CORS (the request's origin echoed, with credentials). Only the db file's
// answers: a rule set's collections keep mock's own ways. A workspace without a db file never comes here.
import type { HeaderList } from '../shared/headers.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import type { StateStore } from '../state/store.js';
import { readData, jsonDraft } from './collection-parts.js';
import { rewrittenRequest } from './db-routes.js';
import type { Draft } from './finalize.js';
import { TEXT_PLAIN } from './respond.js';
import type { Staged } from './types.js';

const encoder = new TextEncoder();
/** the longest timer Node sets (ms): a longer `_delay` is held this long */
const MAX_DELAY_MS = 2_147_483_647;

/** the request the db file's routes see: after `--routes` */
export function dbRequest(ws: Workspace, req: RequestSnapshot): RequestSnapshot {
  const routes = ws.config.service.dbOptions?.routes;
  return routes === undefined || routes.length === 0 ? req : rewrittenRequest(req, routes);
}

/** Answers the db file gives before its collections: `--read-only`'s 403, `GET /db`, `GET /__rules`. */
export function dbOwnAnswer(ws: Workspace, req: RequestSnapshot, state: StateStore): Staged | undefined {
  const opts = ws.config.service.dbOptions;
  // json-server's read-only lets GET through and nothing else (not even HEAD)
  if (opts?.readOnly === true && req.method !== 'GET')
    return staged(ws, {
      status: 403,
      body: encoder.encode('Forbidden'),
      contentType: TEXT_PLAIN,
      headers: [],
      delayMs: 0,
    });
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  if (req.path === '/db') return staged(ws, jsonDraft(200, liveDb(ws, state)));
  if (req.path === '/__rules' && opts?.routes !== undefined)
    return staged(ws, jsonDraft(200, Object.fromEntries(opts.routes.map((r) => [r.from, r.to]))));
  return undefined;
}

function staged(ws: Workspace, draft: Draft): Staged {
  const file = ws.config.service.db ?? '';
  return { draft, stage: { kind: 'collection', path: '/db', action: 'list', file } };
}

/** The db file's data as it is now: each collection's current items, in the file's order. */
export function liveDb(ws: Workspace, state: StateStore): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of ws.collections ?? [])
    if (c.ruleSetIndex === undefined && c.key !== undefined) out[c.key] = readData(c, state);
  return out;
}

/** What answers when nothing did, in `--db` mode: the home page at `/`, else json-server's `404 {}`. */
export function dbMiss(ws: Workspace, req: RequestSnapshot): Draft {
  if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/')
    return {
      status: 200,
      body: encoder.encode(homePage(ws)),
      contentType: 'text/html; charset=utf-8',
      headers: [],
      delayMs: 0,
    };
  return jsonDraft(404, ws.config.service.dbOptions?.style === 'v1' ? { error: 'Not Found' } : {});
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** json-server's home page, in short: the resources, each a link, and where the data is. */
function homePage(ws: Workspace): string {
  const items = (ws.collections ?? [])
    .filter((c) => c.ruleSetIndex === undefined)
    .map((c) => {
      const href = escapeHtml(encodeURI(c.path));
      return `<li><a href="${href}">${escapeHtml(c.path)}</a> ${c.kind === 'collection' ? '(a collection)' : '(an object)'}</li>`;
    })
    .join('\n');
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>mock --db</title></head><body>\n` +
    `<h1>mock --db</h1>\n<h2>Resources</h2>\n<ul>\n${items}\n<li><a href="/db">/db</a> (the whole data, live)</li>\n</ul>\n` +
    `<p>See docs/coming-from-json-server.md for the routes and the query parameters.</p>\n</body></html>\n`
  );
}

/**
 * The db file's answer as json-server sends it: after `?_delay=<ms>` (json-server's; mock's `service.delay` is the
 * workspace-wide one), with json-server's CORS headers (none with `--no-cors`).
 */
export function asJsonServer(ws: Workspace, req: RequestSnapshot, draft: Draft): Draft {
  const opts = ws.config.service.dbOptions;
  const delay = delayOf(req) ?? opts?.delayMs;
  const cors = opts?.noCors === true ? [] : opts?.style === 'v1' ? jsonServer1Cors(req) : jsonServerCors(req);
  return delay === undefined ? { ...draft, cors } : { ...draft, cors, delayMs: delay };
}

function delayOf(req: RequestSnapshot): number | undefined {
  if (req.query === '' || !req.query.includes('_delay')) return undefined;
  const v = req.parts.query.get('_delay')?.[0];
  if (v === undefined) return undefined;
  const ms = Number.parseFloat(v);
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(Math.round(ms), 0), MAX_DELAY_MS);
}

function originOfRequest(req: RequestSnapshot): string | undefined {
  for (const [k, v] of req.headers) if (k === 'origin') return v;
  return undefined;
}

/** json-server's CORS (the `cors` package with `origin: true, credentials: true`): the origin echoed, if any */
export function jsonServerCors(req: RequestSnapshot): HeaderList {
  const origin = originOfRequest(req);
  const out: [string, string][] = [];
  if (origin !== undefined) out.push(['access-control-allow-origin', origin]);
  out.push(['vary', 'Origin'], ['access-control-allow-credentials', 'true']);
  return out;
}

/** json-server 1.0's CORS (@tinyhttp/cors's defaults): any origin, its methods, the asked-for headers or content-type */
function jsonServer1Cors(req: RequestSnapshot): HeaderList {
  let asked: string | undefined;
  for (const [k, v] of req.headers) if (k === 'access-control-request-headers') asked = v;
  const allowed =
    asked === undefined
      ? 'content-type'
      : asked
          .split(',')
          .map((h) => h.trim())
          .join(',');
  return [
    ['access-control-allow-origin', '*'],
    ['access-control-allow-methods', 'GET, HEAD, PUT, PATCH, POST, DELETE'],
    ['access-control-allow-headers', allowed],
  ];
}

/** json-server's answer to a preflight: 204, the origin echoed, its methods, the asked-for headers echoed */
export function jsonServerPreflight(ws: Workspace, req: RequestSnapshot): Draft {
  const empty = { status: 204, body: new Uint8Array(0), headers: [], delayMs: 0 };
  if (ws.config.service.dbOptions?.noCors === true) return { ...empty, cors: [] };
  const origin = originOfRequest(req);
  let asked: string | undefined;
  for (const [k, v] of req.headers) if (k === 'access-control-request-headers') asked = v;
  const cors: [string, string][] = origin === undefined ? [] : [['access-control-allow-origin', origin]];
  cors.push(
    ['vary', asked === undefined ? 'Origin' : 'Origin, Access-Control-Request-Headers'],
    ['access-control-allow-credentials', 'true'],
    ['access-control-allow-methods', 'GET,HEAD,PUT,PATCH,POST,DELETE'],
  );
  if (asked !== undefined) cors.push(['access-control-allow-headers', asked]);
  return { ...empty, cors };
}
