// The record-mode proxy client: one request forwarded to the target, its answer read back whole (up to the
// cap) or handed over as a stream (beyond it), or a 502 naming why it failed.
//
// Forwarded: method, the target's base path + the raw path, the query, the body bytes, end-to-end headers with
// `host` = the target and `accept-encoding: identity` (hop-by-hop, conditional and range headers dropped;
// credentials forwarded — they are never written, see record/headers.ts). Back: status, end-to-end headers,
// body decoded (gzip/deflate/br) when the upstream compressed anyway; redirects are not followed, and a
// `location` on the target's origin becomes a path as the client sees it (the base path taken off).
// Limits: connect (TCP and TLS) within connectTimeoutMs, the whole answer within totalTimeoutMs.
// HTTPS verifies against Node's CA store (with NODE_EXTRA_CA_CERTS) unless `insecure`.
// Leaves out: deciding what to save (record/plan.ts) and writing (recorder.ts).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { forwardedRequestHeaders, forwardedResponseHeaders } from '../../record/headers.js';
import { MAX_SAVED_BODY_BYTES, type RecordBody, type RecordResponse } from '../../record/plan.js';
import type { RecordTarget } from '../../record/target.js';
import type { HeaderList } from '../../shared/headers.js';
import { codingsOf, decodeAll, isDecodable } from './decode.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 30_000;
/** an event stream (SSE, NDJSON) is exempt from the total limit: cut after this long without a byte… */
export const DEFAULT_STREAM_IDLE_MS = 30_000;
/** …or after this long in all (docs/record.md) */
export const DEFAULT_STREAM_MAX_MS = 10 * 60_000;
/** answers passed to the client as they come (never buffered, never held to the total limit) */
const EVENT_STREAM_TYPES = /^\s*(?:text\/event-stream|application\/x-ndjson)\s*(?:;|$)/i;

export interface ProxyOptions {
  readonly target: RecordTarget;
  /** HTTPS: do not verify the certificate (`--record-insecure`) */
  readonly insecure?: boolean;
  readonly connectTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
  /** bodies above this are streamed to the client and not saved (default 32 MiB) */
  readonly maxSavedBytes?: number;
  readonly streamIdleMs?: number;
  readonly streamMaxMs?: number;
}

/** What the server received, as it received it. */
export interface ForwardRequest {
  readonly method: string;
  /** still percent-encoded, without the query */
  readonly rawPath: string;
  /** raw, without '?' */
  readonly query: string;
  readonly headers: HeaderList;
  /** the request body as read (undefined: none) */
  readonly body?: Uint8Array;
}

export type ProxyResult =
  /** the whole answer; `recorded` is what a recording may save */
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: HeaderList;
      readonly body: Uint8Array;
      readonly recorded: RecordBody;
    }
  /** over the cap (or an event stream, `live`): `head` has been read, `rest` follows; send both, save nothing */
  | {
      readonly kind: 'stream';
      readonly status: number;
      readonly headers: HeaderList;
      readonly head: readonly Uint8Array[];
      readonly rest: Readable;
      readonly live?: true;
    }
  /** no answer: a 502 text/plain naming the error */
  | {
      readonly kind: 'failed';
      readonly status: 502;
      readonly headers: HeaderList;
      readonly body: Uint8Array;
      readonly error: string;
    };

export interface ProxyClient {
  forward(req: ForwardRequest): Promise<ProxyResult>;
  /** close idle upstream connections */
  close(): void;
}

export const PROXY_MESSAGES = {
  failed: (origin: string, reason: string) => `mock: record target ${origin} failed: ${reason}\n`,
  connectTimeout: (ms: number) => `no connection within ${ms} ms`,
  totalTimeout: (ms: number) => `no complete answer within ${ms} ms`,
  closed: () => 'the connection closed before the answer was complete',
} as const;

/** The answer a client gets when the target failed; also what the recording sees (nothing). */
export function failedResult(target: RecordTarget, reason: string): ProxyResult {
  return {
    kind: 'failed',
    status: 502,
    headers: [['content-type', 'text/plain; charset=utf-8']],
    body: new TextEncoder().encode(PROXY_MESSAGES.failed(target.origin, reason)),
    error: reason,
  };
}

/** The response part of an exchange for record/plan.ts; undefined for a failure (nothing is written). */
export function recordResponseOf(result: ProxyResult): RecordResponse | undefined {
  switch (result.kind) {
    case 'answer':
      return { status: result.status, headers: result.headers, body: result.recorded };
    case 'stream':
      return {
        status: result.status,
        headers: result.headers,
        body: { kind: result.live === true ? 'event_stream' : 'streamed' },
      };
    case 'failed':
      return undefined;
  }
}

