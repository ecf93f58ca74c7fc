#!/usr/bin/env node
// `prepare`: what `npm install` runs in a checkout, and what `npx mock` runs again each time it links the checkout
// into npx's cache. It builds dist/ only when it is missing or older than the sources it is made from, and says
// so first (a build takes half a minute on a small machine); a built checkout starts `npx mock` at once.
// A packed or installed copy has no src/ (package.json `files`): nothing to build, nothing done.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'bin', 'main.cjs');
const SOURCES = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.lib.json'];

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

if (!existsSync(join(root, 'src'))) process.exit(0);
// a pack that stopped before postpack left package.json without this script: put it back
const saved = join(root, 'dist', 'package.json.prepack');
if (existsSync(saved)) renameSync(saved, join(root, 'package.json'));
const why = !existsSync(built)
  ? 'dist/ is missing'
  : SOURCES.some((s) => newest(join(root, s)) > statSync(built).mtimeMs)
    ? 'the sources changed since the last build'
    : undefined;
if (why === undefined) process.exit(0);
process.stderr.write(`mock: building dist/ (${why}); this takes a little while, once\n`);
const npm = process.env['npm_execpath'];
const r =
  npm !== undefined
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);
