// Capture: what an entry holds for each kind of exchange, answered by the real dispatch(); redaction; bodies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getResult } from '../cli/render/get.js';
import { dispatch } from '../dispatch/dispatch.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { REDACTED } from '../shared/redact.js';
import type { Wire } from '../shared/wire.js';
import { dispatched, newEnv, refused, SHOWN, WS } from './fixtures/exchanges.js';
import { Journal } from './journal.js';
import { entrySummaryToWire, entryToWire } from './wire.js';

const GET_SOURCE = { config: '/ws/mock.toml', ruleSets: ['/ws/rs0.toml', '/ws/rs1.toml'] };

test('stage, matched and why equal what mock get --format json prints for the same request', async () => {
  const cases: [string, string, string][] = [
    // method, target, expected stage
    ['GET', '/api/users', 'rule_set'],
    ['POST', '/api/cart', 'rule_set'],
    ['GET', '/api/nothing', 'prefix_miss'],
    ['GET', '/hello.txt', 'dyn_route'],
    ['GET', '/absent', 'dyn_route'],
    ['OPTIONS', '/api/users', 'options'],
    ['POST', '/x', 'bad_request'],
  ];
  for (const [method, target, stage] of cases) {
    const headers: [string, string][] = stage === 'bad_request' ? [['content-type', 'application/json']] : [];
    const body = stage === 'bad_request' ? '{nope' : undefined;
    const j = new Journal();
    const entry = j.capture(await dispatched({ method, target, headers, ...(body ? { body } : {}) }, newEnv()));
    const snapshot = snapshotFrom({
      method,
      target,
      headers,
      ...(body ? { body: new TextEncoder().encode(body) } : {}),
    });
    const outcome = await dispatch(WS, snapshot, newEnv(), { explain: true });
    const got = getResult({ outcome, ws: WS, shown: SHOWN, method, path: target }, GET_SOURCE) as { [k: string]: Wire };
    const wire = entryToWire(entry) as { [k: string]: Wire };
    assert.equal(wire['stage'], stage, `${method} ${target}`);
    assert.deepEqual(wire['stage'], got['stage'], `${method} ${target} stage`);
    assert.deepEqual(wire['matched'], got['matched'], `${method} ${target} matched`);
    assert.deepEqual(wire['why'], got['why'], `${method} ${target} why`);
    assert.equal(JSON.stringify(wire['why']), JSON.stringify(got['why']), 'same field order');
  }
});

test('round-robin entries show the rule that answered each time (A1, A2, A3, A1), not a recomputed one', async () => {
  const env = newEnv();
  const j = new Journal();
  for (let i = 0; i < 4; i++) j.capture(await dispatched({ target: '/rr' }, env));
  const rows = j
    .requests()
    .map((e) => [e.matched?.ruleIndex, e.response.body.kind === 'text' ? e.response.body.text : e.response.body.kind]);
  assert.deepEqual(rows, [
    [0, 'A1'],
    [1, 'A2'],
    [2, 'A3'],
    [0, 'A1'],
  ]);
  const why = j.requests()[1]!.why.ruleSets[1]!;
  assert.equal(why.ruleSetFile, './rs1.toml');
  assert.deepEqual(
    why.rules.map((r) => r.matched),
    [true, true, true],
  );
});

test('answeredBy: dispatch stage with the served file, refused, and the entry fields', async () => {
  const j = new Journal();
  const rule = j.capture(await dispatched({ target: '/api/users' }, newEnv(), new Date(1_700_000_000_000), 7));
  assert.deepEqual(rule.answeredBy, { kind: 'rule_set', ruleSetIndex: 0, ruleIndex: 0 });
  assert.deepEqual(rule.matched, { ruleSetIndex: 0, ruleSetFile: './rs0.toml', ruleIndex: 0 });
  assert.equal(rule.generation, 7);
  assert.equal(rule.id, 1);
  assert.equal(rule.latencyMs, 3);
  assert.equal(rule.receivedAt.toISOString(), '2023-11-14T22:13:20.000Z');
  assert.deepEqual(entrySummaryToWire(rule), {
    id: 1,
    method: 'GET',
    path: '/api/users',
    status: 200,
    stage: 'rule_set',
    latency_ms: 3,
    generation: 7,
  });
  const ruleFile = j.capture(await dispatched({ target: '/api/file' }, newEnv()));
  assert.deepEqual(ruleFile.answeredBy, {
    kind: 'rule_set',
    ruleSetIndex: 0,
    ruleIndex: 3,
    servedFile: '/ws/data/page.json',
  });
  assert.deepEqual((entryToWire(ruleFile) as { [k: string]: Wire })['answered_by'], {
    kind: 'rule_set',
    rule_set_index: 0,
    rule_index: 3,
    served_file: '/ws/data/page.json',
  });
  assert.deepEqual(ruleFile.response.body, {
    kind: 'json',
    value: { token: REDACTED, list: [{ password: REDACTED }], ok: 1 },
    byteLength: 61,
  });
  const file = j.capture(await dispatched({ target: '/hello.txt' }, newEnv()));
  assert.deepEqual(
    file.answeredBy,
    { kind: 'fallback', file: 'hello.txt' },
    'relative to the fallback directory, as get --why names it',
  );
  const miss = j.capture(await dispatched({ target: '/absent' }, newEnv()));
  assert.deepEqual([miss.stage, miss.answeredBy, miss.matched], ['dyn_route', { kind: 'miss' }, null]);
  const big = j.capture(refused({ target: '/upload', headers: [['content-type', 'application/octet-stream']] }, 5000));
  assert.equal(big.stage, 'refused');
  assert.deepEqual(big.answeredBy, { kind: 'refused' });
  assert.equal(big.response.status, 413);
  assert.deepEqual(big.request.body, { kind: 'bytes', byteLength: 5000, contentType: 'application/octet-stream' });
  assert.deepEqual(entryToWire(big) && (entryToWire(big) as { [k: string]: Wire })['answered_by'], { kind: 'refused' });
  assert.ok(Object.isFrozen(rule) && Object.isFrozen(rule.request) && Object.isFrozen(rule.response.headers));
});

