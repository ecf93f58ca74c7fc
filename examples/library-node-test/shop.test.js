// The library under Node's own runner: `node --test examples/library-node-test/`
// A deliberate twin of the other library-* examples: the same tests under each runner, so that a reader copies
// the one for the runner they use whole, and each runner is shown to work; keep the three in step.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMock } from 'folder-mock';

const root = fileURLToPath(new URL('../library-shop', import.meta.url));
let m;
before(async () => (m = await startMock({ root })));
after(() => m.close());
beforeEach(() => m.reset());

test('the cart rule answers a POST, and the journal says which rule', async () => {
  const r = await fetch(`${m.url}/api/cart`, { method: 'POST', body: '{"sku":"A1"}', headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201);
  const [entry] = m.requests({ path: '/api/cart', method: 'POST' });
  assert.deepEqual(entry.matched, { ruleSetIndex: 0, ruleSetFile: './rules.toml', ruleIndex: 0 });
  assert.deepEqual(entry.request.body, { kind: 'json', value: { sku: 'A1' }, byteLength: 12 });
});

test('files answer by path; waitForRequest sees a request made elsewhere', async () => {
  const since = m.cursor();
  void fetch(`${m.url}/api/products`).then((r) => r.text());
  const entry = await m.waitForRequest({ path: '/api/products', since });
  assert.equal(entry.response.status, 200);
  assert.equal(entry.answeredBy.kind, 'fallback');
});

test('round robin restarts after reset()', async () => {
  const left = async () => (await (await fetch(`${m.url}/api/stock`)).json()).left;
  assert.deepEqual([await left(), await left(), await left()], [2, 1, 0]);
  assert.equal(m.requests({ rule: { ruleSet: 1 } }).length, 3);
});

// Each of these two fails without the reset() in beforeEach: the first leaves the order paid.
test('paying moves the order scenario; paying again is a 409', async () => {
  const pay = () => fetch(`${m.url}/api/order/pay`, { method: 'POST' });
  assert.equal((await pay()).status, 200);
  assert.deepEqual(await (await fetch(`${m.url}/api/order`)).json(), { status: 'paid' });
  assert.equal((await pay()).status, 409);
  assert.deepEqual(m.state(), { order: 'paid' });
});

test('every test starts with an open order; setState() jumps ahead', async () => {
  assert.deepEqual(m.state(), { order: 'started' });
  assert.deepEqual(await (await fetch(`${m.url}/api/order`)).json(), { status: 'open' });
  m.setState({ order: 'paid' });
  assert.equal((await fetch(`${m.url}/api/order/pay`, { method: 'POST' })).status, 409);
});
