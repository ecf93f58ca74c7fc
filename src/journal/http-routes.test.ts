// The journal's HTTP routes as pure functions: envelopes, filters from the query string, errors, reset.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadLinearRegex } from '../shared/linear-regex.js';
import type { Wire } from '../shared/wire.js';
import { dispatched, newEnv } from './fixtures/exchanges.js';
import { handleJournalRoute, type JournalHttpResponse } from './http-routes.js';
import { Journal } from './journal.js';
import { entryToWire } from './wire.js';

// the patterns a request supplies are matched by an engine loaded on first need (shared/linear-regex.ts)
before(() => loadLinearRegex());

interface Envelope {
  readonly schema: number;
  readonly mock: string;
  readonly result?: {
    readonly entries: readonly { readonly id: number }[];
    readonly last_id: number;
    readonly dropped: number;
  } & { readonly [k: string]: Wire };
  readonly error?: { readonly kind: string; readonly message: string };
}

async function setUp(opts = {}): Promise<{
  journal: Journal;
  rotations: number[];
  call: (method: string, target: string, body?: string) => JournalHttpResponse | undefined;
}> {
  const journal = new Journal(opts);
  const env = newEnv();
  const specs = [
    {
      target: '/api/users?token=SECRET-QUERY',
      headers: [['authorization', 'Bearer SECRET-AUTH']] as [string, string][],
    },
    {
      method: 'POST',
      target: '/api/cart',
      headers: [['content-type', 'application/json']] as [string, string][],
      body: '{"sku":"A1","password":"SECRET-PW"}',
    },
    { target: '/hello.txt' },
    { target: '/rr' },
    { target: '/rr' },
  ];
  for (let i = 0; i < specs.length; i++)
    journal.capture(await dispatched(specs[i]!, env, new Date(1_700_000_000_000 + i * 1000)));
  const rotations: number[] = [];
  const call = (method: string, target: string, body?: string) =>
    handleJournalRoute(
      { method, target, ...(body !== undefined ? { body } : {}) },
      { journal, version: '9.9.9', resetRotation: () => rotations.push(1) },
    );
  return { journal, rotations, call };
}

const parse = (r: JournalHttpResponse | undefined): Envelope => JSON.parse(r!.body) as Envelope;

