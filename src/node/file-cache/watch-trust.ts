// WatchTrust: stat results that stay trusted, with no syscall, until a file-system watch says otherwise.
//
// Used by fs-source.ts on Linux, where inotify queues an event inside the very syscall that changes a directory
// entry or a file. A client that edits a file and then sends a request therefore makes the event ready before
// its request bytes arrive; epoll hands both to the same poll phase. So once the poll phase in which a request
// arrived is over (the gate below), every event that precedes the request has been handled, and a stat still
// trusted at that point is current. That replaces a threadpool stat per request (costly) with a map lookup.
//
// A stat of `dir/name` is trusted only when every directory from `/` down to `dir` is watched, canonical (no
// symlink on the way: a change behind a symlink is reported elsewhere) and on a local file system (network and
// FUSE file systems do not report remote changes), and `dir/name` itself is not a symlink; when it is a
// directory, it must be watched too (changes inside it are reported only there). An event in `dir`
// forgets `dir` and `dir/<name>`; an event naming a watched directory, or one without a name, forgets that whole
// subtree and closes its watches (they follow the old inode). As a backstop against lost events (queue overflow,
// writes through mmap), nothing stays trusted longer than `maxTrustMs`.
import { watch, type FSWatcher, type Stats } from 'node:fs';
import { lstat, realpath, statfs } from 'node:fs/promises';

/** how long after a request needs a new watch it opens (openSoon) */
const OPEN_DELAY_MS = 20;

/** statfs magic numbers of local file systems whose changes inotify always reports */
const LOCAL_FILE_SYSTEMS: ReadonlySet<number> = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x858458f6, // ramfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0x52654973, // reiserfs
  0x3153464a, // jfs
  0xca451a4e, // bcachefs
]);

type WatchState = 'checking' | 'safe' | 'unsafe';

interface DirWatch {
  readonly watcher: FSWatcher | undefined;
  state: WatchState;
}

export interface TrustedStat {
  /** undefined: the path is known to be missing */
  readonly st: Stats | undefined;
  /** resolves to `st`, made once so a trusted answer costs no allocation */
  readonly promise: Promise<Stats | undefined>;
  readonly at: number;
}

/** Handed out before a stat starts; the stat is trusted only if no event touched the path meanwhile. */
export interface TrustToken {
  readonly path: string;
  /** `path` itself was watched and safe when the stat began (needed if it turns out to be a directory) */
  readonly selfWatched: boolean;
}

export class WatchTrust {
  private readonly watches = new Map<string, DirWatch>();
  private readonly trusted = new Map<string, TrustedStat>();
  private readonly pending = new Map<string, TrustToken>();
  /** directories that could not be watched (missing, no access, no watch left), oldest first */
  private readonly failed = new Set<string>();
  /** directories to watch at the next openNow (openSoon) */
  private toOpen: Set<string> | undefined;
  /** the callers waiting for the next opening (whenOpen), while one is scheduled */
  private waiting: (() => void)[] | undefined;
  private gatePromise: Promise<void> | undefined;
  /** bumped each time the gate opens: work started after one opening is "of" that generation */
  generation = 0;
  /** Date.now() when the gate last opened: the trust backstop needs no finer clock, and reading the clock on
   *  every lookup is measurably costly on some virtual machines */
  private clock = Date.now();
  closed = false;

  constructor(
    private readonly maxTrustMs: number,
    private readonly maxEntries: number,
    /** told about every path a watch event touched (`subtree`: everything beneath it too) */
    private readonly onChange: (path: string, subtree: boolean) => void = () => undefined,
  ) {}

  /**
   * Calls `open` once a poll phase that began after this call has been handled, so every watch event queued before
   * the caller asked (in particular before its request arrived) has been delivered: an immediate queued from the
   * check phase runs in the next loop iteration, after its poll phase. (One immediate would do for a request
   * arriving from the network; the second also covers a change made synchronously in this process just before
   * the call, whose event is only polled in the next iteration.) All callers of one loop iteration share it, and
   * are called in order from one callback: a file request then goes on to its answer there, with no promise.
   * `open` must not throw.
   */
  whenOpen(open: () => void): void {
    let waiting = this.waiting;
    if (waiting === undefined) {
      this.waiting = waiting = [];
      setImmediate(this.closeList);
    }
    waiting.push(open);
  }

