// The inspector's Server-Sent Events stream, `GET /__mock/api/events`, on the management listener only (the mock
// port sends no events).
//
// Owns: the clients (at most `maxClients`, then 503), the events — `request` (id = the journal id, so a
// reconnecting EventSource's `Last-Event-ID` replays what the journal still holds), `reload`, `reset`, and for a
// streamed answer `stream` (each of its events as it is sent) and `update` (its row once it ends) — a comment
// ping every `pingMs`, and the bound on memory: a client with more than `maxUnsentBytes` written but not yet taken
// by the kernel is dropped (its EventSource reconnects and replays), so a client that never reads cannot grow the
// process. A new client is also sent the last reload when it failed, so a page opened during a broken edit shows it.
// Request events are sent per event-loop turn: those of a turn are queued as given (a journal row and how to make
// its event, so nothing is made while no client listens), then, at the end of the turn, each is encoded once and
// the batch written once to every client. A reload or reset sends the queue first, so the order is kept.
// Leaves out: where events come from (the caller calls request()/reload()/reset()) and what is replayed (the
// `replay` source, the journal in the real program).
import type { ServerResponse } from 'node:http';
import type { WireEntry, WireRequestEvent, WireStreamEvent } from '../journal/wire-types.js';
import { failure, type Wire } from './envelope.js';
import type { Route, RouteContext } from './router.js';
import { EVENT_HEADERS } from './security.js';

/** The `request` event's data: the journal's row form of an entry and what answered (journal/wire-types.ts). */
export type RequestEvent = WireRequestEvent;

/** The `reload` event's data: a reload's outcome (diagnostics as `diagnosticToWire` gives them). */
export interface ReloadEvent {
  readonly generation: number;
  readonly ok: boolean;
  readonly diagnostics: readonly Wire[];
}

export interface EventHubOptions {
  /**
   * The request events after journal id `afterId`, oldest first (what the journal still holds). Throwing (the
   * entries after that id were evicted) makes the client get a `reset` event instead: it must reload its list.
   */
  readonly replay?: (afterId: number) => readonly RequestEvent[];
  /** default 15 s */
  readonly pingMs?: number;
  /** default 16 */
  readonly maxClients?: number;
  /** default 1 MiB */
  readonly maxUnsentBytes?: number;
  /** the EventSource reconnection delay sent to clients; default 1 s */
  readonly retryMs?: number;
}

export interface EventHub {
  /** `GET /__mock/api/events`, for the router's table */
  readonly route: Route;
  /**
   * Queue a request event, sent at the end of the turn. With `toData`, the event is made from `row` then, once for
   * all clients: `toData` gives its data as JSON text (what JSON.stringify of the RequestEvent gives).
   */
  request(event: RequestEvent): void;
  request<T extends { readonly id: number }>(row: T, toData: (row: T) => string): void;
  /** One event of an open (streaming) entry, sent now: at most STREAM_EVENT_CHARS of its text. */
  stream(id: number, offset: number, bytes: Uint8Array): void;
  /** An entry's row changed (a stream ended): `data` is its `request` event's JSON text. */
  update(data: string): void;
  reload(event: ReloadEvent): void;
  reset(): void;
  /** clients connected now */
  readonly clientCount: number;
  /** clients dropped so far for falling behind */
  readonly droppedCount: number;
  /** end every stream and stop the ping */
  close(): void;
}

export const EVENTS_PATH = '/__mock/api/events';
export const EVENT_DEFAULTS = { pingMs: 15_000, maxClients: 16, maxUnsentBytes: 1024 * 1024, retryMs: 1000 } as const;

/** a `stream` event carries at most this much of one event's text (the journal's entry holds the body) */
export const STREAM_EVENT_CHARS = 16 * 1024;

const lossy = new TextDecoder('utf-8', { fatal: false });

/** The `stream` event's data: the event's text, cut at STREAM_EVENT_CHARS. */
export function streamEventOf(id: number, offset: number, bytes: Uint8Array): WireStreamEvent {
  const text = lossy.decode(
    bytes.byteLength > 4 * STREAM_EVENT_CHARS ? bytes.subarray(0, 4 * STREAM_EVENT_CHARS) : bytes,
  );
  const truncated = text.length > STREAM_EVENT_CHARS || bytes.byteLength > 4 * STREAM_EVENT_CHARS;
  return { id, offset, text: truncated ? text.slice(0, STREAM_EVENT_CHARS) : text, truncated };
}

const MESSAGES = {
  busy: (max: number) => `too many event-stream clients (at most ${max}); close another inspector tab`,
} as const;

/** The `request` event of a journal entry in its wire form: the summary a table row needs, never headers or bodies. */
export function requestEventOf(e: WireEntry): RequestEvent {
  const { id, stage, latency_ms, generation, answered_by } = e;
  const ev: RequestEvent = {
    id,
    method: e.request.method,
    path: e.request.path,
    status: e.response.status,
    stage,
    latency_ms,
    generation,
    answered_by,
  };
  const withFault = e.fault === undefined ? ev : { ...ev, fault: e.fault };
  const withState =
    e.state_before === undefined
      ? withFault
      : { ...withFault, state_before: e.state_before, state_after: e.state_after ?? {} };
  return e.contract === undefined ? withState : { ...withState, contract: e.contract };
}

