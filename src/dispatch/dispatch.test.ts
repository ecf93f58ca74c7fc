// The pipeline, stage by stage, with no port and no process: rule sets decoded by the real loader from TOML
// text, files served from memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memorySource } from '../files/memory-source.js';
import { RotationState } from '../routing/rotation.js';
import { MemoryStore } from '../state/store.js';
import { dispatch, type DispatchEnv } from './dispatch.js';
import { snapshotFrom } from './snapshot.js';
import { Soon } from '../shared/value-or-promise.js';
import { ROOT, ruleSet, workspace } from './fixtures/workspace.js';

const files = memorySource({
  [`${ROOT}/data/api/users.json`]: '[ {"id": 1} ]\n',
  [`${ROOT}/data/api/x.json`]: '{"from":"fallback"}',
  [`${ROOT}/data/index.json`]: '{"root":true}',
  [`${ROOT}/data/table.csv`]: 'id,name\n1,"a, b"\n',
  [`${ROOT}/r.json`]: '{"from":"rule file"}',
});

const env = (): DispatchEnv => ({
  files,
  rotation: new RotationState(),
  state: new MemoryStore(),
  random: Math.random,
  log: () => {},
});
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const header = (h: readonly (readonly [string, string])[], n: string) => h.find(([k]) => k === n)?.[1];

const ws = workspace([
  ruleSet(
    0,
    `
prefix.url_path = "/api"
[[rules]]
when.request.url_path = "/users"
when.request.method = "POST"
respond.status = 201
respond.json = '{ "ok": true }'
[[rules]]
when.request.url_path = { value = "/file", op = "equal" }
respond.file_path = "r.json"
[[rules]]
when.request.url_path = "/hdr"
when.request.headers.x-k = { value = "v" }
respond = { text = "hdr", headers = { x-custom = "1" } }
`,
  ),
  ruleSet(
    1,
    `
[[rules]]
when.request.url_path = "/moved"
respond = { status = 301, headers = { Location = "/elsewhere" } }
[[rules]]
when.request.body.json."customer.tier" = { value = "gold" }
respond.text = "gold"
`,
  ),
]);

async function ask(method: string, target: string, headers: [string, string][] = [], body?: string) {
  return dispatch(
    ws,
    snapshotFrom({ method, target, headers, ...(body !== undefined ? { body: new TextEncoder().encode(body) } : {}) }),
    env(),
    { explain: true },
  );
}

test('stages in order: OPTIONS first, then rule sets, then the fallback directory', async () => {
  const cases: [string, string, [string, string][], string | undefined, number, string, string][] = [
    ['OPTIONS', '/api/users', [], '{bad', 204, 'options', ''],
    ['POST', '/api/users', [], undefined, 201, 'rule_set', '{"ok":true}'],
    ['GET', '/api/file', [], undefined, 200, 'rule_set', '{"from":"rule file"}'],
    ['GET', '/api/hdr', [['X-K', 'v']], undefined, 200, 'rule_set', 'hdr'],
    ['GET', '/api/hdr', [], undefined, 404, 'prefix_miss', ''],
    ['GET', '/api/x', [], undefined, 404, 'prefix_miss', ''],
    ['GET', '/apix', [], undefined, 404, 'miss', ''],
    ['GET', '/moved', [], undefined, 301, 'rule_set', ''],
    [
      'POST',
      '/anything',
      [['content-type', 'application/json']],
      '{"customer":{"tier":"gold"}}',
      200,
      'rule_set',
      'gold',
    ],
    ['POST', '/anything', [['content-type', 'application/json']], '{"customer":', 400, 'bad_request', ''],
    ['GET', '/', [], undefined, 200, 'fallback', '{"root":true}'],
    ['GET', '/table', [], undefined, 200, 'fallback', '[{"id":"1","name":"a, b"}]'],
    // a '..' at the root is dropped (remove_dot_segments), never climbing out of the fallback directory
    ['GET', '/../data/index.json', [], undefined, 404, 'miss', ''],
    ['GET', '/../index.json', [], undefined, 200, 'fallback', '{"root":true}'],
    ['GET', '/%2e%2e/table', [], undefined, 200, 'fallback', '[{"id":"1","name":"a, b"}]'],
  ];
  for (const [method, target, headers, body, status, stage, bodyText] of cases) {
    const o = await ask(method, target, headers, body);
    const label = `${method} ${target}`;
    assert.equal(o.answer.status, status, label);
    assert.equal(o.stage.kind, stage, label);
    if (stage !== 'bad_request') assert.equal(text(o.answer.body), bodyText, label);
  }
});

