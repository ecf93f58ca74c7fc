// The Mockoon decoder, table-tested: routes, rules (OR and AND), latency, headers, modes and buckets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeMockoon } from './mockoon.js';
import { leftOutLine } from './plan.js';

const response = (extra: Record<string, unknown>): Record<string, unknown> => ({
  body: '{"ok":true}',
  statusCode: 200,
  headers: [],
  bodyType: 'INLINE',
  rules: [],
  rulesOperator: 'OR',
  latency: 0,
  ...extra,
});

test('routes, rules, latency and headers', () => {
  const r = decodeMockoon({
    uuid: 'u',
    lastMigration: 32,
    name: 'Shop',
    endpointPrefix: 'api',
    latency: 10,
    headers: [{ key: 'Content-Type', value: 'application/json' }],
    routes: [
      {
        method: 'get',
        endpoint: 'users/:id',
        responses: [
          response({
            statusCode: 404,
            body: 'gone',
            headers: [{ key: 'Content-Type', value: 'text/plain' }],
            rules: [
              { target: 'params', modifier: 'id', operator: 'equals', value: '0' },
              { target: 'query', modifier: 'deleted', operator: 'regex_i', value: 'yes' },
            ],
          }),
          response({ default: true, latency: 5 }),
        ],
      },
      {
        method: 'post',
        endpoint: 'orders',
        responses: [
          response({
            statusCode: 400,
            rulesOperator: 'AND',
            rules: [
              { target: 'body', modifier: '$.qty', operator: 'null' },
              { target: 'header', modifier: 'X-Mode', operator: 'equals', value: 'strict', invert: true },
            ],
          }),
          response({ statusCode: 201, default: true }),
        ],
      },
    ],
  });
  assert.ok(r.ok);
  const rules = r.value.rules;
  assert.deepEqual(
    rules.map((x) => [x.method, x.urlPath?.value, x.status, x.delay]),
    [
      ['GET', '/api/users/{id}', 404, 10],
      ['GET', '/api/users/{id}', 404, 10],
      ['GET', '/api/users/{id}', 200, 15],
      ['POST', '/api/orders', 400, 10],
      ['POST', '/api/orders', 201, 10],
    ],
  );
  assert.deepEqual(rules[0]!.params, [['id', { op: 'equal', value: '0' }]]);
  assert.deepEqual(rules[1]!.query, [['deleted', { op: 'regex', value: '(?i)yes' }]]);
  assert.deepEqual(rules[0]!.respondHeaders, [['content-type', 'text/plain']]);
  assert.deepEqual(rules[3]!.bodyJson, [['qty', { op: 'absent', value: '' }]]);
  assert.deepEqual(rules[3]!.headers, [['x-mode', { op: 'not_equal', value: 'strict' }]]);
});

test('left out: random modes, data buckets, unsupported rule targets', () => {
  const r = decodeMockoon({
    uuid: 'u',
    routes: [
      {
        method: 'get',
        endpoint: 'a',
        responseMode: 'RANDOM',
        responses: [response({}), response({ statusCode: 500 })],
      },
      {
        method: 'get',
        endpoint: 'b',
        responses: [
          response({ rules: [{ target: 'request_number', modifier: '', operator: 'equals', value: '1' }] }),
          response({ default: true }),
        ],
      },
    ],
    data: [{ id: 'x', name: 'users', value: '[]' }],
  });
  assert.ok(r.ok);
  assert.deepEqual(r.value.leftOut.map(leftOutLine), [
    'data: data buckets: collections are not supported yet',
    'routes[0]: responseMode: random responses need a rule set of their own (uniform_random, round_robin): not yet; the default response answers',
    'routes[1]: responses[0].rules[0]: rules on `request_number` are not supported',
  ]);
  assert.equal(r.value.rules.length, 2);
});
