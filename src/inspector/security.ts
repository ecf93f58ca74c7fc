// The management listener's request checks and response headers, as pure functions of the request's method and
// headers (no I/O): they run before any route.
//
// Owns: the Host check against DNS rebinding (only `127.0.0.1:<port>` and `localhost:<port>`), OPTIONS → 405 (no
// CORS preflight is ever granted), the cross-origin guard on state-changing methods (POST, PUT, DELETE: `Origin` absent
// or our own, `Sec-Fetch-Site` absent or `same-origin`, an `x-mock-client` header, a JSON content type on any
// body), and the fixed header sets of the page, its assets and the JSON answers. No answer carries an
// `access-control-*` header: cross-origin pages can neither read nor preflight anything here.
// Leaves out: routing, bodies and the listener itself (router.ts).
import { crypto } from '../shared/lazy-crypto.js';

/** A request as far as these checks need it: lower-case header names, as node:http gives them. */
export interface GuardInput {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** the port the management listener is bound to */
  readonly port: number;
  /** whether the request carries a body (a Content-Length above 0 or any Transfer-Encoding) */
  readonly hasBody: boolean;
  /**
   * `--inspect-token`: every request but the page's own files must carry `authorization: Bearer <token>` (the
   * event stream, which a browser opens without headers, may carry `?access_token=<token>` instead); any Host is
   * then accepted (docs/inspector.md#from-a-container)
   */
  readonly token?: string;
  /** the request's path and query (the token check lets the page's files through) */
  readonly target?: string;
  /**
   * a route served to a peer's own clients (WireMock's admin API, which `wiremock-captain` and curl call as they
   * call WireMock): they send no `x-mock-client` header and may send any content type, so those two checks are not
   * made; the Host (or token), Origin and Sec-Fetch-Site checks still are, and they are what keeps a cross-origin
   * page out (a browser names its origin on every cross-origin write)
   */
  readonly peerClient?: boolean;
}

export interface Refusal {
  readonly ok: false;
  readonly status: 401 | 403 | 405 | 415;
  readonly kind: 'usage';
  readonly message: string;
  /** the Allow header of a 405 */
  readonly allow?: string;
}
export type GuardVerdict = { readonly ok: true } | Refusal;

/** the event stream's path (events.ts): a browser opens it without headers, so it may carry the token in its query */
const EVENTS_PATH = '/__mock/api/events';

/** Methods that change state: they need the cross-origin guard. */
export const STATE_CHANGING = ['POST', 'PUT', 'DELETE'] as const;
/** Methods the listener answers at all. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const;
/** The header a same-origin script must add; a cross-origin page cannot send it without a preflight we refuse. */
export const CLIENT_HEADER = 'x-mock-client';

export const SECURITY_MESSAGES = {
  host: (host: string) =>
    `Host \`${host}\` is not this listener (use http://127.0.0.1:<port>/ or http://localhost:<port>/)`,
  options: 'OPTIONS is not answered here: the management listener grants no cross-origin access',
  method: (m: string) => `method ${m} is not allowed here`,
  origin: (origin: string) => `cross-origin request refused (Origin \`${origin}\`)`,
  fetchSite: (site: string) => `cross-site request refused (Sec-Fetch-Site \`${site}\`)`,
  clientHeader: `a state-changing request needs the \`${CLIENT_HEADER}\` header`,
  contentType: (type: string) => `a request body must be JSON (Content-Type application/json), got \`${type}\``,
  token: 'this management listener needs its token: send `authorization: Bearer <token>` (--inspect-token)',
  path: (why: string) =>
    `the request path is not in normal form (${why}): the management listener answers only paths as its routes spell them`,
} as const;

/** The request target's path and query, once it is known to be in normal form; or why it is not. */
export type TargetVerdict =
  | { readonly ok: true; readonly path: string; readonly search: string }
  | { readonly ok: false; readonly status: 400; readonly kind: 'usage'; readonly message: string };

/**
 * The path of a request target, refused unless it is already in the normal form its URL parsing gives: no `.` or
 * `..` segment, no percent-encoded dot, slash or backslash, no backslash, no empty segment, nothing the URL parser
 * would rewrite. The token check and the router then read one and the same path: a spelling such as
 * `/assets/../__mock/api/requests` cannot pass the check as a page file and reach a route as another path.
 */
