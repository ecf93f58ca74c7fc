#!/usr/bin/env node
// The `mock` program as installed: runs mock.cjs (the whole program, bundled by scripts/bundle.mjs) through V8's
// code cache (mock.cjs.cache, made at build time), so starting does not parse and compile ~1 MB of JavaScript.
// A missing or stale cache (another Node.js version) is ignored: the program is then compiled as usual.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');
const Module = require('node:module');

const file = join(__dirname, 'mock.cjs');
const cacheFile = file + '.cache';
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
const module_ = { exports: {}, filename: file, id: file, loaded: false };
if (process.env.MOCK_DEBUG_CODE_CACHE === '1') {
  process.stderr.write(
    `code cache: ${cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used'}\n`,
  );
}
// Build time only (scripts/bundle.mjs): save the cache once this run is over, with every function it compiled.
if (process.env.MOCK_BUILD_WRITE_CODE_CACHE === '1')
  process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
script
  .runInThisContext()
  .call(module_.exports, module_.exports, Module.createRequire(file), module_, file, dirname(file));
