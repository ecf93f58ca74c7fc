// createFsSource: the FileSource over the real disk, built for the request path.
//
// Owns: caching of stats, file bytes, directory listings and canonical paths, with freshness checks so an edit
// on disk is served by the very next request. Leaves out: resolution rules (files/lookup.ts), conversion
// (files/file-body.ts). Never does synchronous I/O (the one exception is fs.watch's inotify_add_watch, once per
// directory, on a cache miss).
//
// Freshness. Everything cached is validated against a stat that is current for the request (fresh-stats.ts):
// - watch mode (default on Linux, watch-trust.ts): a stat stays trusted, with no syscall, until an inotify event
//   touches the path; each request waits until the poll phase it arrived in is over, so the events of every
//   edit made before it was sent have been handled. Steady state: no syscall per request.
// - stat mode (elsewhere, and for paths the watch cannot vouch for: symlinks, network file systems): one async
//   stat per path per event-loop turn, shared by all requests of that turn.
// An async stat goes through the libuv threadpool and costs more CPU than the rest of a static-file request,
// which is why neither mode stats per request and call.
// - Cached bytes and listings are keyed by path and checked against (size, mtime, ctime, ino, dev). Timestamps
//   are coarse (a few ms on Linux), so an entry read while its mtime was within `racyWindowMs` of the read is
//   "racy" (git's racy-clean rule): it is re-read, and kept only when the bytes are unchanged, until it settles.
//   In watch mode an event also drops the entries of the path it names.
// - A canonical path is reused while the stat of the same path shows the same (dev, ino).
// - Concurrent misses for one path and one stat result share a single readFile or realpath.
// Memory is bounded: files above `maxFileBytes` are never cached; cached bytes are evicted beyond
// `budgetBytes` (least recently used first); the other maps are capped at `maxEntries` (oldest first).
import { readdir, readFile, realpath as fsRealpath, stat as fsStatPromise } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import {
  Soon,
  type DirEntry,
  type FileSource,
  type FileStat,
  type LargeFileStart,
  type Later,
} from '../../files/source.js';
import { FreshStats, type TrustNote } from './fresh-stats.js';
import { WatchTrust } from './watch-trust.js';
import { readHead } from './read-head.js';

export interface FsSourceOptions {
  /** files larger than this are read on every request, never cached (default 8 MiB) */
  readonly maxFileBytes?: number;
  /** total bytes of cached files (default 64 MiB) */
  readonly budgetBytes?: number;
  /** an mtime this close to the read time is not trusted yet (default 1000 ms) */
  readonly racyWindowMs?: number;
  /** entries kept in each of the stat, listing and realpath caches (default 10 000) */
  readonly maxEntries?: number;
  /** trust stats between watch events (default: on Linux; see watch-trust.ts) */
  readonly watch?: boolean;
  /** watch mode: re-stat a trusted path at least this often, against lost events (default 1000 ms) */
  readonly maxTrustMs?: number;
}

/** read errors that mean "no such file" (404); any other read error is thrown (the caller answers 500) */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

interface Signed {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly dev: number;
  readonly racy: boolean;
}
interface CachedFile extends Signed {
  readonly bytes: Uint8Array;
  /** recency for eviction (a counter, so a hit costs no map reordering) */
  used: number;
}
interface CachedList extends Signed {
  readonly entries: readonly DirEntry[];
}
interface CachedReal {
  readonly ino: number;
  readonly dev: number;
  readonly real: string;
}

/** Counts of real filesystem calls, for tests and measurements. */
export interface FsSourceCounters {
  stat: number;
  readFile: number;
  readdir: number;
  realpath: number;
}

export interface FsSource extends FileSource {
  readonly counters: FsSourceCounters;
  /** stop watching (watch mode): from then on every request stats again */
  close(): void;
}

