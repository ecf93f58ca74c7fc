// A FileSource that shows one planned file (and the directories it needs) on top of another source, so file
// routing's own resolver can say whether a URL would be served from that file before anything is written.
// Pure: it reads only through the source it wraps.
import { joinPaths } from '../files/paths.js';
import type { DirEntry, FileSource, FileStat } from '../files/source.js';

/** `root` + `names` as the resolver builds paths; `bytes` the planned content. */
export function withPlannedFile(
  base: FileSource,
  root: string,
  names: readonly string[],
  bytes: Uint8Array,
): FileSource {
  const file = joinPaths(root, names);
  /** path → index: root is 0, root/names[0] is 1, …, the file is names.length */
  const chain = new Map<string, number>();
  for (let i = 0; i <= names.length; i++) chain.set(joinPaths(root, names, i), i);
  const fileStat: FileStat = { kind: 'file', size: bytes.byteLength, mtimeMs: 0 };
  const dirStat: FileStat = { kind: 'dir', size: 0, mtimeMs: 0 };

  const stat = async (path: string): Promise<FileStat | undefined> => {
    const real = await base.stat(path);
    const at = chain.get(path);
    if (real !== undefined || at === undefined) return real;
    return at === names.length ? fileStat : dirStat;
  };
  return {
    stat,
    async read(path) {
      if (path === file && (await base.stat(path)) === undefined) return bytes;
      return base.read(path);
    },
    async list(dir) {
      const at = chain.get(dir);
      const real = await base.list(dir);
      if (at === undefined || at === names.length) return real;
      if (real === undefined && (await base.stat(dir)) !== undefined) return undefined; // a file: not a directory
      const child = names[at]!;
      const entries: readonly DirEntry[] = real ?? [];
      if (entries.some((e) => e.name === child)) return entries;
      return [...entries, { name: child, kind: at + 1 === names.length ? 'file' : 'dir' }];
    },
    async realpath(path) {
      const real = await base.realpath(path);
      const at = chain.get(path);
      if (real !== undefined || at === undefined) return real;
      // the deepest part that exists, resolved, then the planned names below it
      for (let i = at - 1; i >= 0; i--) {
        const prefix = await base.realpath(joinPaths(root, names, i));
        if (prefix !== undefined) return joinPaths(prefix, names.slice(i, at));
      }
      return undefined;
    },
  };
}
