// Writing a recorded body under the fallback directory, through the same confinement serving applies: every
// name a usable segment (no `..`, no separator, no NUL), every directory on the way — existing or made here —
// canonically inside the directory's canonical path (an outward symlink is refused), and nothing overwritten:
// node/safe-write.ts stages the bytes beside the name and links them there, which fails if anything is there
// already (without hard links, an exclusive copy).
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { writeSafely } from '../../node/safe-write.js';
import { isUsableSegment } from '../../record/plan.js';

export type WriteOutcome =
  /** `names` as written (the last may have a `-2`… suffix when `unique`); `abs` the file's path */
  | { readonly kind: 'written'; readonly names: readonly string[]; readonly abs: string }
  | { readonly kind: 'refused'; readonly reason: 'outside' | 'exists' | 'unsafe_path' }
  | { readonly kind: 'failed'; readonly message: string };

export interface ConfinedWrite {
  /** absolute; must exist */
  readonly root: string;
  readonly names: readonly string[];
  readonly bytes: Uint8Array;
  /** a taken name is not a refusal: the next free `<stem>-<n>.<ext>` is used */
  readonly unique: boolean;
  /** decide the name and check the way, but create nothing */
  readonly dryRun: boolean;
}

const MAX_SUFFIX = 1000;

export async function writeConfined(w: ConfinedWrite): Promise<WriteOutcome> {
  if (w.names.length === 0 || !w.names.every((n) => n !== '' && isUsableSegment(n)))
    return { kind: 'refused', reason: 'unsafe_path' };
  try {
    const rootReal = await realpath(w.root);
    let dir = rootReal;
    let missing = false;
    for (const name of w.names.slice(0, -1)) {
      const next = join(dir, name);
      if (!missing && (await kindOf(next)) === undefined) {
        if (w.dryRun) missing = true;
        else await mkdir(next).catch((e: unknown) => (codeOf(e) === 'EEXIST' ? undefined : Promise.reject(e)));
      }
      if (missing) {
        dir = next;
        continue;
      }
      const real = await realpath(next);
      if (!isStrictlyInside(real, rootReal)) return { kind: 'refused', reason: 'outside' };
      if ((await kindOf(real)) !== 'dir') return { kind: 'refused', reason: 'exists' };
      dir = real;
    }
    const last = w.names[w.names.length - 1]!;
    for (let n = 1; n <= (w.unique ? MAX_SUFFIX : 1); n++) {
      const name = n === 1 ? last : suffixed(last, n);
      const abs = join(dir, name);
      const names = [...w.names.slice(0, -1), name];
      if (w.dryRun || missing) {
        if (missing || (await kindOf(abs)) === undefined) return { kind: 'written', names, abs };
        continue;
      }
      if (await writeSafely(abs, w.bytes, { placement: 'create', noHardLinks: 'exclusive-copy' }))
        return { kind: 'written', names, abs };
    }
    return { kind: 'refused', reason: 'exists' };
  } catch (e) {
    return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
}

function isStrictlyInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

/** `users.json` → `users-2.json`; `index` → `index-2`. */
function suffixed(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? `${name}-${n}` : `${name.slice(0, dot)}-${n}${name.slice(dot)}`;
}

async function kindOf(path: string): Promise<'file' | 'dir' | 'other' | undefined> {
  try {
    const st = await lstat(path);
    if (st.isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      if (target === undefined) return 'other'; // a dangling link is still a taken name
      return kindOf(target);
    }
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
  } catch (e) {
    if (codeOf(e) === 'ENOENT') return undefined;
    throw e;
  }
}

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}
