// The file I/O of `mock --init` and of `mock validate`'s default config: the commands decide what to write
// and say; this is where the disk is asked (docs/architecture.md, "a feature's I/O half lives with the feature").
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ROOT_CONFIG_FILE } from '../model/config.js';

/** Is there a ./mock.toml in `cwd`? */
export function rootConfigExists(cwd: string): boolean {
  return existsSync(resolve(cwd, ROOT_CONFIG_FILE));
}

/** Create the folder (and its parents) unless it exists; true when it was created. Throws the system error. */
export async function ensureFolder(abs: string): Promise<boolean> {
  if (existsSync(abs)) return false;
  await mkdir(abs, { recursive: true });
  return true;
}

/** Write a file that must not exist yet (fails with EEXIST, never overwrites). */
export async function writeNewFile(abs: string, text: string): Promise<void> {
  await writeFile(abs, text, { flag: 'wx' });
}
