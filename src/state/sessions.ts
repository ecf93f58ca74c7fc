// The live sessions of a server (docs/library.md#sessions): which ids are known, when each was last used, and the
// bounds on them: a session unused for `idleMs` ends, and beyond `max` sessions the one idle longest ends first,
// so a runaway suite cannot grow memory without limit. What a session holds (its scoped store, counters,
// overrides, rate-limit windows) is the caller's `T`, made once per session by `make` and handed to `onEnd` when
// the session ends, however it ends. The clock is injected (tests move it by hand).
//
// Cost: `get` of a known session is one Map lookup and a re-insertion (a Map keeps insertion order, so the first
// key is always the least recently used one); idle sessions are swept at most once per `idleMs / 4`, walking from
// the oldest and stopping at the first one still fresh.

export interface SessionLimits {
  /** a session ends after this long without a request or a handle call (ms) */
  readonly idleMs: number;
  /** at most this many sessions; the least recently used one ends to make room */
  readonly max: number;
}

export type SessionEnd = 'closed' | 'idle' | 'evicted' | 'reset';

interface Held<T> {
  readonly value: T;
  lastUsed: number;
}

export class SessionRegistry<T> {
  private readonly held = new Map<string, Held<T>>();
  private nextSweep = 0;

  constructor(
    private limits: SessionLimits,
    private readonly make: (id: string) => T,
    private readonly onEnd: (id: string, value: T, why: SessionEnd) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** new limits (a reload changed them): applied from the next use on */
  setLimits(limits: SessionLimits): void {
    this.limits = limits;
    this.nextSweep = 0;
  }

  /** The session's value, made on first use; marks it used now. */
  get(id: string): T {
    const t = this.now();
    if (t >= this.nextSweep) this.sweep(t);
    const h = this.held.get(id);
    if (h !== undefined && t - h.lastUsed >= this.limits.idleMs) this.end(id, h, 'idle');
    else if (h !== undefined) {
      h.lastUsed = t;
      // most recently used last: the Map's first key is the one idle longest
      this.held.delete(id);
      this.held.set(id, h);
      return h.value;
    }
    while (this.held.size >= Math.max(1, this.limits.max)) {
      const [oldest, o] = this.held.entries().next().value as [string, Held<T>];
      this.end(oldest, o, 'evicted');
    }
    const value = this.make(id);
    this.held.set(id, { value, lastUsed: t });
    return value;
  }

  /** the session's value when it is live, without making it or marking it used */
  peek(id: string): T | undefined {
    const h = this.held.get(id);
    if (h === undefined) return undefined;
    if (this.now() - h.lastUsed >= this.limits.idleMs) {
      this.end(id, h, 'idle');
      return undefined;
    }
    return h.value;
  }

  /** ends the session; false when it was not live */
  close(id: string): boolean {
    const h = this.held.get(id);
    if (h === undefined) return false;
    this.end(id, h, 'closed');
    return true;
  }

  /** ends every session */
  clear(): void {
    for (const [id, h] of [...this.held]) this.end(id, h, 'reset');
  }

  /** the live session ids, least recently used first (idle ones ended first) */
  ids(): string[] {
    this.sweep(this.now());
    return [...this.held.keys()];
  }

  get size(): number {
    return this.held.size;
  }

  private sweep(t: number): void {
    const idle = this.limits.idleMs;
    this.nextSweep = t + Math.max(1, Math.floor(idle / 4));
    for (const [id, h] of this.held) {
      if (t - h.lastUsed < idle) break;
      this.end(id, h, 'idle');
    }
  }

  private end(id: string, h: Held<T>, why: SessionEnd): void {
    this.held.delete(id);
    this.onEnd(id, h.value, why);
  }
}