/** One event in the text/event-stream format; data is one line of JSON (JSON never contains a raw newline). */
export function formatEvent(name: string, data: unknown, id?: number): string {
  return (id === undefined ? '' : `id: ${id}\n`) + `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A Last-Event-ID (header) or `since` (query; EventSource cannot set headers on its first connection). */
export function resumeId(header: string | undefined, since: string | null): number | undefined {
  const raw = header ?? since ?? undefined;
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

export function createEventHub(options: EventHubOptions = {}): EventHub {
  const pingMs = options.pingMs ?? EVENT_DEFAULTS.pingMs;
  const maxClients = options.maxClients ?? EVENT_DEFAULTS.maxClients;
  const maxUnsent = options.maxUnsentBytes ?? EVENT_DEFAULTS.maxUnsentBytes;
  const retryMs = options.retryMs ?? EVENT_DEFAULTS.retryMs;
  const clients = new Set<ServerResponse>();
  let dropped = 0;
  let lastFailedReload: ReloadEvent | undefined;
  let timer: NodeJS.Timeout | undefined;

  const remove = (res: ServerResponse): void => {
    clients.delete(res);
    if (clients.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  /** Write to one client; drop it when it has fallen more than maxUnsent behind. */
  const send = (res: ServerResponse, text: string): void => {
    if (res.destroyed || res.writableEnded) return remove(res);
    res.write(text);
    if (res.writableLength > maxUnsent) {
      dropped++;
      remove(res);
      res.destroy();
    }
  };

  const broadcast = (text: string): void => {
    for (const res of clients) send(res, text);
  };

  // the request events of this turn, and how to make each one's data (undefined: it is an event already)
  let queued: { readonly id: number }[] = [];
  let makers: (((row: never) => string) | undefined)[] = [];
  let flushing = false;
  const flush = (): void => {
    flushing = false;
    if (queued.length === 0) return;
    const rows = queued;
    const make = makers;
    queued = [];
    makers = [];
    if (clients.size === 0) return;
    let text = '';
    for (let i = 0; i < rows.length; i++) {
      const m = make[i];
      const row = rows[i]!;
      text += `id: ${row.id}\nevent: request\ndata: ${m === undefined ? JSON.stringify(row) : m(row as never)}\n\n`;
    }
    if (clients.size === 1) broadcast(text);
    else {
      const bytes = Buffer.from(text);
      for (const res of clients) sendBytes(res, bytes);
    }
  };
  const sendBytes = (res: ServerResponse, bytes: Buffer): void => {
    if (res.destroyed || res.writableEnded) return remove(res);
    res.write(bytes);
    if (res.writableLength > maxUnsent) {
      dropped++;
      remove(res);
      res.destroy();
    }
  };

  const open = (ctx: RouteContext): 'handled' | ReturnType<typeof failure> => {
    if (clients.size >= maxClients) return failure('io', MESSAGES.busy(maxClients), undefined, 503);
    // what was queued before this client came goes to the others first (a replay below may hold it already)
    flush();
    const { res, req } = ctx;
    res.writeHead(200, EVENT_HEADERS);
    if (ctx.method === 'HEAD') {
      res.end();
      return 'handled';
    }
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true);
    clients.add(res);
    res.on('close', () => remove(res));
    timer ??= setInterval(() => broadcast(': ping\n\n'), pingMs).unref();
    send(res, `retry: ${retryMs}\n: connected\n\n`);
    if (lastFailedReload !== undefined) send(res, formatEvent('reload', lastFailedReload));
    const after = resumeId(header(req.headers['last-event-id']), ctx.url.searchParams.get('since'));
    if (after !== undefined && options.replay !== undefined) {
      let events: readonly RequestEvent[];
      try {
        events = options.replay(after);
      } catch {
        send(res, formatEvent('reset', {}));
        return 'handled';
      }
      for (const e of events) send(res, formatEvent('request', e, e.id));
    }
    return 'handled';
  };

  return {
    route: { method: 'GET', path: EVENTS_PATH, handle: open },
    request: (row: { readonly id: number }, toData?: (row: never) => string) => {
      if (clients.size === 0) return;
      queued.push(row);
      makers.push(toData);
      if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    },
    // after the request events of this turn (the entry's own `request` among them), so the page knows the row
    stream: (id, offset, bytes) => {
      if (clients.size === 0) return;
      flush();
      broadcast(formatEvent('stream', streamEventOf(id, offset, bytes)));
    },
    update: (data) => {
      if (clients.size === 0) return;
      flush();
      broadcast(`event: update\ndata: ${data}\n\n`);
    },
    reload: (e) => {
      flush();
      lastFailedReload = e.ok ? undefined : e;
      broadcast(formatEvent('reload', e));
    },
    reset: () => {
      flush();
      broadcast(formatEvent('reset', {}));
    },
    get clientCount() {
      return clients.size;
    },
    get droppedCount() {
      return dropped;
    },
    close: () => {
      flush();
      for (const res of [...clients]) {
        remove(res);
        res.end();
      }
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
