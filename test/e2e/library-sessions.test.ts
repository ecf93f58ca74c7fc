// The library's overrides and sessions (docs/library.md#overrides, #sessions), through the package as users import
// it: m.use() (newest first, once, errors by key path, nothing written to disk), resetOverrides() and reset(),
// m.session(id) with its own journal view, overrides, counters and state, closing it, and sessions off.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MockError, startMock, type OverrideRule } from 'folder-mock';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mock-lib-sessions-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function treeHash(dir: string): string {
  const h = createHash('sha256');
  for (const name of readdirSync(dir).sort()) h.update(name).update(readFileSync(join(dir, name)));
  return h.digest('hex');
}

const FILES = (sessions: boolean): Record<string, string> => ({
  'mock.toml': `[service]\nrule_sets = ["rr.toml"]\n${sessions ? 'sessions = true\n' : ''}`,
  'rr.toml':
    'strategy = "round_robin"\n' +
    ['A1', 'A2'].map((t) => `[[rules]]\nwhen.request.url_path = "/rr"\nrespond.text = "${t}"\n`).join('\n'),
  'cart.json': '{"items":[]}',
});

async function get(url: string, session?: string): Promise<string> {
  const r = await fetch(url, { headers: session === undefined ? {} : { 'x-mock-session': session } });
  return `${r.status} ${await r.text()}`;
}

const cart = (respond: OverrideRule['respond']): OverrideRule => ({
  when: { request: { url_path: '/cart' } },
  respond,
});
/** what an untyped (JavaScript) caller may pass: the run-time checks are for it */
const untyped = (rule: unknown): OverrideRule => rule as OverrideRule;

test('m.use(): newest first, once, resetOverrides, reset, key-path errors, nothing on disk', async () => {
  const dir = workspace(FILES(false));
  const before = treeHash(dir);
  const m = await startMock({ root: dir });
  try {
    assert.equal(await get(`${m.url}/cart`), '200 {"items":[]}');
    const added = m.use(cart({ status: 500 }));
    assert.equal(added.added[0]!.once, false);
    assert.equal(await get(`${m.url}/cart`), '500 ');
    m.use(cart({ status: 201, text: 'once' }), { once: true });
    assert.equal(await get(`${m.url}/cart`), '201 once');
    assert.equal(await get(`${m.url}/cart`), '500 ');
    const entry = m.requests({ path: '/cart' }).at(-1)!;
    assert.equal(entry.stage, 'override');
    assert.deepEqual(entry.answeredBy, { kind: 'override', id: added.id });
    assert.equal(m.requests({ stage: 'override' }).length, 3);

    // a misspelt key: the decoder's own message, at its key path
    assert.throws(
      () => m.use(untyped({ when: { request: { url_path: '/cart' } }, respond: { statsu: 404 } })),
      (e: unknown) =>
        e instanceof MockError &&
        e.kind === 'usage' &&
        /rules\[0\]\.respond\.statsu: .*unknown key `statsu`/.test(e.message) &&
        e.diagnostics[0]?.keyPath?.join('.') === 'rules.0.respond.statsu',
    );
    assert.throws(
      () => m.use(untyped({ when: { request: { url_path: 7 } }, respond: {} })),
      /rules\[0\]\.when\.request\.url_path/,
    );
    assert.throws(() => m.use(cart({ file_path: 'missing.json' })), /missing\.json/);
    assert.equal(m.overrides().length, 1, 'a refused call adds nothing');

    m.resetOverrides();
    assert.equal(await get(`${m.url}/cart`), '200 {"items":[]}');
    m.use(cart({ status: 503 }));
    assert.equal(await get(`${m.url}/rr`), '200 A1');
    m.reset();
    assert.equal(m.overrides().length, 0);
    assert.equal(await get(`${m.url}/cart`), '200 {"items":[]}', 'reset() removes overrides');
    assert.equal(await get(`${m.url}/rr`), '200 A1', 'and restarts the counters');
    assert.equal(treeHash(dir), before, 'nothing was written to the workspace');
  } finally {
    await m.close();
  }
});

