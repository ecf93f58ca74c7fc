// Scenarios (docs/state.md) through the real program (`dist/bin/main.cjs --inspect`, port 0) and the library as
// users import it: a three-step checkout, a state no rule expects, reset and setting over HTTP and through the
// library, the journal's before and after, state kept across a live reload and dropped for a scenario no rule
// names any more, `get` / `match-test --state` offline, and answers that are never sent moving nothing.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startMock } from 'folder-mock';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { post, raw } from '../helpers/inspector-server.js';
import { saveByRename, waitReloaded } from './live-reload-helpers.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

const CART = `
[[rules]]
when.request = { url_path = "/cart", method = "GET" }
when.state.cart = "started"
respond.json = '{"items":[]}'

[[rules]]
when.request = { url_path = "/cart/items", method = "POST" }
when.state.cart = { value = "paid", op = "not_equal" }
respond = { status = 201, json = '{"added":true}', set_state = { cart = "item_added" } }

[[rules]]
when.request = { url_path = "/cart", method = "GET" }
when.state.cart = "item_added"
respond.json = '{"items":["A1"]}'

[[rules]]
when.request = { url_path = "/cart/pay", method = "POST" }
when.state.cart = "item_added"
respond = { json = '{"paid":true}', set_state = { cart = "paid" } }

[[rules]]
when.request = { url_path = "/cart", method = "GET" }
when.state.cart = "paid"
respond.json = '{"paid":true}'
`;

const LOGIN = `
[[rules]]
when.request = { url_path = "/login", method = "POST" }
respond = { status = 204, set_state = { session = "in" } }

[[rules]]
when.request = { url_path = "/slow", method = "POST" }
respond = { status = 200, text = "slow", delay_response_milliseconds = 400, set_state = { session = "slow" } }

[[rules]]
when.request = { url_path = "/slow-probe" }
respond = { status = 200, text = "probe", delay_response_milliseconds = 400 }
`;

const FILES = {
  'mock.toml': '[service]\nrule_sets = ["cart.toml", "login.toml"]\nmax_request_body_bytes = 64\n',
  'cart.toml': CART,
  'login.toml': LOGIN,
};

interface Running {
  readonly mock: RunningMock;
  readonly inspect: number;
  readonly dir: string;
}

async function serve(): Promise<Running> {
  const dir = makeTempDir('mock-scenarios-');
  dirs.push(dir);
  await writeTree(dir, FILES);
  const mock = await spawnMock(['--inspect'], { cwd: dir });
  running.push(mock);
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: ')) ?? '';
  const m = /127\.0\.0\.1:(\d+)/.exec(line);
  assert.ok(m, `an Inspector line: ${mock.stdoutLines.join('\n')}`);
  return { mock, inspect: Number(m[1]), dir };
}

