// One scenario list, run three ways: dispatch() in-process, `mock get --format json`, and a live server over
// HTTP. All three must agree on status, headers (minus date / connection / keep-alive) and body, and each
// scenario's expected status and body pin down what they agree on.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadWorkspace } from '../src/config/load.js';
import { dispatch } from '../src/dispatch/dispatch.js';
import { snapshotFrom } from '../src/dispatch/snapshot.js';
import type { Workspace } from '../src/model/workspace.js';
import { createFsSource } from '../src/node/file-cache/fs-source.js';
import { RotationState } from '../src/routing/rotation.js';
import { MemoryStore } from '../src/state/store.js';
import { decodeLossy } from '../src/shared/utf8.js';
import { makeTempDir, removeDir, runMock, type RunningMock, spawnMock, writeTree } from './helpers/mock-cli.js';

interface Scenario {
  readonly name: string;
  readonly method: string;
  /** request target: path and query, sent as is */
  readonly target: string;
  readonly headers?: readonly (readonly [string, string])[];
  /** JSON text, sent as application/json */
  readonly body?: string;
  readonly expect: { readonly status: number; readonly body?: string; readonly contentType?: string };
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'static .json file, byte for byte',
    method: 'GET',
    target: '/data/users',
    expect: { status: 200, body: '{ "users": [ 1, 2 ] }\n', contentType: 'application/json' },
  },
  {
    name: 'json5 file converted to JSON',
    method: 'GET',
    target: '/data/conf',
    expect: { status: 200, body: '{"name":"x","n":1}', contentType: 'application/json' },
  },
  {
    name: 'csv file converted to a JSON array',
    method: 'GET',
    target: '/data/people.csv',
    expect: { status: 200, body: '[{"id":"1","name":"ann"},{"id":"2","name":"bob"}]' },
  },
  {
    name: 'percent-decoded path',
    method: 'GET',
    target: '/data/my%20file',
    expect: { status: 200, body: '{"space":true}' },
  },
  {
    name: 'rule match',
    method: 'GET',
    target: '/text',
    expect: { status: 200, body: 'hello', contentType: 'text/plain; charset=utf-8' },
  },
  { name: 'rule match with a query', method: 'GET', target: '/text?x=1&y=2', expect: { status: 200, body: 'hello' } },
  {
    name: 'header rule',
    method: 'GET',
    target: '/secure',
    headers: [['Authorization', 'Bearer abc']],
    expect: { status: 200, body: '{"secure":true}' },
  },
  { name: 'header rule not met', method: 'GET', target: '/secure', expect: { status: 401, body: '' } },
  {
    name: 'body rule',
    method: 'POST',
    target: '/orders',
    body: '{"customer":{"tier":"gold"}}',
    expect: { status: 201, body: '{"tier":"gold"}' },
  },
  {
    name: 'body rule not met',
    method: 'POST',
    target: '/orders',
    body: '{"customer":{"tier":"silver"}}',
    expect: { status: 404, body: '' },
  },
  { name: 'prefix miss', method: 'GET', target: '/pre/unknown', expect: { status: 404, body: '' } },
  { name: 'prefix hit', method: 'GET', target: '/pre/known', expect: { status: 200, body: 'known' } },
  { name: 'no match: 404, empty body', method: 'GET', target: '/no/such/thing', expect: { status: 404, body: '' } },
  {
    name: 'HEAD: the GET headers, no body',
    method: 'HEAD',
    target: '/text',
    expect: { status: 200, body: '', contentType: 'text/plain; charset=utf-8' },
  },
  { name: 'OPTIONS', method: 'OPTIONS', target: '/anything', expect: { status: 204, body: '' } },
  {
    name: 'credentialed CORS from localhost',
    method: 'GET',
    target: '/text',
    headers: [
      ['Origin', 'http://localhost:5173'],
      ['Cookie', 'a=1'],
    ],
    expect: { status: 200, body: 'hello' },
  },
  {
    name: 'middleware answer',
    method: 'GET',
    target: '/hello',
    expect: { status: 200, body: 'Hello from middleware!' },
  },
  { name: 'middleware declines', method: 'GET', target: '/text', expect: { status: 200, body: 'hello' } },
];

const RULES = `
[[rules]]
when.request.url_path = "/text"
respond.text = "hello"

[[rules]]
when.request.url_path = "/secure"
when.request.headers.authorization = { value = "Bearer ", op = "starts_with" }
respond.json = '{"secure":true}'

[[rules]]
when.request.url_path = "/secure"
respond.status = 401

[[rules]]
when.request.method = "POST"
when.request.url_path = "/orders"
when.request.body.json."customer.tier" = { value = "gold" }
respond.status = 201
respond.json = '{"tier":"gold"}'
`;