const SECRET_HEADERS: [string, string][] = [
  ['authorization', 'Bearer SECRET-AUTH'],
  ['Cookie', 'sid=SECRET-COOKIE'],
  ['x-api-key', 'SECRET-KEY'],
  ['content-type', 'application/json'],
];
const SECRETS = [
  'SECRET-AUTH',
  'SECRET-COOKIE',
  'SECRET-KEY',
  'SECRET-QUERY',
  'SECRET-NESTED',
  'SECRET-FORM',
  'FILE-TOKEN',
  'FILE-PW',
];

test('redaction at capture: headers, query (and target), JSON keys at any depth, form keys, response too', async () => {
  const cases: { name: string; method: string; target: string; headers: [string, string][]; body?: string }[] = [
    {
      name: 'json body, query, headers',
      method: 'POST',
      target: '/api/echo?a=1&access_token=SECRET-QUERY',
      headers: SECRET_HEADERS,
      body: '{"user":"u","deep":{"list":[{"password":"SECRET-NESTED"}]},"Client_Secret":"SECRET-NESTED"}',
    },
    {
      name: 'form body',
      method: 'POST',
      target: '/api/echo?token=SECRET-QUERY',
      headers: [['content-type', 'application/x-www-form-urlencoded']],
      body: 'user=u&secret=SECRET-FORM&pass%77ord=SECRET-FORM',
    },
    { name: 'response JSON from a file', method: 'GET', target: '/page.json', headers: [] },
  ];
  for (const c of cases) {
    const j = new Journal();
    const e = j.capture(
      await dispatched(
        { method: c.method, target: c.target, headers: c.headers, ...(c.body ? { body: c.body } : {}) },
        newEnv(),
      ),
    );
    const text = JSON.stringify(j.requests()) + JSON.stringify(entryToWire(e));
    for (const s of SECRETS) assert.ok(!text.includes(s), `${c.name}: ${s} stored`);
    assert.ok(text.includes(REDACTED), `${c.name}: redacted values are marked`);
    const open = new Journal({ redact: false });
    const raw = JSON.stringify(
      open.capture(
        await dispatched(
          { method: c.method, target: c.target, headers: c.headers, ...(c.body ? { body: c.body } : {}) },
          newEnv(),
        ),
      ),
    );
    assert.ok(!raw.includes(REDACTED), `${c.name}: redact false keeps values`);
  }
  const j = new Journal();
  const e = j.capture(
    await dispatched(
      {
        method: 'POST',
        target: '/api/echo?a=1&token=SECRET-QUERY',
        headers: SECRET_HEADERS,
        body: '{"password":"p","n":1}',
      },
      newEnv(),
    ),
  );
  assert.equal(e.request.target, '/api/echo?a=1&token=[redacted]');
  assert.equal(e.request.query, 'a=1&token=[redacted]');
  assert.deepEqual(e.request.headers.slice(0, 3), [
    ['authorization', REDACTED],
    ['cookie', REDACTED],
    ['x-api-key', REDACTED],
  ]);
  assert.deepEqual(e.request.body, { kind: 'json', value: { password: REDACTED, n: 1 }, byteLength: 22 });
  assert.equal(e.response.headers.find(([n]) => n === 'set-cookie')?.[1], REDACTED);
});

test('a fault is an entry with its fault named, in the detail and the live summary; a plain answer has no fault key', async () => {
  const plain = await dispatched({ target: '/api/users' }, newEnv());
  assert.equal(plain.answerer.kind, 'dispatch');
  if (plain.answerer.kind !== 'dispatch') return;
  const outcome = plain.answerer.outcome;
  const faulted = {
    ...plain,
    answerer: {
      ...plain.answerer,
      outcome: {
        ...outcome,
        answer: { ...outcome.answer, delivery: { kind: 'fault' as const, fault: 'timeout' as const } },
      },
    },
  };
  const j = new Journal();
  const a = j.capture(plain);
  const b = j.capture(faulted);
  assert.equal(a.fault, undefined);
  assert.ok(!('fault' in entryToWire(a)) && !('fault' in entrySummaryToWire(a)));
  assert.equal(b.fault, 'timeout');
  assert.equal(entryToWire(b).fault, 'timeout');
  assert.equal(entrySummaryToWire(b).fault, 'timeout');
  assert.equal(entryToWire(b).stage, entryToWire(a).stage, 'still the stage that chose the rule');
});
