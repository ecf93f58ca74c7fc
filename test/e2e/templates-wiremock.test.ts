// The `wiremock` template dialect as a user meets it: a hand-written rule set saying `template_dialect = "wiremock"`
// answers with WireMock's request model and helpers over real HTTP, a template file (`template_file`) too, and a
// template naming a path outside WireMock's request model is refused at load with its place.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

const RULES = `template_dialect = "wiremock"

[[rules]]
when.request.url_path = { value = "/users/", op = "starts_with" }
respond.text = '{{request.path.[1]}} of {{request.query.tag}} and {{request.query.tag.[1]}}: {{jsonPath request.body "$.name" default="anonymous"}}'

[[rules]]
when.request.url_path = "/file"
respond.file_path = "answer.json"
respond.template_file = true
`;

test('a wiremock-dialect rule set answers with WireMock request paths and helpers, its template files too', async () => {
  const dir = makeTempDir('mock-wm-tpl-');
  dirs.push(dir);
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
    'rules.toml': RULES,
    'answer.json': '{{#formatJson}}{"method":"{{request.method}}","first":"{{request.path.[0]}}"}{{/formatJson}}',
  });
  const mock = await spawnMock([], { cwd: dir });
  running.push(mock);
  const r = await fetch(`${mock.url}/users/42?tag=a&tag=b`, { method: 'POST', body: '{"name":"Ada"}' });
  assert.equal(r.status, 200);
  assert.equal(await r.text(), '42 of a and b: Ada');
  const anon = await fetch(`${mock.url}/users/7?tag=z`, { method: 'POST', body: '{}' });
  assert.equal(await anon.text(), '7 of z and : anonymous');
  const file = await fetch(`${mock.url}/file`);
  assert.equal(await file.text(), '{\n  "method" : "GET",\n  "first" : "file"\n}');
});

test('a path outside WireMock’s request model is a load error at its place, never an empty render', async () => {
  const dir = makeTempDir('mock-wm-tpl-bad-');
  dirs.push(dir);
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
    'rules.toml':
      '[[rules]]\nwhen.request.url_path = "/x"\nrespond.template_dialect = "wiremock"\nrespond.text = "id {{request.paht.[1]}}"\n',
  });
  const r = await runMock(['validate'], { cwd: dir });
  assert.notEqual(r.code, 0, r.stdout);
  assert.match(
    r.stdout + r.stderr,
    /rules\.toml:4:\d+: error: rule 1: the template does not compile: `request\.paht\.1` is not in WireMock's request model .*did you mean `request\.path`\?/,
  );
});
