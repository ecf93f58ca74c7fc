// The three imports produce working callbacks (docs/callbacks.md#imports): a WireMock mapping with a webhook, a
// Mockoon environment whose route response names a callback, and an OpenAPI document whose operation has
// `callbacks`, each imported by the real `mock --init --from`, served, and called back to a real receiver.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startMock } from 'folder-mock';
import { makeTempDir, removeDir, runMock, writeTree } from '../helpers/mock-cli.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const dirs: string[] = [];
const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
  for (const d of dirs) await removeDir(d);
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  closers.push(() => r.close());
  return r;
}

/** `mock --init --from <file>` in a fresh folder, then the folder served by the library. */
async function imported(name: string, text: string): Promise<{ url: string; init: string }> {
  const ws = makeTempDir('mock-cb-import-');
  dirs.push(ws);
  await writeTree(ws, { [`src/${name}`]: text });
  const r = await runMock(['--init', '--from', `src/${name}`, '--yes'], { cwd: ws });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const m = await startMock({ root: ws });
  closers.push(() => m.close());
  return { url: m.url, init: r.stdout + r.stderr };
}

test('a WireMock webhook, templated over the original request', async () => {
  const r = await receiver();
  const mapping = {
    request: { method: 'POST', urlPath: '/orders' },
    response: { status: 202, jsonBody: { accepted: true } },
    serveEventListeners: [
      {
        name: 'webhook',
        parameters: {
          method: 'POST',
          url: `${r.url}/wm/{{jsonPath originalRequest.body '$.orderId'}}`,
          headers: { 'Content-Type': 'application/json' },
          body: '{ "order": "{{jsonPath originalRequest.body \'$.orderId\'}}", "state": "shipped" }',
          delay: { type: 'fixed', milliseconds: 50 },
        },
      },
    ],
  };
  const m = await imported('orders.json', JSON.stringify(mapping));
  const res = await fetch(`${m.url}/orders`, { method: 'POST', body: JSON.stringify({ orderId: 'o-7' }) });
  assert.equal(res.status, 202);
  const got = await r.waitFor('/wm/o-7');
  assert.deepEqual(JSON.parse(got.body), { order: 'o-7', state: 'shipped' });
});

test('a Mockoon route callback, with its latency and Mockoon helpers', async () => {
  const r = await receiver();
  const env = {
    uuid: 'e',
    name: 'Payments',
    endpointPrefix: '',
    port: 3000,
    routes: [
      {
        uuid: 'r1',
        type: 'http',
        method: 'post',
        endpoint: 'pay/:id',
        responses: [
          {
            uuid: 'a',
            statusCode: 202,
            body: '{"ok":true}',
            headers: [{ key: 'Content-Type', value: 'application/json' }],
            rules: [],
            callbacks: [{ uuid: 'cb', latency: 50 }],
          },
        ],
      },
    ],
    callbacks: [
      {
        uuid: 'cb',
        id: 'cb1',
        name: 'paid',
        uri: `${r.url}/mo/{{urlParam 'id'}}`,
        method: 'put',
        headers: [{ key: 'Content-Type', value: 'application/json' }],
        bodyType: 'INLINE',
        body: '{ "id": "{{urlParam \'id\'}}", "amount": {{body \'amount\'}} }',
      },
    ],
  };
  const m = await imported('payments.json', JSON.stringify(env));
  // Mockoon's `body` helper reads a JSON body only when it says it is JSON
  await fetch(`${m.url}/pay/p9`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 12 }),
  });
  const got = await r.waitFor('/mo/p9');
  assert.equal(got.method, 'PUT');
  assert.deepEqual(JSON.parse(got.body), { id: 'p9', amount: 12 });
});

test('an OpenAPI callback: the URL from its runtime expression, the body from its example', async () => {
  const r = await receiver();
  const doc = `openapi: 3.0.3
info: { title: Subscriptions, version: '1' }
paths:
  /subscriptions:
    post:
      operationId: subscribe
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { callbackUrl: { type: string } } }
      responses:
        '201':
          description: created
          content:
            application/json:
              example: { id: sub_1 }
      callbacks:
        event:
          '{$request.body#/callbackUrl}':
            post:
              requestBody:
                content:
                  application/json:
                    example: { event: subscription.created }
              responses:
                '200': { description: ok }
`;
  const m = await imported('api.yaml', doc);
  const res = await fetch(`${m.url}/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUrl: `${r.url}/oa/hook` }),
  });
  assert.equal(res.status, 201);
  const got = await r.waitFor('/oa/hook');
  assert.deepEqual(JSON.parse(got.body), { event: 'subscription.created' });
});
