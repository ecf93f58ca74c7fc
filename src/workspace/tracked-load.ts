// Loading for a live server: startup's own loadWorkspace(), told to record every file it reads or looks for,
// so a reload can compare what it read (contents) with what is serving, and can tell whether a file moved while it
// was being read (size or mtime changed between the read and the end of the load: a save in progress).
//
// Owns: the SourceSet of a load, the stability check, reload mode (an invalid `.json` respond target is a
// warning). Leaves out: deciding what to do with a load (server/live.ts), watching (watch.ts).
import { statSync } from 'node:fs';
import { loadWorkspace, type LoadFailure, type LoadOptions } from '../config/load.js';
import type { ReadTracker, TrackedRead } from '../config/read.js';
import {
  CONTENT_KEY_PREFIX,
  MISSING_SOURCE,
  type LoadAttempt,
  type SourceSet,
  type WorkspaceLoad,
} from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import type { Result } from '../shared/result.js';
import { bytesDigest, type RuleSetCache } from '../start-up/load-cache.js';

export interface TrackedLoad {
  readonly attempt: LoadAttempt;
  /** true while every file read is still as it was read (same size and mtime; still missing) */
  readonly unchanged: () => Promise<boolean>;
  /** nothing of this load runs later (its keys are not settled after the server closed) */
  readonly stop: () => void;
}

/** One load, recording its reads. `mode` 'reload' makes an invalid `.json` respond target a warning. */
export async function loadTracked(opts: LoadOptions, mode: 'start' | 'reload'): Promise<TrackedLoad> {
  const reads = new Map<string, TrackedRead>();
  const track: ReadTracker = {
    record: (abs, read) => void reads.set(abs, read),
    recall(abs) {
      const read = reads.get(abs);
      if (read?.kind !== 'file') return read;
      return { kind: 'known', digest: bytesDigest(read.bytes), size: read.size, mtimeMs: read.mtimeMs };
    },
  };
  const r = await loadWorkspace({ ...opts, track, invalidJsonTarget: mode === 'reload' ? 'warning' : 'error' });
  const sources = new SourceKeys(reads);
  if (mode === 'reload') sources.settle();
  else sources.settleSoon(SETTLE_AFTER_MS);
  const seen = seenOf(reads);
  const unchanged = (): Promise<boolean> => unchangedSince(seen);
  // only a reload retries a load whose files moved while read (a save in progress): a start serves what it loaded,
  // and the watches, opened after it, compare every file with what it read
  const stable = mode === 'reload' ? await unchanged() : true;
  const attempt: LoadAttempt = r.ok
    ? { kind: 'loaded', workspace: r.value, sources, stable }
    : { kind: 'failed', failure: r.error, sources, stable };
  return { attempt, unchanged, stop: () => sources.stop() };
}

/** The reload loader for a server started with these options (the same -c, -d and -p). */
export function reloadLoader(opts: LoadOptions): WorkspaceLoad {
  return async () => (await loadTracked(opts, 'reload')).attempt;
}

/**
 * Loads the workspace in `cwd` once as `mock serve` would, filling the load cache (docs/load-cache.md), so that the
 * first start after an import is a warm one. Never fails: a workspace that does not load is left to that start.
 */
export async function primeLoadCache(cwd: string, cache: RuleSetCache): Promise<void> {
  try {
    await loadTracked({ cwd, cache }, 'start');
  } catch {
    // the next start loads it as usual
  }
}

/** What `mock serve` needs at startup: the workspace, and when watching, how to reload and what was read. */
export interface ServeLoad {
  readonly result: Result<Workspace, LoadFailure>;
  readonly live?: {
    readonly load: WorkspaceLoad;
    readonly sources: SourceSet;
    readonly unchanged: () => Promise<boolean>;
    /** the server closed: nothing of this load's runs later */
    readonly stop: () => void;
  };
}

export async function loadForServe(opts: LoadOptions, watch: boolean): Promise<ServeLoad> {
  if (!watch) return { result: await loadWorkspace(opts) };
  const { attempt, unchanged, stop } = await loadTracked(opts, 'start');
  const result: Result<Workspace, LoadFailure> =
    attempt.kind === 'loaded' ? { ok: true, value: attempt.workspace } : { ok: false, error: attempt.failure };
  return { result, live: { load: reloadLoader(opts), sources: attempt.sources, unchanged, stop } };
}

