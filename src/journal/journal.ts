// Journal: the bounded ring buffer of exchanges, newest last. At most `size` entries and `maxBytes` by the
// estimate (estimate.ts); the oldest are evicted first. Ids count from 1 and are never reused, so the retained
// entries always hold consecutive ids: a `since` cursor tells exactly how many of its successors were evicted,
// and `requests()` throws JournalOverflowError rather than answer short. Listeners hear every capture (the
// inspector's event stream); waitFor() resolves on the capture that matches, from an event, never a poll.
// Pure but for the injected clock (now, timers). What it leaves out: reading requests off the wire (the server
// does), HTTP (http-routes.ts), the rotation counters (the server owns them).
//
// A capture keeps references and timings only (capture.ts's HeldEntry, bounded by estimate.ts's heldBytes); the
// Entry — redacted, decoded, with its why — is made when a reader asks for it (query, lookup, waitFor, a
// listener reading `event.entry`), so the request path pays for nothing nobody reads. When the workspace is
// replaced, the held entries of the old one make their why then and let it go (docs/speed.md, "The journal").
import { MockError } from '../model/errors.js';
import { entryOf, holdExchange, type CaptureOptions, type Exchange, type HeldEntry } from './capture.js';
import type { Entry, EntryRow } from './entry.js';
import { STAGE_FILTER_VALUES } from './entry.js';
import {
  JournalClosedError,
  JournalOverflowError,
  JournalTimeoutError,
  JOURNAL_MESSAGES,
  TIMEOUT_LISTED,
} from './errors.js';
import { EvictionRecord } from './evictions.js';
import { ENTRY_OVERHEAD_BYTES, heldBytes } from './estimate.js';
import type { Workspace } from '../model/workspace.js';
import { compileFilter, filterProblems, type EntryTest, type RequestFilter } from './filter.js';
import { journalLimits, type JournalLimits } from './limits.js';

export interface JournalClock {
  /** epoch milliseconds */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: JournalClock = Object.freeze({
  now: () => Date.now(),
  // not unref'd: a pending wait settles (a timeout rejects) rather than vanish with an exiting process; close()
  // clears every timer
  setTimeout: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
});

export interface JournalOptions extends Partial<JournalLimits> {
  /** redact denylisted values at capture (default true); false stores them as received */
  readonly redact?: boolean;
  readonly clock?: JournalClock;
  /** a subscriber threw: it is reported here, and the capture goes on */
  readonly onListenerError?: (error: unknown) => void;
}

export type JournalEvent =
  /** `row` costs nothing to read; `entry` is made when first read */
  | { readonly kind: 'entry'; readonly entry: Entry; readonly row: EntryRow }
  /** the journal was reset: entries up to `lastId` are gone */
  | { readonly kind: 'reset'; readonly lastId: number }
  /** an open (streaming) entry sent one more event: `bytes` at byte `offset` of its body */
  | { readonly kind: 'stream'; readonly id: number; readonly offset: number; readonly bytes: Uint8Array }
  /** an entry changed after its capture (a stream ended): its row and entry as they are now */
  | { readonly kind: 'update'; readonly entry: Entry; readonly row: EntryRow };

export type JournalListener = (event: JournalEvent) => void;

export interface QueryResult {
  /** oldest first */
  readonly entries: readonly Entry[];
  /** the cursor for the next query: the last entry returned when `limit` cut the list, else the newest id */
  readonly lastId: number;
  /** entries after the cursor (after the last reset, without `since`) evicted before this query */
  readonly dropped: number;
  /** false when `dropped` is a lower bound (a Date cursor older than what the eviction record remembers) */
  readonly droppedExact: boolean;
}

export type Lookup =
  | { readonly kind: 'found'; readonly entry: Entry }
  | { readonly kind: 'evicted' }
  /** removed by reset() */
  | { readonly kind: 'reset' }
  /** not a journal id (yet) */
  | { readonly kind: 'unknown' };

export interface WaitOptions {
  /** default 2000 */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_WAIT_MS = 2000;

interface Waiter {
  readonly test: EntryTest;
  readonly resolve: (e: Entry) => void;
  readonly reject: (e: unknown) => void;
  readonly filter: RequestFilter;
  timer: unknown;
}

export class Journal {
  readonly limits: JournalLimits;
  readonly redact: boolean;
  private readonly clock: JournalClock;
  private readonly onListenerError: (error: unknown) => void;
  /** ring of retained entries and their estimates; the oldest at `head` */
  private readonly ring: (HeldEntry | undefined)[];
  private readonly sizes: Float64Array;
  private head = 0;
  private count = 0;
  private totalBytes = 0;
  private nextId = 1;
  /** the last id at the last reset: entries up to it were removed on purpose, not evicted */
  private resetFloor = 0;
  /** arrival times of evicted entries, for Date cursors */
  private readonly evictions: EvictionRecord;
  private readonly listeners = new Set<JournalListener>();
  private readonly waiters = new Set<Waiter>();
  private closed = false;
  private readonly captureOpts: CaptureOptions;
  /** the workspace of the newest capture: held entries of an older one settle their why when it changes */
  private workspace: Workspace | undefined;