test('m.session(id): its own journal view, overrides, counters and state; reset and close', async () => {
  const m = await startMock({ root: workspace(FILES(true)) });
  try {
    const a = m.session('a');
    const b = m.session('b');
    a.use(cart({ status: 500 }));
    b.use(cart({ text: 'b' }));
    m.use(cart({ text: 'shared' }));
    assert.equal(await get(`${m.url}/cart`, 'a'), '500 ');
    assert.equal(await get(`${m.url}/cart`, 'b'), '200 b');
    assert.equal(await get(`${m.url}/cart`), '200 shared');
    assert.equal(await get(`${m.url}/rr`, 'a'), '200 A1');
    assert.equal(await get(`${m.url}/rr`, 'a'), '200 A2');
    assert.equal(await get(`${m.url}/rr`, 'b'), '200 A1');

    assert.deepEqual(
      a.requests().map((e) => `${e.request.path} ${e.response.status} ${e.session}`),
      ['/cart 500 a', '/rr 200 a', '/rr 200 a'],
    );
    assert.equal(b.requests().length, 2);
    assert.equal(m.requests().length, 6, 'the global handle sees every session');
    assert.equal(a.state().rotations, 1);

    const waited = b.waitForRequest({ path: '/late' });
    await get(`${m.url}/late`, 'a');
    await get(`${m.url}/late`, 'b');
    assert.equal((await waited).session, 'b');

    a.reset();
    assert.equal(a.requests().length, 0, 'its view starts over');
    assert.equal(b.requests().length, 3);
    assert.equal(await get(`${m.url}/cart`, 'a'), '200 shared', 'its overrides went');
    assert.equal(await get(`${m.url}/rr`, 'a'), '200 A1', 'its counters restarted');
    assert.equal(await get(`${m.url}/rr`, 'b'), '200 A2', 'b kept its own');

    b.close();
    assert.equal(await get(`${m.url}/cart`, 'b'), '200 shared', 'a closed session starts fresh');
    assert.throws(() => m.session(''), MockError);

    m.reset();
    assert.equal(m.overrides().length, 0);
    assert.equal(a.requests().length, 0);
  } finally {
    await m.close();
  }
});

test('sessions off: every session id names the one shared session, and the first session() says so once', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  const m = await startMock({ root: workspace(FILES(false)) });
  try {
    m.session('a').use(cart({ status: 500 }));
    assert.equal(await get(`${m.url}/cart`, 'b'), '500 ');
    assert.equal(m.session('b').requests().length, 1);
    // process warnings are emitted on the next tick
    await new Promise((r) => setImmediate(r));
    const ours = warnings.filter((w) => (w as Error & { code?: string }).code === 'MOCK_SESSIONS_OFF');
    assert.equal(ours.length, 1, 'once per mock, however many sessions are asked for');
    assert.match(ours[0]!.message, /startMock\(\{ sessions: true \}\)/);
  } finally {
    process.off('warning', onWarning);
    await m.close();
  }
});

test('startMock({ sessions: true }) turns sessions on without mock.toml saying so, and keeps them on over a reload', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  const m = await startMock({ root: workspace(FILES(false)), sessions: true });
  try {
    m.session('a').use(cart({ status: 500 }));
    assert.equal(await get(`${m.url}/cart`, 'a'), '500 ');
    assert.equal(await get(`${m.url}/cart`, 'b'), '200 {"items":[]}', "b does not see a's override");
    const r = await m.reload();
    assert.equal(r.ok, true);
    assert.equal(await get(`${m.url}/cart`, 'b'), '200 {"items":[]}', 'still on after a reload');
    await new Promise((r) => setImmediate(r));
    assert.equal(warnings.filter((w) => (w as Error & { code?: string }).code === 'MOCK_SESSIONS_OFF').length, 0);
    await assert.rejects(startMock({ sessions: 'yes' } as never), /sessions/);
  } finally {
    process.off('warning', onWarning);
    await m.close();
  }
});

