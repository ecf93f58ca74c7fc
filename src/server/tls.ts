// HTTPS termination. The certificate and key are loaded and parsed before any listener binds (a bad file is a
// config_invalid MockError naming the file; there is never a fallback to plain HTTP). Each admitted connection
// gets listener.tls.handshake_timeout_seconds to finish its handshake, counted from its arrival (queued or not), whatever the
// client trickles in meanwhile; then it is dropped with a log line. A completed handshake hands the TLS socket
// to the HTTP engine, or to the HTTP/2 one when the client chose `h2` by ALPN.
import type { Socket } from 'node:net';
import { createServer, type Server as TlsServer, type TLSSocket } from 'node:tls';
import { formatDiagnostic } from '../model/diagnostic.js';
import { MockError } from '../model/errors.js';
import type { TlsConfig } from '../model/config.js';
import { loadTlsMaterial, type TlsMaterial } from '../node/tls-material.js';

/** Throws MockError('config_invalid') naming the file when the cert or key is missing, unparseable or mismatched. */
export function loadServerTlsMaterial(tls: TlsConfig): TlsMaterial {
  const loaded = loadTlsMaterial(tls.cert, tls.key, tls.certEntry);
  if (loaded.ok) return loaded.value;
  const shown = (abs: string): string => (abs === tls.cert ? tls.certEntry : abs === tls.key ? tls.keyEntry : abs);
  throw new MockError('config_invalid', formatDiagnostic(loaded.error, shown), [loaded.error]);
}

export interface TlsTerminatorOptions {
  readonly material: TlsMaterial;
  /** the cert file as written, for a message when OpenSSL refuses the pair */
  readonly certEntry: string;
  readonly handshakeTimeoutSeconds: number;
  /** offer `h2` by ALPN before `http/1.1` (docs/http2.md) */
  readonly http2?: boolean;
  readonly log: (line: string) => void;
  /** a connection whose handshake completed */
  readonly onSecure: (socket: TLSSocket) => void;
}

export const MESSAGES = {
  handshakeTimedOut: (seconds: number) => `TLS handshake timed out after ${seconds}s; dropping connection`,
  handshakeFailed: (reason: string) => `TLS handshake failed: ${reason}`,
} as const;

export class TlsTerminator {
  private readonly server: TlsServer;
  /** handshake deadlines, keyed by the client's address and port (unique among live connections) */
  private readonly deadlines = new Map<string, NodeJS.Timeout>();

  constructor(private readonly opts: TlsTerminatorOptions) {
    try {
      this.server = createServer({
        cert: opts.material.cert,
        key: opts.material.key,
        ALPNProtocols: opts.http2 === true ? ['h2', 'http/1.1'] : ['http/1.1'],
        // our own deadline (absolute, from arrival) comes first; Node's idle-based one is only a backstop
        handshakeTimeout: (Math.max(0, opts.handshakeTimeoutSeconds) + 5) * 1000,
      });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new MockError(
        'config_invalid',
        `${opts.certEntry}: error: the TLS certificate and key are not usable (${reason})`,
      );
    }
    this.server.on('secureConnection', (socket: TLSSocket) => {
      this.clearDeadline(keyOf(socket));
      opts.onSecure(socket);
    });
    this.server.on('tlsClientError', (err: Error & { code?: string; reason?: string }, socket: TLSSocket) => {
      socket.destroy();
      // a client that simply went away (or that we dropped) is not news
      if (err.code === 'ECONNRESET') return;
      const reason = err.reason ?? err.message;
      opts.log(MESSAGES.handshakeFailed(err.code !== undefined ? `${reason} (${err.code})` : reason));
    });
  }

  /**
   * Start the handshake clock on a connection as it ARRIVES, before the connection gate: a connection queued
   * behind max_connections gets no extra time (its deadline counts from its arrival, not its admission).
   */
  arm(raw: Socket): void {
    const seconds = this.opts.handshakeTimeoutSeconds;
    const key = keyOf(raw);
    if (!(seconds > 0) || key === undefined) return;
    const timer = setTimeout(() => {
      this.deadlines.delete(key);
      this.opts.log(MESSAGES.handshakeTimedOut(seconds));
      raw.destroy();
    }, seconds * 1000);
    this.deadlines.set(key, timer);
    raw.once('close', () => {
      if (this.deadlines.get(key) === timer) this.clearDeadline(key);
    });
  }

  /** Start the handshake on an admitted (already armed) connection. */
  accept(raw: Socket): void {
    if (raw.destroyed) return;
    if (keyOf(raw) === undefined) {
      raw.destroy();
      return;
    }
    this.server.emit('connection', raw);
  }

  close(): void {
    for (const t of this.deadlines.values()) clearTimeout(t);
    this.deadlines.clear();
  }

  private clearDeadline(key: string | undefined): void {
    if (key === undefined) return;
    const t = this.deadlines.get(key);
    if (t === undefined) return;
    clearTimeout(t);
    this.deadlines.delete(key);
  }
}

function keyOf(socket: {
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}): string | undefined {
  if (socket.remoteAddress === undefined || socket.remotePort === undefined) return undefined;
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
