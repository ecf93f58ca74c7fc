// `serve --contract <openapi>` through the real program: each kind of parameter violation (path, query, header:
// type, bound, enum, required) and a body violation answered 400 application/problem+json in enforce mode, before
// any rule; warn mode answers as usual, logs the violation and marks the journal entry the inspector reads; an
// answer that breaks the documented responses is logged and marked in both modes; service.contract in mock.toml,
// which `mock get` follows as the server does.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PETS_OPENAPI } from '../helpers/contract-doc.js';
import { raw } from '../helpers/inspector-server.js';
import { makeTempDir, removeDir, runMock, sendText, spawnMock, type RunningMock } from '../helpers/mock-cli.js';
import { waitFor } from './live-reload-helpers.js';

let ws: string;
const running: RunningMock[] = [];

before(async () => {
  ws = makeTempDir();
  writeFileSync(join(ws, 'pets.yaml'), PETS_OPENAPI);
  const imported = await runMock(['--init', '--from', 'pets.yaml', '--yes'], { cwd: ws });
  assert.equal(imported.code, 0, imported.stderr);
  // an answer that breaks the document: GET /stores/{id}/stock answers a count that is not an integer
  writeFileSync(join(ws, 'responses', 'storeStock', '200.json'), '{"count": "three"}\n');
});
after(async () => {
  for (const m of running) await m.stop();
  await removeDir(ws);
});

async function serve(args: readonly string[]): Promise<RunningMock> {
  const m = await spawnMock(['--no-watch', ...args], { cwd: ws });
  running.push(m);
  return m;
}

const ID = '3f2c8a2e-6a8e-4a57-9d2a-1d6a3c1e8b11';

interface Problem {
  readonly status: number;
  readonly detail: string;
  readonly violations: readonly { readonly location: string; readonly message: string }[];
}

describe('serve --contract, enforce (the default)', () => {
  let m: RunningMock;
  before(async () => {
    m = await serve(['--contract', 'pets.yaml']);
  });

  test('the start-up lines name the contract and its mode', () => {
    assert.ok(m.stdoutLines.includes('Contract: 4 operation(s) of pets.yaml (enforce)'), m.stdoutLines.join('\n'));
  });

  test('a request that keeps to the document is answered by its rule', async () => {
    const r = await sendText(m.port, 'GET', '/pets/1?view=short', { 'x-request-id': ID });
    assert.equal(r.status, 200, r.text);
    assert.equal((JSON.parse(r.text) as { name: string }).name, 'Rex');
  });

  const cases: readonly (readonly [string, string, Record<string, string>, string | undefined, string, string])[] = [
    ['a query bound', '/pets?limit=500', {}, undefined, 'query.limit', 'must be <= 100'],
    ['a query type', '/pets?limit=many', {}, undefined, 'query.limit', 'must be integer'],
    ['a path type', '/pets/abc', { 'x-request-id': ID }, undefined, 'path.petId', 'must be integer'],
    ['a path bound', '/pets/0', { 'x-request-id': ID }, undefined, 'path.petId', 'must be >= 1'],
    ['a query enum', '/pets/1?view=huge', { 'x-request-id': ID }, undefined, 'query.view', 'must be equal to one of'],
    ['a required header', '/pets/1', {}, undefined, 'header.x-request-id', 'is required'],
    ['a header format', '/pets/1', { 'x-request-id': 'nope' }, undefined, 'header.x-request-id', 'must match format'],
  ];
  for (const [what, path, headers, , location, message] of cases) {
    test(`${what}: 400 application/problem+json naming ${location}`, async () => {
      const r = await sendText(m.port, 'GET', path, headers);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.headers['content-type'], 'application/problem+json');
      const p = JSON.parse(r.text) as Problem;
      assert.equal(p.status, 400);
      const v = p.violations.find((x) => x.location === location);
      assert.ok(v, `a violation at ${location}: ${r.text}`);
      assert.ok(v.message.startsWith(message), v.message);
      assert.match(p.detail, new RegExp(`${location.replace(/\./g, '\\.')}: `));
    });
  }

  test('a JSON body that breaks the schema: 400 listing each violation; a good one reaches the rule', async () => {
    const bad = await sendText(
      m.port,
      'POST',
      '/pets',
      { 'content-type': 'application/json' },
      '{"name": "", "extra": 1}',
    );
    assert.equal(bad.status, 400, bad.text);
    const p = JSON.parse(bad.text) as Problem;
    assert.deepEqual(
      p.violations.map((v) => v.location),
      ['body', 'body.name'],
    );
    const missing = await sendText(m.port, 'POST', '/pets', {});
    assert.equal(missing.status, 400);
    assert.ok((JSON.parse(missing.text) as Problem).violations.some((v) => v.location === 'body'));
    const good = await sendText(m.port, 'POST', '/pets', { 'content-type': 'application/json' }, '{"name": "Tom"}');
    assert.equal(good.status, 201, good.text);
  });

  test('the violation is logged; an answer that breaks the document is logged, never refused', async () => {
    const r = await sendText(m.port, 'GET', '/stores/north/stock');
    assert.equal(r.status, 200);
    assert.equal(r.text.trim(), '{"count": "three"}');
    await waitFor('the log lines', () =>
      m.stdoutLines.some((l) => /answer violates the contract: .*body\.count: must be integer/.test(l)) &&
      m.stdoutLines.some((l) =>
        /^contract: GET \/pets\?limit=500 breaks GET \/pets \(answered 400\): query\.limit/.test(l),
      )
        ? true
        : undefined,
    );
  });

  test('OPTIONS and a path the document does not name are not checked', async () => {
    assert.equal((await sendText(m.port, 'OPTIONS', '/pets?limit=500')).status, 204);
    assert.equal((await sendText(m.port, 'GET', '/pets.yaml')).status, 200);
  });
});

