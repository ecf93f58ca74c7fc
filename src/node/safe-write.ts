// fsync of a directory, so a rename or link made in it survives a crash. Shared by `set rule`'s atomic commit
// (config/edit/io/commit.ts) and record mode's confined writes (server/record/confined-write.ts).
import { open } from 'node:fs/promises';

/** Syncs `dir`; where the platform cannot fsync a directory, does nothing (the rename is still atomic). */
export async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // not every platform can fsync a directory
  }
}
