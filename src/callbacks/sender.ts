// The callback sender (docs/callbacks.md): the server hands it each answer's planned callbacks once the answer is
// written; it waits out each one's delay, sends it, retries a failed attempt with a doubling pause, applies the
// scenario moves of its result and keeps a record of it. At most `max` callbacks wait at once: past that, the
// oldest waiting one is refused with a log line, so a flood of requests cannot grow the mock without bound. A
// reset cancels the waiting ones; the shutdown waits for them or cancels them, as service.callback_shutdown says.
import type { CallbackBatch, PlannedCallback } from '../model/callback.js';
import { Transport, type AttemptResult } from './attempt.js';
import {
  matchesCallback,
  type CallbackAttempt,
  type CallbackFilter,
  type CallbackRecord,
  type CallbackState,
} from './record.js';

export type { CallbackFilter, CallbackRecord, CallbackState };

/** How many finished records are kept (the oldest go first). */
export const KEPT_RECORDS = 1000;
/** The longest pause between two attempts. */
const MAX_RETRY_PAUSE_MS = 60_000;

export interface SenderOptions {
  readonly log: (line: string) => void;
  /** service.callback_max, read when a callback is added (a reload may change it) */
  readonly max: () => number;
  readonly now?: () => number;
}

export const CALLBACK_MESSAGES = {
  refused: (where: string, url: string, why: string) => `callback refused: ${where}: ${url}: ${why}`,
  crowded: (max: number) => `service.callback_max (${max}) callbacks are waiting; the oldest waiting one is refused`,
  failed: (method: string, url: string, why: string, attempts: number) =>
    `callback ${method} ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${why}`,
  waiting: (n: number) =>
    `shutdown: waiting for ${n} pending callback${n === 1 ? '' : 's'} (service.callback_shutdown = "wait")`,
  cancelled: (n: number) =>
    `shutdown: cancelled ${n} pending callback${n === 1 ? '' : 's'} (service.callback_shutdown = "cancel")`,
  timeout: (ms: number) => `no callback matched within ${ms} ms`,
} as const;

/** One callback's life; its record is made when read. */
interface Track {
  readonly id: number;
  readonly batch: CallbackBatch;
  readonly cb: PlannedCallback;
  readonly plannedAt: number;
  state: CallbackState;
  readonly attempts: CallbackAttempt[];
  last?: AttemptResult;
  error?: string;
  moved?: Readonly<Record<string, string>>;
  timer?: ReturnType<typeof setTimeout>;
}

interface Waiter {
  readonly filter: CallbackFilter;
  readonly resolve: (r: CallbackRecord) => void;
}