test('a rule answer carries its headers, content type and a correct content-length', async () => {
  const o = await ask('GET', '/api/hdr', [['x-k', 'v']]);
  assert.equal(header(o.answer.headers, 'x-custom'), '1');
  assert.equal(header(o.answer.headers, 'content-type'), 'text/plain; charset=utf-8');
  assert.equal(header(o.answer.headers, 'content-length'), '3');
  const moved = await ask('GET', '/moved');
  assert.equal(header(moved.answer.headers, 'location'), '/elsewhere');
});

test('the explanation keeps every rule of each consulted rule set, from the real matcher', async () => {
  const o = await ask('GET', '/moved');
  const rs = o.explanation!.ruleSets;
  assert.equal(rs.length, 2);
  assert.equal(rs[0]!.underPrefix, false);
  assert.equal(rs[1]!.winner, 0);
  assert.equal(rs[1]!.rules.length, 2);
  assert.equal(rs[1]!.rules[0]!.matched, true);
  assert.equal(rs[1]!.rules[1]!.matched, false);
  const bodyCheck = rs[1]!.rules[1]!.conditions[0]!;
  assert.equal(bodyCheck.check.ok, false);
  assert.equal(bodyCheck.check.actual, undefined);
});

test('fallback answers report the served file; the json file is byte for byte', async () => {
  const o = await ask('GET', '/api/users.json?x=1');
  // /api is claimed by rule set 0's prefix, so even an existing file there is a 404
  assert.equal(o.answer.status, 404);
  const f = await dispatch(workspace([]), snapshotFrom({ method: 'GET', target: '/API/Users', headers: [] }), env());
  assert.equal(f.answer.status, 200);
  assert.equal(text(f.answer.body), '[ {"id": 1} ]\n');
  assert.equal(f.file, `${ROOT}/data/api/users.json`);
  assert.deepEqual(f.stage, { kind: 'fallback', file: `${ROOT}/data/api/users.json` });
});

test('literal and status-only rule answers are made once and reused, synchronously; a credentialed request still gets its own origin', () => {
  const ws = workspace([
    ruleSet(
      1,
      '[[rules]]\nwhen.request.url_path = "/t"\nrespond.text = "t"\n\n[[rules]]\nwhen.request.url_path = "/s"\nrespond.status = 204\n',
    ),
  ]);
  const env: DispatchEnv = {
    files: memorySource({}),
    rotation: new RotationState(),
    state: new MemoryStore(),
    random: Math.random,
    log: () => undefined,
  };
  const get = (path: string, headers: [string, string][] = []) => {
    const o = dispatch(ws, snapshotFrom({ method: 'GET', target: path, headers }), env);
    assert.ok(!(o instanceof Promise) && !(o instanceof Soon), `${path} answered synchronously`);
    return o.answer;
  };
  for (const path of ['/t', '/s']) assert.equal(get(path), get(path), path);
  const credentialed: [string, string][] = [
    ['origin', 'http://localhost:5173'],
    ['cookie', 'a=1'],
  ];
  const answer = get('/t', credentialed);
  assert.equal(answer.headers.find(([k]) => k === 'access-control-allow-origin')?.[1], 'http://localhost:5173');
  assert.equal(get('/t').headers.find(([k]) => k === 'access-control-allow-origin')?.[1], '*');
});