  constructor(opts: JournalOptions = {}) {
    const { redact, clock, onListenerError, ...given } = opts;
    const limits = journalLimits(given);
    if (!limits.ok) throw new MockError('usage', limits.error.join('; '));
    this.limits = limits.value;
    this.redact = redact ?? true;
    this.clock = clock ?? SYSTEM_CLOCK;
    this.onListenerError = onListenerError ?? (() => {});
    this.ring = new Array<HeldEntry | undefined>(this.limits.size);
    this.captureOpts = { bodyBytes: this.limits.bodyBytes, redact: this.redact, now: () => this.clock.now() };
    this.sizes = new Float64Array(this.limits.size);
    this.evictions = new EvictionRecord(this.limits.size);
  }

  /** the newest id given out (0 before the first capture): a cursor for `since` */
  get lastId(): number {
    return this.nextId - 1;
  }

  /** how many entries are held */
  get length(): number {
    return this.count;
  }

  /** the held entries' estimated size in bytes (never above `limits.maxBytes`) */
  get estimatedBytes(): number {
    return this.totalBytes;
  }

  /** Record one finished exchange; returns its entry (also when it alone exceeded maxBytes and was dropped at once). */
  capture(ex: Exchange): Entry {
    return entryOf(this.hold(ex), this.captureOpts);
  }

  /** Record one finished exchange without making its entry (the server's path: nobody has asked yet); returns its id. */
  record(ex: Exchange): number {
    return this.hold(ex).id;
  }

  /**
   * Record an exchange whose answer is a stream still being sent (its response body empty): the entry is held and
   * heard at once, open; `streamed` adds each event as it is sent, `finish` closes it. A wait settles on it at `finish`.
   */
  open(ex: Exchange): number {
    return this.hold(ex, true).id;
  }

  /** An open entry's next event, sent: kept as its body is (bounded by `bodyBytes`), heard by the listeners. */
  streamed(id: number, bytes: Uint8Array): void {
    const at = this.slotOf(id);
    if (at === undefined) return;
    const h = this.ring[at]!;
    if (h.stream?.open !== true) return;
    const offset = h.responseByteLength;
    h.appendStreamed(bytes, this.limits.bodyBytes);
    h.stream.events++;
    this.resize(at, h);
    if (this.listeners.size > 0) this.emit({ kind: 'stream', id, offset, bytes });
  }

  /**
   * An open entry's stream ended (or its client left): closed, with its latency to now. `saved`: for a stream record
   * mode passed on, what the recording saved (null: nothing), known only now.
   */
  finish(id: number, saved?: string | null): void {
    const at = this.slotOf(id);
    if (at === undefined) return;
    const h = this.ring[at]!;
    if (h.stream?.open !== true) return;
    h.stream.open = false;
    if (saved !== undefined) h.proxySaved(saved);
    h.latencyMs = Math.max(0, this.clock.now() - h.receivedAtMs);
    if (this.listeners.size > 0) this.emit(new EntryEvent(h, this.captureOpts, 'update'));
    this.settleWaiters(h);
  }

  /** the ring slot of a held id, or undefined */
  private slotOf(id: number): number | undefined {
    const first = this.firstId();
    if (!(id >= first && id < this.nextId)) return undefined;
    const at = (this.head + (id - first)) % this.limits.size;
    return this.ring[at] === undefined ? undefined : at;
  }

  /** Estimate a grown entry again; older entries are evicted while the whole is over `maxBytes`. */
  private resize(at: number, h: HeldEntry): void {
    const bytes = ENTRY_OVERHEAD_BYTES + heldBytes(h);
    this.totalBytes += bytes - this.sizes[at]!;
    this.sizes[at] = bytes;
    while (this.totalBytes > this.limits.maxBytes && this.count > 1 && this.head !== at) this.evictOldest();
  }

