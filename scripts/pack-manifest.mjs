#!/usr/bin/env node
// `prepack` / `postpack`: the packed package.json carries no `prepare` script. `prepare` builds a checkout; an
// installed copy is built already, and npm warns about every dependency with an install script
// ("install scripts not yet covered by allowScripts"), `prepare` included. So `strip` (prepack) builds when needed,
// saves package.json byte for byte and writes it without `scripts.prepare`; `restore` (postpack) puts the saved
// file back. A pack that stopped half way is repaired by the next `strip`, `restore` or `prepare`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
export const SAVED = join(root, 'dist', 'package.json.prepack');

export function restore() {
  if (existsSync(SAVED)) renameSync(SAVED, manifest);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2];
  restore();
  if (what === 'strip') {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'prepare.mjs')], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
    const text = readFileSync(manifest, 'utf8');
    const pkg = JSON.parse(text);
    delete pkg.scripts.prepare;
    writeFileSync(SAVED, text);
    // the saved copy keeps the original's times: prepare.mjs would take a newer package.json for a source change
    const { atime, mtime } = statSync(manifest);
    utimesSync(SAVED, atime, mtime);
    writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
  } else if (what !== 'restore') {
    process.stderr.write('usage: pack-manifest.mjs strip|restore\n');
    process.exit(2);
  }
}
