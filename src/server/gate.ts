// A bound on connections in flight on one listener. Connections over the bound QUEUE: they were accepted
// paused (the listener uses pauseOnConnect), so they read nothing until a slot frees, first come first served.
// A queued connection that closes leaves the queue. The TLS listener's bound is listener.tls.max_connections;
// the plain HTTP listener has one too (see start.ts).
import type { Socket } from 'node:net';

export class ConnectionGate {
  private readonly active = new Set<Socket>();
  private readonly queue: Socket[] = [];

  constructor(
    private readonly limit: number,
    /** start serving an admitted connection */
    private readonly start: (socket: Socket) => void,
  ) {}

  get inFlight(): number {
    return this.active.size;
  }

  get queued(): number {
    return this.queue.length;
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

  /** Drop every connection, active and queued (server shutdown). */
  destroyAll(): void {
    for (const s of this.queue.splice(0)) s.destroy();
    for (const s of [...this.active]) s.destroy();
  }

  private admit(socket: Socket): void {
    this.active.add(socket);
    socket.once('close', () => {
      this.active.delete(socket);
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
