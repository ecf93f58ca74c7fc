// Runtime overrides and sessions (docs/library.md#overrides, #sessions) through the real program
// (`dist/bin/main.cjs --inspect`, port 0): overrides over HTTP (newest first, once, removal, errors by key path,
// nothing written to disk), the journal's `answered_by.kind = "override"` and the why, two sessions with their own
// overrides, round-robin positions and journal views (header and cookie), a session's reset and close, and
// sessions off (the header means nothing).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { post, raw } from '../helpers/inspector-server.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

interface Started {
  readonly mock: RunningMock;
  readonly port: number;
  readonly dir: string;
}

const RULES =
  'strategy = "round_robin"\n[[rules]]\nwhen.request.url_path = "/rr"\nrespond.text = "one"\n[[rules]]\nwhen.request.url_path = "/rr"\nrespond.text = "two"\n[[rules]]\nwhen.request.url_path = "/rr"\nrespond.text = "three"\n';

async function start(sessions: string): Promise<Started> {
  const dir = makeTempDir('mock-sessions-');
  dirs.push(dir);
  await writeTree(dir, {
    'mock.toml': `[service]\nrule_sets = ["rules.toml"]\nfallback_respond_dir = "data"\n${sessions}`,
    'rules.toml': RULES,
    'data/cart.json': '{"items":[]}',
  });
  const mock = await spawnMock(['--inspect'], { cwd: dir });
  running.push(mock);
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
  const m = /:(\d+)\//.exec(line ?? '');
  assert.ok(m, mock.stdoutLines.join('\n'));
  return { mock, port: Number(m[1]), dir };
}

async function get(s: Started, path: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await fetch(s.mock.url + path, { headers });
  return `${r.status} ${await r.text()}`;
}

const api = async (s: Started, path: string): Promise<any> => {
  const r = await raw(s.port, 'GET', path);
  assert.equal(r.status, 200, r.text);
  return (r.json as any).result;
};

/** every file under `dir` with its bytes, hashed */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, name.name);
      if (name.isDirectory()) walk(p);
      else h.update(p).update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

const cart500 = { when: { request: { url_path: '/cart' } }, respond: { status: 500 } };
const cartText = (text: string) => ({ when: { request: { url_path: '/cart' } }, respond: { text } });

