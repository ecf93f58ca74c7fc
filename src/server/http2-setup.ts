// Whether a server speaks HTTP/2, and where its connections come in (docs/http2.md): `listener.http2` absent, h2 is
// offered by ALPN on the TLS listener only; `true`, the plain listener also takes h2c with prior knowledge (its
// connections are told apart by their first bytes); `false`, HTTP/1.1 everywhere. node:http2 and the engine are
// loaded only when some listener may speak it, so a plain HTTP/1.1 server costs nothing more.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULTS } from '../model/config.js';
import type { Workspace } from '../model/workspace.js';
import type { ServerTimeouts } from './engine.js';
import type { Http2Engine } from './http2.js';

/**
 * Set on an h2c connection's socket: a stream's socket (Node's stand-in, which reads through to the connection's
 * socket) leads back to the connection the gate admitted, for held connections (server/gate.ts).
 */
export const H2C_SOCKET = Symbol('h2cSocket');

export interface Http2Setup {
  readonly engine: Http2Engine;
  serve(onRequest: (req: IncomingMessage, res: ServerResponse) => void): void;
  accept(socket: Duplex): void;
  /** with h2c on: routes an admitted plain connection to HTTP/2 or to `http1` by its first bytes */
  plain(withinMs: number): ((raw: Socket, http1: (raw: Socket) => void) => void) | undefined;
}

export async function http2Engine(
  ws: Workspace,
  tls: boolean,
  timeouts: ServerTimeouts,
): Promise<Http2Setup | undefined> {
  const listener = ws.config.listener;
  const h2c = listener.http2 === true;
  if (!h2c && !(tls && listener.http2 === undefined)) return undefined;
  const module = await import('./http2.js');
  const engine = module.createHttp2Engine({
    maxStreams: listener.http2MaxStreams ?? DEFAULTS.http2MaxStreams,
    maxHeaderListBytes: DEFAULTS.http2MaxHeaderListBytes,
    timeouts,
  });
  const accept = (socket: Duplex): void => engine.accept(socket);
  return {
    engine,
    serve: (onRequest) => engine.serve(onRequest),
    accept,
    plain: (withinMs) =>
      h2c
        ? (raw, http1) =>
            module.sniffPreface(raw, withinMs, (socket, http2) => {
              if (!http2) return http1(socket);
              (socket as Socket & { [H2C_SOCKET]?: Socket })[H2C_SOCKET] = socket;
              accept(socket);
            })
        : undefined,
  };
}
