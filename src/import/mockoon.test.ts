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

test('random and sequential routes are groups with their strategy; left out: data buckets, rule targets', () => {
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
    'routes[1]: responses[0].rules[0]: rules on `request_number` are not supported',
    'data[0]: data bucket "users": no CRUD route serves it, so it has no path to be a collection at',
  ]);
  assert.equal(r.value.rules.length, 1);
  assert.deepEqual(
    r.value.groups?.map((g) => [g.after, g.place, g.title, g.strategy, g.rules.map((x) => x.status)]),
    [[0, 'routes[0]', 'GET /a', 'uniform_random', [200, 500]]],
  );
});

test('data buckets: a CRUD route over a JSON array of objects is a collection; other buckets are left out', () => {
  const crud = (endpoint: string, databucketID: string, extra: Record<string, unknown> = {}): unknown => ({
    type: 'crud',
    method: '',
    endpoint,
    responses: [response({ default: true, bodyType: 'DATABUCKET', databucketID, ...extra })],
  });
  const users = '[\n  { "uid": "a1", "name": "Ada" }\n]';
  const r = decodeMockoon({
    uuid: 'u',
    endpointPrefix: 'api',
    routes: [
      crud('users', 'u1', { crudKey: 'uid' }),
      crud('tags', 'u2'),
      crud('words', 'u3'),
      crud('fake', 'u4'),
      crud('gone', 'nope'),
      crud('users/:id/notes', 'u1'),
    ],
    data: [
      { id: 'u1', name: 'Users', value: users },
      { id: 'u2', name: 'tags', value: '[]' },
      { id: 'u3', name: 'words', value: '["a", "b"]' },
      { id: 'u4', name: 'fake', value: '[{{#repeat 3}}{"id": {{@index}}}{{/repeat}}]' },
      { id: 'u5', name: 'config', value: '{"a": 1}' },
    ],
  });
  assert.ok(r.ok);
  assert.deepEqual(r.value.rules, [], 'a CRUD route answers through its collection, not a rule');
  assert.deepEqual(r.value.collections, [
    {
      place: 'routes[0]',
      title: 'CRUD /api/users (data bucket "Users")',
      path: '/api/users',
      name: 'Users',
      data: users,
      id: 'uid',
    },
    {
      place: 'routes[1]',
      title: 'CRUD /api/tags (data bucket "tags")',
      path: '/api/tags',
      name: 'tags',
      data: '[]',
      id: 'id',
    },
  ]);
  assert.deepEqual(r.value.leftOut.map(leftOutLine), [
    'routes[2]: responses[0].databucketID: CRUD route: only a data bucket holding a JSON array of objects becomes a collection',
    'routes[3]: responses[0].databucketID: CRUD route: a data bucket with templates is not supported (a collection holds plain JSON)',
    'routes[4]: responses[0].databucketID: CRUD route: no data bucket `nope`',
    'routes[5]: responses[0].databucketID: CRUD route: a CRUD route with path parameters is not supported',
    'data[2]: data bucket "words": only a data bucket holding a JSON array of objects becomes a collection',
    'data[3]: data bucket "fake": a data bucket with templates is not supported (a collection holds plain JSON)',
    'data[4]: data bucket "config": only a data bucket holding a JSON array of objects becomes a collection',
  ]);
});
