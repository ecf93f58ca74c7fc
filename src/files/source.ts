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
   * Optional: the file's first `bytes` bytes (fewer when it is shorter), read now and not cached; undefined when
   * missing or not a file. A source that has it lets large files be served from disk as they are sent
   * (files/file-body.ts largeFile) rather than read whole.
   */
  head?(path: string, bytes: number): Promise<Uint8Array | undefined>;
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