  /** whenOpen as a promise */
  gate(): Promise<void> {
    return (this.gatePromise ??= new Promise<void>((resolve) => this.whenOpen(resolve)));
  }

  /** the first immediate: later callers wait for the next opening; these are called from the second */
  private readonly closeList = (): void => {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.gatePromise = undefined;
    setImmediate(() => {
      this.generation++;
      this.clock = Date.now();
      // a waiter that throws (a bug: they must not) still lets the others of the turn go on, then is reported
      let failed: { readonly error: unknown } | undefined;
      for (const open of waiting!) {
        try {
          open();
        } catch (error) {
          failed ??= { error };
        }
      }
      if (failed !== undefined) throw failed.error;
    });
  };

  /** the clock the trust backstop reads: Date.now() as of the last gate opening */
  now(): number {
    return this.clock;
  }

  /** the trusted stat of `path`, if any (call only after the gate) */
  lookup(path: string): TrustedStat | undefined {
    const hit = this.trusted.get(path);
    if (hit === undefined) return undefined;
    if (this.clock - hit.at <= this.maxTrustMs) return hit;
    this.trusted.delete(path);
    return undefined;
  }

  /** Before a stat of `path` starts: a token when its directories are all watched and safe; else start watching. */
  begin(path: string): TrustToken | undefined {
    if (this.closed) return undefined;
    const dir = parentOf(path);
    if (dir === undefined) return undefined;
    if (!this.watchChain(dir)) return undefined;
    const token: TrustToken = { path, selfWatched: this.watches.get(path)?.state === 'safe' };
    this.pending.set(path, token);
    return token;
  }

  /** The stat begun with `token` completed with `st`: trust it once `path` is known not to be a symlink. */
  complete(token: TrustToken, st: Stats | undefined): void {
    const { path } = token;
    if (this.pending.get(path) !== token) return;
    if (st?.isDirectory() && !token.selfWatched) {
      // A directory's stat (its mtime) changes with its entries, which only a watch on it reports.
      this.pending.delete(path);
      this.watchChain(path);
      return;
    }
    lstat(path)
      .then(
        (l) => !l.isSymbolicLink(),
        (e: unknown) => isCode(e, 'ENOENT'),
      )
      .then(
        (plain) => {
          if (this.pending.get(path) !== token) return;
          this.pending.delete(path);
          if (!plain) return;
          this.trusted.delete(path);
          this.trusted.set(path, { st, promise: Promise.resolve(st), at: Date.now() });
          if (this.trusted.size > this.maxEntries) this.trusted.delete(this.trusted.keys().next().value!);
        },
        () => undefined,
      );
  }

  close(): void {
    this.closed = true;
    for (const w of this.watches.values()) w.watcher?.close();
    this.watches.clear();
    this.failed.clear();
    this.trusted.clear();
    this.pending.clear();
  }

  /** true when `dir` and all its ancestors are watched and safe; else the missing watches open soon (openSoon) */
  private watchChain(dir: string): boolean {
    let safe = true;
    for (const d of chainOf(dir)) {
      const w = this.watches.get(d);
      if (w === undefined) {
        this.openSoon(dir);
        return false;
      }
      if (w.state !== 'safe') safe = false;
      if (w.watcher === undefined) break; // missing or unwatchable: nothing deeper can be trusted
    }
    return safe;
  }

  /**
   * Watches open a moment after the request that needs them, all at once, and never in that request's turn: the
   * process's first fs.watch() costs several milliseconds (Node.js loads its watcher code), which the first request
   * a server answers would otherwise wait for. A stat is trusted only under watches already open and checked, so
   * until then requests stat as usual.
   */
  private openSoon(dir: string): void {
    if (this.toOpen === undefined) {
      this.toOpen = new Set();
      setTimeout(this.openNow, OPEN_DELAY_MS).unref();
    }
    if (this.toOpen.size < this.maxEntries) this.toOpen.add(dir);
  }

