// The payment webhook under `node --test`: the mock (this folder, started by the library) answers 202 and calls a
// webhook receiver this test starts; the test waits for the delivery and sees the payment captured.
// Run: `node --test examples/payment-webhook/webhook.test.js` after `npm run build` (test/e2e/callbacks.test.ts does).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMock } from 'folder-mock';

let m;
let receiver;
const received = [];

before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url, headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  m = await startMock({ root: fileURLToPath(new URL('.', import.meta.url)) });
});

after(async () => {
  await m?.close();
  receiver?.close();
});

test('202 now, the payment.succeeded webhook later, then the payment is captured', async () => {
  const hook = `http://127.0.0.1:${receiver.address().port}/webhooks/stripe`;
  const res = await fetch(`${m.url}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1250, callbackUrl: hook }),
  });
  assert.equal(res.status, 202);
  const payment = await res.json();
  assert.equal(payment.status, 'pending');
  assert.deepEqual(await (await fetch(`${m.url}/payments/${payment.id}`)).json(), { status: 'pending' });

  const delivered = await m.waitForCallback({ url: '/webhooks/stripe' }, { timeoutMs: 10_000 });
  assert.equal(delivered.state, 'delivered');
  assert.deepEqual(received[0].body, { type: 'payment.succeeded', data: { id: payment.id, amount: 1250 } });
  assert.equal(received[0].headers['x-signature'], 't=1700000000,v1=mock');
  assert.deepEqual(await (await fetch(`${m.url}/payments/${payment.id}`)).json(), { status: 'captured' });
});

test('a callbackUrl on a host the config does not allow is refused, never sent', async () => {
  await fetch(`${m.url}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1, callbackUrl: 'http://169.254.169.254/latest/meta-data' }),
  });
  const refused = await m.waitForCallback({ url: '169.254.169.254' });
  assert.equal(refused.state, 'refused');
  assert.match(refused.error, /not allowed/);
});