test('use() returns a handle: its id, the entries it answered, remove()', async () => {
  const m = await startMock({ root: workspace(FILES(true)) });
  try {
    const down = m.use(cart({ status: 503 }), { when: { request: { url_path: '/rr' } }, respond: { text: 'rr' } });
    assert.equal(down.ids.length, 2);
    assert.equal(down.id, down.ids[0]);
    const other = m.use({ when: { request: { url_path: '/other' } }, respond: { status: 204 } });
    assert.equal(await get(`${m.url}/cart`), '503 ');
    assert.equal(await get(`${m.url}/rr`), '200 rr');
    assert.equal(await get(`${m.url}/other`), '204 ');
    assert.equal(await get(`${m.url}/cart`, 's1'), '503 ', 'a session request answered by a shared override');
    assert.deepEqual(
      down.requests().map((e) => `${e.request.path} ${e.response.status}`),
      ['/cart 503', '/rr 200', '/cart 503'],
    );
    assert.deepEqual(
      down.requests({ path: '/cart', limit: 1 }).map((e) => e.id),
      [m.requests({ path: '/cart' })[0]!.id],
    );
    assert.equal(other.requests().length, 1);
    const mine = m.session('s2').use(cart({ status: 418 }));
    assert.equal(await get(`${m.url}/cart`, 's2'), '418 ');
    assert.equal(mine.requests().length, 1, "a session's override handle sees what it answered");
    assert.equal(down.remove(), true);
    assert.equal(down.remove(), false, 'nothing left to remove');
    assert.equal(await get(`${m.url}/cart`), '200 {"items":[]}');
    assert.equal(await get(`${m.url}/other`), '204 ', 'the other handle is untouched');
    assert.equal(down.requests().length, 3, 'what it answered stays in the journal');
  } finally {
    await m.close();
  }
});

// Scenario states and collections are scoped by the same store view (state/scoped.ts): whatever reaches the
// runtime state through DispatchEnv.state is a session's own: scenarios (`when.state`, `respond.set_state`) and
// collections (`[[collections]]`) included.

test('two sessions move a scenario independently', async () => {
  const m = await startMock({
    root: workspace({
      'mock.toml': '[service]\nrule_sets = ["cart.toml"]\nsessions = true\n',
      'cart.toml': [
        '[[rules]]\nwhen.request.url_path = "/pay"\nrespond.text = "paid"\nrespond.set_state = { cart = "paid" }\n',
        '[[rules]]\nwhen.request.url_path = "/cart"\nwhen.state.cart = "paid"\nrespond.text = "empty"\n',
        '[[rules]]\nwhen.request.url_path = "/cart"\nrespond.text = "full"\n',
      ].join('\n'),
    }),
  });
  try {
    assert.equal(await get(`${m.url}/pay`, 'a'), '200 paid');
    assert.equal(await get(`${m.url}/cart`, 'a'), '200 empty');
    assert.equal(await get(`${m.url}/cart`, 'b'), '200 full');
    assert.equal(await get(`${m.url}/cart`), '200 full');
    assert.deepEqual(m.session('a').state().scenarios, { cart: 'paid' });
  } finally {
    await m.close();
  }
});

test('two sessions write a collection independently, from the same seed', async () => {
  const m = await startMock({
    root: workspace({
      'mock.toml': '[service]\nrule_sets = ["users.toml"]\nsessions = true\n',
      'users.toml': '[[collections]]\npath = "/api/users"\ndata = "users.json"\n',
      'users.json': '[{"id":1,"name":"seed"}]',
    }),
  });
  try {
    const post = await fetch(`${m.url}/api/users`, {
      method: 'POST',
      headers: { 'x-mock-session': 'a', 'content-type': 'application/json' },
      body: '{"name":"only a"}',
    });
    assert.equal(post.status, 201);
    const list = async (s?: string) =>
      ((await (await fetch(`${m.url}/api/users`, { headers: s ? { 'x-mock-session': s } : {} })).json()) as unknown[])
        .length;
    assert.equal(await list('a'), 2);
    assert.equal(await list('b'), 1);
    assert.equal(await list(), 1);
  } finally {
    await m.close();
  }
});