  private readonly openNow = (): void => {
    const dirs = this.toOpen;
    this.toOpen = undefined;
    if (dirs === undefined || this.closed) return;
    for (const dir of dirs)
      for (const d of chainOf(dir)) {
        const w = this.watches.get(d) ?? this.startWatch(d);
        if (w.watcher === undefined) break;
      }
  };

  /** how many directories are watched (tests) */
  get watchCount(): number {
    return this.watches.size;
  }

  private startWatch(dir: string): DirWatch {
    if (this.watches.size >= this.maxEntries) {
      // Full: make room by dropping the oldest failed watch (random 404 paths leave those behind), else give up.
      const failed = this.failed.values().next();
      if (failed.done === true) return { watcher: undefined, state: 'unsafe' };
      this.failed.delete(failed.value);
      this.watches.delete(failed.value);
    }
    let watcher: FSWatcher | undefined;
    try {
      // inotify_add_watch: one cheap syscall, once per directory, on a cache miss only
      watcher = watch(dir, { persistent: false }, (_event, name) => this.onEvent(dir, name));
      watcher.on('error', () => this.forgetTree(dir));
    } catch {
      watcher = undefined;
    }
    const w: DirWatch = { watcher, state: watcher === undefined ? 'unsafe' : 'checking' };
    this.watches.set(dir, w);
    if (watcher === undefined) this.failed.add(dir);
    if (watcher !== undefined) {
      Promise.all([realpath(dir), statfs(dir)]).then(
        ([real, fs]) => {
          if (w.state === 'checking') w.state = real === dir && LOCAL_FILE_SYSTEMS.has(fs.type) ? 'safe' : 'unsafe';
        },
        () => {
          w.state = 'unsafe';
        },
      );
    }
    return w;
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    if (typeof name !== 'string' || name === '') {
      this.forgetTree(dir);
      return;
    }
    const child = dir === '/' ? '/' + name : dir + '/' + name;
    this.forget(dir);
    if (this.watches.has(child)) this.forgetTree(child);
    else this.forget(child);
  }

  private forget(path: string): void {
    this.trusted.delete(path);
    this.pending.delete(path);
    this.onChange(path, false);
  }

  /** forget `root` and everything beneath it, and close the watches there (they may follow a moved inode) */
  private forgetTree(root: string): void {
    const prefix = root === '/' ? '/' : root + '/';
    const under = (p: string): boolean => p === root || p.startsWith(prefix);
    for (const p of [...this.trusted.keys()]) if (under(p)) this.trusted.delete(p);
    for (const p of [...this.pending.keys()]) if (under(p)) this.pending.delete(p);
    for (const [p, w] of [...this.watches]) {
      if (!under(p)) continue;
      w.watcher?.close();
      this.watches.delete(p);
      this.failed.delete(p);
    }
    this.onChange(root, true);
  }
}

/** '/a/b' → ['/', '/a', '/a/b'] */
function chainOf(dir: string): string[] {
  const out = ['/'];
  let i = 0;
  while ((i = dir.indexOf('/', i + 1)) > 0) out.push(dir.slice(0, i));
  if (dir !== '/') out.push(dir);
  return out;
}

/** the directory part of an absolute POSIX path, or undefined when the path is not one we can reason about */
function parentOf(path: string): string | undefined {
  if (!path.startsWith('/') || path.includes('//') || /(^|\/)\.\.?(\/|$)/.test(path) || path.endsWith('/'))
    return undefined;
  const i = path.lastIndexOf('/');
  return i === 0 ? '/' : path.slice(0, i);
}

function isCode(e: unknown, code: string): boolean {
  return typeof e === 'object' && e !== null && 'code' in e && e.code === code;
}
