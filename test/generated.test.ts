// The generated files (npm run gen) are committed and current; the reference covers every key, operator, flag,
// diagnostic code and error kind; the package ships the schemas.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  GET_FLAGS,
  MATCH_TEST_FLAGS,
  META_FLAGS,
  SERVE_FLAGS,
  SET_RULE_FLAGS,
  VALIDATE_FLAGS,
} from '../src/cli/flags.js';
import { generatedFiles } from '../src/cli/reference.js';
import { keyRows } from '../src/config/schema/markdown.js';
import { rootShape } from '../src/config/shapes/root.js';
import { ruleSetShape } from '../src/config/shapes/rule-set.js';
import { DIAGNOSTIC_CODES } from '../src/model/diagnostic.js';
import { ERROR_KINDS } from '../src/model/errors.js';
import { BODY_OPS, HEADER_OPS, METHODS, URL_PATH_OPS } from '../src/model/operators.js';
import { STRATEGY_NAMES } from '../src/model/strategy.js';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++, dir = dirname(dir)) if (existsSync(join(dir, 'src', 'main.ts'))) return dir;
  throw new Error('package root not found');
}
const ROOT = findRoot();

test('the committed generated files equal a fresh generation (run `npm run gen` after changing a shape, flag or table)', () => {
  const stale: string[] = [];
  for (const f of generatedFiles()) {
    const abs = join(ROOT, f.path);
    const committed = existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
    if (committed !== f.text) stale.push(f.path);
  }
  assert.deepEqual(stale, [], `out of date: ${stale.join(', ')}; run \`npm run gen\` and commit the result`);
});

test('docs/reference names every shape key, operator, method, strategy, flag, diagnostic code and error kind', () => {
  const dir = join(ROOT, 'docs', 'reference');
  const text = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const missing: string[] = [];
  const need = (word: string): void => {
    if (!text.includes(word)) missing.push(word);
  };
  for (const row of keyRows(rootShape)) need('`' + row.path + '`');
  for (const row of keyRows(ruleSetShape)) need('`' + row.path + '`');
  for (const op of [...URL_PATH_OPS, ...HEADER_OPS, ...BODY_OPS, ...METHODS, ...STRATEGY_NAMES]) need('`' + op + '`');
  for (const f of [
    ...SERVE_FLAGS,
    ...META_FLAGS,
    ...GET_FLAGS,
    ...MATCH_TEST_FLAGS,
    ...VALIDATE_FLAGS,
    ...SET_RULE_FLAGS,
  ]) {
    need('`--' + f.long + '`');
    if (f.short !== undefined) need('`-' + f.short + '`');
  }
  for (const c of DIAGNOSTIC_CODES) need('`' + c + '`');
  for (const k of ERROR_KINDS) need('`' + k + '`');
  assert.deepEqual(missing, []);
});

test('every flag of every command has a one-line doc', () => {
  const undocumented = [
    ...SERVE_FLAGS,
    ...META_FLAGS,
    ...GET_FLAGS,
    ...MATCH_TEST_FLAGS,
    ...VALIDATE_FLAGS,
    ...SET_RULE_FLAGS,
  ]
    .filter((f) => f.doc === undefined || f.doc.trim() === '' || f.doc.includes('\n'))
    .map((f) => '--' + f.long);
  assert.deepEqual(undocumented, []);
});

test('npm pack includes the schemas', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  assert.ok(files.includes('schema/mock.schema.json'), files.join(', '));
  assert.ok(files.includes('schema/mock-rule-set.schema.json'), files.join(', '));
});
