// Reading the files `set rule` edits, and writing them back safely.
//
// Each new text is staged first (node/safe-write.ts: a temp file beside the target, fsynced, given the old file's
// mode). Only when every file is staged is each target re-read and compared byte for byte with what was read at
// the start; any difference is a conflict and nothing is replaced. Then each staged file is renamed over its
// target (an existing file) or linked into place (a new file, so a file someone created meanwhile is never
// overwritten). A reader, or a crash at any moment, sees the old file or the new one, whole.
// The rule set is written before the config, so a config never lists a rule set that is not there yet.
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { discardStaged, NEW_FILE_MODE, placeStaged, stageFile, type StagedFile } from '../../../node/safe-write.js';
import type { Failure } from '../../../model/errors.js';

export interface FileVersion {
  readonly abs: string;
  readonly shown: string;
  /** undefined when the file does not exist (or could not be read: see problem) */
  readonly text?: string;
  /** the exact bytes read; undefined when the file does not exist */
  readonly bytes?: Uint8Array;
  /** a UTF-8 byte order mark was dropped from `text` and is written back */
  readonly bom: boolean;
  /** permission bits of the existing file */
  readonly mode?: number;
  /** why the file could not be read */
  readonly problem?: string;
}

export { NEW_FILE_MODE };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = '\uFEFF';

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

function reasonOf(e: unknown): string {
  const code = codeOf(e);
  return (code !== undefined ? REASONS[code] : undefined) ?? (e instanceof Error ? e.message : String(e));
}

async function readBytes(abs: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(abs);
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

export async function readFileVersion(abs: string, shown: string): Promise<FileVersion> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readBytes(abs);
  } catch (e) {
    return { abs, shown, bom: false, problem: reasonOf(e) };
  }
  if (bytes === undefined) return { abs, shown, bom: false };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { abs, shown, bom: false, problem: 'it is not valid UTF-8' };
  }
  const bom = text.startsWith(BOM);
  let mode: number | undefined;
  try {
    mode = (await stat(abs)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  return { abs, shown, text: bom ? text.slice(1) : text, bytes, bom, ...(mode === undefined ? {} : { mode }) };
}

export interface PendingWrite {
  readonly snapshot: FileVersion;
  readonly after: string;
}

interface Staged extends StagedFile {
  readonly snapshot: FileVersion;
}

const conflict = (shown: string): Failure => ({
  kind: 'conflict',
  message: `\`${shown}\` changed on disk while set rule was working; nothing was written (run it again to edit the new content)`,
});
const ioFailure = (shown: string, e: unknown, partial: readonly string[]): Failure => ({
  kind: 'io',
  message:
    `cannot write \`${shown}\`: ${reasonOf(e)}` +
    (partial.length === 0
      ? '; nothing was written'
      : `; already written: ${partial.map((p) => '`' + p + '`').join(', ')}`),
});

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

async function targetOf(s: FileVersion): Promise<string> {
  if (s.bytes !== undefined) return realpath(s.abs);
  return join(await realpath(dirname(s.abs)), basename(s.abs));
}

/** Stages at the real path (symlinks resolved, so a link keeps pointing at the edited file). */
async function stage(w: PendingWrite): Promise<Staged> {
  const staged = await stageFile(await targetOf(w.snapshot), (w.snapshot.bom ? BOM : '') + w.after, w.snapshot.mode);
  return { ...staged, snapshot: w.snapshot };
}

/** Put a staged file in place; false when a file appeared where none was (a conflict). */
function install(s: Staged): Promise<boolean> {
  return placeStaged(s, s.snapshot.bytes !== undefined ? 'replace' : 'create', 'check-then-rename');
}

/**
 * Write every file or none (short of an I/O error between two renames, which is reported naming what was
 * already written). Returns a Failure (kind conflict or io) or undefined on success.
 */
export async function commitFiles(writes: readonly PendingWrite[], pauseMs = 0): Promise<Failure | undefined> {
  const staged: Staged[] = [];
  const written: string[] = [];
  try {
    for (const w of writes) {
      try {
        staged.push(await stage(w));
      } catch (e) {
        return ioFailure(w.snapshot.shown, e, written);
      }
    }
    // Test hook (MOCK_TEST_PAUSE_BEFORE_COMMIT_MS): widen the window in which another writer may strike.
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    for (const s of staged) {
      let now: Uint8Array | undefined;
      try {
        now = await readBytes(s.target);
      } catch (e) {
        return ioFailure(s.snapshot.shown, e, written);
      }
      if (!sameBytes(now, s.snapshot.bytes)) return conflict(s.snapshot.shown);
    }
    for (const s of staged) {
      try {
        if (!(await install(s))) return conflict(s.snapshot.shown);
      } catch (e) {
        return ioFailure(s.snapshot.shown, e, written);
      }
      written.push(s.snapshot.shown);
    }
    return undefined;
  } finally {
    await Promise.all(staged.map(discardStaged));
  }
}
