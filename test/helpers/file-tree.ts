// Every file under a folder, as the import and record tests compare workspaces byte for byte.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** every file under dir: relative path → bytes */
export function fileTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}
