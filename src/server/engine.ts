// The engine (the one http.Server every admitted connection is handed to, which never listens itself) and the
// socket chores of starting and stopping: binding a front listener, draining idle connections, closing.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { MockError } from '../model/errors.js';
import type { ConnectionGate } from './gate.js';

export interface ServerTimeouts {
  /** a request's head must arrive within this (Node answers 408 and closes) */
  readonly headersMs: number;
  /** the whole request, body included */
  readonly requestMs: number;
  /** an idle keep-alive connection is closed after this */
  readonly keepAliveMs: number;
  /** how often Node checks the two above */
  readonly checkIntervalMs: number;
}

/** `127.0.0.1:3001`, `[::1]:3001` */
export function formatHostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

const BIND_REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'address not available',
  ENOTFOUND: 'no such address',
};

export function createEngine(t: ServerTimeouts): HttpServer {
  const engine = createHttpServer({
    // HTTP/1.1 without Host is still answered, as the reference does
    requireHostHeader: false,
    headersTimeout: Math.min(t.headersMs, t.requestMs),
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    connectionsCheckingInterval: t.checkIntervalMs,
  });
  // The engine is handed connections and never listens itself; Node starts its header/request timeout
  // tracking on 'listening', so that signal is given here.
  engine.emit('listening');
  // Node.js 20's walk of idle connections (drain, and close() itself) throws a TypeError on an entry whose socket is
  // gone, which a connection_reset fault over HTTPS leaves behind (the TLS socket's TCP socket reset under the
  // request being parsed): shutting down then failed with "Cannot read properties of null". The walk stops there;
  // every connection is destroyed through its gate on the way out all the same.
  const closeIdle = engine.closeIdleConnections.bind(engine);
  engine.closeIdleConnections = (): void => {
    try {
      closeIdle();
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
    }
  };
  return engine;
}

export function bind(server: NetServer, ip: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      const reason = (e.code !== undefined ? BIND_REASONS[e.code] : undefined) ?? e.message;
      reject(new MockError('io', `cannot listen on ${formatHostPort(ip, port)}: ${reason}`, [], { cause: e }));
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    try {
      server.listen({ host: ip, port });
    } catch (e) {
      server.off('error', onError);
      onError(e as NodeJS.ErrnoException);
    }
  });
}

/** Close idle connections now and as each goes idle, until none is left or `ms` has passed. */
export function drain(engine: HttpServer, gates: readonly ConnectionGate[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = Date.now() + ms;
    const step = (): void => {
      engine.closeIdleConnections();
      // a destroyed socket leaves its gate on its 'close' event, once libuv has closed it: a short poll
      if (gates.every((g) => g.inFlight === 0 && g.queued === 0) || Date.now() >= deadline) resolve();
      else setTimeout(step, 2);
    };
    step();
  });
}

export function closeServer(server: NetServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });
}
