// `mock mcp` (docs/mcp.md) driven as an agent host drives it: the official SDK's client over stdio against the real
// program. Each tool answers the envelope its command prints under `--format json` (the same text, byte for byte,
// where a command exists), writes only inside the workspace, and reaches a running server through its management
// listener and token; the reference pages are resources.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  MAIN_JS,
  makeTempDir,
  removeDir,
  runMock,
  spawnMock,
  writeTree,
  type RunningMock,
} from '../helpers/mock-cli.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
const clients: Client[] = [];
after(async () => {
  for (const c of clients) await c.close();
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = makeTempDir('mock-mcp-');
  dirs.push(dir);
  await writeTree(dir, files);
  return dir;
}

async function connect(cwd: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN_JS, 'mcp', ...args],
    cwd,
    env: { ...(process.env as Record<string, string>), MOCK_INSPECT_URL: '', MOCK_INSPECT_TOKEN: '', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mock-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface Answer {
  readonly text: string;
  readonly envelope: { schema: number; mock: string; result?: any; error?: { kind: string; message: string } };
  readonly isError: boolean;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  const text = r.content[0]!.text;
  const envelope = JSON.parse(text) as Answer['envelope'];
  assert.deepEqual(r.structuredContent, envelope, 'the structured content is the envelope');
  assert.equal(envelope.schema, 1);
  return { text, envelope, isError: r.isError === true };
}

const USER = '{ "id": 42, "name": "Ada" }\n';

test('the tools, their annotations and the reference resources', async () => {
  const dir = await workspace({ 'api/user.json': USER });
  const client = await connect(dir);
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const name of [
    'describe_workspace',
    'validate',
    'explain_request',
    'match_test',
    'set_rule',
    'add_file',
    'import',
    'list_requests',
    'wait_for_request',
    'list_overrides',
    'add_override',
    'remove_overrides',
    'set_scenario',
    'reset',
  ])
    assert.ok(byName.has(name), `tool ${name} is listed`);
  for (const name of ['describe_workspace', 'validate', 'explain_request', 'match_test', 'list_requests'])
    assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, `${name} is read-only`);
  for (const name of ['set_rule', 'remove_overrides', 'set_scenario', 'reset'])
    assert.equal(byName.get(name)!.annotations?.destructiveHint, true, `${name} says it is destructive`);
  assert.equal(byName.get('add_file')!.annotations?.destructiveHint, false, 'add_file never replaces a file');

  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  for (const uri of [
    'mock://reference/cli.md',
    'mock://reference/rule-set.md',
    'mock://schema/mock-rule-set.schema.json',
  ])
    assert.ok(uris.includes(uri), `${uri} in ${uris.join(', ')}`);
  const cli = await client.readResource({ uri: 'mock://reference/cli.md' });
  const text = (cli.contents[0] as { text: string }).text;
  assert.equal(text, readFileSync(new URL('../../../docs/reference/cli.md', import.meta.url), 'utf8'));
  assert.match(text, /## `mock mcp`/);
});

test('workspace tools answer the envelopes the commands print, and write only inside the workspace', async () => {
  const dir = await workspace({ 'api/user.json': USER });
  const client = await connect(dir);

  const described = await call(client, 'describe_workspace');
  assert.equal(described.isError, false, described.text);
  assert.deepEqual(described.envelope.result.files, ['api/user.json']);
  assert.equal(described.envelope.result.config_file, null, 'zero-config');

  const dry = await call(client, 'set_rule', {
    path: '/api/login',
    method: 'POST',
    status: 401,
    json: '{"error":"bad"}',
    dry_run: true,
  });
  assert.equal(dry.isError, false, dry.text);
  assert.equal(dry.envelope.result.dry_run, true);
  assert.equal(existsSync(join(dir, 'mock.toml')), false, 'a dry run writes nothing');

  const added = await call(client, 'set_rule', {
    path: '/api/login',
    method: 'POST',
    status: 401,
    json: '{"error":"bad"}',
  });
  assert.equal(added.isError, false, added.text);
  assert.deepEqual(added.envelope.result.changed_files.sort(), ['./mock-rule-set.toml', './mock.toml']);
  assert.match(readFileSync(join(dir, 'mock-rule-set.toml'), 'utf8'), /\/api\/login/);

  const why = await call(client, 'explain_request', { path: '/api/login', method: 'POST' });
  const cliWhy = await runMock(['get', '/api/login', '--why', '--format', 'json', '--method', 'POST'], { cwd: dir });
  assert.equal(why.text, cliWhy.stdout, 'explain_request is `mock get --why --format json`, byte for byte');
  assert.equal(why.envelope.result.response.status, 401);

  const mt = await call(client, 'match_test', { rule_set: 'mock-rule-set.toml', path: '/api/login', method: 'POST' });
  assert.equal(mt.isError, false, mt.text);
  assert.equal(mt.envelope.result.matched, true, mt.text);
  const validated = await call(client, 'validate');
  assert.equal(validated.isError, false, validated.text);
  assert.equal(validated.envelope.result.summary.rules, 1);

  const outside = await call(client, 'set_rule', { rule_set: '../elsewhere.toml', path: '/x', text: 'x' });
  assert.equal(outside.isError, true);
  assert.equal(outside.envelope.error!.kind, 'usage');
  assert.match(outside.envelope.error!.message, /outside the workspace/);
  assert.equal(existsSync(join(dir, '..', 'elsewhere.toml')), false);

  const file = await call(client, 'add_file', { path: 'api/orders.json', content: '[{"id":1}]\n' });
  assert.equal(file.isError, false, file.text);
  assert.deepEqual(file.envelope.result.changed_files, ['./api/orders.json']);
  assert.equal(readFileSync(join(dir, 'api/orders.json'), 'utf8'), '[{"id":1}]\n');
  const again = await call(client, 'add_file', { path: 'api/orders.json', content: 'other' });
  assert.equal(again.envelope.error!.kind, 'conflict');
  assert.equal(readFileSync(join(dir, 'api/orders.json'), 'utf8'), '[{"id":1}]\n', 'never replaced');
  const escape = await call(client, 'add_file', { path: '../escape.json', content: '{}' });
  assert.equal(escape.envelope.error!.kind, 'usage');
  assert.equal(existsSync(join(dir, '..', 'escape.json')), false);

  const bad = await call(client, 'explain_request', { path: '/x', config: 'missing.toml' });
  assert.equal(bad.isError, true);
  assert.ok(bad.envelope.error, bad.text);
});

test('import is a dry run unless told otherwise', async () => {
  const doc = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/pets': {
        get: {
          responses: {
            '200': { description: 'ok', content: { 'application/json': { example: [{ id: 1, name: 'Rex' }] } } },
          },
        },
      },
    },
  });
  const dir = await workspace({ 'openapi.json': doc });
  const client = await connect(dir);
  const dry = await call(client, 'import', { from: 'openapi.json' });
  assert.equal(dry.isError, false, dry.text);
  assert.equal(existsSync(join(dir, 'mock.toml')), false, 'the default is a dry run');
  const real = await call(client, 'import', { from: 'openapi.json', dry_run: false });
  assert.equal(real.isError, false, real.text);
  assert.equal(existsSync(join(dir, 'mock.toml')), true);
  const why = await call(client, 'explain_request', { path: '/pets' });
  assert.equal(why.envelope.result.response.status, 200, why.text);
});