export function createFsSource(options: FsSourceOptions = {}): FsSource {
  const maxFileBytes = options.maxFileBytes ?? 8 * 1024 * 1024;
  const budgetBytes = options.budgetBytes ?? 64 * 1024 * 1024;
  const racyWindowMs = options.racyWindowMs ?? 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const counters: FsSourceCounters = { stat: 0, readFile: 0, readdir: 0, realpath: 0 };
  const fileCache = new Map<string, CachedFile>();
  const listCache = new Map<string, CachedList>();
  const realCache = new Map<string, CachedReal>();
  let cachedBytes = 0;
  // the port's view of a stat, made once per stat result (a shared or trusted stat serves many callers)
  const fileStats = new WeakMap<Stats, FileStat>();
  // Cache misses in flight, so concurrent requests for a cold file share one read (and one realpath).
  const reading = new Map<string, InFlight<Uint8Array | undefined>>();
  const resolving = new Map<string, InFlight<string | undefined>>();

  // A watch event also drops what was cached for the path: the edit may have kept size, mtime and ctime.
  const changed = (path: string, subtree: boolean): void => {
    epoch++;
    fresh.forget(path, subtree);
    const caches: Map<string, unknown>[] = [listCache, realCache];
    for (const cache of caches) cache.delete(path);
    dropFile(path);
    if (!subtree) return;
    const prefix = path === '/' ? '/' : path + '/';
    for (const cache of caches) for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
    for (const key of [...fileCache.keys()]) if (key.startsWith(prefix)) dropFile(key);
  };
  const maxTrustMs = options.maxTrustMs ?? 1000;
  const trust =
    (options.watch ?? process.platform === 'linux') ? new WatchTrust(maxTrustMs, maxEntries, changed) : undefined;
  const fresh = new FreshStats(counters, maxEntries, trust);
  /** a stat current for the caller: `probe` for a lookup's stat(), false for read/list/realpath */
  const currentStat = (path: string, probe: boolean, note?: TrustNote): Promise<Stats | undefined> =>
    fresh.current(path, probe, note);

  const dropFile = (path: string): void => {
    const old = fileCache.get(path);
    if (old === undefined) return;
    epoch++; // a remembered result may hold these bytes: forget it with them, so memory stays within the budget
    fileCache.delete(path);
    cachedBytes -= old.bytes.byteLength;
  };

  let uses = 0;
  const keepFile = (path: string, entry: CachedFile): void => {
    dropFile(path);
    if (entry.bytes.byteLength > maxFileBytes) return;
    fileCache.set(path, entry);
    cachedBytes += entry.bytes.byteLength;
    while (cachedBytes > budgetBytes) {
      let victim: string | undefined;
      let oldest = Infinity;
      for (const [key, cached] of fileCache) {
        if (key !== path && cached.used < oldest) [victim, oldest] = [key, cached.used];
      }
      if (victim === undefined) return;
      dropFile(victim);
    }
  };

  // Remembered results (remember()): valid while no watch event arrived and no cached file was dropped since they
  // were computed, and for at most maxTrustMs (the trust's own backstop). `epoch` counts those invalidations.
  let epoch = 0;
  let memo = new WeakMap<object, Map<string, MemoEntry>>();

  const stat = async (path: string, note?: TrustNote): Promise<FileStat | undefined> => {
    const st = await currentStat(path, true, note);
    if (st === undefined) return undefined;
    let converted = fileStats.get(st);
    if (converted === undefined) fileStats.set(st, (converted = toFileStat(st)));
    return converted;
  };

  const read = async (path: string, note?: TrustNote): Promise<Uint8Array | undefined> => {
    const st = await currentStat(path, false, note);
    if (st === undefined || !st.isFile()) {
      dropFile(path);
      return undefined;
    }
    const cached = fileCache.get(path);
    if (cached !== undefined && sameVersion(cached, st) && !cached.racy) {
      cached.used = ++uses;
      return cached.bytes;
    }
    if (note !== undefined) note.trusted = false; // read from disk now: maybe too big to keep
    return shareInFlight(reading, path, st, async () => {
      const readAt = Date.now();
      let bytes: Uint8Array;
      try {
        counters.readFile++;
        bytes = await readFile(path);
      } catch (e) {
        dropFile(path);
        if (isMissing(e)) return undefined;
        throw e;
      }
      // Same version and same bytes as the racy entry: keep the old object, so caches keyed on it hold.
      if (cached !== undefined && sameVersion(cached, st) && sameBytes(cached.bytes, bytes)) bytes = cached.bytes;
      keepFile(path, { ...signature(st, readAt, racyWindowMs), bytes, used: ++uses });
      return bytes;
    });
  };

  /**
   * The stat a read would use (the lookup's, when it just made one); the first bytes only past `above`, never
   * cached, as current as that stat (which a remembered result is held to).
   */
  const largeFile = async (
    path: string,
    above: number,
    headBytes: number,
    note?: TrustNote,
  ): Promise<LargeFileStart | undefined> => {
    const st = await currentStat(path, false, note);
    if (st === undefined || !st.isFile() || st.size <= above) return undefined;
    counters.readFile++;
    const head = await readHead(path, headBytes);
    return head === undefined ? undefined : { size: st.size, head };
  };

  const list = async (dir: string, note?: TrustNote): Promise<readonly DirEntry[] | undefined> => {
    const st = await currentStat(dir, false, note);
    if (st === undefined || !st.isDirectory()) {
      listCache.delete(dir);
      return undefined;
    }
    const cached = listCache.get(dir);
    if (cached !== undefined && sameVersion(cached, st) && !cached.racy) return cached.entries;
    if (note !== undefined) note.trusted = false;
    const readAt = Date.now();
    let entries: readonly DirEntry[];
    try {
      counters.readdir++;
      entries = await readEntries(dir);
    } catch {
      listCache.delete(dir);
      return undefined;
    }
    if (cached !== undefined && sameVersion(cached, st) && sameEntries(cached.entries, entries))
      entries = cached.entries;
    listCache.delete(dir);
    remember(listCache, dir, { ...signature(st, readAt, racyWindowMs), entries }, maxEntries);
    return entries;
  };

  const realpath = async (path: string, note?: TrustNote): Promise<string | undefined> => {
    const st = await currentStat(path, false, note);
    if (st === undefined) return undefined;
    const cached = realCache.get(path);
    if (cached !== undefined && cached.ino === st.ino && cached.dev === st.dev) return cached.real;
    if (note !== undefined) note.trusted = false;
    return shareInFlight(resolving, path, st, async () => {
      try {
        counters.realpath++;
        const real = await fsRealpath(path);
        realCache.delete(path);
        remember(realCache, path, { ino: st.ino, dev: st.dev, real }, maxEntries);
        return real;
      } catch {
        realCache.delete(path);
        return undefined;
      }
    });
  };

  /** Run `compute` over a view of this source that notes whether every answer it got was vouched for. */
  const computeNoted = <T>(scope: object, key: string, compute: (files: FileSource) => Promise<T>): Promise<T> => {
    const note: TrustNote = { trusted: true, oldest: Infinity };
    const view: FileSource = {
      stat: (p) => stat(p, note),
      read: (p) => read(p, note),
      largeFile: (p, above, n) => largeFile(p, above, n, note),
      list: (d) => list(d, note),
      realpath: (p) => realpath(p, note),
    };
    const startEpoch = epoch;
    const now = trust!.now();
    return compute(view).then((value) => {
      if (note.trusted && epoch === startEpoch && !trust!.closed) {
        // valid as long as the stats it rests on would have been trusted
        let entries = memo.get(scope);
        if (entries === undefined) memo.set(scope, (entries = new Map<string, MemoEntry>()));
        entries.delete(key);
        remember(entries, key, { epoch: startEpoch, at: Math.min(now, note.oldest), value }, maxEntries);
      }
      return value;
    });
  };

  const source: FsSource = {
    counters,

    close(): void {
      trust?.close();
      memo = new WeakMap();
    },

    stat: (path) => stat(path),
    read: (path) => read(path),
    largeFile: (path, above, headBytes) => largeFile(path, above, headBytes),
    list: (dir) => list(dir),
    realpath: (path) => realpath(path),

    remember<T>(scope: object, key: string, compute: (files: FileSource) => Promise<T>): Later<T> {
      if (trust === undefined || trust.closed) return compute(source);
      // Wait until every watch event that precedes the request has been handled, then answer from memory when
      // nothing has changed since the result was computed: the requests of a turn are released together, and a
      // remembered one goes on to its answer from there (a Soon, no promise).
      const later = new Soon<T>();
      trust.whenOpen(() => {
        const hit = memo.get(scope)?.get(key);
        if (hit !== undefined && hit.epoch === epoch && trust.now() - hit.at <= maxTrustMs)
          later.resolve(hit.value as T);
        else {
          try {
            later.resolve(computeNoted(scope, key, compute));
          } catch (e) {
            later.reject(e);
          }
        }
      });
      return later;
    },
  };
  return source;
}

