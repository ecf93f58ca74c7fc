// The library (docs/library.md), through the package as users import it (`folder-mock`, resolved by its own `exports`):
// real servers on 127.0.0.1 port 0, real temp folders.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { JournalOverflowError, MockError, startMock, type Entry, type MockHandle } from 'folder-mock';
import { runMock } from '../helpers/mock-cli.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mock-lib-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const SHOP: Record<string, string> = {
  'mock.toml': '[service]\nrule_sets = ["rules.toml", "rr.toml"]\n',
  'rules.toml': [
    '[[rules]]\nwhen.request.url_path = "/api/cart"\nwhen.request.method = "POST"\nrespond.json = \'{"ok":true}\'\n',
    '[[rules]]\nwhen.request.url_path = "/api/users"\nwhen.request.headers.x-role = { value = "admin" }\nrespond.json = \'["root"]\'\n',
    '[[rules]]\nwhen.request.url_path = "/api/users"\nrespond.json = \'[]\'\n',
    '[[rules]]\nwhen.request.url_path = "/echo"\nrespond.json = \'{"password":"hunter2","ok":1}\'\n',
  ].join('\n'),
  'rr.toml':
    'strategy = "round_robin"\n' +
    ['A1', 'A2', 'A3'].map((t) => `[[rules]]\nwhen.request.url_path = "/rr"\nrespond.text = "${t}"\n`).join('\n'),
  'users.json': '{"users":[]}\n',
};

async function text(url: string, init?: RequestInit): Promise<{ status: number; body: string }> {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.text() };
}

async function inspectorJson(
  m: MockHandle,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; json: any }> {
  const r = await fetch(new URL(path, m.inspectUrl), init);
  const t = await r.text();
  return { status: r.status, json: t === '' ? undefined : JSON.parse(t) };
}

/** The HTTP entry's common fields, and the library entry's, in one shape. */
const project = (e: Entry) => ({
  id: e.id,
  method: e.request.method,
  path: e.request.path,
  status: e.response.status,
  stage: e.stage,
  generation: e.generation,
  matched:
    e.matched === null
      ? null
      : {
          rule_index: e.matched.ruleIndex,
          rule_set_file: e.matched.ruleSetFile,
          rule_set_index: e.matched.ruleSetIndex,
        },
});
const projectWire = (e: any) => ({
  id: e.id,
  method: e.request.method,
  path: e.request.path,
  status: e.response.status,
  stage: e.stage,
  generation: e.generation,
  matched: e.matched,
});

test('1, 9: imported by name; stage, matched and why equal `mock get --format json`; round robin shows A1, A2, A3; HTTP equals the library', async () => {
  const root = workspace(SHOP);
  const m = await startMock({ root, inspect: true });
  try {
    const cases: { path: string; method?: string; headers?: Record<string, string>; body?: string }[] = [
      { path: '/api/cart', method: 'POST', body: '{"sku":"A1"}', headers: { 'content-type': 'application/json' } },
      { path: '/api/users', headers: { 'x-role': 'admin' } },
      { path: '/api/users' },
      { path: '/users' },
      { path: '/nothing' },
    ];
    for (const c of cases)
      await text(m.url + c.path, {
        method: c.method ?? 'GET',
        headers: c.headers ?? {},
        ...(c.body ? { body: c.body } : {}),
      });
    const listed = await inspectorJson(m, '/__mock/api/requests');
    assert.equal(listed.status, 200);
    const wire = listed.json.result.entries as any[];
    assert.equal(wire.length, cases.length);
    for (const [i, c] of cases.entries()) {
      const args = ['get', c.path, '--format', 'json', ...(c.method ? ['-m', c.method] : [])];
      for (const [k, v] of Object.entries(c.headers ?? {})) if (k !== 'content-type') args.push('-H', `${k}: ${v}`);
      if (c.body) args.push('-b', c.body);
      const got = await runMock(args, { cwd: root });
      assert.equal(got.code, 0, got.stderr);
      const get = JSON.parse(got.stdout).result;
      assert.deepEqual(wire[i].why, get.why, `why of ${c.path}`);
      assert.deepEqual(wire[i].stage, get.stage, `stage of ${c.path}`);
      assert.deepEqual(wire[i].matched, get.matched, `matched of ${c.path}`);
    }
    // 9: the HTTP results equal the library's
    assert.deepEqual(wire.map(projectWire), m.requests().map(project));
    const one = await inspectorJson(m, `/__mock/api/requests/${wire[1].id}`);
    assert.deepEqual(one.json.result, wire[1]);
    // a round-robin trio: the why is the one dispatch answered with, not recomputed (which would say A1 thrice)
    const since = m.cursor();
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) bodies.push((await text(m.url + '/rr')).body);
    assert.deepEqual(bodies, ['A1', 'A2', 'A3']);
    const rr = m.requests({ since, path: '/rr' });
    assert.deepEqual(
      rr.map((e) => e.matched?.ruleIndex),
      [0, 1, 2],
    );
    assert.deepEqual(
      rr.map((e) => (e.response.body.kind === 'text' ? e.response.body.text : '')),
      ['A1', 'A2', 'A3'],
    );
  } finally {
    await m.close();
  }
});