test('running-server tools: journal, wait, overrides, scenarios and reset through the management token', async () => {
  const dir = await workspace({
    'api/user.json': USER,
    'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
    'rules.toml':
      '[[rules]]\nwhen.request.url_path = "/cart"\nwhen.state.cart = "paid"\nrespond.text = "paid"\n\n[[rules]]\nwhen.request.url_path = "/cart"\nrespond.text = "empty"\n',
  });
  const token = 'mcp-test-token';
  const mock = await spawnMock(['--inspect=0', '--inspect-token', token], { cwd: dir });
  running.push(mock);
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
  const m = /^Inspector: (http:\/\/127\.0\.0\.1:\d+)\//.exec(line ?? '');
  assert.ok(m, mock.stdoutLines.join('\n'));

  const without = await connect(dir);
  const none = await call(without, 'list_requests');
  assert.equal(none.envelope.error!.kind, 'usage');
  assert.match(none.envelope.error!.message, /--inspect-url/);

  const client = await connect(dir, ['--inspect-url', m[1]!], { MOCK_INSPECT_TOKEN: token });
  assert.equal((await fetch(`${mock.url}/api/user`)).status, 200);
  const waited = await call(client, 'wait_for_request', { path: '/api/user', timeout_ms: 30_000 });
  assert.equal(waited.isError, false, waited.text);
  assert.equal(waited.envelope.result.entries.length, 1);
  const lastId = waited.envelope.result.last_id as number;

  const late = call(client, 'wait_for_request', { path: '/api/user', since: String(lastId), timeout_ms: 30_000 });
  assert.equal((await fetch(`${mock.url}/api/user`)).status, 200);
  const later = await late;
  assert.equal(later.envelope.result.entries.length, 1, later.text);

  const short = await call(client, 'wait_for_request', { path: '/never', timeout_ms: 200 });
  assert.equal(short.isError, true);
  assert.match(short.envelope.error!.message, /within 200 ms/);

  const override = await call(client, 'add_override', {
    rules: [{ when: { request: { url_path: '/api/user' } }, respond: { status: 503 } }],
  });
  assert.equal(override.isError, false, override.text);
  assert.equal((await fetch(`${mock.url}/api/user`)).status, 503);
  const listed = await call(client, 'list_overrides');
  assert.equal(listed.envelope.result.overrides.length, 1);
  const removed = await call(client, 'remove_overrides', { id: listed.envelope.result.overrides[0].id });
  assert.equal(removed.envelope.result.removed, 1, removed.text);
  assert.equal((await fetch(`${mock.url}/api/user`)).status, 200);

  assert.equal(await (await fetch(`${mock.url}/cart`)).text(), 'empty');
  const moved = await call(client, 'set_scenario', { scenarios: { cart: 'paid' } });
  assert.equal(moved.isError, false, moved.text);
  assert.equal(await (await fetch(`${mock.url}/cart`)).text(), 'paid');

  const reset = await call(client, 'reset');
  assert.equal(reset.isError, false, reset.text);
  assert.equal(await (await fetch(`${mock.url}/cart`)).text(), 'empty', 'the scenario is back at started');
  const journal = await call(client, 'list_requests', { path: '/api/user' });
  assert.equal(journal.envelope.result.entries.length, 0, 'the journal was cleared');

  const badToken = await connect(dir, ['--inspect-url', m[1]!, '--inspect-token', 'wrong']);
  const refused = await call(badToken, 'list_requests');
  assert.equal(refused.isError, true, refused.text);
});