export class CallbackSender {
  private nextId = 1;
  /** waiting or in flight, oldest first */
  private readonly pending = new Map<number, Track>();
  /** finished, oldest first, at most KEPT_RECORDS */
  private readonly done: Track[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly idle = new Set<() => void>();
  private readonly transport = new Transport();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly opts: SenderOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** How many callbacks wait or are in flight. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Takes an answer's callbacks, just written. */
  send(batch: CallbackBatch): void {
    const at = this.now();
    for (const cb of batch.callbacks) {
      const t: Track = { id: this.nextId++, batch, cb, plannedAt: at, state: 'pending', attempts: [] };
      if (cb.refused !== undefined) {
        this.opts.log(CALLBACK_MESSAGES.refused(cb.where, cb.url, cb.refused));
        this.finish(t, 'refused', cb.refused);
        continue;
      }
      if (this.closed) {
        this.finish(t, 'cancelled', 'the server is shutting down');
        continue;
      }
      this.makeRoom();
      this.pending.set(t.id, t);
      t.timer = setTimeout(() => void this.run(t, 1), cb.delayMs);
    }
  }

  /** The records, oldest first: the finished ones kept, then the pending ones. */
  records(filter: CallbackFilter = {}): CallbackRecord[] {
    return [...this.done, ...this.pending.values()].map(recordOf).filter((r) => matchesCallback(r, filter));
  }

  /** The first finished record that matches (one already finished, else the next), or a rejection after `timeoutMs`. */
  waitFor(filter: CallbackFilter = {}, timeoutMs = 5000): Promise<CallbackRecord> {
    for (const t of this.done) {
      const r = recordOf(t);
      if (matchesCallback(r, filter)) return Promise.resolve(r);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(new Error(CALLBACK_MESSAGES.timeout(timeoutMs)));
      }, timeoutMs);
      const w: Waiter = {
        filter,
        resolve: (r) => {
          clearTimeout(timer);
          this.waiters.delete(w);
          resolve(r);
        },
      };
      this.waiters.add(w);
    });
  }

  /** Cancels every pending callback and forgets every record; returns how many were cancelled. */
  reset(): number {
    const n = this.cancelAll('cancelled by a reset');
    this.done.length = 0;
    return n;
  }

  /** At shutdown: waits for the pending callbacks, or cancels them; says so when there are some. */
  async close(mode: 'wait' | 'cancel'): Promise<void> {
    this.closed = true;
    const n = this.pending.size;
    if (n > 0 && mode === 'cancel') {
      this.cancelAll('cancelled at shutdown');
      this.opts.log(CALLBACK_MESSAGES.cancelled(n));
    } else if (n > 0) {
      this.opts.log(CALLBACK_MESSAGES.waiting(n));
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (this.pending.size > 0) return;
          this.idle.delete(check);
          resolve();
        };
        this.idle.add(check);
        check();
      });
    }
    this.transport.close();
  }

  private cancelAll(why: string): number {
    const tracks = [...this.pending.values()];
    for (const t of tracks) this.cancel(t, 'cancelled', why);
    return tracks.length;
  }

  private cancel(t: Track, state: CallbackState, why: string): void {
    clearTimeout(t.timer);
    this.finish(t, state, why);
  }

  /** Refuses the oldest waiting callback while the pending ones are at service.callback_max. */
  private makeRoom(): void {
    const max = this.opts.max();
    while (this.pending.size >= max) {
      const oldest = this.pending.values().next().value as Track;
      this.opts.log(CALLBACK_MESSAGES.crowded(max));
      this.cancel(oldest, 'refused', `pushed out: service.callback_max (${max}) callbacks were waiting`);
    }
  }

  private async run(t: Track, attempt: number): Promise<void> {
    if (t.state !== 'pending') return;
    const at = this.now();
    const r = await this.transport.attempt(t.cb, this.now);
    // a reset or the shutdown ended it while the attempt was on its way
    if (!this.pending.has(t.id)) return;
    t.last = r;
    t.attempts.push({
      at: new Date(at).toISOString(),
      ms: r.ms,
      ...(r.status === undefined ? {} : { status: r.status }),
      ...(r.error === undefined ? {} : { error: r.error }),
    });
    if (r.status !== undefined && r.status >= 200 && r.status < 300) return this.finish(t, 'delivered');
    const why = r.error ?? `answered ${r.status}`;
    const retry = r.error !== undefined || t.cb.retryOn.includes(r.status!);
    if (retry && attempt <= t.cb.retries) {
      const pause = Math.min(MAX_RETRY_PAUSE_MS, t.cb.retryDelayMs * 2 ** (attempt - 1));
      t.timer = setTimeout(() => void this.run(t, attempt + 1), pause);
      return;
    }
    this.opts.log(CALLBACK_MESSAGES.failed(t.cb.method, t.cb.url, why, attempt));
    this.finish(t, 'failed', why);
  }

  private finish(t: Track, state: CallbackState, error?: string): void {
    t.state = state;
    if (error !== undefined) t.error = error;
    if (state !== 'cancelled') {
      try {
        const moved = t.cb.settle?.(state === 'delivered');
        if (moved !== undefined) t.moved = moved;
      } catch (e) {
        this.opts.log(`${t.cb.where}: its scenario move failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.pending.delete(t.id);
    this.done.push(t);
    if (this.done.length > KEPT_RECORDS) this.done.splice(0, this.done.length - KEPT_RECORDS);
    if (this.waiters.size > 0) {
      const r = recordOf(t);
      for (const w of [...this.waiters]) if (matchesCallback(r, w.filter)) w.resolve(r);
    }
    if (this.pending.size === 0) for (const f of [...this.idle]) f();
  }
}

const decoder = new TextDecoder();

function recordOf(t: Track): CallbackRecord {
  const cb = t.cb;
  const headers: Record<string, string> = {};
  for (const [name, value] of cb.headers) headers[name] = value;
  const last = t.last;
  return {
    id: t.id,
    state: t.state,
    ...(t.batch.journalId === undefined ? {} : { requestId: t.batch.journalId }),
    trigger: t.batch.trigger,
    where: cb.where,
    request: { method: cb.method, url: cb.url, headers, body: decoder.decode(cb.body) },
    plannedAt: new Date(t.plannedAt).toISOString(),
    delayMs: cb.delayMs,
    attempts: [...t.attempts],
    ...(last?.status === undefined
      ? {}
      : { response: { status: last.status, headers: last.headers ?? {}, body: last.body ?? '' } }),
    ...(t.error === undefined ? {} : { error: t.error }),
    ...(t.moved === undefined ? {} : { moved: t.moved }),
  };
}
