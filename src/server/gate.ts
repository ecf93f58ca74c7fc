// A bound on connections in flight on one listener. Connections over the bound QUEUE: they were accepted
// paused (the listener uses pauseOnConnect), so they read nothing until a slot frees, first come first served.
// A queued connection that closes leaves the queue. The bounds are listener.max_connections (plain HTTP) and
// listener.tls.max_connections (docs/https-and-limits.md).
//
// A connection whose answer waits on a timer or on its client (a delay, a `timeout` fault, a dribbled body or a
// stream) is HELD: it leaves the count of working connections, so it never keeps a fresh connection queued, and
// counts against its own bound instead (listener.max_held_connections), beyond which the listener refuses to hold
// one more (a 503, docs/faults.md). When its answer is done the connection counts as working again.
import type { Socket } from 'node:net';

export class ConnectionGate {
  private readonly active = new Set<Socket>();
  /** held connections, with how many of their answers hold them (pipelined requests) */
  private readonly held = new Map<Socket, number>();
  private readonly queue: Socket[] = [];

  constructor(
    private readonly limit: number,
    /** start serving an admitted connection */
    private readonly start: (socket: Socket) => void,
    /** most connections held at once */
    readonly heldLimit: number = Number.POSITIVE_INFINITY,
  ) {}

  /** admitted connections, working and held */
  get inFlight(): number {
    return this.active.size + this.held.size;
  }

  get queued(): number {
    return this.queue.length;
  }

  get heldCount(): number {
    return this.held.size;
  }

  offer(socket: Socket): void {
    // A reset on a connection nobody reads yet must not become an unhandled 'error'.
    socket.on('error', ignore);
    if (this.active.size < this.limit) {
      this.admit(socket);
      return;
    }
    this.queue.push(socket);
    socket.once('close', () => {
      const at = this.queue.indexOf(socket);
      if (at >= 0) this.queue.splice(at, 1);
    });
  }

  /**
   * One of the connection's answers is about to wait: the connection is held until as many release() calls. False
   * (and nothing changes) when it is not held yet and heldLimit connections already are.
   */
  hold(socket: Socket): boolean {
    const n = this.held.get(socket);
    if (n !== undefined) {
      this.held.set(socket, n + 1);
      return true;
    }
    if (!this.active.has(socket)) return !socket.destroyed;
    if (this.held.size >= this.heldLimit) return false;
    this.active.delete(socket);
    this.held.set(socket, 1);
    this.drain();
    return true;
  }

  /**
   * That answer is done. The connection counts as working again, over the bound for a moment if the free slot
   * went to a queued one meanwhile: no further connection is admitted until the count is back under it.
   */
  release(socket: Socket): void {
    const n = this.held.get(socket);
    if (n === undefined) return;
    if (n > 1) {
      this.held.set(socket, n - 1);
      return;
    }
    this.held.delete(socket);
    if (!socket.destroyed) this.active.add(socket);
  }

  /** Drop every connection, active, held and queued (server shutdown). */
  destroyAll(): void {
    for (const s of this.queue.splice(0)) s.destroy();
    for (const s of [...this.active, ...this.held.keys()]) s.destroy();
  }

  private admit(socket: Socket): void {
    this.active.add(socket);
    socket.once('close', () => {
      this.active.delete(socket);
      this.held.delete(socket);
      this.drain();
    });
    this.start(socket);
  }

  private drain(): void {
    while (this.active.size < this.limit && this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (!next.destroyed) this.admit(next);
    }
  }
}

function ignore(): void {}
