// memorySource: a FileSource held in memory, for unit tests of lookup and serving.
// POSIX absolute paths only. Directories are implied by the files beneath them; a key ending in '/' declares an
// empty directory. Symlinks map a link path to its target (absolute, or relative to the link's directory) and
// may point at files, directories or nothing. read() returns the same Uint8Array object until the file is
// written again, as the real source does while a file is unchanged.
import type { DirEntry, FileSource, FileStat } from './source.js';

export interface MemorySource extends FileSource {
  /** create or replace a file (its parents become directories); a new bytes object and a new mtime */
  write(path: string, content: string | Uint8Array): void;
  /** delete a file, an empty-directory marker, or a symlink */
  remove(path: string): void;
  /** create or re-point a symlink */
  link(path: string, target: string): void;
  /** how many times each method was called, for tests of caching callers */
  readonly calls: { stat: number; read: number; list: number; realpath: number };
}

const MAX_LINKS = 40;
const encoder = new TextEncoder();

interface FileNode {
  readonly bytes: Uint8Array;
  readonly mtimeMs: number;
}

export function memorySource(
  files: Readonly<Record<string, string | Uint8Array>>,
  symlinks: Readonly<Record<string, string>> = {},
): MemorySource {
  const fileNodes = new Map<string, FileNode>();
  const emptyDirs = new Set<string>();
  const links = new Map<string, string>();
  let clock = 1_000;
  const calls = { stat: 0, read: 0, list: 0, realpath: 0 };

  const write = (path: string, content: string | Uint8Array): void => {
    const bytes = typeof content === 'string' ? encoder.encode(content) : content;
    fileNodes.set(normalise(path), { bytes, mtimeMs: clock++ });
  };
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) emptyDirs.add(normalise(path));
    else write(path, content);
  }
  for (const [link, target] of Object.entries(symlinks)) links.set(normalise(link), target);

  const isDir = (path: string): boolean => {
    if (path === '/' || emptyDirs.has(path)) return true;
    const prefix = path + '/';
    for (const key of [...fileNodes.keys(), ...emptyDirs, ...links.keys()]) if (key.startsWith(prefix)) return true;
    return false;
  };

  /** canonical path with every symlink resolved, or undefined when a component is missing */
  const resolve = (path: string): string | undefined => {
    let pending = normalise(path)
      .split('/')
      .filter((p) => p !== '');
    let current = '';
    for (let hops = 0; pending.length > 0; ) {
      const name = pending.shift()!;
      if (name === '..') {
        current = current.slice(0, current.lastIndexOf('/'));
        continue;
      }
      const next = current + '/' + name;
      const target = links.get(next);
      if (target !== undefined) {
        if (++hops > MAX_LINKS) return undefined;
        const abs = target.startsWith('/') ? target : (current || '') + '/' + target;
        pending = [
          ...normalise(abs)
            .split('/')
            .filter((p) => p !== ''),
          ...pending,
        ];
        current = '';
        continue;
      }
      if (!fileNodes.has(next) && !isDir(next)) return undefined;
      if (pending.length > 0 && fileNodes.has(next)) return undefined; // a file used as a directory
      current = next;
    }
    return current === '' ? '/' : current;
  };

  const kindAt = (canonical: string): FileStat['kind'] | undefined =>
    fileNodes.has(canonical) ? 'file' : isDir(canonical) ? 'dir' : undefined;

  return {
    calls,
    write,
    link(path, target) {
      links.set(normalise(path), target);
    },
    remove(path) {
      const p = normalise(path);
      fileNodes.delete(p);
      emptyDirs.delete(p);
      links.delete(p);
    },
    async stat(path) {
      calls.stat++;
      const canonical = resolve(path);
      if (canonical === undefined) return undefined;
      const node = fileNodes.get(canonical);
      if (node !== undefined) return { kind: 'file', size: node.bytes.byteLength, mtimeMs: node.mtimeMs };
      return isDir(canonical) ? { kind: 'dir', size: 0, mtimeMs: 0 } : undefined;
    },
    async read(path) {
      calls.read++;
      const canonical = resolve(path);
      return canonical === undefined ? undefined : fileNodes.get(canonical)?.bytes;
    },
    async list(dir) {
      calls.list++;
      const canonical = resolve(dir);
      if (canonical === undefined || !isDir(canonical)) return undefined;
      const prefix = canonical === '/' ? '/' : canonical + '/';
      const names = new Set<string>();
      for (const key of [...fileNodes.keys(), ...emptyDirs, ...links.keys()]) {
        if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split('/')[0]!);
      }
      const entries: DirEntry[] = [];
      for (const name of names) {
        if (name === '') continue;
        const target = resolve(prefix + name);
        entries.push({ name, kind: (target === undefined ? undefined : kindAt(target)) ?? 'other' });
      }
      return entries;
    },
    async realpath(path) {
      calls.realpath++;
      return resolve(path);
    },
  };
}

function normalise(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.replace(/\/{2,}/g, '/');
}
