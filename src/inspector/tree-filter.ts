// The `file_tree_view` filters (docs/reference/mock-toml.md) as one predicate over a directory entry; pure (no disk access: the
// `.gitignore` texts are read by file-tree.ts and passed in).
//
// Order: show_hidden (dotfiles), builtin_excludes (BUILTIN_EXCLUDES by exact name), extra_excludes (picomatch
// globs on the bare name; a trailing `/` limits a glob to directories), include (an allow-list for files only:
// directories are always kept so the tree can be walked), respect_gitignore (each `.gitignore` from the outermost
// folder inward; a later, deeper file's `!pattern` re-includes, as git does).
import { relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import type { Config } from '../model/config.js';

/** The built-in exclusion list (`file_tree_view.builtin_excludes`): build output and tool folders. */
export const BUILTIN_EXCLUDES = [
  'target',
  'node_modules',
  'dist',
  'build',
  'out',
  '__pycache__',
  '.venv',
  'vendor',
  '.cargo',
  '.gradle',
  '.idea',
  '.vscode',
] as const;

/** One `.gitignore` file: its folder and its text. */
export interface GitignoreLayer {
  readonly base: string;
  readonly text: string;
}

/** `keep(name, isDir, absPath)`: whether the entry is listed. */
export type TreeFilter = (name: string, isDir: boolean, absPath: string) => boolean;

type Matcher = (name: string) => boolean;

export function compileTreeFilter(view: Config['fileTreeView'], layers: readonly GitignoreLayer[] = []): TreeFilter {
  const builtin = new Set<string>(view.builtinExcludes ? BUILTIN_EXCLUDES : []);
  const excludeAny: Matcher[] = [];
  const excludeDirs: Matcher[] = [];
  for (const glob of view.extraExcludes) {
    if (glob.endsWith('/')) excludeDirs.push(picomatch(glob.replace(/\/+$/, ''), { dot: true }));
    else excludeAny.push(picomatch(glob, { dot: true }));
  }
  const include = view.include.map((g) => picomatch(g, { dot: true }));
  const gitignores: { base: string; ig: Ignore }[] = layers.map((l) => ({ base: l.base, ig: ignore().add(l.text) }));

  return (name, isDir, absPath) => {
    if (!view.showHidden && name.startsWith('.')) return false;
    if (builtin.has(name)) return false;
    if (excludeAny.some((m) => m(name))) return false;
    if (isDir && excludeDirs.some((m) => m(name))) return false;
    if (!isDir && include.length > 0 && !include.some((m) => m(name))) return false;
    if (gitignores.length > 0 && gitignored(gitignores, absPath, isDir)) return false;
    return true;
  };
}

function gitignored(layers: readonly { base: string; ig: Ignore }[], absPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of layers) {
    const rel = relative(base, absPath).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    const r = ig.test(isDir ? rel + '/' : rel);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}
