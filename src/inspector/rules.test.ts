import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { post, raw, startInspectorServer, type InspectorServer } from '../../test/helpers/inspector-server.js';
import { PAUSE_ENV } from '../config/edit/io/set-rule.js';
import { bodyToArgv, rulesRoute } from './rules.js';

let ws: string;
let srv: InspectorServer;
const written: string[][] = [];
const RULES = '# the shop\n[[rules]]\n# first\nwhen.request.url_path = "/one"\nrespond.text = "one"\n';

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'mock-rules-'));
  srv = await startInspectorServer([
    rulesRoute({ cwd: () => ws, configPath: () => 'mock.toml', onWritten: (f) => void written.push([...f]) }),
  ]);
});
beforeEach(() => {
  writeFileSync(join(ws, 'mock.toml'), '# config\n[service]\nrule_sets = ["rules.toml"]\n');
  writeFileSync(join(ws, 'rules.toml'), RULES);
  writeFileSync(join(ws, 'users.json'), '[]');
});
after(async () => {
  await srv.close();
  rmSync(ws, { recursive: true, force: true });
});

const errorOf = (j: unknown): { kind: string; message: string } =>
  (j as { error: { kind: string; message: string } }).error;

test('body → argv: each key its flag, --name=value so no value reads as a flag', () => {
  assert.deepEqual(
    bodyToArgv({
      path: '/a',
      method: 'post',
      header: ['X-A: 1', 'B: -2'],
      status: 201,
      json: '{"a":1}',
      delay: 5,
      dry_run: true,
      rule_set: 'r.toml',
      rule: 0,
    }),
    {
      ok: true,
      argv: [
        '--path=/a',
        '--method=post',
        '--header=X-A: 1',
        '--header=B: -2',
        '--status=201',
        '--json={"a":1}',
        '--delay=5',
        '--dry-run',
        '--rule-set=r.toml',
        '--rule=0',
      ],
    },
  );
  assert.deepEqual(bodyToArgv({ text: '--dry-run', dry_run: false, header: 'A: b' }), {
    ok: true,
    argv: ['--text=--dry-run', '--header=A: b'],
  });
  for (const bad of [
    [],
    'x',
    null,
    { config: 'x' },
    { format: 'json' },
    { allow_outside: true },
    { toString: 1 },
    { path: 1 },
    { dry_run: 'yes' },
    { header: [1] },
    { status: 1.5 },
  ]) {
    assert.equal(bodyToArgv(bad).ok, false, JSON.stringify(bad));
  }
});

test("a rules POST appends a rule, keeps the comments, answers set rule's envelope", async () => {
  const r = await post(srv.port, '/__mock/api/rules', {
    rule_set: 'rules.toml',
    path: '/two',
    method: 'GET',
    status: 201,
    json: '{"ok":true}',
  });
  assert.equal(r.status, 200, r.text);
  const res = (r.json as { result: Record<string, unknown> }).result;
  assert.deepEqual(res['changed_files'], ['./rules.toml']);
  assert.equal(res['rule_set'], './rules.toml');
  assert.equal(res['requires_reload'], true);
  assert.equal(res['dry_run'], false);
  const text = readFileSync(join(ws, 'rules.toml'), 'utf8');
  assert.ok(text.startsWith(RULES), text);
  assert.match(text, /url_path = "\/two"/);
  assert.match(text, /status = 201/);
  assert.deepEqual(written.at(-1), ['./rules.toml']);
});

test('dry_run writes nothing', async () => {
  const r = await post(srv.port, '/__mock/api/rules', {
    rule_set: 'rules.toml',
    path: '/three',
    text: 'x',
    dry_run: true,
  });
  assert.equal(r.status, 200);
  assert.equal((r.json as { result: { dry_run: boolean } }).result.dry_run, true);
  assert.equal(readFileSync(join(ws, 'rules.toml'), 'utf8'), RULES);
});

test('usage → 400 (bad key, bad value, exclusive bodies, outside the config folder, not an object)', async () => {
  for (const body of [
    { pth: '/a' },
    { method: 'BREW' },
    { json: '{nope' },
    { json: '1', text: 'a' },
    { rule_set: '../elsewhere.toml', text: 'a' },
    { config: '/etc/x.toml' },
    [1],
    { status: 'abc' },
  ]) {
    const r = await post(srv.port, '/__mock/api/rules', body);
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    assert.equal(errorOf(r.json).kind, 'usage');
  }
  assert.equal(readFileSync(join(ws, 'rules.toml'), 'utf8'), RULES);
});

test('a config that does not load → 422 config_invalid; nothing written', async () => {
  writeFileSync(join(ws, 'mock.toml'), '[service]\nrule_setz = 1\n');
  const r = await post(srv.port, '/__mock/api/rules', { path: '/a', text: 'a' });
  assert.equal(r.status, 422, r.text);
  assert.equal(errorOf(r.json).kind, 'config_invalid');
  assert.ok(Array.isArray((r.json as { error: { diagnostics: unknown[] } }).error.diagnostics));
});

test("io → 500 (the rule set's folder is a file)", async () => {
  const r = await post(srv.port, '/__mock/api/rules', { rule_set: 'users.json/r.toml', path: '/a', text: 'a' });
  assert.equal(r.status, 500, r.text);
  assert.equal(errorOf(r.json).kind, 'io');
});

test('conflict → 409 when the file changes while the POST works', async () => {
  process.env[PAUSE_ENV] = '3000';
  try {
    const pending = post(srv.port, '/__mock/api/rules', { rule_set: 'rules.toml', path: '/late', text: 'late' });
    const deadline = Date.now() + 10_000;
    while (!readdirSync(ws).some((n) => n.startsWith('.rules.toml.') && n.endsWith('.tmp'))) {
      assert.ok(Date.now() < deadline, 'the staged file never appeared');
      await new Promise((r) => setTimeout(r, 10));
    }
    writeFileSync(join(ws, 'rules.toml'), RULES + '# edited meanwhile\n');
    const r = await pending;
    assert.equal(r.status, 409, r.text);
    assert.equal(errorOf(r.json).kind, 'conflict');
    assert.equal(readFileSync(join(ws, 'rules.toml'), 'utf8'), RULES + '# edited meanwhile\n');
  } finally {
    delete process.env[PAUSE_ENV];
  }
});

test('the rules POST is guarded: text/plain 415, cross-origin 403, no client header 403', async () => {
  const body = JSON.stringify({ path: '/a', text: 'a' });
  assert.equal(
    (await raw(srv.port, 'POST', '/__mock/api/rules', { 'x-mock-client': '1', 'content-type': 'text/plain' }, body))
      .status,
    415,
  );
  assert.equal(
    (
      await raw(
        srv.port,
        'POST',
        '/__mock/api/rules',
        { 'x-mock-client': '1', 'content-type': 'application/json', origin: 'http://evil.test' },
        body,
      )
    ).status,
    403,
  );
  assert.equal(
    (await raw(srv.port, 'POST', '/__mock/api/rules', { 'content-type': 'application/json' }, body)).status,
    403,
  );
  assert.equal(readFileSync(join(ws, 'rules.toml'), 'utf8'), RULES);
});