export function normalTarget(target: string): TargetVerdict {
  let rest = target;
  if (!rest.startsWith('/')) {
    // absolute form (`http://host/path`), which HTTP/1.1 servers must take: its path is judged the same way
    const m = /^https?:\/\/[^/?#\\]*/i.exec(rest);
    if (m === null) return badPath('not a path');
    rest = rest.slice(m[0].length);
    if (rest === '' || rest.startsWith('?')) rest = `/${rest}`;
    if (!rest.startsWith('/')) return badPath('not a path');
  }
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const search = q < 0 ? '' : rest.slice(q);
  if (path.includes('\\')) return badPath('a backslash');
  if (/%(2e|2f|5c)/i.test(path)) return badPath('a percent-encoded dot, slash or backslash');
  if (path.includes('//')) return badPath('an empty segment');
  for (const seg of path.split('/')) if (seg === '.' || seg === '..') return badPath('a dot segment');
  let parsed: URL;
  try {
    parsed = new URL(`http://127.0.0.1${path}`);
  } catch {
    return badPath('not a path');
  }
  if (parsed.pathname !== path) return badPath('characters the URL parser rewrites');
  return { ok: true, path, search };
}

function badPath(why: string): TargetVerdict {
  return { ok: false, status: 400, kind: 'usage', message: SECURITY_MESSAGES.path(why) };
}

function one(v: string | readonly string[] | undefined): string | undefined {
  return typeof v === 'string' ? v : v?.[0];
}

/** The Host header names this listener: `127.0.0.1:<port>` or `localhost:<port>` (case-insensitive name). */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** The Origin header is our own (scheme http, one of our two host names, our port). */
export function originIsOwn(origin: string, port: number): boolean {
  const o = origin.toLowerCase();
  return o === `http://127.0.0.1:${port}` || o === `http://localhost:${port}`;
}

/** `application/json`, or any `+json` type, parameters allowed. */
export function isJsonContentType(type: string | undefined): boolean {
  if (type === undefined) return false;
  const essence = type.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** Every check that precedes routing, in order: Host, method, then the state-changing guard. */
export function guardRequest(input: GuardInput): GuardVerdict {
  const host = one(input.headers['host']);
  const token = input.token;
  if (token !== undefined) {
    if (!tokenGiven(input, token)) return refuse(401, SECURITY_MESSAGES.token);
  } else if (!hostAllowed(host, input.port)) return refuse(403, SECURITY_MESSAGES.host(host ?? ''));
  const method = input.method.toUpperCase();
  if (method === 'OPTIONS') return { ...refuse(405, SECURITY_MESSAGES.options), allow: ALLOWED_METHODS.join(', ') };
  if (!(ALLOWED_METHODS as readonly string[]).includes(method))
    return { ...refuse(405, SECURITY_MESSAGES.method(method)), allow: ALLOWED_METHODS.join(', ') };
  if (!(STATE_CHANGING as readonly string[]).includes(method)) return { ok: true };
  const origin = one(input.headers['origin']);
  // with a token, the Host is whatever name reaches the listener (a mapped port, a service name): the page's own
  // origin is that one
  const own = (o: string): boolean =>
    originIsOwn(o, input.port) || (token !== undefined && host !== undefined && originIsHost(o, host));
  if (origin !== undefined && !own(origin)) return refuse(403, SECURITY_MESSAGES.origin(origin));
  const site = one(input.headers['sec-fetch-site']);
  if (site !== undefined && site.toLowerCase() !== 'same-origin') return refuse(403, SECURITY_MESSAGES.fetchSite(site));
  if (input.peerClient === true) return { ok: true };
  if (one(input.headers[CLIENT_HEADER]) === undefined) return refuse(403, SECURITY_MESSAGES.clientHeader);
  if (input.hasBody) {
    const type = one(input.headers['content-type']);
    if (!isJsonContentType(type)) return refuse(415, SECURITY_MESSAGES.contentType(type ?? '(none)'));
  }
  return { ok: true };
}

/** `http://<host>` or `https://<host>`: the origin a page loaded from that Host has */
function originIsHost(origin: string, host: string): boolean {
  const o = origin.toLowerCase();
  const h = host.toLowerCase();
  return o === `http://${h}` || o === `https://${h}`;
}

/** The page's own files need no token (they hold no data); everything else carries it. */
function tokenGiven(input: GuardInput, token: string): boolean {
  const normal = normalTarget(input.target ?? '/');
  // a path not in normal form never passes as the page's: the router refuses it before any route
  if (!normal.ok) return false;
  const { path, search } = normal;
  if (path === '/' || PAGE_FILE.test(path)) return true;
  const auth = one(input.headers['authorization']);
  if (auth !== undefined && /^bearer /i.test(auth) && sameText(auth.slice(7).trim(), token)) return true;
  if (path === EVENTS_PATH && search !== '') {
    const given = new URLSearchParams(search.slice(1)).get('access_token');
    if (given !== null && sameText(given, token)) return true;
  }
  return false;
}

/** the page's asset files: one plain name under /assets/ */
const PAGE_FILE = /^\/assets\/[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** compared in time independent of where they differ */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto().timingSafeEqual(x, y);
}

function refuse(status: 401 | 403 | 405 | 415, message: string): Refusal {
  return { ok: false, status, kind: 'usage', message };
}

/** Headers on every answer of the listener. */
export const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
} as const;

/** The page and its assets: nothing but our own scripts, styles and fetches; never framed. */
export const PAGE_HEADERS = {
  ...COMMON_HEADERS,
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

/** JSON answers (envelopes). */
export const JSON_HEADERS = {
  ...COMMON_HEADERS,
  'content-type': 'application/json; charset=utf-8',
} as const;

/** The event stream. */
export const EVENT_HEADERS = {
  ...COMMON_HEADERS,
  'content-type': 'text/event-stream; charset=utf-8',
  connection: 'keep-alive',
} as const;