test('2: every filter, since as a cursor and a Date; rule finds only its hits; reset keeps ids and restarts rotation', async () => {
  const m = await startMock({ root: workspace(SHOP) });
  try {
    const start = m.cursor();
    const before = new Date();
    await text(m.url + '/api/users');
    await text(m.url + '/api/cart', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await text(m.url + '/api/users', { headers: { 'x-role': 'admin' } });
    await text(m.url + '/nothing');
    await text(m.url + '/rr');
    assert.equal(m.requests().length, 5);
    assert.equal(m.requests({ path: '/api/users' }).length, 2);
    assert.equal(m.requests({ path: /^\/api\// }).length, 3);
    assert.equal(m.requests({ method: 'post' }).length, 1);
    assert.equal(m.requests({ since: start + 3 }).length, 2);
    assert.equal(m.requests({ since: before }).length, 5);
    assert.equal(m.requests({ since: new Date(Date.now() + 60_000) }).length, 0);
    assert.equal(m.requests({ stage: 'rule_set' }).length, 4);
    assert.equal(m.requests({ stage: 'miss' }).length, 1);
    assert.deepEqual(
      m.requests({ rule: { ruleSet: 0, rule: 1 } }).map((e) => e.request.headers.find(([n]) => n === 'x-role')?.[1]),
      ['admin'],
    );
    assert.equal(m.requests({ rule: { ruleSet: './rules.toml', rule: 2 } }).length, 1);
    assert.equal(m.requests({ rule: { ruleSet: 1 } }).length, 1);
    assert.deepEqual(
      m.requests({ limit: 2 }).map((e) => e.id),
      [start + 1, start + 2],
    );
    assert.throws(() => m.requests({ stage: 'nope' as never }), MockError);
    // waitForRequest: resolves on arrival; a timeout lists the last entries
    const waiting = m.waitForRequest({ path: '/later', since: m.cursor() });
    void text(m.url + '/later');
    assert.equal((await waiting).request.path, '/later');
    await assert.rejects(m.waitForRequest({ path: '/never' }, { timeoutMs: 50 }), (e: Error) =>
      /GET \/later → 404 \(dyn_route\)/.test(e.message),
    );

    const last = m.cursor();
    assert.equal((await text(m.url + '/rr')).body, 'A2');
    m.reset();
    assert.equal(m.requests().length, 0);
    assert.equal((await text(m.url + '/rr')).body, 'A1');
    assert.deepEqual(
      m.requests().map((e) => e.id),
      [last + 2],
    );
  } finally {
    await m.close();
  }
});

test('3: bounds: size 10 keeps ids 91-100, a stale since throws; maxBytes 4 MiB holds under 200 x 1 MiB POSTs', async (t) => {
  const m = await startMock({ root: workspace(SHOP), journal: { size: 10 } });
  try {
    for (let i = 0; i < 100; i++) await text(m.url + '/api/users');
    assert.deepEqual(
      m.requests().map((e) => e.id),
      Array.from({ length: 10 }, (_, i) => 91 + i),
    );
    assert.throws(
      () => m.requests({ since: 50 }),
      (e: unknown) => e instanceof JournalOverflowError && e.code === 'journal_overflow' && /40/.test(e.message),
    );
    assert.equal(m.requests({ since: 90 }).length, 10);
  } finally {
    await m.close();
  }
  // 200 x 1 MiB POSTs in a process of their own (node:http client, gc exposed), so only the mock's memory is measured
  const lib = fileURLToPath(new URL('../../lib/library/index.js', import.meta.url));
  const script = `import { startMock } from ${JSON.stringify(lib)};
import { request } from 'node:http';
const m = await startMock({ root: ${JSON.stringify(workspace(SHOP))}, journal: { maxBytes: 4 * 1024 * 1024 } });
const body = Buffer.alloc(1024 * 1024, 'x');
const post = () => new Promise((done, fail) => {
  const u = new URL(m.url + '/upload');
  request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': body.length } },
    (res) => res.resume().on('end', done)).on('error', fail).end(body);
});
for (let i = 0; i < 20; i++) await post();
gc();
const rss0 = process.memoryUsage().rss;
for (let i = 0; i < 200; i++) await post();
gc();
const rss1 = process.memoryUsage().rss;
const entries = m.requests();
const held = entries.reduce((n, e) => n + (e.request.body.kind === 'text' ? e.request.body.text.length : 0), 0);
process.stdout.write(JSON.stringify({ growth: rss1 - rss0, count: entries.length, last: entries.at(-1).id, held }));
await m.close();`;
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(killer);
  assert.equal(code, 0, out);
  const r = JSON.parse(out) as { growth: number; count: number; last: number; held: number };
  // each entry keeps 64 KiB of its body: what is held stays within 4 MiB, the oldest evicted
  assert.equal(r.last, 220);
  assert.ok(r.count > 10 && r.count < 64 && r.held <= 4 * 1024 * 1024, `${r.count} entries, ${r.held} bytes of bodies`);
  t.diagnostic(
    `maxBytes 4 MiB, 200 x 1 MiB POSTs: ${r.count} entries held, RSS +${(r.growth / 1024 / 1024).toFixed(1)} MB`,
  );
  assert.ok(r.growth < 64 * 1024 * 1024, `RSS grew ${Math.round(r.growth / 1024 / 1024)} MB`);
});

test('4: denylisted values never reach the library or HTTP results; redact: false shows them', async () => {
  const secrets = ['s3cr3t-auth', 'c00kie-val', 'tok-123', 'pw-nested', 'form-secret'];
  const send = async (m: MockHandle): Promise<void> => {
    await text(`${m.url}/api/users?token=tok-123`, {
      headers: { authorization: 'Bearer s3cr3t-auth', cookie: 'sid=c00kie-val' },
    });
    await text(`${m.url}/api/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":{"password":"pw-nested"}}',
    });
    await text(`${m.url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&secret=form-secret',
    });
    await text(`${m.url}/echo`);
  };
  const m = await startMock({ root: workspace(SHOP), inspect: true });
  try {
    await send(m);
    const all = JSON.stringify(m.requests());
    const http = JSON.stringify((await inspectorJson(m, '/__mock/api/requests')).json);
    for (const s of [...secrets, 'hunter2']) {
      assert.ok(!all.includes(s), `${s} in the library's entries`);
      assert.ok(!http.includes(s), `${s} in the HTTP entries`);
    }
    assert.ok(all.includes('[redacted]'));
  } finally {
    await m.close();
  }
  const open = await startMock({ root: workspace(SHOP), redact: false });
  try {
    await send(open);
    const all = JSON.stringify(open.requests());
    for (const s of secrets) assert.ok(all.includes(s), `${s} kept with redact: false`);
  } finally {
    await open.close();
  }
  await assert.rejects(
    startMock({ root: workspace(SHOP), redact: false, inspect: true }),
    (e: unknown) => e instanceof MockError && e.kind === 'usage',
  );
});

test('5: two instances are independent; a bad workspace rejects with diagnostics, a busy port with io', async () => {
  const root = workspace(SHOP);
  const a = await startMock({ root });
  const b = await startMock({ root });
  try {
    assert.notEqual(a.url, b.url);
    assert.equal((await text(a.url + '/rr')).body, 'A1');
    assert.equal((await text(a.url + '/rr')).body, 'A2');
    assert.equal((await text(b.url + '/rr')).body, 'A1');
    assert.equal(a.requests().length, 2);
    assert.equal(b.requests().length, 1);
    a.reset();
    assert.equal(b.requests().length, 1);
    const busy = Number(new URL(a.url).port);
    await assert.rejects(
      startMock({ root, port: busy }),
      (e: unknown) => e instanceof MockError && e.kind === 'io' && /already in use/.test(e.message),
    );
  } finally {
    await a.close();
    await b.close();
  }
  const bad = workspace({
    'mock.toml': '[service]\nrule_sets = ["r.toml"]\n',
    'r.toml': '[[rules]]\nwhen.request.url_path = "/x"\nrespond.jsn = "1"\n',
  });
  await assert.rejects(startMock({ root: bad }), (e: unknown) => {
    assert.ok(e instanceof MockError);
    assert.equal(e.kind, 'config_invalid');
    const d = e.diagnostics[0]!;
    assert.ok(d.file?.endsWith('r.toml') && d.line === 3 && d.column !== undefined, JSON.stringify(d));
    assert.match(e.message, /r\.toml:3:\d+/);
    // the message is the CLI's diagnostic line: the allowed keys and the did-you-mean included
    assert.match(e.message, /allowed keys: .*`json`/);
    assert.match(e.message, /did you mean `json`\?/);
    return true;
  });
  await assert.rejects(
    startMock({ root: bad, config: 'nope.toml' }),
    (e: unknown) => e instanceof MockError && e.kind === 'config_unreadable',
  );
  // a root that does not exist is refused before any config is looked for
  await assert.rejects(
    startMock({ root: join(bad, 'missing'), config: 'nope.toml' }),
    (e: unknown) => e instanceof MockError && e.kind === 'usage' && /option 'root'/.test(e.message),
  );
  // the process lives on: a next start works
  const c = await startMock({ root });
  assert.equal((await text(c.url + '/api/users')).status, 200);
  await c.close();
  await c.close(); // idempotent
});

test('6: close() lets a delayed request finish; a script that starts and closes leaves nothing holding the process', async () => {
  const root = workspace({
    ...SHOP,
    'rules.toml':
      '[[rules]]\nwhen.request.url_path = "/slow"\nrespond.text = "late"\nrespond.delay_response_milliseconds = 500\n',
  });
  const m = await startMock({ root });
  // node:http's own channel says when the server has the request (the journal records it only once answered)
  const arrived = new Promise<void>((resolve) => {
    const on = (): void => {
      unsubscribe('http.server.request.start', on);
      resolve();
    };
    subscribe('http.server.request.start', on);
  });
  const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const u = new URL(m.url + '/slow');
    request({ host: u.hostname, port: u.port, path: u.pathname }, (res) => {
      let b = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (b += d))
        .on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
    })
      .on('error', reject)
      .end();
  });
  await arrived;
  // the request is in flight (its answer waits 500 ms): close now
  const closed = m.close();
  assert.deepEqual(await slow, { status: 200, body: 'late' });
  await closed;
  await assert.rejects(fetch(m.url + '/api/users'));

  const lib = fileURLToPath(new URL('../../lib/library/index.js', import.meta.url));
  const script = `import { startMock } from ${JSON.stringify(lib)};
const m = await startMock({ root: ${JSON.stringify(root)}, inspect: true, watch: true });
// node:http rather than fetch: undici's own socket teardown keeps a process ~90 ms longer, whatever the server does
const { get } = await import('node:http');
await new Promise((done) => get(m.url + '/api/users', (res) => res.resume().on('end', done)));
await m.close();
// the management listener's handle is released a turn or two after close() resolves; then nothing of mock's
// (a timer, a watcher, a socket) may be left holding the event loop: only stdout's own pipe
while (process.getActiveResourcesInfo().includes('TCPServerWrap')) await new Promise((r) => setImmediate(r));
process.stdout.write('left ' + JSON.stringify(process.getActiveResourcesInfo()) + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(killer);
  assert.equal(code, 0, 'exited by itself');
  const left = JSON.parse(/left (.*)/.exec(out)?.[1] ?? 'null') as string[] | null;
  assert.deepEqual(
    left?.filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap'),
    [],
    out,
  );
});

test('root and fallbackDir that do not exist are refused with a MockError naming the option', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-lib-root-'));
  try {
    await assert.rejects(startMock({ root: join(dir, 'nope') }), (e: unknown) => {
      assert.ok(e instanceof MockError);
      assert.equal(e.kind, 'usage');
      assert.match(e.message, /^startMock option 'root' names a folder that does not exist: '.*nope'/);
      return true;
    });
    await assert.rejects(startMock({ root: dir, fallbackDir: 'nope' }), (e: unknown) => {
      assert.ok(e instanceof MockError);
      assert.match(e.message, /^startMock option 'fallbackDir' names a folder that does not exist: 'nope'$/);
      assert.doesNotMatch(e.message, /-d/);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
