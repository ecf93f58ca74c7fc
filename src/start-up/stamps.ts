// How a file looked when a load read it, to tell later, without reading it again, whether it changed
// (docs/load-cache.md#what-makes-it-stale): a stamp (kind, size, mtime) for the files a rule set's decoding looked
// at, a signature (size, mtime, ctime, inode) for a rule-set file whose bytes an earlier load hashed.
import { statSync } from 'node:fs';

/** What a path is (symlinks followed). */
export type PathKind = 'file' | 'dir' | 'other' | 'missing';

/** How a file looked: its kind, and for a file or directory its size and mtime (a load cache compares them). */
export type FileStamp = readonly [path: string, kind: PathKind, size: number, mtimeMs: number];

/** A path's stamp, taken on the calling turn (hundreds of them cost less so than through the thread pool). */
export function fileStampSync(abs: string): FileStamp {
  try {
    const s = statSync(abs, { throwIfNoEntry: false });
    if (s !== undefined) return [abs, s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other', s.size, s.mtimeMs];
  } catch {
    // a path stat() cannot look at counts as missing
  }
  return [abs, 'missing', 0, 0];
}

/**
 * What tells a file's bytes apart without reading them: size, modification and change times, inode. Equal
 * signatures mean equal bytes unless the file was written twice within one tick of the file system's clock, which
 * the load cache guards against (docs/load-cache.md#what-makes-it-stale).
 */
export interface FileSignature {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

/** A regular file's signature, or undefined when it is missing or not a file (or stat fails). */
export function fileSignature(abs: string): FileSignature | undefined {
  try {
    const s = statSync(abs, { throwIfNoEntry: false });
    if (s === undefined || !s.isFile()) return undefined;
    return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino };
  } catch {
    return undefined;
  }
}
