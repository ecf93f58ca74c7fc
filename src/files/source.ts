// FileSource: the port through which file routing and responses read the disk.
// node/file-cache/fs-source.ts implements it over node:fs/promises (with caching); memorySource() serves tests.
import type { Later } from '../shared/value-or-promise.js';

// remember() hands back a Later: implementations of the port (node/) make their Soons from here
export { Soon, type Later } from '../shared/value-or-promise.js';

export interface FileStat {
  readonly kind: 'file' | 'dir' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
}

export interface LargeFileStart {
  readonly size: number;
  /** the file's first bytes */
  readonly head: Uint8Array;
}

export interface DirEntry {
  readonly name: string;
  readonly kind: 'file' | 'dir' | 'other';
}

export interface FileSource {
  /** follows symlinks; undefined when missing */
  stat(path: string): Promise<FileStat | undefined>;
  /** whole file bytes; undefined when missing or not a file. Unchanged files return cached bytes. */
  read(path: string): Promise<Uint8Array | undefined>;
  /**
   * Optional: when `path` is a file of more than `above` bytes, its size and its first `headBytes` bytes (read now,
   * never cached); undefined for any other path. It costs no stat of its own right after a lookup of the path. A
   * source that has it lets large files be sent from disk as they are read (files/file-body.ts largeFile) rather
   * than read whole.
   */
  largeFile?(path: string, above: number, headBytes: number): Promise<LargeFileStart | undefined>;
  /** directory entries; undefined when not a directory */
  list(dir: string): Promise<readonly DirEntry[] | undefined>;
  /** canonical path (symlinks resolved); undefined when missing */
  realpath(path: string): Promise<string | undefined>;
  /**
   * Optional: `compute` run over this source, or its earlier result for the same `scope` object and `key` when the
   * source can vouch that nothing `compute` read has changed since (and the request is current). `compute` must be
   * a pure function of the scope, the key and what it reads through the source it is given. (Results are held
   * per scope object, weakly: they go with it.)
   */
  remember?<T>(scope: object, key: string, compute: (files: FileSource) => Promise<T>): Later<T>;
}
