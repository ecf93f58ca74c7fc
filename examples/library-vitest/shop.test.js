// The library under Vitest: `npx vitest run --root examples/library-vitest`
// A deliberate twin of the other library-* examples: the same tests under each runner, so that a reader copies
// the one for the runner they use whole, and each runner is shown to work; keep the three in step.
import { afterAll as after, beforeAll as before, beforeEach, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startMock } from 'folder-mock';

const root = fileURLToPath(new URL('../library-shop', import.meta.url));
let m;
before(async () => (m = await startMock({ root })));
after(() => m.close());
beforeEach(() => m.reset());

test('the cart rule answers a POST, and the journal says which rule', async () => {
  const r = await fetch(`${m.url}/api/cart`, { method: 'POST', body: '{"sku":"A1"}', headers: { 'content-type': 'application/json' } });
  expect(r.status).toBe(201);
  const [entry] = m.requests({ path: '/api/cart', method: 'POST' });
  expect(entry.matched).toEqual({ ruleSetIndex: 0, ruleSetFile: './rules.toml', ruleIndex: 0 });
  expect(entry.request.body).toEqual({ kind: 'json', value: { sku: 'A1' }, byteLength: 12 });
});

test('files answer by path; waitForRequest sees a request made elsewhere', async () => {
  const since = m.cursor();
  void fetch(`${m.url}/api/products`).then((r) => r.text());
  const entry = await m.waitForRequest({ path: '/api/products', since });
  expect(entry.response.status).toBe(200);
  expect(entry.answeredBy.kind).toBe('fallback');
});

test('round robin restarts after reset()', async () => {
  const left = async () => (await (await fetch(`${m.url}/api/stock`)).json()).left;
  expect([await left(), await left(), await left()]).toEqual([2, 1, 0]);
  expect(m.requests({ rule: { ruleSet: 1 } }).length).toBe(3);
});

// Each of these two fails without the reset() in beforeEach: the first leaves the order paid.
test('paying moves the order scenario; paying again is a 409', async () => {
  const pay = () => fetch(`${m.url}/api/order/pay`, { method: 'POST' });
  expect((await pay()).status).toBe(200);
  expect(await (await fetch(`${m.url}/api/order`)).json()).toEqual({ status: 'paid' });
  expect((await pay()).status).toBe(409);
  expect(m.state()).toEqual({ order: 'paid' });
});

test('every test starts with an open order; setState() jumps ahead', async () => {
  expect(m.state()).toEqual({ order: 'started' });
  expect(await (await fetch(`${m.url}/api/order`)).json()).toEqual({ status: 'open' });
  m.setState({ order: 'paid' });
  expect((await fetch(`${m.url}/api/order/pay`, { method: 'POST' })).status).toBe(409);
});
