// Property: a warm start answers every request as a cold one does. Random workspaces of several rule-set files
// (exact paths, templates, prefixes, texts a path must hold, methods, queries) are written to a real folder and
// loaded three ways: without the load cache, with it for the first time (filling it), and with it again (the rule
// sets left undecoded, decoded on first need). Every request of a fixed list must get the same status, headers and
// body from all three. The same fixed seed every run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { loadWorkspace } from '../config/load.js';
import { dispatch, prepareWorkspace } from '../dispatch/dispatch.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { offlineEnv } from '../launch/offline.js';
import type { Workspace } from '../model/workspace.js';
import { pathSummary } from '../routing/path-index.js';
import { undecoded } from './lazy-rule-set.js';
import { loadCache } from './load-cache.js';
import { cases } from '../../test/helpers/test-loop.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'mock-warm-cold-'));
  dirs.push(d);
  return d;
};

const CONDITIONS = [
  'when.request.url_path = "/a"',
  'when.request.url_path = "/b/c"',
  'when.request.url_path = { value = "/users/{id}", op = "path_template" }',
  'when.request.url_path = { value = "/files/{rest*}", op = "path_template" }',
  'when.request.url_path = { value = "/a", op = "starts_with" }',
  'when.request.url_path = { value = "c", op = "ends_with" }',
  'when.request = { url_path = "/a", method = "POST" }',
  'when.request = { url_path = "/q", query.page = "2" }',
] as const;
const ANSWERS = [
  'respond.text = "one"',
  'respond = { status = 201, json = \'{ "id": 3 }\' }',
  'respond = { status = 404, text = "none", headers = { x-why = "none" } }',
  'respond.status = 204',
] as const;
const PREFIXES = [undefined, '/api', '/v1'] as const;

const rule = fc.record({ when: fc.constantFrom(...CONDITIONS), respond: fc.constantFrom(...ANSWERS) });
const ruleSet = fc.record({
  prefix: fc.constantFrom(...PREFIXES),
  rules: fc.array(rule, { minLength: 1, maxLength: 5 }),
});

const REQUESTS: readonly (readonly [string, string])[] = [
  ['GET', '/a'],
  ['POST', '/a'],
  ['GET', '/a/b'],
  ['GET', '/b/c'],
  ['GET', '/users/7'],
  ['GET', '/files/x/y.txt'],
  ['GET', '/q?page=2'],
  ['GET', '/q?page=3'],
  ['GET', '/api/a'],
  ['POST', '/api/a'],
  ['GET', '/api/users/1'],
  ['GET', '/v1/b/c'],
  ['GET', '/v1/files/z'],
  ['GET', '/nothing'],
];

function writeWorkspace(
  dir: string,
  sets: readonly { prefix: string | undefined; rules: { when: string; respond: string }[] }[],
): void {
  const names = sets.map((_, i) => `rs${i}.toml`);
  writeFileSync(join(dir, 'mock.toml'), `[service]\nrule_sets = [${names.map((n) => JSON.stringify(n)).join(', ')}]\n`);
  sets.forEach((s, i) => {
    const head = s.prefix === undefined ? '' : `prefix.url_path = "${s.prefix}"\n\n`;
    const rules = s.rules.map((r) => `[[rules]]\n${r.when}\n${r.respond}\n`).join('\n');
    writeFileSync(join(dir, names[i]!), head + rules);
  });
}

async function answers(ws: Workspace): Promise<string[]> {
  prepareWorkspace(ws);
  const env = offlineEnv();
  const out: string[] = [];
  for (const [method, target] of REQUESTS) {
    const o = await dispatch(ws, snapshotFrom({ method, target, headers: [] }), env);
    out.push(
      `${method} ${target} ${o.answer.status} ${JSON.stringify(o.answer.headers)} ${Buffer.from(o.answer.body).toString()}`,
    );
  }
  return out;
}

test('a warm start (rule sets decoded on first need) answers every request as a cold start does', async () => {
  let lazy = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(ruleSet, { minLength: 1, maxLength: 4 }), async (sets) => {
      const dir = temp();
      writeWorkspace(dir, sets);
      const cache = loadCache({ version: 'test', env: { XDG_CACHE_HOME: temp() }, summarise: pathSummary })!;
      const plain = await loadWorkspace({ cwd: dir });
      const cold = await loadWorkspace({ cwd: dir, cache });
      const warm = await loadWorkspace({ cwd: dir, cache });
      assert.ok(plain.ok && cold.ok && warm.ok);
      lazy += warm.value.ruleSets.filter(undecoded).length;
      const expected = await answers(plain.value);
      assert.deepEqual(await answers(cold.value), expected);
      assert.deepEqual(await answers(warm.value), expected);
      rmSync(dir, { recursive: true, force: true });
    }),
    cases(40, 20261202),
  );
  // the property says nothing unless the warm loads did leave rule sets for later
  assert.ok(lazy > 0, 'no warm load left a rule set undecoded');
});