  private hold(ex: Exchange, streaming = false): HeldEntry {
    const { maxBytes } = this.limits;
    const h = holdExchange(ex, this.nextId++, this.captureOpts);
    if (streaming) h.stream = { open: true, events: 0 };
    const ws = h.workspace;
    if (ws !== undefined && ws !== this.workspace) {
      if (this.workspace !== undefined) this.settleOlder(ws);
      this.workspace = ws;
    }
    let bytes = ENTRY_OVERHEAD_BYTES + heldBytes(h);
    if (bytes > maxBytes) {
      h.dropBodies();
      bytes = ENTRY_OVERHEAD_BYTES + heldBytes(h);
    }
    if (bytes > maxBytes) {
      // too big to keep even alone (a huge why): everything before it goes, and it is dropped itself
      while (this.count > 0) this.evictOldest();
      this.evictions.record(h.receivedAtMs);
    } else {
      while (this.count > 0 && (this.count >= this.limits.size || this.totalBytes + bytes > maxBytes))
        this.evictOldest();
      const at = (this.head + this.count) % this.limits.size;
      this.ring[at] = h;
      this.sizes[at] = bytes;
      this.count++;
      this.totalBytes += bytes;
    }
    if (this.listeners.size > 0) this.emit(new EntryEvent(h, this.captureOpts));
    if (!streaming) this.settleWaiters(h);
    return h;
  }

  /** The held entries of a workspace other than `ws` make their why now and let their workspace go; re-estimated. */
  private settleOlder(ws: Workspace): void {
    for (let k = 0; k < this.count; k++) {
      const at = (this.head + k) % this.limits.size;
      const h = this.ring[at]!;
      const held = h.workspace;
      if (held === undefined || held === ws) continue;
      h.settle();
      const bytes = ENTRY_OVERHEAD_BYTES + heldBytes(h);
      this.totalBytes += bytes - this.sizes[at]!;
      this.sizes[at] = bytes;
    }
  }

  /** Entries matching `filter`, oldest first, with the cursor and what was evicted. Never throws on overflow. */
  query(filter: RequestFilter = {}): QueryResult {
    const r = this.select(filter);
    return { ...r, entries: r.entries.map((h) => entryOf(h, this.captureOpts)) };
  }

  /** The rows of the entries matching `filter` (what a live list shows: no headers, bodies or why), as requests() does. */
  rows(filter: RequestFilter = {}): readonly EntryRow[] {
    const r = this.select(filter);
    if (filter.since !== undefined && r.dropped > 0)
      throw new JournalOverflowError(r.dropped, r.droppedExact, filter.since, this.limits.size);
    return r.entries;
  }

  private select(filter: RequestFilter): {
    entries: HeldEntry[];
    lastId: number;
    dropped: number;
    droppedExact: boolean;
  } {
    this.checkFilter(filter);
    const test = compileFilter(filter);
    const limit = filter.limit ?? Infinity;
    const entries: HeldEntry[] = [];
    let lastId = this.lastId;
    for (let k = this.startIndex(filter.since); k < this.count; k++) {
      const e = this.ring[(this.head + k) % this.limits.size]!;
      if (!test(e)) continue;
      if (entries.length >= limit) {
        lastId = entries[entries.length - 1]!.id;
        break;
      }
      entries.push(e);
    }
    const { dropped, exact } = this.droppedAfter(filter.since);
    return { entries, lastId, dropped, droppedExact: exact };
  }

  /** Entries matching `filter`, oldest first. Throws JournalOverflowError when entries after a `since` cursor were evicted. */
  requests(filter: RequestFilter = {}): readonly Entry[] {
    const r = this.query(filter);
    if (filter.since !== undefined && r.dropped > 0)
      throw new JournalOverflowError(r.dropped, r.droppedExact, filter.since, this.limits.size);
    return r.entries;
  }

  /** One entry by id, or why there is none. */
  lookup(id: number): Lookup {
    const first = this.firstId();
    if (Number.isSafeInteger(id) && id >= first && id < this.nextId) {
      const e = this.ring[(this.head + (id - first)) % this.limits.size];
      if (e !== undefined) return { kind: 'found', entry: entryOf(e, this.captureOpts) };
    }
    if (!Number.isSafeInteger(id) || id < 1 || id >= this.nextId) return { kind: 'unknown' };
    return id <= this.resetFloor ? { kind: 'reset' } : { kind: 'evicted' };
  }

  /** Forget every entry; ids keep counting. Listeners hear `reset`. */
  reset(): void {
    this.ring.fill(undefined);
    this.head = 0;
    this.count = 0;
    this.totalBytes = 0;
    this.resetFloor = this.lastId;
    this.evictions.clear();
    this.emit({ kind: 'reset', lastId: this.lastId });
  }

