// FreshStats: stats current enough for the request being served, made as rarely as that allows.
// fs-source.ts validates every cached thing against these; the header there explains the two modes.
//
// Stat mode (no watch): stats are shared within one event-loop turn (loop-turn.ts). A lookup's probe joins a
// stat started in the current turn: that stat began after every request handled in this turn had arrived, so it
// sees every edit their clients made first, and concurrent requests cost one stat syscall, not one each. read,
// list and realpath also reuse a stat completed in the current turn: they run in the continuation of the lookup
// that just made it.
// Watch mode (watch-trust.ts): a probe waits for the gate, then takes the trusted stat, or makes one (joining only
// stats started since the same gate opened) and offers it to the trust. read, list and realpath first reuse a
// stat their lookup obtained in this turn.
import { stat as fsStat, type Stats } from 'node:fs';
import { LoopTurn } from './loop-turn.js';
import type { WatchTrust } from './watch-trust.js';

interface StatRecord {
  readonly startTurn: number;
  /** watch mode: the gate generation it started in (-1 in stat mode) */
  readonly generation: number;
  readonly promise: Promise<Stats | undefined>;
  doneTurn?: number;
}

const MISSING: Promise<Stats | undefined> = Promise.resolve(undefined);

/** Filled in by `current` for a caller that wants to know: false once a stat was not vouched for by the watch. */
export interface TrustNote {
  trusted: boolean;
  /** when the oldest trusted stat it was given was made (the trust's clock) */
  oldest: number;
}

export class FreshStats {
  private readonly turn = new LoopTurn();
  private readonly records = new Map<string, StatRecord>();
  /** watch mode: the turn in which a path's trusted stat was last handed out */
  private readonly trustedIn = new Map<string, number>();

  constructor(
    private readonly counters: { stat: number },
    private readonly maxEntries: number,
    private readonly trust: WatchTrust | undefined,
  ) {}

  /** A stat current for the caller: `probe` for a lookup's stat(), false for read/list/realpath. Never rejects. */
  current(path: string, probe: boolean, note?: TrustNote): Promise<Stats | undefined> {
    if (this.trust === undefined) {
      if (note !== undefined) note.trusted = false;
      return this.turnStat(path, probe);
    }
    return this.watchStat(this.trust, path, probe, note);
  }

  /** forget what is known about `path` (and beneath it) */
  forget(path: string, subtree: boolean): void {
    this.records.delete(path);
    this.trustedIn.delete(path);
    if (!subtree) return;
    const prefix = path === '/' ? '/' : path + '/';
    for (const map of [this.records, this.trustedIn])
      for (const key of [...map.keys()]) if (key.startsWith(prefix)) map.delete(key);
  }

  private turnStat(path: string, probe: boolean): Promise<Stats | undefined> {
    const now = this.turn.now();
    const record = this.records.get(path);
    if (record !== undefined && (record.startTurn === now || (!probe && record.doneTurn === now)))
      return record.promise;
    return this.start(path, now, -1).promise;
  }

  private watchStat(
    w: WatchTrust,
    path: string,
    probe: boolean,
    note: TrustNote | undefined,
  ): Promise<Stats | undefined> {
    if (!probe) {
      const now = this.turn.now();
      const record = this.records.get(path);
      if (record !== undefined && (record.startTurn === now || record.doneTurn === now)) {
        if (note !== undefined) note.trusted = false;
        return record.promise;
      }
      if (this.trustedIn.get(path) === now) {
        const hit = w.lookup(path);
        if (hit !== undefined) {
          if (note !== undefined && hit.at < note.oldest) note.oldest = hit.at;
          return hit.promise;
        }
      }
    }
    return w.gate().then(() => this.afterGate(w, path, note));
  }

  private afterGate(w: WatchTrust, path: string, note: TrustNote | undefined): Promise<Stats | undefined> {
    const hit = w.lookup(path);
    if (hit !== undefined) {
      if (note !== undefined && hit.at < note.oldest) note.oldest = hit.at;
      this.trustedIn.set(path, this.turn.now());
      if (this.trustedIn.size > this.maxEntries) this.trustedIn.delete(this.trustedIn.keys().next().value!);
      return hit.promise;
    }
    // A path under a directory the trust knows to be missing (or to be a file) is missing too: no stat needed.
    // This keeps 404s for made-up paths (`/no/such/thing`) free of syscalls.
    for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
      const above = w.lookup(path.slice(0, i));
      if (above === undefined) continue;
      if (above.st === undefined || !above.st.isDirectory()) {
        if (note !== undefined && above.at < note.oldest) note.oldest = above.at;
        return MISSING;
      }
      break;
    }
    if (note !== undefined) note.trusted = false;
    const record = this.records.get(path);
    if (record !== undefined && record.generation === w.generation) return record.promise;
    const token = w.begin(path);
    const started = this.start(path, this.turn.now(), w.generation);
    if (token !== undefined) void started.promise.then((st) => w.complete(token, st));
    return started.promise;
  }

  private start(path: string, now: number, generation: number): StatRecord {
    this.counters.stat++;
    const record: StatRecord = {
      startTurn: now,
      generation,
      promise: new Promise<Stats | undefined>((resolve) => {
        try {
          fsStat(path, (error, st) => {
            record.doneTurn = this.turn.now();
            resolve(error === null ? st : undefined); // any failure (missing, no access, bad name) reads as absent
          });
        } catch {
          resolve(undefined); // e.g. a NUL byte in the path, refused before any I/O
        }
      }),
    };
    this.records.delete(path);
    this.records.set(path, record);
    if (this.records.size > this.maxEntries) this.records.delete(this.records.keys().next().value!);
    return record;
  }
}
