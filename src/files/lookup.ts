// File-based routing: decoded request segments → one file under the fallback directory, or nothing (404).
//
// Owns: file resolution (docs/files-and-rules.md#files: exact name, then `.json`/`.json5`/`.csv` for an extension-less name, then a
// case-insensitive scan with our own Unicode folding at every segment; a directory serves its index) and
// confinement (the file's canonical path must lie inside the canonical root). Also the looser resolution of a
// file named by a rule or a script.
// Leaves out: percent-decoding and dot-segment removal (dispatch/snapshot.ts does both before we are called),
// reading and converting bodies (serve.ts), and all disk access (through the FileSource port).
//
// Determinism where the disk gives none: every pass tries exact-case names before folded ones, and folded
// matches that differ only in case are tried in sorted (code-unit) order, never in readdir order.
// This runs on every request, so the exact-path case is kept to one stat and few allocations.
import { foldCase } from './fold.js';
import { extensionOf, isInside, isUsableSegment, joinPath, joinPaths } from './paths.js';
import type { DirEntry, FileSource, FileStat } from './source.js';

/** Tried, in this order, after the bare name when the last segment has no extension. */
export const EXTENSION_FORMS = ['.json', '.json5', '.csv'] as const;
/** A directory serves the first of these that is a file. */
export const INDEX_FILES = ['index.json', 'index.json5', 'index.csv', 'index.html'] as const;

/** A directory was found but has no index: stop looking (404). */
const NO_INDEX = { noIndex: true } as const;
/** A file path; NO_INDEX; or undefined (nothing here, keep looking). */
type Probe = string | typeof NO_INDEX | undefined;

/** Resolve decoded request segments under the fallback root: absolute file path, or undefined (404). */
export async function resolveFallbackFile(
  root: string,
  segments: readonly string[],
  files: FileSource,
): Promise<string | undefined> {
  const segs = usableSegments(segments);
  if (segs === undefined) return undefined;
  // Fast path, inlined: the path as written names a file (one stat).
  const exact = segs.length === 0 ? undefined : joinPaths(root, segs);
  const st = exact === undefined ? undefined : await files.stat(exact);
  const found = st?.kind === 'file' ? exact : await locate(root, segs, files, { st });
  if (typeof found !== 'string') return undefined;
  const real = await files.realpath(found);
  if (real === undefined) return undefined;
  return insideRememberedRoot(real, root, files) || (await isConfined(real, root, files)) ? found : undefined;
}

/**
 * Resolve a file named by a rule's `respond.file_path` or a script's returned path (absolute): the exact file,
 * else `.json`/`.json5`/`.csv` appended, else (a directory) its index. With `confineTo`, the file's canonical path
 * must lie inside that directory's canonical path. Case is not folded: the author wrote the name.
 */
export async function resolveNamedFile(
  path: string,
  files: FileSource,
  confineTo?: string,
): Promise<string | undefined> {
  const found = await probeNamed(path, files);
  if (typeof found !== 'string') return undefined;
  if (confineTo === undefined) return found;
  const real = await files.realpath(found);
  if (real === undefined) return undefined;
  return insideRememberedRoot(real, confineTo, files) || (await isConfined(real, confineTo, files)) ? found : undefined;
}

/** The segments without empty ones (`//a`, a trailing `/`), or undefined when one cannot name an entry. */
function usableSegments(segments: readonly string[]): readonly string[] | undefined {
  let empty = 0;
  for (const seg of segments) {
    if (seg === '') empty++;
    else if (!isUsableSegment(seg)) return undefined;
  }
  return empty === 0 ? segments : segments.filter((s) => s !== '');
}

async function probeNamed(path: string, files: FileSource): Promise<Probe> {
  const st = await files.stat(path);
  if (st?.kind === 'file') return path;
  for (const form of EXTENSION_FORMS) {
    if ((await files.stat(path + form))?.kind === 'file') return path + form;
  }
  return st?.kind === 'dir' ? indexOf(path, files) : undefined;
}

// Confinement compares against the root's canonical path. That path is remembered per FileSource (a WeakMap,
// dropped with the source) so a request does not stat the root: the remembered value is used when the file is
// inside it, and re-derived when the file is not (the root may have been re-pointed), before refusing. A file is
// therefore never served from outside both the current root and the root as it was before a re-pointing.
const rootHints = new WeakMap<FileSource, Map<string, string>>();

/** `real` lies strictly inside the root's remembered canonical path. */
function insideRememberedRoot(real: string, root: string, files: FileSource): boolean {
  const hint = rootHints.get(files)?.get(root);
  return hint !== undefined && real !== hint && isInside(real, hint);
}

