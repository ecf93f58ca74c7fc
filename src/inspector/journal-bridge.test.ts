import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { raw, startHandlerServer, type InspectorServer } from '../../test/helpers/inspector-server.js';
import { DEFAULTS } from '../model/config.js';
import { dispatched, newEnv, refused } from '../journal/fixtures/exchanges.js';
import { Journal } from '../journal/journal.js';
import { createInspector, type Inspector } from './index.js';
import {
  connectJournal,
  journalReplay,
  journalRoutes,
  requestEventJson,
  requestEventOfEntry,
} from './journal-bridge.js';

let journal: Journal;
let inspector: Inspector;
let srv: InspectorServer;
let unsubscribe: () => void;
const env = newEnv();
let rotations = 0;

before(async () => {
  journal = new Journal({ size: 5 });
  inspector = createInspector({
    version: '9.9.9',
    routes: journalRoutes({ journal, version: '9.9.9', resetRotation: () => void rotations++ }),
    files: { fallbackDir: () => '/nonexistent', view: () => DEFAULTS.fileTreeView },
    rules: { cwd: () => '/nonexistent', configPath: () => undefined },
    events: { replay: journalReplay(journal), pingMs: 60_000 },
  });
  unsubscribe = connectJournal(journal, inspector.events);
  srv = await startHandlerServer(inspector.handler);
});
after(async () => {
  unsubscribe();
  inspector.close();
  await srv.close();
});

/** An event-stream client collecting the raw text. */
function stream(
  headers: Record<string, string> = {},
): Promise<{ text: () => string; until: (re: RegExp) => Promise<void>; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: srv.port,
        path: '/__mock/api/events',
        headers: { host: `127.0.0.1:${srv.port}`, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        resolve({
          req,
          text: () => text,
          until: async (re) => {
            const deadline = Date.now() + 10_000;
            while (!re.test(text)) {
              if (Date.now() > deadline) throw new Error(`no ${re} in ${text}`);
              await new Promise((r) => setTimeout(r, 10));
            }
          },
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const capture = async (target: string, headers: [string, string][] = []): Promise<void> =>
  void journal.capture(await dispatched({ target, headers }, env));

test('the journal routes answer through the inspector, with its security and no secrets', async () => {
  await capture('/api/users?token=SECRET-QUERY', [['authorization', 'Bearer SECRET-AUTH']]);
  const list = await raw(srv.port, 'GET', '/__mock/api/requests?path=/api/users');
  assert.equal(list.status, 200);
  assert.equal(list.headers['x-content-type-options'], 'nosniff');
  const entries = (list.json as { result: { entries: { id: number; answered_by: unknown }[] } }).result.entries;
  assert.equal(entries.length, 1);
  assert.ok(!list.text.includes('SECRET'), list.text);
  const one = await raw(srv.port, 'GET', `/__mock/api/requests/${entries[0]!.id}`);
  assert.equal(one.status, 200);
  assert.equal((one.json as { result: { id: number } }).result.id, entries[0]!.id);
  assert.equal((await raw(srv.port, 'GET', '/__mock/api/requests/999')).status, 404);
  assert.equal((await raw(srv.port, 'GET', '/__mock/api/requests', { host: 'evil.test' })).status, 403);
  assert.equal(
    (await raw(srv.port, 'POST', '/__mock/api/reset', { 'x-mock-client': '1', 'content-type': 'text/plain' }, '{}'))
      .status,
    415,
  );
});

test('captures become request events, a DELETE a reset event; a cross-origin DELETE clears nothing', async () => {
  const s = await stream();
  await s.until(/: connected/);
  await capture('/hello.txt', [['cookie', 'sid=SECRET-COOKIE']]);
  await s.until(/event: request/);
  const data = JSON.parse(/event: request\ndata: (.*)\n/.exec(s.text())![1]!) as Record<string, unknown>;
  assert.deepEqual(Object.keys(data).sort(), [
    'answered_by',
    'generation',
    'id',
    'latency_ms',
    'method',
    'path',
    'stage',
    'status',
  ]);
  assert.ok(!s.text().includes('SECRET'));
  const held = journal.length;
  assert.equal(
    (await raw(srv.port, 'DELETE', '/__mock/api/requests', { 'x-mock-client': '1', origin: 'http://evil.test' }))
      .status,
    403,
  );
  assert.equal(journal.length, held);
  assert.equal((await raw(srv.port, 'DELETE', '/__mock/api/requests', { 'x-mock-client': '1' })).status, 204);
  assert.equal(journal.length, 0);
  await s.until(/event: reset/);
  const before = rotations;
  assert.equal(
    (
      await raw(
        srv.port,
        'POST',
        '/__mock/api/reset',
        { 'x-mock-client': '1', 'content-type': 'application/json' },
        '{"journal":false}',
      )
    ).status,
    204,
  );
  assert.equal(rotations, before + 1);
  s.req.destroy();
});

test('Last-Event-ID replays what the journal holds; an evicted cursor gets a reset event', async () => {
  const first = journal.lastId;
  for (let i = 0; i < 3; i++) await capture(`/r${i}`);
  const s = await stream({ 'last-event-id': String(first + 1) });
  await s.until(new RegExp(`id: ${first + 3}\\n`));
  assert.ok(!s.text().includes(`id: ${first + 1}\n`));
  s.req.destroy();
  for (let i = 0; i < 10; i++) await capture(`/more${i}`);
  const stale = await stream({ 'last-event-id': String(first + 1) });
  await stale.until(/event: reset/);
  stale.req.destroy();
});

test('requestEventJson writes what JSON.stringify(requestEventOfEntry) gives, for every stage and odd paths', async () => {
  const j = new Journal();
  const targets = ['/api/users', '/api/nothing', '/hello.txt', '/absent', '/p%22q%5C%0A%E2%9C%93', '/rr'];
  for (const target of targets) j.capture(await dispatched({ target }, env));
  j.capture(await dispatched({ method: 'OPTIONS', target: '/api/users' }, env));
  j.capture(
    await dispatched(
      { method: 'POST', target: '/x', headers: [['content-type', 'application/json']], body: '{nope' },
      env,
    ),
  );
  j.capture(refused({ target: '/upload' }, 5000));
  const rows = j.rows();
  assert.equal(new Set(rows.map((r) => r.stage)).size >= 5, true, rows.map((r) => r.stage).join());
  for (const row of rows) {
    assert.equal(requestEventJson(row), JSON.stringify(requestEventOfEntry(row)), `row ${row.id}`);
    const entry = j.lookup(row.id);
    assert.ok(entry.kind === 'found');
    assert.equal(requestEventJson(row), JSON.stringify(requestEventOfEntry(entry.entry)), `entry ${row.id}`);
  }
});

test('requestEventJson keeps to JSON.stringify when one answer repeats, under a new generation, with a session', async () => {
  const j = new Journal();
  for (const target of ['/hello.txt', '/hello.txt', '/api/users', '/api/users', '/hello.txt']) {
    const ex = await dispatched({ target }, env);
    j.capture(ex);
    j.capture({ ...ex, generation: 7 });
    j.capture({ ...ex, session: 'team-a' });
  }
  const rows = j.rows();
  assert.equal(rows.length, 15);
  for (const row of rows)
    assert.equal(requestEventJson(row), JSON.stringify(requestEventOfEntry(row)), `row ${row.id}`);
  assert.ok(requestEventJson(rows[2]!).includes('"session":"team-a"'));
});
