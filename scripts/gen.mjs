#!/usr/bin/env node
// `npm run gen`: writes the editor schemas (schema/*.json) and the reference pages (docs/reference/*.md) from
// the compiled program's own tables (dist/src/cli/reference.js). The output is committed; test/generated.test.ts
// fails when it differs from a fresh generation.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { generatedFiles } = await import(new URL('../dist/src/cli/reference.js', import.meta.url).href);
let changed = 0;
for (const f of generatedFiles()) {
  const abs = join(root, f.path);
  let before;
  try {
    before = readFileSync(abs, 'utf8');
  } catch {
    before = undefined;
  }
  if (before === f.text) continue;
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, f.text);
  changed++;
  console.log(`wrote ${f.path}`);
}
console.log(changed === 0 ? 'gen: every generated file is up to date' : `gen: ${changed} file(s) written`);