test('GET requests: the library results, as wire entries, for each filter', async () => {
  const { journal, call } = await setUp();
  const cases: [string, Parameters<Journal['requests']>[0]][] = [
    ['', {}],
    ['?path=/api/cart', { path: '/api/cart' }],
    ['?path_regex=%5E%2Fapi%2F', { path: /^\/api\// }],
    ['?method=post', { method: 'POST' }],
    ['?since=2', { since: 2 }],
    ['?since=2023-11-14T22:13:22.000Z', { since: new Date(1_700_000_002_000) }],
    ['?stage=dyn_route', { stage: 'dyn_route' }],
    ['?rule_set=1&rule=1', { rule: { ruleSet: 1, rule: 1 } }],
    ['?rule_set=./rs0.toml', { rule: { ruleSet: './rs0.toml' } }],
    ['?limit=2', { limit: 2 }],
  ];
  for (const [query, filter] of cases) {
    const r = call('GET', '/__mock/api/requests' + query)!;
    assert.equal(r.status, 200, query);
    assert.equal(r.headers.find(([n]) => n === 'content-type')?.[1], 'application/json; charset=utf-8');
    const env = parse(r);
    assert.equal(env.schema, 1);
    assert.equal(env.mock, '9.9.9');
    assert.deepEqual(env.result!.entries, JSON.parse(JSON.stringify(journal.requests(filter).map(entryToWire))), query);
    assert.equal(env.result!.dropped, 0);
  }
  assert.equal(parse(call('GET', '/__mock/api/requests?limit=2')).result!.last_id, 2);
  assert.equal(parse(call('GET', '/__mock/api/requests')).result!.last_id, 5);
  const all = call('GET', '/__mock/api/requests')!.body;
  for (const s of ['SECRET-QUERY', 'SECRET-AUTH', 'SECRET-PW']) assert.ok(!all.includes(s), s);
  const first = parse(call('GET', '/__mock/api/requests?limit=1')).result!.entries[0] as unknown as {
    [k: string]: Wire;
  };
  assert.deepEqual(Object.keys(first), [
    'id',
    'received_at',
    'latency_ms',
    'generation',
    'request',
    'response',
    'stage',
    'answered_by',
    'matched',
    'why',
  ]);
});

test('GET requests: bad query strings are 400 with every problem named', async () => {
  const { call } = await setUp();
  const cases: [string, RegExp][] = [
    ['?pathh=/x', /unknown parameter 'pathh' \(did you mean 'path'\?\)/],
    ['?path=/a&path=/b', /given more than once/],
    ['?path=/a&path_regex=a', /not both/],
    ['?path_regex=(', /not a valid regular expression/],
    ['?since=yesterday', /since must be an entry id or an ISO 8601 time/],
    ['?stage=rules', /unknown stage 'rules'/],
    ['?rule=1', /rule needs rule_set/],
    ['?limit=0', /limit must be a whole number of 1 or more/],
    [
      '?limit=-1&rule_set=0&rule=x',
      /limit must be a whole number.*; rule must be a whole number|rule must be a whole number.*; limit/,
    ],
    ['?method=', /is empty/],
  ];
  for (const [query, message] of cases) {
    const r = call('GET', '/__mock/api/requests' + query)!;
    assert.equal(r.status, 400, query);
    const env = parse(r);
    assert.equal(env.error!.kind, 'usage');
    assert.match(env.error!.message, message, query);
  }
});

test('overflow is reported as dropped, never as an error', async () => {
  const { call } = await setUp({ size: 2 });
  const env = parse(call('GET', '/__mock/api/requests?since=1'));
  assert.deepEqual(
    env.result!.entries.map((e) => e.id),
    [4, 5],
  );
  assert.equal(env.result!.dropped, 2);
  assert.equal(parse(call('GET', '/__mock/api/requests')).result!.dropped, 3);
});

test('GET one entry; 410 evicted, 404 unknown or reset, 400 not an id', async () => {
  const { journal, call } = await setUp({ size: 3 });
  const one = call('GET', '/__mock/api/requests/4')!;
  assert.equal(one.status, 200);
  assert.deepEqual(
    parse(one).result,
    JSON.parse(JSON.stringify(entryToWire(journal.requests({ since: 3, limit: 1 })[0]!))),
  );
  const cases: [string, number, RegExp][] = [
    ['1', 410, /entry 1 was evicted \(the journal keeps 3 entries\)/],
    ['6', 404, /no entry 6 yet \(the newest is 5\)/],
    ['0', 400, /not a journal entry id/],
    ['x', 400, /not a journal entry id/],
  ];
  for (const [id, status, message] of cases) {
    const r = call('GET', '/__mock/api/requests/' + id)!;
    assert.equal(r.status, status, id);
    assert.match(parse(r).error!.message, message);
  }
  assert.equal(call('DELETE', '/__mock/api/requests')!.status, 204);
  assert.match(parse(call('GET', '/__mock/api/requests/4')).error!.message, /removed by a reset/);
});

test('DELETE clears, POST reset clears what its body says, wrong methods are 405, other paths are not ours', async () => {
  const { journal, rotations, call } = await setUp();
  const cases: [string | undefined, boolean, number][] = [
    // body, journal cleared, rotation resets
    [undefined, true, 1],
    ['{}', true, 1],
    ['{"journal":false}', false, 1],
    ['{"rotation":false}', true, 0],
  ];
  for (const [body, cleared, rot] of cases) {
    rotations.length = 0;
    journal.capture(await dispatched({ target: '/rr' }, newEnv()));
    const r = call('POST', '/__mock/api/reset', body)!;
    assert.equal(r.status, 204, String(body));
    assert.equal(r.body, '');
    assert.equal(journal.length === 0, cleared, String(body));
    assert.equal(rotations.length, rot, String(body));
  }
  for (const bad of ['[]', '{"journal":1}', '{"other":true}', '{nope']) {
    const r = call('POST', '/__mock/api/reset', bad)!;
    assert.equal(r.status, 400, bad);
  }
  const last = journal.lastId;
  assert.equal(call('DELETE', '/__mock/api/requests')!.status, 204);
  assert.equal(journal.length, 0);
  journal.capture(await dispatched({ target: '/rr' }, newEnv()));
  assert.equal(journal.lastId, last + 1, 'ids keep counting');
  const wrong: [string, string, string][] = [
    ['POST', '/__mock/api/requests', 'GET, DELETE'],
    ['DELETE', '/__mock/api/requests/1', 'GET'],
    ['GET', '/__mock/api/reset', 'POST'],
  ];
  for (const [method, path, allow] of wrong) {
    const r = call(method, path)!;
    assert.equal(r.status, 405, `${method} ${path}`);
    assert.equal(r.headers.find(([n]) => n === 'allow')?.[1], allow);
    assert.equal(parse(r).mock, '9.9.9');
  }
  for (const other of ['/', '/__mock/api/requestsx', '/__mock/api/events', '/api/users'])
    assert.equal(call('GET', other), undefined, other);
});

test('GET requests: path_regex is matched in linear time, so a pattern RE2 cannot take (a backreference) is a 400 saying why', async () => {
  const { call } = await setUp();
  const r = call('GET', '/__mock/api/requests?path_regex=' + encodeURIComponent('^/(a)\\1'))!;
  assert.equal(r.status, 400);
  assert.match(parse(r).error!.message, /linear time \(RE2 syntax/);
  // a pattern that backtracks exponentially in JavaScript's engine answers at once
  const started = Date.now();
  const ok = call('GET', '/__mock/api/requests?path_regex=' + encodeURIComponent('^/(a+)+$'))!;
  assert.equal(ok.status, 200);
  assert.ok(Date.now() - started < 5_000);
});
