// OpenAPI 3 callbacks → callbacks, table-tested: runtime expressions as templates, the callback's body from its
// example or schema, and the callbacks that cannot be made noted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operationCallbacks, urlTemplate } from './callbacks.js';

test('runtime expressions become templates over the request and the answer', () => {
  const cases: [string, string][] = [
    ['{$request.body#/callbackUrl}', '{{request.body.callbackUrl}}'],
    ['{$request.body#/hooks/0/url}', '{{request.body.hooks.0.url}}'],
    [
      'http://notify.test/{$request.query.id}?m={$method}',
      'http://notify.test/{{request.query.id}}?m={{request.method}}',
    ],
    ['{$request.header.X-Callback}', '{{request.headers.x-callback}}'],
    [
      'http://h.test/{$request.path.orderId}/{$response.body#/id}',
      'http://h.test/{{request.params.orderId}}/{{response.body.id}}',
    ],
    [
      'http://h.test/{$statusCode}/{$response.header.Location}',
      'http://h.test/{{response.status}}/{{response.headers.location}}',
    ],
  ];
  for (const [e, want] of cases) assert.deepEqual(urlTemplate(e), { text: want, templated: true }, e);
  assert.deepEqual(urlTemplate('https://literal.test/hook'), { text: 'https://literal.test/hook', templated: false });
  assert.match(urlTemplate('{$url}').problem ?? '', /\$url has no counterpart/);
  assert.match(urlTemplate('/relative').problem ?? '', /not an absolute/);
});

const DOC = {
  openapi: '3.0.3',
  components: {
    schemas: {
      Event: {
        type: 'object',
        required: ['id', 'status'],
        properties: { id: { type: 'string' }, status: { type: 'string', enum: ['paid'] } },
      },
    },
  },
};

test("an operation's callbacks: the URL expression, each method, the body from the example or the schema", () => {
  const op = {
    callbacks: {
      paymentDone: {
        '{$request.body#/callbackUrl}': {
          post: {
            requestBody: { content: { 'application/json': { example: { id: 'pay_1', status: 'paid' } } } },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      audit: {
        'https://audit.test/events': {
          put: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
      broken: { '{$url}': { post: { responses: {} } } },
    },
  };
  const r = operationCallbacks(op, DOC);
  assert.equal(r.callbacks.length, 2);
  assert.deepEqual(r.callbacks[0], {
    headers: [],
    body: { kind: 'json', text: '{"id":"pay_1","status":"paid"}' },
    url: '{{request.body.callbackUrl}}',
    method: 'POST',
    template: true,
  });
  assert.equal(r.callbacks[1]!.url, 'https://audit.test/events');
  assert.equal(r.callbacks[1]!.method, 'PUT');
  assert.equal(r.callbacks[1]!.template, false);
  const sampled = JSON.parse(r.callbacks[1]!.body!.text) as { id: unknown; status: unknown };
  assert.equal(typeof sampled.id, 'string');
  assert.equal(sampled.status, 'paid');
  assert.deepEqual(r.notes.length, 1);
  assert.match(r.notes[0]!, /callback `broken`/);
});