  /** Hear every capture and reset, in order; returns the unsubscribe function. */
  subscribe(listener: JournalListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The oldest entry matching `filter` (`limit` aside), already held or captured before `timeoutMs` (a stream:
   * once it has ended). Pass `since: journal.lastId` (taken before causing the request) to wait for a new one only. Rejects with
   * JournalTimeoutError listing the last 10 entries, JournalOverflowError for a stale cursor, the signal's
   * reason when aborted, JournalClosedError after close().
   */
  waitFor(filter: RequestFilter = {}, opts: WaitOptions = {}): Promise<Entry> {
    try {
      if (this.closed) throw new JournalClosedError(filter);
      // an open stream is waited for until it ends
      const { limit: _limit, ...all } = filter;
      const held = (this.rows(all) as readonly HeldEntry[]).find((h) => h.stream?.open !== true);
      if (held !== undefined) return Promise.resolve(entryOf(held, this.captureOpts));
    } catch (e) {
      return Promise.reject(e);
    }
    const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_MS;
    if (!(timeoutMs >= 0 && Number.isFinite(timeoutMs)))
      return Promise.reject(new MockError('usage', `timeoutMs must be a number of 0 or more (got ${timeoutMs})`));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Entry>((resolve, reject) => {
      const onAbort = (): void => finish(() => reject(signal?.reason));
      const finish = (settle: () => void): void => {
        if (!this.waiters.delete(waiter)) return;
        this.clock.clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const waiter: Waiter = {
        test: compileFilter(filter),
        filter,
        resolve: (e) => finish(() => resolve(e)),
        reject: (e) => finish(() => reject(e)),
        timer: undefined,
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter.timer = this.clock.setTimeout(
        () => waiter.reject(new JournalTimeoutError(filter, timeoutMs, this.newest(TIMEOUT_LISTED), this.count)),
        timeoutMs,
      );
    });
  }

  /** Reject every pending wait and drop the listeners (the mock is closing). Captures after it are still kept. */
  close(): void {
    this.closed = true;
    for (const w of [...this.waiters]) w.reject(new JournalClosedError(w.filter));
    this.listeners.clear();
  }

  /** the newest `n` entries, oldest first */
  newest(n: number): readonly Entry[] {
    const out: Entry[] = [];
    for (let k = Math.max(0, this.count - n); k < this.count; k++)
      out.push(entryOf(this.ring[(this.head + k) % this.limits.size]!, this.captureOpts));
    return out;
  }

  private firstId(): number {
    return this.nextId - this.count;
  }

  /** where an id cursor starts in the ring (entries are consecutive, so no scan is needed) */
  private startIndex(since: RequestFilter['since']): number {
    if (typeof since !== 'number') return 0;
    return Math.min(this.count, Math.max(0, since + 1 - this.firstId()));
  }

  private droppedAfter(since: RequestFilter['since']): { dropped: number; exact: boolean } {
    const firstHeld = this.firstId();
    if (since instanceof Date) return this.evictions.countSince(since.getTime());
    const from = Math.max(since ?? 0, this.resetFloor);
    return { dropped: Math.max(0, firstHeld - 1 - from), exact: true };
  }

  private evictOldest(): void {
    const e = this.ring[this.head]!;
    this.totalBytes -= this.sizes[this.head]!;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.limits.size;
    this.count--;
    if (this.count === 0) this.totalBytes = 0; // no float drift survives an empty journal
    this.evictions.record(e.receivedAtMs);
  }

  private emit(event: JournalEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        this.onListenerError(e);
      }
    }
  }

  private settleWaiters(h: HeldEntry): void {
    if (this.waiters.size === 0) return;
    let entry: Entry | undefined;
    for (const w of [...this.waiters]) if (w.test(h)) w.resolve((entry ??= entryOf(h, this.captureOpts)));
  }

  private checkFilter(filter: RequestFilter): void {
    const problems = filterProblems(filter, STAGE_FILTER_VALUES);
    if (problems.length > 0) throw new MockError('usage', JOURNAL_MESSAGES.badFilter(problems));
  }
}

/** A capture as listeners hear it: the row at once, the entry made on first read (then kept for this event). */
class EntryEvent {
  private made: Entry | undefined;
  constructor(
    readonly row: HeldEntry,
    private readonly opts: CaptureOptions,
    readonly kind: 'entry' | 'update' = 'entry',
  ) {}
  get entry(): Entry {
    return (this.made ??= entryOf(this.row, this.opts));
  }
}
