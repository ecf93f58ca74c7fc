// What file routing never serves: a path under the fallback directory matched by `service.deny` (by default
// secrets, keys and VCS metadata; docs/files-and-rules.md, "Never served"). A denied file answers exactly
// like a missing one (404); the why names the pattern. Compiled once per workspace.
import picomatch from 'picomatch';
import type { DenyPolicy } from '../model/workspace.js';
import { isInside } from './paths.js';
import type { FileSource } from './source.js';

/** (the fallback directory, a file under it; both absolute) → the pattern that denies the file, if any. */
export type DenyCheck = (root: string, file: string) => string | undefined;

/** `file` relative to `root`, '/'-separated; a file outside root keeps its whole path (less the leading separator). */
export function relativeTo(root: string, file: string): string {
  const rest = file !== root && isInside(file, root) ? file.slice(root.length) : file;
  return rest.replace(/\\/g, '/').replace(/^\/+/, '');
}

const compiled = new WeakMap<DenyPolicy, DenyCheck>();

/** Patterns without a `/` match a file name at any depth, as in .gitignore; dotfiles count. */
export function denyCheck(policy: DenyPolicy): DenyCheck {
  let check = compiled.get(policy);
  if (check !== undefined) return check;
  // picomatch's `basename` applies to slash-less patterns only; given to the others, it makes them never match
  const matchers = policy.patterns.map(
    (p) => [p, picomatch(p, { dot: true, nocase: true, basename: !p.includes('/') })] as const,
  );
  const files = new Set(policy.files);
  check = (root, file) => {
    if (files.has(file)) return 'the TLS files this config names';
    const relative = relativeTo(root, file);
    for (const [pattern, isMatch] of matchers) if (isMatch(relative)) return pattern;
    return undefined;
  };
  compiled.set(policy, check);
  return check;
}

/**
 * The pattern that keeps a file a request named (a rendered `file_path`) from being read, or undefined. Checked
 * against each root (a pattern with a `/` is relative to one: the fallback directory, the folder the path is
 * confined to), for the path as found and for its canonical path, so a symlink to a denied file is denied too.
 */
export async function deniedFile(
  policy: DenyPolicy,
  roots: readonly string[],
  file: string,
  files: FileSource,
): Promise<string | undefined> {
  const check = denyCheck(policy);
  for (const root of roots) {
    const pattern = check(root, file);
    if (pattern !== undefined) return pattern;
  }
  const real = await files.realpath(file);
  if (real === undefined || real === file) return undefined;
  for (const root of roots) {
    const realRoot = (await files.realpath(root)) ?? root;
    const pattern = check(realRoot, real);
    if (pattern !== undefined) return pattern;
  }
  return undefined;
}
