// WorkspaceWatcher: notices edits to the files a live workspace was loaded from and asks it to reload.
//
// Mechanism: node:fs.watch on each file's *parent directory* (non-recursive, one handle per directory), with
// events filtered by file name. Watching the directory rather than the file survives editors that save by
// renaming a temporary file over the original (vim, JetBrains), which replaces the inode a file watch follows.
// A directory that does not exist yet is watched through its nearest existing ancestor, filtered by the name
// of the next path segment, so creating a missing folder is noticed too. There is no polling: an idle server
// has no timer running. A watch that cannot be opened (ENOSPC: out of inotify watches, EPERM …) is reported once
// per directory through `onWatchFailed`, and serving goes on.
//
// Debounce: a reload starts `debounceMs` after the last event, and at most `maxWaitMs` after the first of a
// burst. One load runs at a time; events during a load ask for one more (LiveWorkspace.reload queues it).
// After each applied or rejected reload the watched set is recomputed from LiveWorkspace.watchedFiles().
//
// Not here: loading, comparing and swapping (server/live.ts), what is printed (cli/render/reload.ts).
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { LiveWorkspaceHandle } from '../model/reload.js';

export interface WatcherOptions {
  /** a reload starts this long after the last event (default 100) */
  readonly debounceMs?: number;
  /** …and at most this long after the first event of a burst (default 1000) */
  readonly maxWaitMs?: number;
  /** a directory could not be watched (error code such as ENOSPC); called once per directory */
  readonly onWatchFailed: (dir: string, code: string) => void;
  /** a reload itself threw (a bug, not a bad edit: those are reported by the reload event) */
  readonly onReloadError?: (e: unknown) => void;
  /** before the first reload: resolves true while the files are still as startup read them */
  readonly unchangedSinceLoad?: () => Promise<boolean>;
}

interface DirWatch {
  readonly handle: FSWatcher;
  /** names in this directory whose events matter */
  names: ReadonlySet<string>;
}

/** ENOENT-like errors: the directory is not there (watch an ancestor instead); not worth a warning */
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

export class WorkspaceWatcher {
  private readonly dirs = new Map<string, DirWatch>();
  private readonly failed = new Set<string>();
  private fileCount = 0;
  private burstStart: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly live: LiveWorkspaceHandle,
    private readonly opts: WatcherOptions,
  ) {}

  /** Open the watches for the live workspace's files and follow its reloads. */
  start(): void {
    this.unsubscribe = this.live.onReload(() => this.update());
    this.update();
    const check = this.opts.unchangedSinceLoad;
    // an edit between startup's read and the watch opening would otherwise go unnoticed until the next one
    if (check !== undefined)
      void check().then(
        (same) => same || this.changed(),
        () => this.changed(),
      );
  }

  /** how many files are watched (before start(): how many will be) */
  get watching(): number {
    return this.dirs.size === 0 && this.unsubscribe === undefined ? this.live.watchedFiles().length : this.fileCount;
  }

  /** how many directory handles are open */
  get handles(): number {
    return this.dirs.size;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const d of this.dirs.values()) d.handle.close();
    this.dirs.clear();
  }

  /** Recompute the watched set: open what is new, close what is no longer needed, refresh the name filters. */
  update(): void {
    if (this.closed) return;
    const files = this.live.watchedFiles();
    this.fileCount = files.length;
    const wanted = new Map<string, Set<string>>();
    for (const file of files) {
      const at = this.watchPoint(file);
      if (at === undefined) continue;
      const names = wanted.get(at.dir) ?? new Set<string>();
      names.add(at.name);
      wanted.set(at.dir, names);
    }
    for (const [dir, d] of this.dirs) {
      if (wanted.has(dir)) continue;
      d.handle.close();
      this.dirs.delete(dir);
    }
    for (const [dir, names] of wanted) {
      const d = this.dirs.get(dir);
      if (d !== undefined) d.names = names;
    }
  }

  /** The directory that watches `file` and the name to listen for there, opening the handle when needed. */
  private watchPoint(file: string): { dir: string; name: string } | undefined {
    let name = basename(file);
    let dir = dirname(file);
    for (;;) {
      if (this.dirs.has(dir)) return { dir, name };
      const opened = this.open(dir);
      if (opened === 'ok') return { dir, name };
      if (opened === 'failed') return undefined;
      const up = dirname(dir);
      if (up === dir) return undefined;
      name = basename(dir);
      dir = up;
    }
  }

  private open(dir: string): 'ok' | 'absent' | 'failed' {
    let handle: FSWatcher;
    try {
      handle = fsWatch(dir, { persistent: false }, (_event, filename) => this.onEvent(dir, filename));
    } catch (e) {
      const code = errorCode(e);
      if (ABSENT.has(code)) return 'absent';
      if (!this.failed.has(dir)) {
        this.failed.add(dir);
        this.opts.onWatchFailed(dir, code);
      }
      return 'failed';
    }
    // the directory went away or the watch broke: drop it; the reload that follows re-opens what exists
    handle.on('error', () => {
      handle.close();
      if (this.dirs.get(dir)?.handle === handle) this.dirs.delete(dir);
      this.changed();
    });
    this.dirs.set(dir, { handle, names: new Set() });
    return 'ok';
  }

  private onEvent(dir: string, filename: string | Buffer | null): void {
    const d = this.dirs.get(dir);
    if (d === undefined) return;
    // no name: something happened in the directory that inotify could not attribute; assume it matters
    if (filename !== null && !d.names.has(filename.toString())) return;
    this.changed();
  }

  private changed(): void {
    if (this.closed) return;
    const now = performance.now();
    this.burstStart ??= now;
    const wait = Math.max(
      0,
      Math.min(this.opts.debounceMs ?? 100, this.burstStart + (this.opts.maxWaitMs ?? 1000) - now),
    );
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(this.fire, wait);
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.burstStart = undefined;
    if (this.closed) return;
    this.live.reload().then(
      () => this.update(),
      (e: unknown) => this.opts.onReloadError?.(e),
    );
  };
}

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : String(e);
}
