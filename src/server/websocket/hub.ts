// The open WebSocket connections of a server (docs/websocket.md), by route: the upgrade's path and its session, so a
// broadcast reaches the clients of one chat room and a test's session sees only its own clients. Each connection
// keeps its frames (direction, time, size, text or a base64 excerpt), bounded, for the journal's view of it and for
// `m.ws(path)`: list clients, wait for a client or a message, send to one or all.
/** what the hub needs of a connection */
import type { WsConnectionInfo, WsFrame } from '../../model/websocket.js';

export type { WsConnectionInfo, WsFrame };

export interface WsPeer {
  send(text: string): void;
}

/** the most frames one connection keeps (the oldest go first) */
export const MAX_FRAMES = 500;
/** the most closed connections kept for the journal */
export const MAX_CLOSED = 100;
/** a frame's text kept up to this many characters; a binary frame's first bytes up to this many */
export const FRAME_EXCERPT = 4096;

interface Conn {
  info: {
    id: number;
    path: string;
    session?: string;
    openedAt: Date;
    closedAt?: Date;
    closeCode?: number;
    frames: WsFrame[];
  };
  readonly peer: WsPeer;
}

type Waiter = { readonly path: string | undefined; readonly wake: (c: WsConnectionInfo, text?: string) => void };

export class WsHub {
  private next = 1;
  private readonly open = new Map<number, Conn>();
  private readonly closed: WsConnectionInfo[] = [];
  private clientWaiters: Waiter[] = [];
  private messageWaiters: Waiter[] = [];

  /** a connection was upgraded: its id */
  add(path: string, session: string | undefined, peer: WsPeer): number {
    const id = this.next++;
    const info = { id, path, ...(session !== undefined ? { session } : {}), openedAt: new Date(), frames: [] };
    this.open.set(id, { info, peer });
    const view = this.view(info);
    this.clientWaiters = this.clientWaiters.filter((w) =>
      w.path === undefined || w.path === path ? (w.wake(view), false) : true,
    );
    return id;
  }

  frame(id: number, direction: 'in' | 'out', data: string | Buffer): void {
    const c = this.open.get(id);
    if (c === undefined) return;
    const frames = c.info.frames;
    const f: WsFrame =
      typeof data === 'string'
        ? { direction, at: new Date(), size: Buffer.byteLength(data), text: data.slice(0, FRAME_EXCERPT) }
        : {
            direction,
            at: new Date(),
            size: data.byteLength,
            base64: data.subarray(0, FRAME_EXCERPT).toString('base64'),
          };
    frames.push(f);
    if (frames.length > MAX_FRAMES) frames.splice(0, frames.length - MAX_FRAMES);
    if (direction === 'in' && typeof data === 'string') {
      const view = this.view(c.info);
      this.messageWaiters = this.messageWaiters.filter((w) =>
        w.path === undefined || w.path === c.info.path ? (w.wake(view, data), false) : true,
      );
    }
  }

  remove(id: number, code: number | undefined): void {
    const c = this.open.get(id);
    if (c === undefined) return;
    this.open.delete(id);
    c.info.closedAt = new Date();
    if (code !== undefined) c.info.closeCode = code;
    this.closed.push(this.view(c.info));
    if (this.closed.length > MAX_CLOSED) this.closed.shift();
  }

  /** the other open connections of the same path and session (a broadcast's audience) */
  peersOf(id: number): WsPeer[] {
    const me = this.open.get(id);
    if (me === undefined) return [];
    const out: WsPeer[] = [];
    for (const [other, c] of this.open)
      if (other !== id && c.info.path === me.info.path && c.info.session === me.info.session) out.push(c.peer);
    return out;
  }

  /** open connections (of `path`, when given), oldest first; with `closed`, the closed ones kept too */
  list(path?: string, closed = false): WsConnectionInfo[] {
    const open = [...this.open.values()].map((c) => this.view(c.info));
    const all = closed ? [...this.closed, ...open] : open;
    return path === undefined ? all : all.filter((c) => c.path === path);
  }

  /** sends `text` to the open connections of `path` (all, or the one with `id`); how many it reached */
  send(path: string | undefined, text: string, id?: number): number {
    let n = 0;
    for (const [cid, c] of this.open) {
      if ((path !== undefined && c.info.path !== path) || (id !== undefined && cid !== id)) continue;
      c.peer.send(text);
      n++;
    }
    return n;
  }

  /** the next connection to `path` (or an open one already there) */
  waitForClient(path: string | undefined, timeoutMs: number): Promise<WsConnectionInfo> {
    const there = this.list(path)[0];
    if (there !== undefined) return Promise.resolve(there);
    return this.wait(this.clientWaiters, path, timeoutMs, 'a WebSocket client').then((r) => r.connection);
  }

  /** the next message a client of `path` sends */
  waitForMessage(path: string | undefined, timeoutMs: number): Promise<{ connection: WsConnectionInfo; text: string }> {
    return this.wait(this.messageWaiters, path, timeoutMs, 'a WebSocket message').then((r) => ({
      connection: r.connection,
      text: r.text ?? '',
    }));
  }

  /** ends every wait (the server closes) */
  close(): void {
    for (const w of [...this.clientWaiters, ...this.messageWaiters]) w.wake(undefined as never);
    this.clientWaiters = [];
    this.messageWaiters = [];
  }

  private wait(
    list: Waiter[],
    path: string | undefined,
    timeoutMs: number,
    what: string,
  ): Promise<{ connection: WsConnectionInfo; text?: string }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = list.indexOf(waiter);
        if (at >= 0) list.splice(at, 1);
        reject(new Error(`no ${what}${path === undefined ? '' : ` on ${path}`} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        path,
        wake: (connection, text) => {
          clearTimeout(timer);
          if (connection === undefined) reject(new Error('the server closed'));
          else resolve(text === undefined ? { connection } : { connection, text });
        },
      };
      list.push(waiter);
    });
  }

  private view(info: Conn['info']): WsConnectionInfo {
    return { ...info, frames: info.frames.slice() };
  }
}
