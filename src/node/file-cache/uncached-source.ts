// The file source with the cache off: every call asks the disk. Record mode plans with it (each plan must see what
// was written a moment ago, which the serving cache is not tuned for), and the cache's agreement test
// (cache-agreement.property.test.ts) holds the cached source to its answers.
import { readHead } from './read-head.js';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import type { DirEntry, FileSource, FileStat } from '../../files/source.js';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'ENAMETOOLONG']);

async function orMissing<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
    if (MISSING.has(code)) return undefined;
    throw e;
  }
}

export function uncachedSource(): FileSource {
  return {
    async stat(path): Promise<FileStat | undefined> {
      const st = await orMissing(stat(path));
      if (st === undefined) return undefined;
      return { kind: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other', size: st.size, mtimeMs: st.mtimeMs };
    },
    async read(path) {
      return orMissing(readFile(path));
    },
    async largeFile(path, above, headBytes) {
      const st = await orMissing(stat(path));
      if (st === undefined || !st.isFile() || st.size <= above) return undefined;
      const head = await readHead(path, headBytes);
      return head === undefined ? undefined : { size: st.size, head };
    },
    async list(dir): Promise<readonly DirEntry[] | undefined> {
      const entries = await orMissing(readdir(dir, { withFileTypes: true }));
      return entries?.map((e) => ({ name: e.name, kind: e.isFile() ? 'file' : e.isDirectory() ? 'dir' : 'other' }));
    },
    async realpath(path) {
      return orMissing(realpath(path));
    },
  };
}