/**
 * a file's key: the SHA-256 of its bytes (a file the load cache vouched for without reading it has the one an
 * earlier load took), so that two loads' keys of one file compare equal however each came by it
 */
function contentKey(read: TrackedRead): string {
  if (read.kind === 'missing') return MISSING_SOURCE;
  return CONTENT_KEY_PREFIX + (read.kind === 'known' ? read.digest : bytesDigest(read.bytes));
}

/** how long after a start-up load its files' keys are computed (SourceKeys) */
const SETTLE_AFTER_MS = 1000;

/**
 * The keys of a load's files, each computed when first asked for, or all at once by settle(), which lets go of the
 * bytes read (nothing else holds them: the stability check keeps sizes and times only). A start's are settled a
 * second after it, which keeps a SHA-256 of `mock.toml`, and loading node:crypto for it (~2 ms), off the way to the
 * server's first answer.
 */
class SourceKeys implements ReadonlyMap<string, string> {
  private readonly done = new Map<string, string>();
  private reads: ReadonlyMap<string, TrackedRead> | undefined;
  private readonly files: readonly string[];

  constructor(reads: ReadonlyMap<string, TrackedRead>) {
    this.reads = reads;
    this.files = [...reads.keys()];
  }

  get size(): number {
    return this.files.length;
  }

  get(abs: string): string | undefined {
    let key = this.done.get(abs);
    if (key !== undefined || this.reads === undefined) return key;
    const read = this.reads.get(abs);
    if (read === undefined) return undefined;
    this.done.set(abs, (key = contentKey(read)));
    return key;
  }

  has(abs: string): boolean {
    return this.done.has(abs) || (this.reads?.has(abs) ?? false);
  }

  private timer: NodeJS.Timeout | undefined;

  /** settle() `ms` from now, unless settled or stopped before (stop(): the server closed) */
  settleSoon(ms: number): void {
    this.timer = setTimeout(() => this.settle(), ms).unref();
  }

  /** no settling later: a closed server computes nothing after it (in a test runner, after its teardown) */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  settle(): void {
    this.stop();
    if (this.reads === undefined) return;
    for (const abs of this.files) this.get(abs);
    this.reads = undefined;
  }

  keys(): IterableIterator<string> {
    return this.files[Symbol.iterator]();
  }

  *values(): IterableIterator<string> {
    for (const abs of this.files) yield this.get(abs)!;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const abs of this.files) yield [abs, this.get(abs)!];
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(fn: (value: string, key: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    for (const [abs, key] of this.entries()) fn.call(thisArg, key, abs, this);
  }
}

/** How a load saw a file, without its bytes (the watches compare the start's for as long as the server runs). */
type Seen = { readonly size: number; readonly mtimeMs: number; readonly whole: boolean } | 'missing';

function seenOf(reads: ReadonlyMap<string, TrackedRead>): ReadonlyMap<string, Seen> {
  const out = new Map<string, Seen>();
  for (const [abs, read] of reads)
    out.set(
      abs,
      read.kind === 'missing'
        ? 'missing'
        : { size: read.size, mtimeMs: read.mtimeMs, whole: read.kind !== 'file' || read.bytes.length === read.size },
    );
  return out;
}

/**
 * Every file still as this load saw it. Synchronous: an imported workspace's load sees hundreds of files, and
 * stat()s on this thread cost less than as many round trips through the thread pool.
 */
async function unchangedSince(seen: ReadonlyMap<string, Seen>): Promise<boolean> {
  for (const [abs, was] of seen) {
    let now;
    try {
      now = statSync(abs, { throwIfNoEntry: false });
    } catch {
      now = undefined;
    }
    if (now === undefined) {
      if (was !== 'missing') return false;
      continue;
    }
    if (was === 'missing' || !was.whole) return false;
    if (now.size !== was.size || now.mtimeMs !== was.mtimeMs) return false;
  }
  return true;
}