describe('serve --contract --contract-mode warn, with the inspector', () => {
  let m: RunningMock;
  let inspector: number;
  before(async () => {
    m = await serve(['--contract', 'pets.yaml', '--contract-mode', 'warn', '--inspect']);
    const line = m.stdoutLines.find((l) => l.startsWith('Inspector: '));
    inspector = Number(/:(\d+)\//.exec(line ?? '')![1]);
  });

  test('a violating request is answered as usual, logged, and its journal entry is marked', async () => {
    const r = await sendText(m.port, 'GET', '/pets?limit=500');
    assert.equal(r.status, 200, r.text);
    await waitFor('the log line', () =>
      m.stdoutLines.some((l) => l.includes('breaks GET /pets (answered anyway: warn): query.limit: must be <= 100'))
        ? true
        : undefined,
    );
    const entry = await waitFor('the journal entry', async () => {
      const list = await raw(inspector, 'GET', '/__mock/api/requests');
      const entries = (list.json as { result: { entries: { request: { target: string }; contract?: unknown }[] } })
        .result.entries;
      return entries.find((e) => e.request.target === '/pets?limit=500');
    });
    assert.deepEqual(entry.contract, {
      operation: 'GET /pets',
      request: ['query.limit: must be <= 100'],
      answer: [],
      enforced: false,
    });
  });

  test('an answer that breaks the document is marked too', async () => {
    await sendText(m.port, 'GET', '/stores/north/stock');
    const entry = await waitFor('the journal entry', async () => {
      const list = await raw(inspector, 'GET', '/__mock/api/requests');
      const entries = (
        list.json as { result: { entries: { request: { target: string }; contract?: { answer: string[] } }[] } }
      ).result.entries;
      return entries.find((e) => e.request.target === '/stores/north/stock');
    });
    assert.equal(entry.contract?.answer.length, 1);
    assert.match(entry.contract.answer[0]!, /body\.count: must be integer/);
  });

  test('a request that keeps to the document and is answered well carries no mark', async () => {
    await sendText(m.port, 'GET', '/pets?limit=5');
    const entry = await waitFor('the journal entry', async () => {
      const list = await raw(inspector, 'GET', '/__mock/api/requests');
      const entries = (list.json as { result: { entries: { request: { target: string }; contract?: unknown }[] } })
        .result.entries;
      return entries.find((e) => e.request.target === '/pets?limit=5');
    });
    assert.equal(entry.contract, undefined);
  });
});

describe('service.contract in mock.toml', () => {
  test('contract and contract_mode from the config; a document that does not load stops the start (exit 2)', async () => {
    const dir = makeTempDir();
    try {
      writeFileSync(join(dir, 'api.yaml'), PETS_OPENAPI);
      writeFileSync(join(dir, 'pets.json'), '[]');
      writeFileSync(join(dir, 'mock.toml'), '[service]\ncontract = "api.yaml"\ncontract_mode = "enforce"\n');
      const m = await spawnMock(['--no-watch'], { cwd: dir });
      running.push(m);
      assert.equal((await sendText(m.port, 'GET', '/pets?limit=101')).status, 400);
      assert.equal((await sendText(m.port, 'GET', '/pets?limit=100')).status, 200);
      // `mock get` answers as the server does: the contract stage first
      const got = await runMock(['get', '/pets?limit=101', '--why'], { cwd: dir });
      assert.equal(got.code, 0, got.stderr);
      assert.match(got.stdout, /^Status: 400$/m);
      assert.match(got.stdout, /Answered: the request breaks the API contract \(400\)/);
      assert.match(got.stdout, /query\.limit: must be <= 100/);
      writeFileSync(join(dir, 'mock.toml'), '[service]\ncontract = "missing.yaml"\n');
      const bad = await runMock(['--no-watch', '-p', '0'], { cwd: dir });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--contract: cannot read `[^`]*missing\.yaml`/);
      const mode = await runMock(['--contract-mode', 'strict', '-p', '0'], { cwd: dir });
      assert.equal(mode.code, 2);
      assert.match(mode.stderr, /invalid value for --contract-mode: 'strict'/);
    } finally {
      await removeDir(dir);
    }
  });
});
