// The inspector (docs/inspector.md) with the real program (`dist/bin/main.cjs --inspect`, port 0): the management listener's
// binding, one journal entry per stage with get's why, redaction, bounds and the event stream, the security checks,
// the file tree's filters and the rules POST.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { events, raw } from '../helpers/inspector-server.js';
import { waitFor } from './live-reload-helpers.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

interface Inspected {
  readonly mock: RunningMock;
  readonly port: number;
  readonly dir: string;
}

async function inspected(files: Record<string, string>, args: readonly string[] = ['--inspect']): Promise<Inspected> {
  const dir = makeTempDir('mock-inspect-');
  dirs.push(dir);
  await writeTree(dir, files);
  const mock = await spawnMock(args, { cwd: dir });
  running.push(mock);
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
  const m = /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\/ \(loopback only\)$/.exec(line ?? '');
  assert.ok(m, `an Inspector line: ${mock.stdoutLines.join('\n')}`);
  assert.ok(mock.stdoutLines.indexOf(line!) < mock.stdoutLines.findIndex((l) => l.startsWith('Listening on')));
  return { mock, port: Number(m[1]), dir };
}

const api = async (i: Inspected, path: string): Promise<any> => {
  const r = await raw(i.port, 'GET', path);
  assert.equal(r.status, 200, r.text);
  return (r.json as any).result;
};

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (text += d))
          .on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const WS: Record<string, string> = {
  'mock.toml':
    '[listener]\nip_address = "0.0.0.0"\n\n[service]\nrule_sets = ["rules.toml", "api.toml", "rr.toml"]\nmiddlewares = ["mw.rhai"]\nmax_request_body_bytes = 1000\n',
  'rules.toml':
    '# the shop\n[[rules]]\nwhen.request.url_path = "/rule"\nrespond.json = \'{"v":1}\'\n\n[[rules]]\nwhen.request.url_path = "/login"\nrespond.json = \'{"ok":true}\'\nrespond.headers = { set-cookie = "sid=cookie-out" }\n',
  'api.toml':
    '[prefix]\nurl_path = "/api"\n\n[[rules]]\nwhen.request.url_path = "/api/known"\nrespond.text = "known"\n',
  'rr.toml':
    'strategy = "round_robin"\n' +
    ['A1', 'A2', 'A3'].map((t) => `[[rules]]\nwhen.request.url_path = "/rr"\nrespond.text = "${t}"\n`).join('\n'),
  'mw.rhai': 'if url_path == "/mw" { return #{ text: "mw" }; }\n',
  'users.json': '[]\n',
  '__mock/api/requests.json': '{"mine":true}\n',
};