/** A file's canonical path `real` lies strictly inside the root's canonical path (symlinks resolved on both sides). */
async function isConfined(real: string, root: string, files: FileSource): Promise<boolean> {
  let hints = rootHints.get(files);
  const hint = hints?.get(root);
  if (hint !== undefined && real !== hint && isInside(real, hint)) return true;
  const rootReal = await files.realpath(root);
  if (hints === undefined) rootHints.set(files, (hints = new Map<string, string>()));
  if (rootReal === undefined) {
    hints.delete(root);
    return false;
  }
  hints.set(root, rootReal);
  return real !== rootReal && isInside(real, rootReal);
}

/** The stat of a path the caller already made (undefined inside: the path is missing). */
interface KnownStat {
  readonly st: FileStat | undefined;
}

/** `exact`: the stat of the path as written, already made by the caller (a second stat would cost a syscall). */
async function locate(root: string, segs: readonly string[], files: FileSource, exact: KnownStat): Promise<Probe> {
  const n = segs.length;
  if (n === 0) return indexOf(root, files);
  const last = segs[n - 1]!;
  const exactParent = n === 1 ? root : joinPaths(root, segs, n - 1);
  const first = await probeExact(exactParent, last, files, exact);
  if (first !== undefined) return first;
  const dir = n === 1 ? root : await walk(root, exactParent, segs, files);
  if (dir === undefined) return undefined;
  if (dir !== exactParent) {
    const again = await probeExact(dir, last, files);
    if (again !== undefined) return again;
  }
  return probeFolded(dir, last, files);
}

/** Exact-case pass in one directory: the bare file, the extension forms, then the bare name as a directory. */
async function probeExact(dir: string, name: string, files: FileSource, known?: KnownStat): Promise<Probe> {
  const bare = joinPath(dir, name);
  const st = known !== undefined ? known.st : await files.stat(bare);
  if (st?.kind === 'file') return bare;
  if (extensionOf(name) === undefined) {
    for (const form of EXTENSION_FORMS) {
      const path = bare + form;
      if ((await files.stat(path))?.kind === 'file') return path;
    }
  }
  return st?.kind === 'dir' ? indexOf(bare, files) : undefined;
}

/** Case-insensitive pass in one directory, same order as the exact pass. */
async function probeFolded(dir: string, name: string, files: FileSource): Promise<Probe> {
  const file = await foldedMatch(dir, name, 'file', files);
  if (file !== undefined) return file;
  if (extensionOf(name) === undefined) {
    for (const form of EXTENSION_FORMS) {
      const path = await foldedMatch(dir, name + form, 'file', files);
      if (path !== undefined) return path;
    }
  }
  const sub = await foldedMatch(dir, name, 'dir', files);
  return sub === undefined ? undefined : indexOf(sub, files);
}

/** Resolve the intermediate segments to a directory: exact name first, else a folded match, at each step. */
async function walk(
  root: string,
  exactParent: string,
  segs: readonly string[],
  files: FileSource,
): Promise<string | undefined> {
  if ((await files.stat(exactParent))?.kind === 'dir') return exactParent;
  let dir = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const exact = joinPath(dir, segs[i]!);
    if ((await files.stat(exact))?.kind === 'dir') {
      dir = exact;
      continue;
    }
    const folded = await foldedMatch(dir, segs[i]!, 'dir', files);
    if (folded === undefined) return undefined;
    dir = folded;
  }
  return dir;
}

async function indexOf(dir: string, files: FileSource): Promise<Probe> {
  for (const name of INDEX_FILES) {
    const path = joinPath(dir, name);
    if ((await files.stat(path))?.kind === 'file') return path;
  }
  return NO_INDEX;
}

/** The first entry of `dir` whose fold equals the fold of `name` and is of the wanted kind, in sorted order. */
async function foldedMatch(
  dir: string,
  name: string,
  want: 'file' | 'dir',
  files: FileSource,
): Promise<string | undefined> {
  const entries = await files.list(dir);
  if (entries === undefined) return undefined;
  for (const entry of foldIndex(entries).get(foldCase(name)) ?? []) {
    if (entry === name) continue; // the exact-case name was already tried
    const path = joinPath(dir, entry);
    if ((await files.stat(path))?.kind === want) return path;
  }
  return undefined;
}

// A FileSource returns the same listing array while a directory is unchanged, so the folded index of a
// listing is built once per listing and dropped with it.
const foldIndexes = new WeakMap<readonly DirEntry[], ReadonlyMap<string, readonly string[]>>();

function foldIndex(entries: readonly DirEntry[]): ReadonlyMap<string, readonly string[]> {
  const cached = foldIndexes.get(entries);
  if (cached !== undefined) return cached;
  const index = new Map<string, string[]>();
  for (const name of entries.map((e) => e.name).sort()) {
    const key = foldCase(name);
    const names = index.get(key);
    if (names === undefined) index.set(key, [name]);
    else names.push(name);
  }
  foldIndexes.set(entries, index);
  return index;
}
