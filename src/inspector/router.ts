// The management listener's request handler: `(req, res) => void`, built from a route table.
//
// Owns: the order every request goes through (security checks, then the page and its assets, then the routes),
// JSON request bodies (bounded, parsed, typed JSON only), the envelope on every JSON answer, 404/405 for unknown
// paths and methods, and turning a handler's exception into a 500 envelope (the listener never dies on a request).
// Leaves out: binding the listener (the caller's `http.createServer(handler)` on 127.0.0.1), the routes themselves
// (the journal's, events.ts, files.ts, rules.ts: passed in), and the page (ui/, read from `uiDir`).
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeAnswer, failure, type JsonAnswer } from './envelope.js';
import { guardRequest, JSON_HEADERS, normalTarget, PAGE_HEADERS } from './security.js';

/** What a handler is given. */
export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** the request target, parsed against the listener's own origin */
  readonly url: URL;
  /** upper-case */
  readonly method: string;
  /** capture groups of a RegExp path (decoded), or [] */
  readonly params: readonly string[];
  /** the JSON body (undefined when there is none); read once, bounded by `maxBodyBytes` */
  body(): Promise<unknown>;
  /** the body as text ('' when there is none), for routes that parse it themselves; same bound */
  text(): Promise<string>;
}

/**
 * A route answers JSON (wrapped in the envelope), or `'handled'` when it wrote the response itself (the event
 * stream). A RegExp path must match the whole pathname (anchor it).
 */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string | RegExp;
  handle(ctx: RouteContext): JsonAnswer | 'handled' | Promise<JsonAnswer | 'handled'>;
}

export interface ManagementOptions {
  /** the program version, for the envelope's `mock` field */
  readonly version: string;
  readonly routes: readonly Route[];
  /** the page's folder (index.html, app.css, app.js); default: ui/ beside this module (dist/bin/ui in the bundle) */
  readonly uiDir?: string;
  /** default 1 MiB */
  readonly maxBodyBytes?: number;
  /** `--inspect-token`: every request but the page's files carries `authorization: Bearer <token>` (security.ts) */
  readonly token?: string;
  /** path prefixes served to a peer's own clients (`/__admin/`): no client-header check (security.ts's `peerClient`) */
  readonly peerPrefixes?: readonly string[];
}

/** The page's files: the only names served (GET / is index.html, /assets/<name> the rest). */
export const UI_FILES = {
  'index.html': 'text/html; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
} as const;
type UiFile = keyof typeof UI_FILES;

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Where the page's files are by default: `ui/` next to this module (in the bundle, next to dist/bin/mock.cjs). */
export function defaultUiDir(): string {
  return fileURLToPath(new URL('./ui/', import.meta.url));
}

const MESSAGES = {
  notFound: (path: string) => `no such route: ${path}`,
  method: (method: string, path: string, allowed: string) =>
    `${method} is not allowed on ${path} (allowed: ${allowed})`,
  tooLarge: (limit: number) => `the request body is over ${limit} bytes`,
  badJson: (why: string) => `the request body is not valid JSON: ${why}`,
  internal: (why: string) => `internal error: ${why}`,
  noUi: (file: string) => `the inspector page is missing from this installation (${file})`,
} as const;

class BodyError extends Error {
  constructor(readonly answer: JsonAnswer) {
    super(answer.kind === 'error' ? answer.message : 'body');
  }
}

