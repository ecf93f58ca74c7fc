#!/usr/bin/env node
// The program as shipped: dist/src/main.js (compiled by tsc) and everything it imports, dependencies included,
// bundled by esbuild into dist/bin/main.js plus one chunk per lazily imported part (the server, the
// middleware interpreter, TLS, the --init prompts). Node's ES module loader opens, reads and compiles every
// module file separately: ~150 files cost a cold start ~40 % more than a handful, and every module record
// stays in memory. The bundle is what `bin.mock` runs and what the end-to-end tests spawn.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/bin`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/main.js'],
  outdir: 'dist/bin',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies bundled into an ES module still call require() for Node's built-ins
  banner: { js: "import { createRequire as __mockRequire } from 'node:module'; const require = __mockRequire(import.meta.url);" },
  logLevel: 'warning',
});
