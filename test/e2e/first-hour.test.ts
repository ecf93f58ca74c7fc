// What a new user meets in the first hour, run as they would run it: one rule numbering in every message, one
// spelling of a rule set's path whatever was typed, no port written that nobody chose, the answer's status in the
// request log, `mock db.json` pointing at --db, and a stream file's broken `: delay` line refused at load.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

async function workspace(files: Record<string, string> = {}): Promise<string> {
  const dir = makeTempDir('mock-first-hour-');
  dirs.push(dir);
  await writeTree(dir, files);
  return dir;
}

test('set rule on an empty workspace numbers the new rule #1 in every line', async () => {
  const dir = await workspace();
  const r = await runMock(['set', 'rule', '--path', '/a', '--text', 'hi'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /#0/, r.stdout);
  assert.match(r.stdout, /rule set `\.\/mock-rule-set\.toml`, rule #1 \u2014 added rule #1 in rule set #1/);
  const second = await runMock(['set', 'rule', '--path', '/b', '--text', 'hi', '--rule', '1', '--dry-run'], {
    cwd: dir,
  });
  assert.equal(second.code, 2, 'rule 1 (0-based) does not exist yet');
  const edit = await runMock(['set', 'rule', '--rule', '0', '--status', '201'], { cwd: dir });
  assert.match(
    edit.stdout,
    /^ {2}rule set: \.\/mock-rule-set\.toml, rule #1\n {2}Updated: rule set `\.\/mock-rule-set\.toml`, rule #1 \u2014 rule #1 in rule set #1/m,
  );
});

test('x.toml and ./x.toml: the same path in set rule, match-test and get, whatever was typed', async () => {
  const outputs: string[][] = [];
  for (const spelling of ['x.toml', './x.toml']) {
    const dir = await workspace();
    const set = await runMock(['set', 'rule', '--rule-set', spelling, '--path', '/a', '--text', 'hi'], { cwd: dir });
    assert.equal(set.code, 0, set.stderr);
    const setJson = await runMock(
      ['set', 'rule', '--rule-set', spelling, '--path', '/b', '--text', 'hi', '--format', 'json', '--dry-run'],
      { cwd: dir },
    );
    const mt = await runMock(['match-test', '--rule-set', spelling, '--path', '/a'], { cwd: dir });
    const why = await runMock(['get', '/a', '--why'], { cwd: dir });
    outputs.push([set.stdout, setJson.stdout, mt.stdout, why.stdout]);
    assert.match(set.stdout, /^ {2}rule set: \.\/x\.toml \(new rule\)$/m);
    assert.match(mt.stdout, /edit with: mock set rule --rule-set \.\/x\.toml --rule 0/);
    assert.match(why.stdout, /edit with: mock set rule --rule-set \.\/x\.toml --rule 0/);
    assert.equal((JSON.parse(setJson.stdout) as { result: { rule_set: string } }).result.rule_set, './x.toml');
  }
  assert.deepEqual(outputs[0], outputs[1]);
});

test('set rule next to a server on another port writes no port; --init -p writes the one given', async () => {
  const dir = await workspace({ 'hello.json': '{"hi":1}' });
  const mock = await spawnMock([], { cwd: dir });
  running.push(mock);
  const r = await runMock(['set', 'rule', '--path', '/a', '--text', 'hi'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const toml = readFileSync(join(dir, 'mock.toml'), 'utf8');
  assert.doesNotMatch(toml, /^port\s*=/m, toml);
  const v = await runMock(['validate'], { cwd: dir });
  assert.equal(v.code, 0, v.stderr);

  const fresh = await workspace();
  const init = await runMock(['--init', '--yes', '-p', '4321'], { cwd: fresh });
  assert.equal(init.code, 0, init.stderr);
  assert.match(readFileSync(join(fresh, 'mock.toml'), 'utf8'), /^port = 4321$/m);
  const bad = await runMock(['--init', '--yes', '-p', 'x'], { cwd: await workspace() });
  assert.equal(bad.code, 2);
});

test("the request log shows each answer's status", async () => {
  const dir = await workspace({
    'hello.json': '{"hi":1}',
    'mock.toml': '[service]\nrule_sets = ["r.toml"]\n',
    'r.toml': '[[rules]]\nwhen.request.url_path = "/made"\nrespond = { status = 201, text = "ok" }\n',
  });
  const mock = await spawnMock([], { cwd: dir });
  running.push(mock);
  for (const path of ['/hello', '/made', '/missing?x=1']) await (await fetch(mock.url + path)).arrayBuffer();
  // the answer line is written with the answer: the three are there once the third answer arrived, or soon after
  const deadline = Date.now() + 10_000;
  while (!mock.stdoutLines.includes('-> 404 /missing') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  const lines = mock.stdoutLines;
  for (const [path, status] of [
    ['/hello', 200],
    ['/made', 201],
    ['/missing', 404],
  ] as const) {
    const at = lines.indexOf(`<- ${path}`);
    assert.ok(at >= 0, lines.join('\n'));
    assert.equal(lines[at + 2], `-> ${status} ${path}`, lines.join('\n'));
  }
});

test('mock db.json points at --db (and --init --from)', async () => {
  const dir = await workspace({ 'db.json': '{"users":[]}' });
  const r = await runMock(['db.json'], { cwd: dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown subcommand 'db\.json'; did you mean 'mock --db db\.json'/);
  assert.match(r.stderr, /'mock --init --from db\.json'/);
  const yaml = await runMock(['openapi.yaml'], { cwd: dir });
  assert.match(yaml.stderr, /did you mean 'mock --init --from openapi\.yaml'/);
});

test('a stream file line `: delay abc` is a load error naming the file and the line', async () => {
  const dir = await workspace({
    'mock.toml': '[service]\nrule_sets = ["r.toml"]\n',
    'r.toml': '[[rules]]\nwhen.request.url_path = "/events"\nrespond.stream.file_path = "events.sse"\n',
    'events.sse': 'data: one\n\n: delay 100\ndata: two\n\n: delay abc\ndata: three\n\n: delayed on purpose\n',
  });
  const v = await runMock(['validate'], { cwd: dir });
  assert.equal(v.code, 2, v.stdout + v.stderr);
  assert.match(
    v.stderr,
    /r\.toml:3:\d+: error: rule #1: stream file `events\.sse` line 6: `: delay abc` is not a delay/,
  );
  assert.doesNotMatch(v.stderr, /delayed on purpose/, 'a comment that does not start with `delay ` is a comment');
  const serve = await runMock(['-p', '0'], { cwd: dir });
  assert.equal(serve.code, 2, 'the server refuses to start');
  await writeTree(dir, { 'events.sse': 'data: one\n\n: delay 100\ndata: two\n\n' });
  const fixed = await runMock(['validate'], { cwd: dir });
  assert.equal(fixed.code, 0, fixed.stderr);
});

test('a Swagger 2.0 example written as JSON text is served as the JSON it holds', async () => {
  const doc = [
    'swagger: "2.0"',
    'info: { title: versions, version: "1" }',
    'produces: [application/json]',
    'paths:',
    '  /:',
    '    get:',
    '      responses:',
    '        "200":',
    '          description: the versions',
    '          examples:',
    '            application/json: |-',
    '              {',
    '                "versions": [ { "id": "v2.0", "status": "CURRENT" } ]',
    '              }',
    '',
  ].join('\n');
  const dir = await workspace({ 'swagger.yaml': doc });
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  const r = await runMock(['--init', '--from', '../swagger.yaml', '--yes'], { cwd: ws, timeoutMs: 120_000 });
  assert.equal(r.code, 0, r.stderr);
  const got = await runMock(['get', '/', '--format', 'json'], { cwd: ws });
  const body = (JSON.parse(got.stdout) as { result: { response: { body: string } } }).result.response.body;
  assert.deepEqual(JSON.parse(body), { versions: [{ id: 'v2.0', status: 'CURRENT' }] }, body);
});

test("a Postman example saved for an exact URL answers that URL, beside the templated request's", async () => {
  const example = (name: string, code: number, body: string, raw: string): unknown => ({
    name,
    code,
    header: [{ key: 'Content-Type', value: 'application/json' }],
    body,
    originalRequest: { method: 'GET', url: { raw, host: ['{{baseUrl}}'], path: raw.split('/').slice(1) } },
  });
  const collection = {
    info: { name: 'users', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'baseUrl', value: 'https://api.example.com' }],
    item: [
      {
        name: 'a user',
        request: {
          method: 'GET',
          url: { raw: '{{baseUrl}}/users/{{user_id}}', host: ['{{baseUrl}}'], path: ['users', '{{user_id}}'] },
        },
        response: [
          example('found', 200, '{"id": 7}', '{{baseUrl}}/users/{{user_id}}'),
          example('missing', 404, '"Not found"', '{{baseUrl}}/users/100'),
        ],
      },
    ],
  };
  const dir = await workspace({ 'users.postman_collection.json': JSON.stringify(collection) });
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  const r = await runMock(['--init', '--from', '../users.postman_collection.json', '--yes'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  const missing = JSON.parse((await runMock(['get', '/users/100', '--format', 'json'], { cwd: ws })).stdout) as {
    result: { response: { status: number; body: string } };
  };
  assert.equal(missing.result.response.status, 404);
  assert.equal(missing.result.response.body, '"Not found"');
  const found = JSON.parse((await runMock(['get', '/users/7', '--format', 'json'], { cwd: ws })).stdout) as {
    result: { response: { status: number; body: string } };
  };
  assert.equal(found.result.response.status, 200);
  assert.deepEqual(JSON.parse(found.result.response.body), { id: 7 });
});
