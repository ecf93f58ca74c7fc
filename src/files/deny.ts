// What file routing never serves: a path under the fallback directory matched by `service.deny` (by default
// secrets, keys and VCS metadata; docs/files-and-rules.md, "Never served"). A denied file answers exactly
// like a missing one (404); the why names the pattern. Compiled once per workspace.
import picomatch from 'picomatch';
import type { DenyPolicy } from '../model/workspace.js';

/** (the fallback directory, a file under it; both absolute) → the pattern that denies the file, if any. */
export type DenyCheck = (root: string, file: string) => string | undefined;

/** `file` relative to `root`, '/'-separated (file is known to lie under root). */
export function relativeTo(root: string, file: string): string {
  const rest = file.startsWith(root) ? file.slice(root.length) : file;
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