function send(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function scenarios(r: Running): Promise<Record<string, string>> {
  const a = await raw(r.inspect, 'GET', '/__mock/api/state');
  assert.equal(a.status, 200, a.text);
  return (a.json as { result: { scenarios: Record<string, string> } }).result.scenarios;
}

test('a three-step checkout moves on, and each journal entry records the scenarios it read or moved', async () => {
  const r = await serve();
  const port = r.mock.port;
  assert.deepEqual(await send(port, 'GET', '/cart'), { status: 200, text: '{"items":[]}' });
  assert.deepEqual(await send(port, 'POST', '/cart/items'), { status: 201, text: '{"added":true}' });
  assert.deepEqual(await send(port, 'GET', '/cart'), { status: 200, text: '{"items":["A1"]}' });
  assert.deepEqual(await send(port, 'POST', '/cart/pay'), { status: 200, text: '{"paid":true}' });
  assert.deepEqual(await send(port, 'GET', '/cart'), { status: 200, text: '{"paid":true}' });
  assert.deepEqual(await scenarios(r), { cart: 'paid', session: 'started' });

  const list = await raw(r.inspect, 'GET', '/__mock/api/requests');
  const entries = (list.json as { result: { entries: Record<string, unknown>[] } }).result.entries;
  assert.deepEqual(
    entries.map((e) => [e['state_before'], e['state_after']]),
    [
      [{ cart: 'started' }, { cart: 'started' }],
      [{ cart: 'started' }, { cart: 'item_added' }],
      [{ cart: 'item_added' }, { cart: 'item_added' }],
      [{ cart: 'item_added' }, { cart: 'paid' }],
      [{ cart: 'paid' }, { cart: 'paid' }],
    ],
  );
  // get's why, kept on the entry, shows the state condition with the value it was checked against
  const why = JSON.stringify(entries[3]!['why']);
  assert.match(why, /state:cart/);
  assert.match(why, /"actual":"item_added"/);
});

test('a state no rule expects: nothing matches, and the request falls through to a 404; PUT and reset over HTTP', async () => {
  const r = await serve();
  const port = r.mock.port;
  const put = await post(r.inspect, '/__mock/api/state', { scenarios: { cart: 'lost' } }, 'PUT');
  assert.equal(put.status, 200, put.text);
  assert.deepEqual((put.json as { result: { scenarios: unknown } }).result.scenarios, {
    cart: 'lost',
    session: 'started',
  });
  assert.deepEqual(await send(port, 'GET', '/cart'), { status: 404, text: '' });

  // the cross-origin guard applies to PUT as to every state-changing request
  const guarded = await raw(r.inspect, 'PUT', '/__mock/api/state', { 'content-type': 'application/json' }, '{}');
  assert.equal(guarded.status, 403);
  const bad = await post(r.inspect, '/__mock/api/state', { scenarios: { cart: 7 } }, 'PUT');
  assert.equal(bad.status, 400);

  // a reset that keeps the scenarios keeps them; the default one puts them back
  assert.equal((await post(r.inspect, '/__mock/api/reset', { state: false })).status, 204);
  assert.equal((await scenarios(r))['cart'], 'lost');
  assert.equal((await post(r.inspect, '/__mock/api/reset', {})).status, 204);
  assert.deepEqual(await scenarios(r), { cart: 'started', session: 'started' });
  assert.deepEqual(await send(port, 'GET', '/cart'), { status: 200, text: '{"items":[]}' });
  const badReset = await post(r.inspect, '/__mock/api/reset', { state: 'yes' });
  assert.equal(badReset.status, 400);
});

test('a live reload keeps the scenarios still named and drops the one no rule names any more', async () => {
  const r = await serve();
  const port = r.mock.port;
  await send(port, 'POST', '/cart/items');
  assert.equal((await send(port, 'POST', '/login')).status, 204);
  assert.deepEqual(await scenarios(r), { cart: 'item_added', session: 'in' });

  // login.toml no longer names `session`; cart.toml is untouched
  await saveByRename(join(r.dir, 'login.toml'), '[[rules]]\nwhen.request.url_path = "/login"\nrespond.status = 204\n');
  await waitReloaded(r.mock, 2);
  assert.deepEqual(await scenarios(r), { cart: 'item_added' });
  assert.deepEqual(await send(port, 'GET', '/cart'), { status: 200, text: '{"items":["A1"]}' });

  // named again, it starts over
  await saveByRename(join(r.dir, 'login.toml'), LOGIN);
  await waitReloaded(r.mock, 3);
  assert.deepEqual(await scenarios(r), { cart: 'item_added', session: 'started' });
});

test('an answer that is never sent moves nothing: a refused body (413), a client that left before a delayed answer', async () => {
  const r = await serve();
  const port = r.mock.port;
  const refused = await send(port, 'POST', '/login', 'x'.repeat(100));
  assert.equal(refused.status, 413);
  assert.equal((await scenarios(r))['session'], 'started');

  // the client leaves once the server has logged the request, while its 400 ms delay runs
  const logged = r.mock.stdoutLines.filter((l) => l.startsWith('<- /slow')).length;
  const left = request({ host: '127.0.0.1', port, method: 'POST', path: '/slow' });
  left.on('error', () => undefined);
  left.end();
  const deadline = Date.now() + 10_000;
  while (r.mock.stdoutLines.filter((l) => l.startsWith('<- /slow')).length === logged) {
    assert.ok(Date.now() < deadline, 'the /slow request was logged');
    await new Promise((res) => setTimeout(res, 10));
  }
  left.destroy();
  // a probe with the same delay, sent after: its timer fires after the left request's, so once it is answered,
  // the left request's answer has been given up on
  assert.deepEqual(await send(port, 'GET', '/slow-probe'), { status: 200, text: 'probe' });
  assert.equal((await scenarios(r))['session'], 'started');

  // the same request, waited for, moves it
  assert.deepEqual(await send(port, 'POST', '/slow'), { status: 200, text: 'slow' });
  assert.equal((await scenarios(r))['session'], 'slow');
});

test('mock get and match-test answer offline from "started" or from --state, and never move anything', async () => {
  const dir = makeTempDir('mock-scenarios-');
  dirs.push(dir);
  await writeTree(dir, FILES);
  const first = await runMock(['get', '/cart', '--why'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /\{"items":\[\]\}/);
  assert.match(first.stdout, /state:cart\s+==\s+"started" \(actual: started\)/);

  const paid = await runMock(['get', '/cart', '--state', 'cart=paid', '--format', 'json'], { cwd: dir });
  assert.equal(paid.code, 0, paid.stderr);
  assert.equal(JSON.parse(JSON.parse(paid.stdout).result.response.body).paid, true);

  const two = await runMock(['get', '/cart', '--state', 'cart=item_added', '--state', 'session=in'], { cwd: dir });
  assert.match(two.stdout, /\{"items":\["A1"\]\}/);

  const bad = await runMock(['get', '/cart', '--state', 'cart'], { cwd: dir });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /invalid value for --state: 'cart' \(expected <scenario>=<state>/);

  const mt = await runMock(['match-test', '-r', 'cart.toml', '-p', '/cart', '--state', 'cart=item_added'], {
    cwd: dir,
  });
  assert.equal(mt.code, 0, mt.stderr);
  assert.match(mt.stdout, /Rule #3: \/cart {2}MATCH/);
  assert.match(mt.stdout, /state "cart" {2}== {2}"item_added" {2}\(actual: item_added\)/);
  const none = await runMock(['match-test', '-r', 'cart.toml', '-p', '/cart/pay', '-m', 'POST'], { cwd: dir });
  assert.equal(none.code, 1);
});

test('the library: state(), setState(), and reset() with and without the scenarios', async () => {
  const dir = makeTempDir('mock-scenarios-');
  dirs.push(dir);
  await writeTree(dir, FILES);
  const m = await startMock({ root: dir });
  try {
    assert.deepEqual(m.state(), { cart: 'started', session: 'started' });
    assert.equal((await fetch(`${m.url}/cart/items`, { method: 'POST' })).status, 201);
    assert.deepEqual(m.state(), { cart: 'item_added', session: 'started' });
    const [entry] = m.requests({ path: '/cart/items' });
    assert.deepEqual(entry!.stateBefore, { cart: 'started' });
    assert.deepEqual(entry!.stateAfter, { cart: 'item_added' });

    m.reset({ state: false });
    assert.equal(m.requests().length, 0);
    assert.equal(m.state()['cart'], 'item_added');
    m.reset();
    assert.deepEqual(m.state(), { cart: 'started', session: 'started' });

    m.setState({ cart: 'paid' });
    assert.equal(await (await fetch(`${m.url}/cart`)).text(), '{"paid":true}');
    m.setState({ cart: 'started' });
    assert.equal(await (await fetch(`${m.url}/cart`)).text(), '{"items":[]}');
    assert.throws(() => m.setState({ 'bad name': 'x' }), /not a valid scenario name/);
    assert.throws(() => m.reset({ scenarios: true } as never), /reset\(\) takes an object/);
    // `beforeEach(m.reset)`: the runner's context object is no parts object, so everything is reset
    m.setState({ cart: 'paid' });
    m.reset(new (class TestContext {})());
    assert.equal(m.state()['cart'], 'started');
  } finally {
    await m.close();
  }
});
