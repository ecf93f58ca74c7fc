// Loading for a live server: startup's own loadWorkspace(), told to record every file it reads or looks for,
// so a reload can compare what it read (contents) with what is serving, and can tell whether a file moved while it
// was being read (size or mtime changed between the read and the end of the load: a save in progress).
//
// Owns: the SourceSet of a load, the stability check, reload mode (an invalid `.json` respond target is a
// warning). Leaves out: deciding what to do with a load (server/live.ts), watching (watch.ts).
import { stat } from 'node:fs/promises';
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
import { bytesDigest } from './load-cache.js';

export interface TrackedLoad {
  readonly attempt: LoadAttempt;
  /** true while every file read is still as it was read (same size and mtime; still missing) */
  readonly unchanged: () => Promise<boolean>;
}

/** One load, recording its reads. `mode` 'reload' makes an invalid `.json` respond target a warning. */
export async function loadTracked(opts: LoadOptions, mode: 'start' | 'reload'): Promise<TrackedLoad> {
  const reads = new Map<string, TrackedRead>();
  const track: ReadTracker = { record: (abs, read) => void reads.set(abs, read) };
  const r = await loadWorkspace({ ...opts, track, invalidJsonTarget: mode === 'reload' ? 'warning' : 'error' });
  const sources: SourceSet = new Map(
    [...reads].map(([abs, read]) => [abs, read.kind === 'missing' ? MISSING_SOURCE : contentKey(read.bytes)]),
  );
  const unchanged = (): Promise<boolean> => unchangedSince(reads);
  const stable = await unchanged();
  const attempt: LoadAttempt = r.ok
    ? { kind: 'loaded', workspace: r.value, sources, stable }
    : { kind: 'failed', failure: r.error, sources, stable };
  return { attempt, unchanged };
}

/** The reload loader for a server started with these options (the same -c, -d and -p). */
export function reloadLoader(opts: LoadOptions): WorkspaceLoad {
  return async () => (await loadTracked(opts, 'reload')).attempt;
}

/** What `mock serve` needs at startup: the workspace, and when watching, how to reload and what was read. */
export interface ServeLoad {
  readonly result: Result<Workspace, LoadFailure>;
  readonly live?: {
    readonly load: WorkspaceLoad;
    readonly sources: SourceSet;
    readonly unchanged: () => Promise<boolean>;
  };
}

export async function loadForServe(opts: LoadOptions, watch: boolean): Promise<ServeLoad> {
  if (!watch) return { result: await loadWorkspace(opts) };
  const { attempt, unchanged } = await loadTracked(opts, 'start');
  const result: Result<Workspace, LoadFailure> =
    attempt.kind === 'loaded' ? { ok: true, value: attempt.workspace } : { ok: false, error: attempt.failure };
  return { result, live: { load: reloadLoader(opts), sources: attempt.sources, unchanged } };
}

/**
 * the bytes as one string (latin1: one char per byte, a native copy), compared whole; a large file (an imported
 * workspace's rule sets: megabytes in all) by its SHA-256 instead, which the load cache computed already
 */
function contentKey(bytes: Uint8Array): string {
  if (bytes.byteLength >= DIGEST_FROM_BYTES) return CONTENT_KEY_PREFIX + DIGEST_MARK + bytesDigest(bytes);
  return CONTENT_KEY_PREFIX + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

const DIGEST_FROM_BYTES = 16 * 1024;
/** a digest's key starts so; a file's own bytes could only look the same if that file were shorter than its digest */
const DIGEST_MARK = '\0sha256:';

async function unchangedSince(reads: ReadonlyMap<string, TrackedRead>): Promise<boolean> {
  const checks = [...reads].map(async ([abs, read]) => {
    try {
      const now = await stat(abs);
      return (
        read.kind === 'file' &&
        read.bytes.length === read.size &&
        now.size === read.size &&
        now.mtimeMs === read.mtimeMs
      );
    } catch {
      return read.kind === 'missing';
    }
  });
  return (await Promise.all(checks)).every(Boolean);
}
