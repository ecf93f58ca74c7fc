// What the journal redacts stays redacted wherever a request's data appears: an entry's why (the conditions'
// actual values, the values a template read) through `/__mock/api/requests` and the entry the page loads, the
// event stream, and the console log, with log.verbose on. Through the real program with its management listener.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { raw } from '../helpers/inspector-server.js';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const SECRET = 'hunter2';
let dir = '';
let mock: RunningMock;
let inspectPort = 0;

const RULES = `
[[rules]]
when.request.url_path = "/login"
when.request.body.text = { value = "user", op = "contains" }
when.request.body.json.password = { value = "hun", op = "starts_with" }
when.request.body.json.user = { value = "ann" }
when.request.headers.authorization = { op = "exists" }
when.request.query.token = { op = "exists" }
when.request.cookies.sid = { op = "exists" }
respond = { status = 200, json = '{"ok": true}' }

[[rules]]
when.request.url_path = "/echo"
respond = { template = true, text = "{{#if request.body.password}}1{{/if}}{{#if request.headers.authorization}}2{{/if}}{{#if request.query.token}}3{{/if}}{{#if request.cookies.sid}}4{{/if}}{{#if request.text}}5{{/if}}{{#if request.form.password}}6{{/if}}{{#if request.body}}7{{/if}}{{#if request.headers}}8{{/if}}{{#if request.cookies}}9{{/if}}" }

[[rules]]
when.request.url_path = "/form"
when.request.body.text = { value = "nomatch", op = "contains" }
when.request.body.form.password = { op = "exists" }
respond.status = 204

[[rules]]
when.request.url_path = "/nested"
when.request.body.json."creds" = { value = "password", op = "map_has_key" }
when.request.body.text = { value = "never", op = "contains" }
respond.status = 204
`;

before(async () => {
  dir = makeTempDir('mock-redact-why-');
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["mock-rule-set.toml"]\n[log.verbose]\nheader = true\nbody = true\n',
    'mock-rule-set.toml': RULES,
  });
  mock = await spawnMock(['--inspect'], { cwd: dir });
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
  const m = /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\//.exec(line ?? '');
  assert.ok(m, mock.stdoutLines.join('\n'));
  inspectPort = Number(m[1]);
});
after(async () => {
  await mock.stop();
  await removeDir(dir);
});

const SECRET_HEADERS = {
  authorization: `Bearer ${SECRET}`,
  cookie: `sid=${SECRET}`,
  'content-type': 'application/json',
};

test('no secret the journal redacts shows in any why, through the journal API, the entry the page loads, the events or the log', async () => {
  // a body long enough that the explanation shows only its start, the secret within it
  const padding = 'x'.repeat(150);
  const bodies = [
    { path: '/login', body: JSON.stringify({ user: 'ann', password: SECRET }) },
    { path: '/login', body: JSON.stringify({ user: 'bob', pad: padding, password: SECRET, tail: padding }) },
    { path: '/echo', body: JSON.stringify({ password: SECRET, api_key: SECRET }) },
    { path: '/nested', body: JSON.stringify({ creds: { password: SECRET }, token: [SECRET] }) },
  ];
  for (const { path, body } of bodies) {
    const r = await fetch(`${mock.url}${path}?token=${SECRET}&page=1`, {
      method: 'POST',
      headers: SECRET_HEADERS,
      body,
    });
    await r.arrayBuffer();
  }
  for (const path of ['/form', '/echo']) {
    const r = await fetch(`${mock.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `user=ann&password=${SECRET}`,
    });
    await r.arrayBuffer();
  }

  const list = await raw(inspectPort, 'GET', '/__mock/api/requests');
  assert.equal(list.status, 200);
  const entries = (list.json as { result: { entries: { id: number; why: unknown }[] } }).result.entries;
  assert.equal(entries.length, 6);
  // the why is there, with the conditions' actual values (the non-secret ones as they were) and the template's
  const whys = JSON.stringify(entries.map((e) => e.why));
  assert.match(whys, /"name":"body.json:user","expectation":"(?:[^"\\]|\\.)*","actual":"\\"ann\\""/);
  assert.match(whys, /"name":"header:authorization","expectation":"(?:[^"\\]|\\.)*","actual":"\[redacted\]"/);
  assert.doesNotMatch(list.text, new RegExp(SECRET), 'the journal list');

  for (const e of entries) {
    const one = await raw(inspectPort, 'GET', `/__mock/api/requests/${e.id}`);
    assert.equal(one.status, 200);
    assert.doesNotMatch(one.text, new RegExp(SECRET), `entry ${e.id}: ${one.text.slice(0, 2000)}`);
  }

  // a reconnecting client (Last-Event-ID) is replayed the rows the journal holds: read until the last one is in
  const events = await fetch(`http://127.0.0.1:${inspectPort}/__mock/api/events`, {
    headers: { 'last-event-id': '0' },
    signal: AbortSignal.timeout(30_000),
  });
  const reader = events.body!.getReader();
  let text = '';
  while (!text.includes(`id: ${entries.at(-1)!.id}\n`)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString('utf8');
  }
  assert.match(text, /event: request/);
  await reader.cancel();
  assert.doesNotMatch(text, new RegExp(SECRET), 'the event stream');

  // the answers themselves echo the secret (a template may): that is the response, not the log or the journal's why
  const log = mock.stdoutLines.join('\n') + mock.stderr();
  assert.match(log, /<- \/login/);
  assert.doesNotMatch(log, new RegExp(SECRET), 'the console log');
});
