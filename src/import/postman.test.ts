// The Postman decoder, table-tested: URLs and variables to paths, examples to rules in match order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePostman } from './postman.js';

const example = (name: string, code: number, body: string, originalRequest?: unknown): unknown => ({
  name,
  code,
  header: [{ key: 'Content-Type', value: 'application/json' }],
  body,
  ...(originalRequest === undefined ? {} : { originalRequest }),
});

function decode(item: unknown, variable: unknown[] = [], env?: Map<string, string>) {
  const r = decodePostman(
    {
      info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable,
      item: [item],
    },
    env === undefined ? {} : { environment: env },
  );
  assert.ok(r.ok);
  return r.value;
}

test('URLs: the host dropped (a base URL variable keeps its path), :id and {{id}} segments become templates', () => {
  const cases: [unknown, unknown[], string, string][] = [
    ['https://api.example.com/users?page=2', [], 'equal', '/users'],
    [
      '{{baseUrl}}/users/:id',
      [{ key: 'baseUrl', value: 'https://api.example.com/v1' }],
      'path_template',
      '/v1/users/{id}',
    ],
    ['{{baseUrl}}/users/{{userId}}', [], 'path_template', '/users/{userId}'],
    ['{{baseUrl}}/users/{{userId}}', [{ key: 'userId', value: '7' }], 'equal', '/users/7'],
    [{ raw: '{{host}}/a/b', host: ['{{host}}'], path: ['a', 'b'] }, [], 'equal', '/a/b'],
  ];
  for (const [url, variable, op, value] of cases) {
    const imp = decode({ name: 'r', request: { method: 'GET', url }, response: [example('ok', 200, '{}')] }, variable);
    assert.deepEqual(imp.rules[0]!.urlPath, { op, value }, JSON.stringify(url));
  }
});

test('an environment file overrides collection variables', () => {
  const imp = decode(
    { name: 'r', request: { url: '{{base}}/x' }, response: [example('ok', 200, '{}')] },
    [{ key: 'base', value: 'http://a/one' }],
    new Map([['base', 'http://b/two']]),
  );
  assert.equal(imp.rules[0]!.urlPath!.value, '/two/x');
});

test('examples: the others by x-mock-response-name and -code first, the first 2xx as the default last', () => {
  const imp = decode({
    name: 'Login',
    request: { method: 'POST', url: 'https://x/login' },
    response: [example('bad password', 401, '{"error":1}'), example('ok', 200, '{"token":"t"}')],
  });
  assert.deepEqual(
    imp.rules.map((r) => [r.status, r.headers?.map(([k, c]) => `${k}=${c.value}`) ?? []]),
    [
      [401, ['x-mock-response-name=bad password']],
      [401, ['x-mock-response-code=401']],
      [200, []],
    ],
  );
  assert.deepEqual(imp.rules[2]!.body, { kind: 'file', data: '{"token":"t"}', ext: 'json' });
});

test('examples saved for different queries get query conditions', () => {
  const imp = decode({
    name: 'Search',
    request: { url: 'https://x/search?q=a' },
    response: [
      example('a', 200, '[1]', { url: 'https://x/search?q=a' }),
      example('b', 200, '[2]', { url: 'https://x/search?q=b' }),
    ],
  });
  const byQuery = imp.rules.filter((r) => r.query !== undefined);
  assert.deepEqual(
    byQuery.map((r) => r.query),
    [[['q', { op: 'equal', value: 'b' }]]],
  );
});

test('a request without examples is left out with the reason', () => {
  const imp = decode({ name: 'Folder', item: [{ name: 'Ping', request: 'https://x/ping', response: [] }] });
  assert.deepEqual(imp.leftOut, [
    { place: 'Folder / Ping', what: '', reason: 'no saved example: the collection does not state its answer' },
  ]);
});