test('overrides over HTTP: newest first, once, removal, errors by key path, the journal and nothing on disk', async () => {
  const s = await start('');
  const before = treeHash(s.dir);
  assert.equal(await get(s, '/cart'), '200 {"items":[]}');

  let r = await post(s.port, '/__mock/api/overrides', { rules: [cart500] });
  assert.equal(r.status, 201, r.text);
  const first = (r.json as any).result.added[0];
  assert.equal(first.once, false);
  assert.deepEqual(first.rule, cart500);
  assert.equal(await get(s, '/cart'), '500 ');

  r = await post(s.port, '/__mock/api/overrides', { rules: [cartText('newest')] });
  assert.equal(r.status, 201, r.text);
  assert.equal(await get(s, '/cart'), '200 newest', 'the newest override is tried first');
  r = await post(s.port, '/__mock/api/overrides', { rules: [cartText('just once')], once: true });
  assert.equal(await get(s, '/cart'), '200 just once');
  assert.equal(await get(s, '/cart'), '200 newest', 'a once override steps aside after one answer');

  const listed = await api(s, '/__mock/api/overrides');
  assert.deepEqual(
    listed.overrides.map((o: any) => o.rule.respond),
    [{ text: 'newest' }, { status: 500 }],
  );

  // the journal: answered_by names the override, the why lists what was checked
  const entries = (await api(s, '/__mock/api/requests?path=/cart')).entries;
  const last = entries[entries.length - 1];
  assert.equal(last.stage, 'override');
  assert.equal(last.answered_by.kind, 'override');
  assert.equal(typeof last.answered_by.id, 'number');
  assert.match(last.why.note, /runtime override #\d+/);
  assert.deepEqual(
    last.why.overrides.map((o: any) => o.matched),
    [true, true],
  );

  // a misspelt key: 400 naming the key path, nothing added
  r = await post(s.port, '/__mock/api/overrides', {
    rules: [{ when: { request: { url_path: '/x' } }, respond: { statsu: 404 } }],
  });
  assert.equal(r.status, 400, r.text);
  assert.match(
    (r.json as any).error.message,
    /rules\[0\]\.respond\.statsu: .*unknown key `statsu`.*did you mean `status`/,
  );
  assert.deepEqual((r.json as any).error.diagnostics[0].key_path ?? (r.json as any).error.diagnostics[0].keyPath, [
    'rules',
    0,
    'respond',
    'statsu',
  ]);
  r = await post(s.port, '/__mock/api/overrides', { rules: [{ respond: { status: 'x' } }] });
  assert.equal(r.status, 400, r.text);
  r = await post(s.port, '/__mock/api/overrides', { rule: [] });
  assert.equal(r.status, 400, r.text);
  assert.equal((await api(s, '/__mock/api/overrides')).overrides.length, 2);

  // removal: one by id, then all
  r = await raw(s.port, 'DELETE', `/__mock/api/overrides/${listed.overrides[0].id}`, { 'x-mock-client': 't' });
  assert.equal(r.status, 200, r.text);
  assert.equal(await get(s, '/cart'), '500 ');
  r = await raw(s.port, 'DELETE', '/__mock/api/overrides', { 'x-mock-client': 't' });
  assert.deepEqual((r.json as any).result, { removed: 1 });
  assert.equal(await get(s, '/cart'), '200 {"items":[]}');

  // the inspector's security rules apply: a cross-origin write is refused
  r = await raw(
    s.port,
    'POST',
    '/__mock/api/overrides',
    { origin: 'http://evil.test', 'x-mock-client': 't', 'content-type': 'application/json' },
    JSON.stringify({ rules: [cart500] }),
  );
  assert.equal(r.status, 403);

  // a reset removes overrides too
  await post(s.port, '/__mock/api/overrides', { rules: [cart500] });
  r = await post(s.port, '/__mock/api/reset', {});
  assert.equal(r.status, 204, r.text);
  assert.equal(await get(s, '/cart'), '200 {"items":[]}');
  assert.equal(treeHash(s.dir), before, 'nothing was written to the workspace');
});

test('two sessions: their own overrides, round-robin positions and journal views; reset and close each', async () => {
  const s = await start('sessions = true\nsession_cookie = "mock_session"\n');
  const A = { 'x-mock-session': 'A' };
  const B = { cookie: 'theme=dark; mock_session=B' };

  let r = await post(s.port, '/__mock/api/overrides', { rules: [cart500], session: 'A' });
  assert.equal(r.status, 201, r.text);
  assert.equal((r.json as any).result.added[0].session, 'A');
  r = await post(s.port, '/__mock/api/overrides', { rules: [cartText('b cart')], session: 'B' });
  assert.equal(r.status, 201, r.text);

  assert.equal(await get(s, '/cart', A), '500 ');
  assert.equal(await get(s, '/cart', B), '200 b cart', 'the cookie carries session B');
  assert.equal(await get(s, '/cart'), '200 {"items":[]}', 'no session: the shared state, no override');

  // round-robin: each session has its own position, and so has the default session
  assert.equal(await get(s, '/rr', A), '200 one');
  assert.equal(await get(s, '/rr', A), '200 two');
  assert.equal(await get(s, '/rr', B), '200 one');
  assert.equal(await get(s, '/rr'), '200 one');
  assert.equal(await get(s, '/rr', A), '200 three');
  assert.equal(await get(s, '/rr', B), '200 two');

  // a shared override applies to every session, after the session's own
  r = await post(s.port, '/__mock/api/overrides', { rules: [cartText('shared')] });
  assert.equal(await get(s, '/cart', A), '500 ');
  assert.equal(await get(s, '/cart', { 'x-mock-session': 'C' }), '200 shared');

  // journal views
  const viewA = (await api(s, '/__mock/api/requests?session=A')).entries;
  assert.deepEqual(
    viewA.map((e: any) => `${e.request.path} ${e.response.status} ${e.session}`),
    ['/cart 500 A', '/rr 200 A', '/rr 200 A', '/rr 200 A', '/cart 500 A'],
  );
  assert.equal(viewA[0].answered_by.kind, 'override');
  assert.equal(viewA[0].answered_by.session, 'A');
  const viewB = (await api(s, '/__mock/api/requests?session=B')).entries;
  assert.equal(viewB.length, 3);
  assert.ok(viewB.every((e: any) => e.session === 'B'));
  assert.deepEqual((await api(s, '/__mock/api/sessions')).sessions.sort(), ['A', 'B', 'C']);

  // resetting A: its view starts over, its counters and overrides go; B keeps its own
  r = await post(s.port, '/__mock/api/reset', { session: 'A' });
  assert.equal(r.status, 204, r.text);
  assert.equal((await api(s, '/__mock/api/requests?session=A')).entries.length, 0);
  assert.equal(await get(s, '/cart', A), '200 shared');
  assert.equal(await get(s, '/rr', A), '200 one');
  assert.equal(await get(s, '/rr', B), '200 three');
  assert.equal(await get(s, '/cart', B), '200 b cart');
  assert.equal((await api(s, '/__mock/api/requests?session=A')).entries.length, 2);

  // closing B: its state goes, a later request starts a fresh session
  r = await raw(s.port, 'DELETE', '/__mock/api/sessions/B', { 'x-mock-client': 't' });
  assert.deepEqual((r.json as any).result, { closed: true });
  assert.equal(await get(s, '/cart', B), '200 shared');
  assert.equal(await get(s, '/rr', B), '200 one');

  // a global reset ends every session
  r = await post(s.port, '/__mock/api/reset', {});
  assert.equal(r.status, 204);
  assert.deepEqual((await api(s, '/__mock/api/sessions')).sessions, []);
  assert.equal(await get(s, '/cart', A), '200 {"items":[]}');
});

test('sessions off: the session header means nothing, and a session parameter names the shared state', async () => {
  const s = await start('');
  await post(s.port, '/__mock/api/overrides', { rules: [cart500], session: 'A' });
  assert.equal(await get(s, '/cart', { 'x-mock-session': 'B' }), '500 ');
  assert.equal(await get(s, '/rr', { 'x-mock-session': 'A' }), '200 one');
  assert.equal(await get(s, '/rr', { 'x-mock-session': 'B' }), '200 two');
  const view = (await api(s, '/__mock/api/requests?session=A')).entries;
  assert.equal(view.length, 3, 'every request is in the one shared session');
  assert.ok(view.every((e: any) => e.session === undefined));
  assert.equal((await api(s, '/__mock/api/sessions')).sessions_on, false);
});
