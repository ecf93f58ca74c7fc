// HTTP/2 (docs/http2.md): a second engine beside the HTTP/1.1 one, made only when a listener may speak it. Like the
// HTTP/1.1 engine it never listens itself: it is handed connections, a TLS socket that chose `h2` by ALPN or a plain
// one whose first bytes are the HTTP/2 preface (h2c with prior knowledge). Each stream becomes the same
// request/response pair the HTTP/1.1 engine gives (Node's compatibility API), so every request goes through the
// same listener and dispatch().
//
// What it bounds, per connection and per stream: the streams open at once (advertised in our settings; nghttp2
// refuses one past it), the header list (HPACK-decoded bytes, the HTTP/1.1 header limit's twin; a request over it
// is answered 431 by Node), the body (the listener's cap, per stream), a request body that does not arrive within
// the request timeout (the stream is reset), and an idle connection (closed with GOAWAY after the keep-alive time
// when no stream is open). A flood of resets or invalid frames ends the session (nghttp2's and Node's own guards).
//
// Not here: the TLS handshake (server/tls.ts), the connection gate (server/gate.ts), faults (server/http2-faults.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  constants,
  createServer,
  type Http2Server,
  type Http2Stream,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServerTimeouts } from './engine.js';

export interface Http2EngineOptions {
  readonly maxStreams: number;
  readonly maxHeaderListBytes: number;
  readonly timeouts: ServerTimeouts;
}

export interface Http2Engine {
  /** the listener's request handler: the compatibility API's request and response stand in for node:http's */
  serve(onRequest: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** serve this connection as HTTP/2 (its bytes, if some were read already, are back in its buffer) */
  accept(socket: Duplex): void;
  close(): void;
}

export function createHttp2Engine(o: Http2EngineOptions): Http2Engine {
  const server: Http2Server = createServer({
    settings: {
      maxConcurrentStreams: o.maxStreams,
      maxHeaderListSize: o.maxHeaderListBytes,
      enablePush: false,
    },
    maxHeaderListPairs: 256,
    // refuses streams past the advertised bound instead of queueing them
    peerMaxConcurrentStreams: o.maxStreams,
  });
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    watchIdle(session, o.timeouts.keepAliveMs);
    session.once('close', () => sessions.delete(session));
    // a client's protocol error ends its own session only; nothing to report
    session.on('error', ignore);
  });
  server.on('stream', (stream: ServerHttp2Stream, _headers: unknown, flags: number) => {
    stream.on('error', ignore);
    if ((flags & constants.NGHTTP2_FLAG_END_STREAM) === 0) bodyDeadline(stream, o.timeouts.requestMs);
  });
  // the compatibility layer's own stream errors (a client that resets mid-answer) are the client's business
  server.on('sessionError', ignore);
  return {
    serve: (onRequest) =>
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        if (headerListBytes(req.rawHeaders) > o.maxHeaderListBytes) refuseHeaders(res, o.maxHeaderListBytes);
        else onRequest(req, res);
      }),
    accept: (socket) => server.emit('connection', socket),
    close: () => {
      for (const s of sessions) s.destroy();
      sessions.clear();
    },
  };
}

/**
 * The header list's size as HTTP/2 counts it (each name and value, plus 32 bytes per entry): nghttp2 advertises
 * our bound but leaves it to us, so a request over it is answered 431 on its stream and the connection goes on.
 */
function headerListBytes(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i++) n += raw[i]!.length + (i % 2 === 0 ? 32 : 0);
  return n;
}

export const HTTP2_MESSAGES = {
  headersTooLarge: (limit: number) => `request header list exceeds the limit (${limit} bytes)`,
} as const;

function refuseHeaders(res: ServerResponse, limit: number): void {
  const text = HTTP2_MESSAGES.headersTooLarge(limit);
  res.writeHead(431, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** An idle connection (no stream open for the keep-alive time) is closed with GOAWAY, as HTTP/1.1's keep-alive. */
function watchIdle(session: ServerHttp2Session, keepAliveMs: number): void {
  if (!(keepAliveMs > 0)) return;
  let open = 0;
  session.on('stream', (stream: Http2Stream) => {
    open++;
    stream.once('close', () => open--);
  });
  session.setTimeout(keepAliveMs, () => {
    if (open === 0) session.close();
  });
}

/** A request body that has not ended within the request timeout: the stream is reset (CANCEL), the session goes on. */
function bodyDeadline(stream: ServerHttp2Stream, requestMs: number): void {
  if (!(requestMs > 0)) return;
  const timer = setTimeout(() => {
    if (!stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
  }, requestMs);
  timer.unref();
  stream.once('end', () => clearTimeout(timer));
  stream.once('close', () => clearTimeout(timer));
}

/** the first bytes of every HTTP/2 connection */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/**
 * Tells an h2c connection from an HTTP/1.1 one by its first bytes (read, then put back), then routes it; a
 * connection that sends nothing within `withinMs` is closed. Only a listener with `listener.http2 = true` does this.
 */
export function sniffPreface(raw: Socket, withinMs: number, route: (raw: Socket, http2: boolean) => void): void {
  let seen: Buffer | undefined;
  const timer = setTimeout(() => raw.destroy(), withinMs);
  timer.unref();
  const onClose = (): void => clearTimeout(timer);
  const onData = (chunk: Buffer): void => {
    seen = seen === undefined ? chunk : Buffer.concat([seen, chunk]);
    const n = Math.min(seen.length, PREFACE.length);
    const prefix = seen.compare(PREFACE, 0, n, 0, n) === 0;
    // the preface is 24 bytes: at most that many are gathered before deciding
    if (prefix && seen.length < PREFACE.length) return;
    clearTimeout(timer);
    raw.off('data', onData);
    raw.off('close', onClose);
    raw.pause();
    raw.unshift(seen);
    route(raw, prefix);
  };
  raw.on('data', onData);
  raw.once('close', onClose);
  raw.resume();
}

function ignore(): void {}
