// WireMock webhooks → callbacks, table-tested: each listener shape in (from WireMock's documented webhook
// parameters), our callback or the left-out reason out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { templated, wiremockWebhooks } from './wiremock-webhooks.js';

test('serveEventListeners webhooks: method, URL, headers, body and each delay kind', () => {
  const t = wiremockWebhooks({
    request: { method: 'POST', url: '/orders' },
    response: { status: 202 },
    serveEventListeners: [
      {
        name: 'webhook',
        parameters: {
          method: 'POST',
          url: 'http://localhost:8089/callback',
          headers: { 'Content-Type': 'application/json', 'X-Ids': ['a', 'b'] },
          body: '{ "result": "SUCCESS" }',
          delay: { type: 'fixed', milliseconds: 1000 },
        },
      },
      {
        name: 'webhook',
        parameters: { method: 'put', url: 'http://h.test/u', delay: { type: 'uniform', lower: 5, upper: 50 } },
      },
      { name: 'webhook', parameters: { url: 'http://h.test/l', delay: { type: 'lognormal', median: 90, sigma: 0.1 } } },
    ],
  });
  assert.deepEqual(t.leftOut, []);
  assert.deepEqual(t.callbacks, [
    {
      url: 'http://localhost:8089/callback',
      method: 'POST',
      headers: [
        ['content-type', 'application/json'],
        ['x-ids', 'a, b'],
      ],
      body: { kind: 'json', text: '{ "result": "SUCCESS" }' },
      delay: 1000,
      template: false,
    },
    { url: 'http://h.test/u', method: 'PUT', headers: [], delay: { min: 5, max: 50 }, template: false },
    { url: 'http://h.test/l', method: 'POST', headers: [], delay: { median: 90, sigma: 0.1 }, template: false },
  ]);
});

test('templates over originalRequest become templates over request', () => {
  const t = wiremockWebhooks({
    serveEventListeners: [
      {
        name: 'webhook',
        parameters: {
          url: "{{jsonPath originalRequest.body '$.callbackUrl'}}",
          headers: { 'X-Trace': '{{originalRequest.headers.X-Trace-Id}}' },
          body: '{{originalRequest.body}}',
        },
      },
    ],
  });
  assert.deepEqual(t.callbacks[0], {
    url: "{{jsonPath request.text '$.callbackUrl'}}",
    method: 'POST',
    headers: [['x-trace', '{{request.headers.x-trace-id}}']],
    body: { kind: 'text', text: '{{request.text}}' },
    template: true,
  });
  assert.equal(
    templated('{{originalRequest.query.id}} {{originalRequest.url}}'),
    '{{request.query.id}} {{request.path}}',
  );
});

test('the older postServeActions, as an array or keyed by name; base64Body', () => {
  const body = Buffer.from('paid').toString('base64');
  const arr = wiremockWebhooks({
    postServeActions: [{ name: 'webhook', parameters: { url: 'http://h.test/a', base64Body: body } }],
  });
  assert.deepEqual(arr.callbacks[0]?.body, { kind: 'text', text: 'paid' });
  const keyed = wiremockWebhooks({ postServeActions: { webhook: { method: 'GET', url: 'http://h.test/b' } } });
  assert.deepEqual(keyed.callbacks, [{ url: 'http://h.test/b', method: 'GET', headers: [], template: false }]);
});

test('what cannot be translated is left out with its reason', () => {
  const t = wiremockWebhooks({
    serveEventListeners: [
      { name: 'log-it', parameters: {} },
      { name: 'webhook', parameters: { method: 'TRACE', url: 'http://h.test/' } },
      { name: 'webhook', parameters: {} },
      { name: 'webhook', parameters: { url: 'http://h.test/', delay: { type: 'chunked' } } },
      {
        name: 'webhook',
        parameters: { url: 'http://h.test/', base64Body: Buffer.from([0xff, 0xfe]).toString('base64') },
      },
    ],
  });
  assert.equal(t.callbacks.length, 0);
  assert.deepEqual(
    t.leftOut.map((l) => [l.what, l.reason.replace(/ .*/, '')]),
    [
      ['serveEventListeners[0]', 'the'],
      ['serveEventListeners[1]', 'the'],
      ['serveEventListeners[2]', 'a'],
      ['serveEventListeners[3]', 'the'],
      ['serveEventListeners[4]', 'a'],
    ],
  );
  assert.match(t.leftOut[0]!.reason, /"log-it" is not a webhook/);
  assert.match(t.leftOut[1]!.reason, /TRACE/);
  assert.match(t.leftOut[4]!.reason, /not UTF-8/);
});