export function createProxyClient(options: ProxyOptions): ProxyClient {
  const { target } = options;
  const https = target.scheme === 'https';
  const agent = https
    ? new HttpsAgent({ keepAlive: true, rejectUnauthorized: options.insecure !== true })
    : new HttpAgent({ keepAlive: true });
  const connectMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const totalMs = options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const cap = options.maxSavedBytes ?? MAX_SAVED_BODY_BYTES;

  const forward = (req: ForwardRequest): Promise<ProxyResult> =>
    new Promise<ProxyResult>((resolve) => {
      let settled = false;
      /** why we ended the exchange ourselves (a timeout): reported in place of the error that follows from it */
      let aborted: string | undefined;
      const fail = (reason: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        resolve(failedResult(target, aborted ?? reason));
      };
      let outgoing: ReturnType<typeof httpRequest>;
      try {
        outgoing = (https ? httpsRequest : httpRequest)({
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: target.basePath + req.rawPath + (req.query === '' ? '' : '?' + req.query),
          headers: outgoingHeaders(req, target),
          agent,
          ...(https && options.insecure === true ? { rejectUnauthorized: false } : {}),
        });
      } catch (e) {
        fail(reasonOf(e));
        return;
      }
      const abort = (reason: string): void => {
        aborted ??= reason;
        outgoing.destroy(new Error(reason));
      };
      const total = setTimeout(() => abort(PROXY_MESSAGES.totalTimeout(totalMs)), totalMs);
      outgoing.on('socket', (socket) => {
        if (!socket.connecting) return; // a kept-alive connection, already made
        const timer = setTimeout(() => abort(PROXY_MESSAGES.connectTimeout(connectMs)), connectMs);
        socket.once(https ? 'secureConnect' : 'connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      outgoing.on('error', (e) => fail(reasonOf(e)));
      outgoing.on('response', (res) => {
        readAnswer(res, req.method, target, cap).then(
          (result) => {
            if (settled) {
              res.destroy();
              return;
            }
            settled = true;
            if (result.kind !== 'stream') clearTimeout(total);
            else if (result.live === true) {
              clearTimeout(total);
              boundStream(
                result.rest,
                options.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS,
                options.streamMaxMs ?? DEFAULT_STREAM_MAX_MS,
              );
            } else result.rest.once('close', () => clearTimeout(total));
            resolve(result);
          },
          (e: unknown) => fail(reasonOf(e)),
        );
      });
      outgoing.end(
        req.body === undefined ? undefined : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength),
      );
    });

  return { forward, close: () => agent.destroy() };
}

function outgoingHeaders(req: ForwardRequest, target: RecordTarget): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = { host: target.host };
  for (const [k, v] of forwardedRequestHeaders(req.headers)) {
    const name = k.toLowerCase();
    const had = out[name];
    out[name] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  out['accept-encoding'] = 'identity';
  if (req.body !== undefined) out['content-length'] = String(req.body.byteLength);
  return out;
}

async function readAnswer(
  res: IncomingMessage,
  method: string,
  target: RecordTarget,
  cap: number,
): Promise<ProxyResult> {
  const status = res.statusCode ?? 502;
  const raw: [string, string][] = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    raw.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
  const codings = codingsOf(
    raw
      .filter(([k]) => k === 'content-encoding')
      .map(([, v]) => v)
      .join(','),
  );
  const decode = codings.length > 0 && isDecodable(codings);
  const headers = forwardedResponseHeaders(raw)
    .filter(([k]) => !(decode && k === 'content-encoding'))
    .map(([k, v]): [string, string] => (k === 'location' ? [k, clientLocation(v, target)] : [k, v]));
  // a HEAD answer's content-length describes the GET body: pass it on
  const length = method.toUpperCase() === 'HEAD' && !decode ? raw.find(([k]) => k === 'content-length') : undefined;
  if (length !== undefined) headers.push(length);
  if (
    codings.length === 0 &&
    method.toUpperCase() !== 'HEAD' &&
    EVENT_STREAM_TYPES.test(raw.find(([k]) => k === 'content-type')?.[1] ?? '')
  ) {
    res.on('error', () => undefined);
    return { kind: 'stream', status, headers, head: [], rest: res, live: true };
  }
  const source: AsyncIterable<Buffer> = decode ? decodeAll(res, codings) : res;
  const it = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  for (let r = await it.next(); r.done !== true; r = await it.next()) {
    size += r.value.length;
    chunks.push(r.value);
    if (size > cap) {
      async function* rest(): AsyncIterable<Buffer> {
        for (let n = await it.next(); n.done !== true; n = await it.next()) yield n.value;
      }
      const stream = Readable.from(rest(), { objectMode: false });
      // a broken upstream must never become an uncaught 'error': the caller sees it as an early end or its own listener
      stream.on('error', () => undefined);
      return { kind: 'stream', status, headers, head: chunks, rest: stream };
    }
  }
  if (!res.complete) throw new Error(PROXY_MESSAGES.closed());
  const body = Buffer.concat(chunks, size);
  const recorded: RecordBody =
    codings.length > 0 && !decode ? { kind: 'encoded', encoding: codings.join(', ') } : { kind: 'bytes', bytes: body };
  return { kind: 'answer', status, headers, body, recorded };
}

/** An event stream passed through: ended when no byte came for `idleMs`, or after `maxMs` in all. */
function boundStream(rest: Readable, idleMs: number, maxMs: number): void {
  let idle = setTimeout(() => rest.destroy(), idleMs);
  const max = setTimeout(() => rest.destroy(), maxMs);
  rest.on('data', () => {
    clearTimeout(idle);
    idle = setTimeout(() => rest.destroy(), idleMs);
  });
  rest.once('close', () => {
    clearTimeout(idle);
    clearTimeout(max);
  });
}

/** A `location` on the target's origin (absolute, or a path) as the client's path: the base path taken off. */
export function clientLocation(value: string, target: RecordTarget): string {
  let url: URL;
  try {
    url = new URL(value, target.origin + '/');
  } catch {
    return value;
  }
  const absolute = value.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(value);
  if (!absolute || url.origin !== target.origin) return value;
  let path = url.pathname;
  const base = target.basePath;
  if (base !== '' && (path === base || path.startsWith(base + '/'))) path = path.slice(base.length) || '/';
  return path + url.search + url.hash;
}

function reasonOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
}