test("1, 2: loopback-only inspector; the mock port keeps /__mock; one entry per stage with get's why; round robin; generations", async () => {
  const i = await inspected(WS);
  // 1: /proc/net/tcp lists the inspector on 127.0.0.1 (0100007F), the mock on 0.0.0.0
  const tcp = readFileSync('/proc/net/tcp', 'utf8');
  const hex = (p: number): string => p.toString(16).toUpperCase().padStart(4, '0');
  assert.match(tcp, new RegExp(`0100007F:${hex(i.port)} 00000000:0000 0A`));
  assert.match(tcp, new RegExp(`00000000:${hex(i.mock.port)} 00000000:0000 0A`));
  const own = await send(i.mock.port, 'GET', '/__mock/api/requests');
  assert.deepEqual(own, { status: 200, text: '{"mine":true}\n' });

  const stages: { method: string; path: string; stage: string; body?: string; get?: string[] }[] = [
    { method: 'GET', path: '/mw', stage: 'middleware' },
    { method: 'GET', path: '/rule', stage: 'rule_set' },
    { method: 'GET', path: '/users', stage: 'dyn_route' },
    { method: 'GET', path: '/nothing', stage: 'dyn_route' },
    { method: 'GET', path: '/api/unknown', stage: 'prefix_miss' },
    { method: 'OPTIONS', path: '/rule', stage: 'options' },
    { method: 'POST', path: '/rule', stage: 'refused', body: 'x'.repeat(5000) },
  ];
  const since = (await api(i, '/__mock/api/requests')).last_id as number;
  for (const s of stages)
    await send(i.mock.port, s.method, s.path, s.body ? { 'content-type': 'text/plain' } : {}, s.body);
  const entries = (await api(i, `/__mock/api/requests?since=${since}`)).entries as any[];
  assert.deepEqual(
    entries.map((e) => e.stage),
    stages.map((s) => s.stage),
  );
  assert.deepEqual(
    entries.map((e) => e.answered_by.kind),
    ['middleware', 'rule_set', 'fallback', 'miss', 'prefix_miss', 'options', 'refused'],
  );
  assert.equal(entries[6].response.status, 413);
  for (const [k, s] of stages.entries()) {
    if (s.stage === 'refused') continue;
    const got = await runMock(['get', s.path, '-m', s.method, '--format', 'json'], { cwd: i.dir });
    const get = JSON.parse(got.stdout).result;
    assert.deepEqual(entries[k].why, get.why, `why of ${s.method} ${s.path}`);
    assert.deepEqual(entries[k].matched, get.matched, `matched of ${s.method} ${s.path}`);
  }
  // a round-robin trio: A1, A2, A3 as answered (a recomputed why would say A1 thrice)
  const before = (await api(i, '/__mock/api/requests')).last_id as number;
  for (let k = 0; k < 3; k++) await send(i.mock.port, 'GET', '/rr');
  const rr = (await api(i, `/__mock/api/requests?since=${before}&path=/rr`)).entries as any[];
  assert.deepEqual(
    rr.map((e) => e.matched.rule_index),
    [0, 1, 2],
  );
  assert.deepEqual(
    rr.map((e) => e.response.body.text),
    ['A1', 'A2', 'A3'],
  );
  // entries from before a reload keep their generation's rules
  writeFileSync(
    join(i.dir, 'rules.toml'),
    WS['rules.toml']!.replace('{"v":1}', '{"v":2}').replace('"/rule"', '"/rule2"'),
  );
  await waitFor('the reload', async () =>
    (await api(i, '/__mock/api/workspace')).generation === 2 ? true : undefined,
  );
  await send(i.mock.port, 'GET', '/rule2');
  const all = (await api(i, '/__mock/api/requests?path_regex=^/rule')).entries as any[];
  const first = all.find((e) => e.request.path === '/rule' && e.request.method === 'GET');
  const second = all.find((e) => e.request.path === '/rule2');
  assert.equal(first.generation, 1);
  assert.equal(second.generation, 2);
  assert.deepEqual(first.response.body.value, { v: 1 });
  assert.match(JSON.stringify(first.why), /\/rule"/);
  assert.match(JSON.stringify(second.why), /\/rule2/);
});

test('3, 5: secrets are absent from every API body and the event stream; Host, cross-origin and content-type checks', async () => {
  const i = await inspected(WS);
  const stream = await events(i.port);
  await send(i.mock.port, 'GET', '/rule?token=tok-secret', {
    authorization: 'Bearer auth-secret',
    cookie: 'sid=cookie-in',
  });
  await send(i.mock.port, 'GET', '/login');
  await send(i.mock.port, 'POST', '/rule', { 'content-type': 'application/json' }, '{"a":{"password":"pw-secret"}}');
  await send(
    i.mock.port,
    'POST',
    '/rule',
    { 'content-type': 'application/x-www-form-urlencoded' },
    'x=1&secret=form-secret',
  );
  await waitFor('four request events', () =>
    (stream.text().match(/event: request/g) ?? []).length >= 4 ? true : undefined,
  );
  const list = await raw(i.port, 'GET', '/__mock/api/requests');
  const bodies = [list.text, stream.text()];
  for (const e of (list.json as any).result.entries)
    bodies.push((await raw(i.port, 'GET', `/__mock/api/requests/${e.id}`)).text);
  for (const text of bodies) {
    for (const s of ['tok-secret', 'auth-secret', 'cookie-in', 'cookie-out', 'pw-secret', 'form-secret'])
      assert.ok(!text.includes(s), `${s} leaked`);
  }
  assert.ok(list.text.includes('[redacted]'));
  stream.close();

  // 5: DNS rebinding, cross-origin writes, typed bodies, no CORS anywhere
  assert.equal((await raw(i.port, 'GET', '/__mock/api/requests', { host: 'evil.test' })).status, 403);
  const count = (list.json as any).result.entries.length;
  const cross = await raw(i.port, 'DELETE', '/__mock/api/requests', {
    origin: 'http://evil.test',
    'x-mock-client': 'x',
  });
  assert.equal(cross.status, 403);
  assert.equal((await api(i, '/__mock/api/requests')).entries.length, count);
  const plain = await raw(
    i.port,
    'POST',
    '/__mock/api/reset',
    { 'x-mock-client': 'x', 'content-type': 'text/plain', 'content-length': '2' },
    '{}',
  );
  assert.equal(plain.status, 415);
  assert.equal((await raw(i.port, 'OPTIONS', '/__mock/api/requests')).status, 405);
  for (const path of [
    '/',
    '/assets/app.js',
    '/__mock/api/requests',
    '/__mock/api/workspace',
    '/__mock/api/files',
    '/nope',
  ]) {
    const r = await raw(i.port, 'GET', path, { origin: 'http://evil.test' });
    assert.ok(
      !Object.keys(r.headers).some((h) => h.startsWith('access-control-')),
      `${path}: ${JSON.stringify(r.headers)}`,
    );
  }
  const del = await raw(i.port, 'DELETE', '/__mock/api/requests', { 'x-mock-client': 'x' });
  assert.equal(del.status, 204);
  assert.equal((await api(i, '/__mock/api/requests')).entries.length, 0);
});

test('4: --journal-size 50 keeps the last 50; each event arrives, replay by Last-Event-ID, 17th client 503, a stalled reader costs little', async () => {
  const i = await inspected(WS, ['--inspect', '--journal-size', '50']);
  for (let k = 0; k < 1000; k++) await send(i.mock.port, 'GET', '/users');
  const r = await api(i, '/__mock/api/requests');
  assert.deepEqual(
    r.entries.map((e: any) => e.id),
    Array.from({ length: 50 }, (_, k) => 951 + k),
  );

  const live = await events(i.port);
  assert.equal(live.res.statusCode, 200);
  // each request's event arrives on the open stream with no further traffic (how fast, against the request's own
  // round trip, is a timing: test/reliability/inspector-events.test.ts)
  for (const id of [1001, 1002, 1003]) {
    await send(i.mock.port, 'GET', '/rule');
    await waitFor('the request event', () => live.arrived(`id: ${id}\n`));
  }
  const replay = await events(i.port, { 'last-event-id': '995' });
  await waitFor('the replay', () => (replay.text().includes('id: 1003') ? true : undefined));
  assert.deepEqual(
    [...replay.text().matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
    [996, 997, 998, 999, 1000, 1001, 1002, 1003],
  );
  const more: Awaited<ReturnType<typeof events>>[] = [live, replay];
  while (more.length < 16) more.push(await events(i.port));
  const seventeenth = await raw(i.port, 'GET', '/__mock/api/events');
  assert.equal(seventeenth.status, 503);
  for (const s of more) s.close();

  // a client that never reads: its unsent bytes are bounded (dropped past 1 MiB)
  await waitFor('the streams to close', async () =>
    (await raw(i.port, 'GET', '/__mock/api/workspace')).status === 200 ? true : undefined,
  );
  const rss = (): number =>
    Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${i.mock.pid}/status`, 'utf8'))![1]) * 1024;
  // the same 5,000 requests first without it, so the heap has grown to its working size: what follows is what it adds.
  // Each request's event carries its 2 KB target, so an unbounded buffer would hold over 10 MiB; the bound keeps 1 MiB,
  // and RSS (which moves with the collector's timing on a loaded machine) gets the room between the two.
  const load = async (): Promise<void> => {
    for (let k = 0; k < 5000; k++) await send(i.mock.port, 'GET', `/users?n=${k}&pad=${'p'.repeat(2000)}`);
  };
  await load();
  const stalled = await events(i.port);
  stalled.res.pause();
  const rss0 = rss();
  await load();
  const growth = rss() - rss0;
  assert.ok(growth < 8 * 1024 * 1024, `RSS grew ${Math.round(growth / 1024)} KiB`);
  stalled.close();
});

test('6: the file tree: each file_tree_view key on and off, .gitignore, confinement', async () => {
  const files: Record<string, string> = {
    'mock.toml': '',
    '.hidden.json': '{}',
    'node_modules/x.json': '{}',
    'a.json': '{}',
    'b.txt': 'b',
    'skip.log': 'l',
    'ignored.json': '{}',
    '.gitignore': 'ignored.json\n',
  };
  const i = await inspected(files);
  let generation = 1;
  const names = async (view: string): Promise<string[]> => {
    writeFileSync(join(i.dir, 'mock.toml'), view === '' ? '' : `[file_tree_view]\n${view}\n`);
    const want = ++generation;
    await waitFor(`reload ${want}`, async () =>
      (await api(i, '/__mock/api/workspace')).generation === want ? true : undefined,
    );
    return ((await api(i, '/__mock/api/files')).entries as any[]).map((e) => e.name).sort();
  };
  const base = [
    '.hidden.json',
    '.gitignore',
    'node_modules',
    'a.json',
    'b.txt',
    'ignored.json',
    'mock.toml',
    'skip.log',
  ];
  const visible = (...without: string[]): string[] => base.filter((n) => !without.includes(n)).sort();
  assert.deepEqual(await names('show_hidden = false'), visible('.hidden.json', '.gitignore', 'node_modules'));
  assert.deepEqual(await names('show_hidden = true\nbuiltin_excludes = false'), visible());
  assert.deepEqual(await names('show_hidden = true'), visible('node_modules'));
  assert.deepEqual(
    await names('extra_excludes = ["*.log"]'),
    visible('.hidden.json', '.gitignore', 'node_modules', 'skip.log'),
  );
  assert.deepEqual(await names('extra_excludes = []'), visible('.hidden.json', '.gitignore', 'node_modules'));
  assert.deepEqual(await names('include = "*.json"'), ['a.json', 'ignored.json']);
  assert.deepEqual(
    await names('respect_gitignore = true'),
    visible('.hidden.json', '.gitignore', 'node_modules', 'ignored.json'),
  );
  assert.deepEqual(await names('respect_gitignore = false'), visible('.hidden.json', '.gitignore', 'node_modules'));
  const out = await raw(i.port, 'GET', '/__mock/api/files?dir=../');
  assert.equal(out.status, 400);
  // serving never changes: an excluded file is still served
  assert.equal((await send(i.mock.port, 'GET', '/ignored')).status, 200);
});

test('7: a rules POST appends a rule, keeps the comments, and the rule answers at once', async () => {
  const i = await inspected(WS);
  const body = JSON.stringify({ rule_set: './rules.toml', path: '/fresh', json: '{"fresh":true}' });
  const r = await raw(
    i.port,
    'POST',
    '/__mock/api/rules',
    { 'x-mock-client': 'x', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    body,
  );
  assert.equal(r.status, 200, r.text);
  const text = readFileSync(join(i.dir, 'rules.toml'), 'utf8');
  assert.ok(text.startsWith('# the shop\n'), text);
  assert.match(text, /\/fresh/);
  const answered = await send(i.mock.port, 'GET', '/fresh');
  assert.deepEqual(answered, { status: 200, text: '{"fresh":true}' });
});

test("flags: --inspect on a host exits 2, on the mock's own port 2, on a busy port 1 before the mock binds; journal flags need --inspect", async () => {
  const dir = makeTempDir('mock-inspect-flags-');
  dirs.push(dir);
  const host = await runMock(['--inspect=0.0.0.0:4000', '-p', '0'], { cwd: dir });
  assert.equal(host.code, 2);
  assert.match(host.stderr, /127\.0\.0\.1 only/);
  const same = await runMock(['serve', '--inspect=47123', '-p', '47123'], { cwd: dir });
  assert.equal(same.code, 2, same.stderr);
  const journal = await runMock(['--journal-size', '10', '-p', '0'], { cwd: dir });
  assert.equal(journal.code, 2);
  assert.match(journal.stderr, /--journal-size goes with --inspect/);
  const i = await inspected(WS);
  const busy = await runMock([`--inspect=${i.port}`, '-p', '0'], { cwd: dir });
  assert.equal(busy.code, 1, busy.stderr);
  assert.match(busy.stderr, /address already in use/);
  assert.ok(!busy.stdout.includes('Listening on'));
});