interface MemoEntry {
  readonly epoch: number;
  readonly at: number;
  readonly value: unknown;
}

interface InFlight<T> {
  /** the stat result the work was started for: only callers holding the very same result may share it */
  readonly st: Stats;
  readonly promise: Promise<T>;
}

function shareInFlight<T>(map: Map<string, InFlight<T>>, path: string, st: Stats, work: () => Promise<T>): Promise<T> {
  const running = map.get(path);
  if (running !== undefined && running.st === st) return running.promise;
  const promise = work().finally(() => {
    if (map.get(path)?.promise === promise) map.delete(path);
  });
  map.set(path, { st, promise });
  return promise;
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  if (map.size <= max) return;
  for (const oldest of map.keys()) {
    map.delete(oldest);
    if (map.size <= max) return;
  }
}

function toFileStat(st: Stats): FileStat {
  return { kind: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other', size: st.size, mtimeMs: st.mtimeMs };
}

function signature(st: Stats, readAt: number, racyWindowMs: number): Signed {
  return {
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    ino: st.ino,
    dev: st.dev,
    racy: st.mtimeMs >= readAt - racyWindowMs,
  };
}

function sameVersion(entry: Signed, st: Stats): boolean {
  return (
    entry.size === st.size &&
    entry.mtimeMs === st.mtimeMs &&
    entry.ctimeMs === st.ctimeMs &&
    entry.ino === st.ino &&
    entry.dev === st.dev
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameEntries(a: readonly DirEntry[], b: readonly DirEntry[]): boolean {
  return a.length === b.length && a.every((e, i) => e.name === b[i]!.name && e.kind === b[i]!.kind);
}

/** Directory entries sorted by name; a symlink takes the kind of its target ('other' when dangling). */
async function readEntries(dir: string): Promise<readonly DirEntry[]> {
  const dirents = await readdir(dir, { withFileTypes: true });
  const entries = await Promise.all(
    dirents.map(async (d): Promise<DirEntry> => {
      if (d.isFile()) return { name: d.name, kind: 'file' };
      if (d.isDirectory()) return { name: d.name, kind: 'dir' };
      if (!d.isSymbolicLink()) return { name: d.name, kind: 'other' };
      const target = await fsStatPromise(dir + (dir.endsWith('/') || dir.endsWith('\\') ? '' : '/') + d.name).catch(
        () => undefined,
      );
      return { name: d.name, kind: target === undefined ? 'other' : toFileStat(target).kind };
    }),
  );
  entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return Object.freeze(entries);
}

function isMissing(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'code' in e && MISSING_CODES.has(String(e.code));
}