const MIDDLEWARE = `
if url_path == "/hello" {
    return #{ "text": "Hello from middleware!" };
}
return;
`;

let dir: string;
let server: RunningMock;
let workspace: Workspace;

before(async () => {
  dir = makeTempDir('mock-parity-');
  await writeTree(dir, {
    'mock.toml': `[service]\nrule_sets = ["rs.toml", "pre.toml"]\nmiddlewares = ["mw.rhai"]\n`,
    'rs.toml': RULES,
    'pre.toml': '[prefix]\nurl_path = "/pre"\n\n[[rules]]\nwhen.request.url_path = "/known"\nrespond.text = "known"\n',
    'mw.rhai': MIDDLEWARE,
    'data/users.json': '{ "users": [ 1, 2 ] }\n',
    'data/conf.json5': "{ name: 'x', n: 1, }",
    'data/people.csv': 'id,name\n1,ann\n2,bob\n',
    'data/my file.json': '{"space":true}',
  });
  const loaded = await loadWorkspace({ cwd: dir });
  if (!loaded.ok) throw new Error(`parity workspace does not load: ${JSON.stringify(loaded.error)}`);
  workspace = loaded.value;
  server = await spawnMock([], { cwd: dir });
});
after(async () => {
  await server?.stop();
  await removeDir(dir);
});

interface Seen {
  readonly status: number;
  /** sorted [name, value]; duplicates joined with ", " as fetch does */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function normalise(status: number, headers: Iterable<readonly [string, string]>, body: string): Seen {
  const joined = new Map<string, string>();
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    if (TRANSPORT.has(name)) continue;
    joined.set(name, joined.has(name) ? `${joined.get(name)}, ${v}` : v);
  }
  return { status, headers: [...joined].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), body };
}

function requestHeaders(s: Scenario): [string, string][] {
  const h: [string, string][] = (s.headers ?? []).map(([k, v]) => [k, v]);
  if (s.body !== undefined) h.push(['content-type', 'application/json']);
  return h;
}

async function viaDispatch(s: Scenario): Promise<Seen> {
  const req = snapshotFrom({
    method: s.method,
    target: s.target,
    headers: requestHeaders(s),
    ...(s.body !== undefined ? { body: new TextEncoder().encode(s.body) } : {}),
  });
  const out = await dispatch(workspace, req, {
    files: createFsSource(),
    rotation: new RotationState(),
    state: new MemoryStore(),
    random: Math.random,
    log: () => undefined,
  });
  // on the wire a HEAD answer carries the GET headers and no body
  return normalise(out.answer.status, out.answer.headers, s.method === 'HEAD' ? '' : decodeLossy(out.answer.body));
}

async function viaGet(s: Scenario): Promise<Seen> {
  const args = ['get', s.target, '-m', s.method, '--format', 'json'];
  for (const [k, v] of s.headers ?? []) args.push('-H', `${k}: ${v}`);
  if (s.body !== undefined) args.push('-b', s.body);
  const r = await runMock(args, { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const env = JSON.parse(r.stdout) as {
    result: { response: { status: number; headers: { name: string; value: string }[]; body: string } };
  };
  const res = env.result.response;
  return normalise(
    res.status,
    res.headers.map((h) => [h.name, h.value] as const),
    res.body,
  );
}

async function viaServer(s: Scenario): Promise<Seen> {
  const res = await fetch(server.url + s.target, {
    method: s.method,
    headers: requestHeaders(s),
    ...(s.body !== undefined ? { body: s.body } : {}),
  });
  const body = decodeLossy(new Uint8Array(await res.arrayBuffer()));
  return normalise(res.status, res.headers, body);
}

describe('dispatch(), mock get and the live server agree', () => {
  for (const s of SCENARIOS) {
    test(s.name, async () => {
      const [d, g, w] = await Promise.all([viaDispatch(s), viaGet(s), viaServer(s)]);
      assert.equal(d.status, s.expect.status, 'dispatch status');
      if (s.expect.body !== undefined) assert.equal(d.body, s.expect.body, 'dispatch body');
      if (s.expect.contentType !== undefined)
        assert.ok(
          d.headers.some(([k, v]) => k === 'content-type' && v === s.expect.contentType),
          'content-type',
        );
      assert.deepEqual(g, d, 'mock get --format json agrees with dispatch()');
      assert.deepEqual(w, d, 'the live server agrees with dispatch()');
    });
  }
});
