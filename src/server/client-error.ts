// What happens to bytes Node's HTTP parser refuses. A malformed request gets a 4xx (400, 408, 413 or 431) and
// the connection is closed; a dropped connection is just cleaned up; a request line whose only fault is raw
// UTF-8 in the target is repaired (repair.ts) and parsed again. Never a 5xx, and the server keeps answering.
import { STATUS_CODES, type Server } from 'node:http';
import { Duplex } from 'node:stream';
import type { SocketActivity } from './activity.js';
import { LINGER_MS } from './linger.js';
import { repairRequestLine } from './repair.js';

/** The fields Node puts on a parser error. */
interface ClientError extends Error {
  readonly code?: string;
  readonly bytesParsed?: number;
  readonly rawPacket?: Uint8Array;
}

/** Parser error codes that get a status other than 400. */
const STATUS_FOR_CODE: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

export function statusForClientError(code: string | undefined): number | undefined {
  if (code === undefined) return undefined;
  const mapped = STATUS_FOR_CODE[code];
  if (mapped !== undefined) return mapped;
  return code.startsWith('HPE_') ? 400 : undefined;
}

export function attachClientErrorHandler(engine: Server, activity: SocketActivity): void {
  // Once handled, later errors from the same (abandoned) parser are ignored.
  const handled = new WeakSet<Duplex>();
  engine.on('clientError', (err: ClientError, socket: Duplex) => {
    if (handled.has(socket)) return;
    handled.add(socket);
    const repaired =
      err.code === 'HPE_INVALID_URL' && err.rawPacket !== undefined
        ? repairRequestLine(err.rawPacket, err.bytesParsed ?? -1)
        : undefined;
    if (repaired !== undefined) {
      reparse(engine, socket, repaired, activity);
      return;
    }
    const status = statusForClientError(err.code);
    // A request still reading its body is the one that broke: it answers, with its full header set.
    if (status !== undefined && activity.interruptBody(socket, status)) return;
    if (status === undefined || !socket.writable) {
      socket.destroy();
      return;
    }
    activity.whenIdle(socket, () => refuse(socket, status));
  });
}

function refuse(socket: Duplex, status: number): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
  // Our FIN follows the answer; input the client still sends goes to the abandoned parser and is dropped
  // until it closes its side, or LINGER_MS passes (linger.ts says why).
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(head);
}

/**
 * Hand `repaired` plus everything the client sends afterwards to a fresh parser. The refused parser is left
 * behind: a 'data' listener takes the socket's bytes away from it (Node then stops feeding it directly), and
 * its further errors are ignored by the `handled` set above. The fresh parser reads through a small duplex
 * that forwards both ways, so keep-alive, pipelining and timeouts work as on any connection.
 */
function reparse(engine: Server, socket: Duplex, repaired: Buffer, activity: SocketActivity): void {
  const proxy = new ForwardingSocket(socket);
  socket.on('data', (chunk: Buffer) => {
    if (!proxy.push(chunk)) socket.pause();
  });
  socket.on('end', () => proxy.push(null));
  socket.on('close', () => proxy.destroy());
  proxy.push(repaired);
  // Earlier pipelined responses on this connection go out first.
  activity.whenIdle(socket, () => {
    if (socket.destroyed) proxy.destroy();
    else engine.emit('connection', proxy);
  });
}

class ForwardingSocket extends Duplex {
  constructor(private readonly inner: Duplex) {
    super();
  }
  override _read(): void {
    this.inner.resume();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.inner.write(chunk, (e) => done(e ?? null));
  }
  override _final(done: (error?: Error | null) => void): void {
    this.inner.end();
    done();
  }
  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    // Deferred: Node's closeAllConnections() walks a snapshot of its connections, and tearing the inner socket
    // down synchronously would free another entry of that snapshot under its feet.
    process.nextTick(() => this.inner.destroy());
    done(error);
  }
  /** Node's keep-alive and idle timeouts act on the real connection. */
  setTimeout(ms: number): this {
    const inner = this.inner as Duplex & { setTimeout?: (ms: number) => unknown };
    if (typeof inner.setTimeout === 'function') inner.setTimeout(ms);
    return this;
  }
  get encrypted(): boolean {
    return (this.inner as Duplex & { encrypted?: boolean }).encrypted === true;
  }
  get remoteAddress(): string | undefined {
    return (this.inner as Duplex & { remoteAddress?: string }).remoteAddress;
  }
  get remotePort(): number | undefined {
    return (this.inner as Duplex & { remotePort?: number }).remotePort;
  }
}
