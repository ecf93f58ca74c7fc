// `GET /__mock/api/files?dir=<relative>`: one level of the fallback directory, for the inspector's file tree.
//
// Owns: confining `dir` as the file router does (every segment a usable one — no `..`, no separator, no NUL — and
// the folder's canonical path inside the fallback root's), listing one level without following links (a link is
// listed as `link`), the `file_tree_view` filters (show_hidden, builtin_excludes, extra_excludes,
// include, respect_gitignore), and the bound of MAX_ENTRIES (then `truncated`).
// Leaves out: serving (a filtered-out file is still served at its URL: this is a view only) and the pure filter
// decisions (tree-filter.ts).
import { lstat, opendir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { isInside, isUsableSegment } from '../files/paths.js';
import type { Config } from '../model/config.js';
import { failure, result, type JsonAnswer, type Wire } from './envelope.js';
import type { Route } from './router.js';
import { compileTreeFilter, type GitignoreLayer } from './tree-filter.js';

export const FILES_PATH = '/__mock/api/files';
/** At most this many entries per answer; then `truncated: true`. */
export const MAX_ENTRIES = 5000;

export type EntryKind = 'file' | 'dir' | 'link' | 'other';

export interface FileTreeOptions {
  /** the live fallback directory (absolute) */
  readonly fallbackDir: () => string;
  /** the live config's `file_tree_view` */
  readonly view: () => Config['fileTreeView'];
  /** the mock port's base URL (`http://127.0.0.1:3001`), echoed as `mock_url` so the page can link files */
  readonly mockUrl?: () => string | undefined;
}

const MESSAGES = {
  outside: (dir: string) => `dir \`${dir}\` is outside the fallback directory`,
  missing: (dir: string) => `dir \`${dir}\` does not exist in the fallback directory`,
  notDir: (dir: string) => `dir \`${dir}\` is not a directory`,
  unreadable: (dir: string, why: string) => `cannot list \`${dir}\`: ${why}`,
} as const;

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

/** The route, for the router's table. */
export function fileTreeRoute(options: FileTreeOptions): Route {
  return {
    method: 'GET',
    path: FILES_PATH,
    handle: (ctx) => listFiles(ctx.url.searchParams.get('dir') ?? '', options),
  };
}

/** One level of `dir` (relative to the fallback directory, `/`-separated; '' is the root). */
export async function listFiles(dir: string, options: FileTreeOptions): Promise<JsonAnswer> {
  const segments = dir.split('/').filter((s) => s !== '');
  if (!segments.every(isUsableSegment)) return failure('usage', MESSAGES.outside(dir), undefined, 400);
  const root = options.fallbackDir();
  const abs = join(root, ...segments);
  let real: string;
  let rootReal: string;
  try {
    [rootReal, real] = await Promise.all([realpath(root), realpath(abs)]);
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return failure('usage', MESSAGES.missing(dir), undefined, 404);
    return failure('io', MESSAGES.unreadable(dir, code ?? String(e)));
  }
  if (!isInside(real, rootReal)) return failure('usage', MESSAGES.outside(dir), undefined, 400);
  if (!(await stat(real)).isDirectory()) return failure('usage', MESSAGES.notDir(dir), undefined, 400);

  const view = options.view();
  const layers = view.respectGitignore ? await gitignoreLayers(abs) : [];
  const keep = compileTreeFilter(view, layers);
  const entries: Wire[] = [];
  let truncated = false;
  try {
    const handle = await opendir(abs);
    for await (const d of handle) {
      const kind: EntryKind = d.isSymbolicLink() ? 'link' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
      if (!keep(d.name, kind === 'dir', join(abs, d.name))) continue;
      if (entries.length === MAX_ENTRIES) {
        truncated = true;
        break; // leaving the loop closes the handle
      }
      let size = 0;
      let mtime: string | null = null;
      try {
        const st = await lstat(join(abs, d.name));
        size = st.size;
        mtime = new Date(st.mtimeMs).toISOString();
      } catch {
        // gone meanwhile: listed with what is known
      }
      const url = '/' + [...segments, d.name].map(encodeURIComponent).join('/') + (kind === 'dir' ? '/' : '');
      entries.push({ name: d.name, kind, size: kind === 'dir' ? 0 : size, mtime, url });
    }
  } catch (e) {
    return failure('io', MESSAGES.unreadable(dir, codeOf(e) ?? String(e)));
  }
  entries.sort((a, b) => order(a) - order(b) || compare(name(a), name(b)));
  const mockUrl = options.mockUrl?.();
  return result({
    dir: segments.join('/'),
    entries,
    truncated,
    ...(mockUrl === undefined ? {} : { mock_url: mockUrl }),
  });
}

const name = (w: Wire): string => (w as { name: string }).name;
const order = (w: Wire): number => ((w as { kind: string }).kind === 'dir' ? 0 : 1);
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The `.gitignore` files that apply to `dir`: from `dir` upward to the repository root (the first folder with a
 * `.git`) or the filesystem root, outermost first.
 */
export async function gitignoreLayers(dir: string): Promise<GitignoreLayer[]> {
  const layers: GitignoreLayer[] = [];
  for (let d = dir, i = 0; i < 64; i++) {
    try {
      layers.push({ base: d, text: await readFile(join(d, '.gitignore'), 'utf8') });
    } catch {
      // none here
    }
    const isRepoRoot = await lstat(join(d, '.git')).then(
      () => true,
      () => false,
    );
    const up = dirname(d);
    if (isRepoRoot || up === d) break;
    d = up;
  }
  return layers.reverse();
}

/** `path` relative to `base`, `/`-separated (for gitignore matching). */
export function relativePosix(base: string, path: string): string {
  return relative(base, path).split(sep).join('/');
}
