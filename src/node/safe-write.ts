// Writing a file so that a reader, or a crash at any moment, sees the old file or the new one, whole. One module
// for every writer: `set rule`'s commit (config/edit/io/commit.ts), the OpenAPI import's new files
// (cli/commands/init-openapi.ts) and record mode's confined writes (server/record/confined-write.ts).
//
// The bytes are staged in a temp file in the target's own folder (so the final step never crosses file systems),
// written and fsynced; then the temp file is put in place and the folder fsynced:
// - `replace`: renamed over the target (which may exist);
// - `create`: hard-linked to the name, which fails if anything is there, so nothing is ever overwritten. Where the
//   file system has no hard links, `noHardLinks` says what to do instead: `check-then-rename` (never a partial
//   file, but a file created between the check and the rename is replaced) or `exclusive-copy` (never
//   overwrites, but a reader may see the copy half done).
// Staging and placing are separate steps so that a writer of several files (set rule) can stage them all, check
// nobody changed the targets meanwhile, and only then place them. A crash can leave a stray
// `.<name>.<pid>.<random>.tmp` beside the target, nothing worse.
//
// `keep` (a file the user owns and the program rewrites: a persisted collection's data file) keeps what the user
// set on the file: its permission bits and owner (where the process may give it), and, when the name is a symbolic
// link, the link itself: the new file replaces the link's target, staged in the target's folder. `removeStaleTemps`
// takes away the temp files a killed writer left beside a target.
//
// `createUnreferenced` is the cheap form for many new files that nothing reads until a later atomic commit names
// them (the OpenAPI import's response files, before its rule sets and config are committed): created exclusively
// at their own name, written and fsynced, no temp file. A crash can leave a partial file there, which nothing
// references; the writer syncs each folder once (syncDir) before its commit.
import { crypto } from '../shared/lazy-crypto.js';
import {
  closeSync,
  constants,
  fsyncSync,
  openSync,
  readdirSync,
  realpathSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { chmod, copyFile, link, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Mode of files created here (before the umask), unless the writer gives the old file's. */
export const NEW_FILE_MODE = 0o644;

export interface StagedFile {
  /** the path the file goes to */
  readonly target: string;
  readonly temp: string;
}

export type Placement = 'replace' | 'create';
export type NoHardLinks = 'check-then-rename' | 'exclusive-copy';

/** The owner a staged file is given (uid and gid), when it differs from the process's. */
export interface Owner {
  readonly uid: number;
  readonly gid: number;
}

/**
 * Writes `data` to a temp file beside `target` and fsyncs it; `mode`: its permission bits (applied despite the
 * umask); `owner`: its owner, given where the process may (else it stays the process's).
 */
export async function stageFile(
  target: string,
  data: string | Uint8Array,
  mode?: number,
  owner?: Owner,
): Promise<StagedFile> {
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`,
  );
  const fh = await open(temp, 'wx', mode ?? NEW_FILE_MODE);
  try {
    try {
      await fh.writeFile(data);
      if (owner !== undefined) await fh.chown(owner.uid, owner.gid).catch(() => undefined);
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (mode !== undefined) await chmod(temp, mode);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
  return { target, temp };
}

/** Puts a staged file in place and fsyncs its folder; false when `create` found the name taken. Leaves the temp file (discardStaged). */
export async function placeStaged(
  s: StagedFile,
  placement: Placement,
  noHardLinks: NoHardLinks = 'check-then-rename',
): Promise<boolean> {
  if (placement === 'replace') await rename(s.temp, s.target);
  else {
    try {
      await link(s.temp, s.target);
    } catch (e) {
      const code = codeOf(e);
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
      if (noHardLinks === 'exclusive-copy') {
        try {
          await copyFile(s.temp, s.target, constants.COPYFILE_EXCL);
        } catch (e2) {
          if (codeOf(e2) === 'EEXIST') return false;
          throw e2;
        }
      } else {
        if (await exists(s.target)) return false;
        await rename(s.temp, s.target);
      }
    }
  }
  await syncDir(dirname(s.target));
  return true;
}

/** Removes a staged file's temp file, if it is still there. */
export async function discardStaged(s: StagedFile): Promise<void> {
  await unlink(s.temp).catch(() => undefined);
}

/**
 * Stage, place, discard: one file written safely. false when `create` found the name taken. `keep` (with
 * `replace`): the existing file's mode and owner, and a symbolic link stays one (its target is replaced).
 */
export async function writeSafely(
  target: string,
  data: string | Uint8Array,
  o: {
    readonly placement: Placement;
    readonly mode?: number;
    readonly noHardLinks?: NoHardLinks;
    readonly keep?: boolean;
  },
): Promise<boolean> {
  let path = target;
  let mode = o.mode;
  let owner: Owner | undefined;
  if (o.keep === true) {
    path = await realTarget(target);
    const old = await stat(path).catch((e: unknown) => {
      if (codeOf(e) === 'ENOENT') return undefined;
      throw e;
    });
    if (old !== undefined) {
      mode ??= old.mode & 0o7777;
      const uid = process.getuid?.();
      const gid = process.getgid?.();
      if (old.uid !== uid || old.gid !== gid) owner = { uid: old.uid, gid: old.gid };
    }
  }
  const staged = await stageFile(path, data, mode, owner);
  try {
    return await placeStaged(staged, o.placement, o.noHardLinks);
  } finally {
    await discardStaged(staged);
  }
}

/** A new file at `target`, never over an existing one (false when the name is taken), written and fsynced. */
export function createUnreferenced(target: string, data: string | Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync(target, 'wx', NEW_FILE_MODE);
  } catch (e) {
    if (codeOf(e) === 'EEXIST') return false;
    throw e;
  }
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(target);
    } catch {
      // already gone
    }
    throw e;
  }
  closeSync(fd);
  return true;
}

/** Syncs `dir`, so a rename or link made in it survives a crash; where the platform cannot fsync a directory, does nothing (the rename is still atomic). */
export async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // not every platform can fsync a directory
  }
}

/** The file a name stands for: the end of its chain of symbolic links (the name itself when nothing is there yet). */
async function realTarget(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return target;
    throw e;
  }
}

/**
 * Removes the temp files stageFile left beside `target` (or beside its link's target) when its writer was killed:
 * those of a process that is gone, and this process's own (call it before this process writes `target`: a
 * restarted container often has the same pid). Returns how many went; a folder it cannot read is left alone.
 */
export function removeStaleTemps(target: string): number {
  let path = target;
  try {
    path = realpathSync(target);
  } catch {
    // not there yet: its own folder
  }
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && alive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
      removed++;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return codeOf(e) === 'EPERM';
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return true;
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw e;
  }
}

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}