/** Build the handler. Never throws to node:http; every failure becomes an answer. */
export function createManagementHandler(
  options: ManagementOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const uiDir = options.uiDir ?? defaultUiDir();
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const cache = new Map<UiFile, Buffer>();

  const sendJson = (res: ServerResponse, answer: JsonAnswer, extra: Record<string, string> = {}): void => {
    const { status, body } = encodeAnswer(options.version, answer);
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, {
      ...JSON_HEADERS,
      ...extra,
      ...(status === 204 ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
    });
    res.end(status === 204 || res.req.method === 'HEAD' ? undefined : body);
  };

  const serveUi = async (req: IncomingMessage, res: ServerResponse, file: UiFile): Promise<void> => {
    let bytes = cache.get(file);
    if (bytes === undefined) {
      try {
        bytes = await readFile(join(uiDir, file));
      } catch {
        sendJson(res, failure('internal', MESSAGES.noUi(join(uiDir, file)), undefined, 500));
        return;
      }
      cache.set(file, bytes);
    }
    res.writeHead(200, { ...PAGE_HEADERS, 'content-type': UI_FILES[file], 'content-length': String(bytes.length) });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const port = req.socket.localPort ?? 0;
    const hasBody =
      (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') ||
      req.headers['transfer-encoding'] !== undefined;
    // one path for the token check and the routes: a target not in normal form is refused before either reads it
    const target = normalTarget(req.url ?? '/');
    if (!target.ok) {
      req.resume();
      sendJson(res, failure(target.kind, target.message, undefined, target.status));
      return;
    }
    const verdict = guardRequest({
      method,
      headers: req.headers,
      port,
      hasBody,
      target: target.path + target.search,
      ...(options.token !== undefined ? { token: options.token } : {}),
      ...(options.peerPrefixes?.some((p) => target.path.startsWith(p)) === true ? { peerClient: true } : {}),
    });
    if (!verdict.ok) {
      req.resume();
      sendJson(
        res,
        failure(verdict.kind, verdict.message, undefined, verdict.status),
        verdict.allow !== undefined
          ? { allow: verdict.allow }
          : verdict.status === 401
            ? { 'www-authenticate': 'Bearer realm="mock"' }
            : {},
      );
      return;
    }
    let url: URL;
    try {
      url = new URL(`http://127.0.0.1:${port}${target.path}${target.search}`);
    } catch {
      sendJson(res, failure('usage', MESSAGES.notFound(req.url ?? ''), undefined, 400));
      return;
    }
    const path = url.pathname;
    const uiFile: UiFile | undefined =
      path === '/' ? 'index.html' : path.startsWith('/assets/') ? uiName(path.slice('/assets/'.length)) : undefined;
    if (uiFile !== undefined) {
      if (method !== 'GET' && method !== 'HEAD') {
        req.resume();
        sendJson(res, failure('usage', MESSAGES.method(method, path, 'GET, HEAD'), undefined, 405), {
          allow: 'GET, HEAD',
        });
        return;
      }
      await serveUi(req, res, uiFile);
      return;
    }
    const matching = options.routes
      .map((r) => ({ r, params: matchPath(r.path, path) }))
      .filter((m) => m.params !== undefined);
    const want = method === 'HEAD' ? 'GET' : method;
    const hit = matching.find((m) => m.r.method === want);
    if (hit === undefined) {
      req.resume();
      if (matching.length === 0) sendJson(res, failure('usage', MESSAGES.notFound(path), undefined, 404));
      else {
        const allowed = [...new Set(matching.map((m) => m.r.method))].join(', ');
        sendJson(res, failure('usage', MESSAGES.method(method, path, allowed), undefined, 405), { allow: allowed });
      }
      return;
    }
    let bodyRead: Promise<string> | undefined;
    const text = (): Promise<string> => (bodyRead ??= readBody(req, maxBody));
    const ctx: RouteContext = { req, res, url, method, params: hit.params!, text, body: () => text().then(parseJson) };
    let answer: JsonAnswer | 'handled';
    try {
      answer = await hit.r.handle(ctx);
    } catch (e) {
      answer =
        e instanceof BodyError
          ? e.answer
          : failure('internal', MESSAGES.internal(e instanceof Error ? e.message : String(e)));
    }
    if (bodyRead === undefined && !req.readableEnded) req.resume();
    if (answer !== 'handled') sendJson(res, answer);
  };

  return (req, res) => {
    handle(req, res).catch((e: unknown) => {
      // last resort: the headers may be gone already; never let a request end the process
      if (!res.headersSent)
        sendJson(res, failure('internal', MESSAGES.internal(e instanceof Error ? e.message : String(e))));
      else res.destroy();
    });
  };
}

function uiName(name: string): UiFile | undefined {
  return name !== 'index.html' && Object.hasOwn(UI_FILES, name) ? (name as UiFile) : undefined;
}

function matchPath(pattern: string | RegExp, path: string): readonly string[] | undefined {
  if (typeof pattern === 'string') return pattern === path ? [] : undefined;
  const m = pattern.exec(path);
  if (m === null || m[0] !== path) return undefined;
  try {
    return m.slice(1).map((g) => (g === undefined ? '' : decodeURIComponent(g)));
  } catch {
    return undefined;
  }
}

/** The body as text; a BodyError (413) when it is over `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        reject(new BodyError(failure('usage', MESSAGES.tooLarge(limit), undefined, 413)));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (e) => {
      if (!done) reject(new BodyError(failure('io', MESSAGES.internal(e.message), undefined, 400)));
      done = true;
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** JSON text → value; undefined when blank; a BodyError (400) when not JSON. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BodyError(failure('usage', MESSAGES.badJson(e instanceof Error ? e.message : String(e)), undefined, 400));
  }
}
