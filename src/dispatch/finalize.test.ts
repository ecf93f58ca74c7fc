import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finalize, isCredentialedOriginAllowed } from './finalize.js';
import { snapshotFrom } from './snapshot.js';

const cors = { allowedOrigins: ['https://app.example.com'] };
const req = (headers: [string, string][]) => snapshotFrom({ method: 'GET', target: '/', headers });
const body = new TextEncoder().encode('hello');
const names = (h: readonly (readonly [string, string])[]) => h.map(([n]) => n);
const get = (h: readonly (readonly [string, string])[], n: string) => h.find(([k]) => k === n)?.[1];

test('default header set, CORS star, content-type and content-length', () => {
  const a = finalize(
    { status: 200, body, contentType: 'text/plain; charset=utf-8', headers: [], delayMs: 0 },
    req([]),
    cors,
  );
  assert.deepEqual(names(a.headers), [
    'access-control-allow-headers',
    'access-control-allow-methods',
    'access-control-max-age',
    'cache-control',
    'connection',
    'x-content-type-options',
    'access-control-allow-origin',
    'vary',
    'content-type',
    'content-length',
  ]);
  assert.equal(get(a.headers, 'access-control-allow-methods'), 'GET, POST, PUT, DELETE, PATCH, OPTIONS');
  assert.equal(get(a.headers, 'content-length'), '5');
  assert.equal(get(a.headers, 'access-control-allow-origin'), '*');
  assert.equal(get(a.headers, 'vary'), '*');
});

test('credentialed CORS reflection only for allowed origins', () => {
  const cases: [[string, string][], string, string, string | undefined][] = [
    [
      [
        ['origin', 'http://localhost:5173'],
        ['cookie', 'a=1'],
      ],
      'http://localhost:5173',
      'Origin',
      'true',
    ],
    [
      [
        ['origin', 'http://127.0.0.1'],
        ['authorization', 'x'],
      ],
      'http://127.0.0.1',
      'Origin',
      'true',
    ],
    [
      [
        ['origin', 'https://app.example.com'],
        ['cookie', ''],
      ],
      'https://app.example.com',
      'Origin',
      'true',
    ],
    [
      [
        ['origin', 'https://evil.example'],
        ['cookie', 'a'],
      ],
      '*',
      '*',
      undefined,
    ],
    [
      [
        ['origin', 'http://localhost.evil.example'],
        ['cookie', 'a'],
      ],
      '*',
      '*',
      undefined,
    ],
    [[['origin', 'http://localhost:5173']], '*', '*', undefined],
    [[['cookie', 'a']], '*', '*', undefined],
  ];
  for (const [headers, acao, vary, creds] of cases) {
    const a = finalize({ status: 200, body, headers: [], delayMs: 0 }, req(headers), cors);
    assert.equal(get(a.headers, 'access-control-allow-origin'), acao, JSON.stringify(headers));
    assert.equal(get(a.headers, 'vary'), vary);
    assert.equal(get(a.headers, 'access-control-allow-credentials'), creds);
  }
  assert.equal(isCredentialedOriginAllowed('https://localhost', cors), false);
  assert.equal(isCredentialedOriginAllowed('http://localhost:12a', cors), false);
});

test('custom headers override, framing headers are ours', () => {
  const a = finalize(
    {
      status: 200,
      body,
      contentType: 'application/json',
      headers: [
        ['content-type', 'application/vnd.x+json'],
        ['content-length', '999'],
        ['vary', 'Accept'],
        ['x-a', '1'],
      ],
      delayMs: 7,
    },
    req([]),
    cors,
  );
  assert.equal(get(a.headers, 'content-type'), 'application/vnd.x+json');
  assert.equal(get(a.headers, 'content-length'), '5');
  assert.equal(get(a.headers, 'vary'), 'Accept');
  assert.equal(get(a.headers, 'x-a'), '1');
  assert.equal(a.delayMs, 7);
  assert.equal(a.headers.filter(([n]) => n === 'content-length').length, 1);
});

test('204 and 304 carry no body, content-type or content-length', () => {
  for (const status of [204, 304, 101]) {
    const a = finalize(
      { status, body, contentType: 'text/plain; charset=utf-8', headers: [['content-type', 'x/y']], delayMs: 0 },
      req([]),
      cors,
    );
    assert.equal(a.body.byteLength, 0);
    assert.equal(get(a.headers, 'content-type'), undefined);
    assert.equal(get(a.headers, 'content-length'), undefined);
  }
});

test('a fresh draft made like a reused one gets the headers a draft of its own would get', () => {
  const headers: [string, string][] = [
    ['x-rule', 'on'],
    ['content-type', 'application/vnd.api+json'],
  ];
  const like = { status: 201, body: new Uint8Array(0), contentType: 'application/json', headers, delayMs: 0 };
  for (const text of ['{"id":"42"}', '{"name":"Zoë 日本"}', '']) {
    const bytes = new TextEncoder().encode(text);
    const own = { ...like, body: bytes, fresh: true };
    const made = finalize({ ...own, like }, req([]), cors);
    assert.deepEqual(made.headers, finalize(own, req([]), cors).headers);
    assert.equal(get(made.headers, 'content-length'), String(bytes.byteLength));
    assert.equal(made.status, 201);
    assert.equal(made.fresh, true);
    assert.equal(made.like, finalize({ ...own, like }, req([]), cors).like, 'the answer it is like is made once');
  }
  // a credentialed request gets its own CORS headers, not those of the reused answer
  const credentialed = req([
    ['origin', 'http://localhost:5173'],
    ['cookie', 'a=b'],
  ]);
  const made = finalize({ ...like, body, fresh: true, like }, credentialed, cors);
  assert.equal(get(made.headers, 'access-control-allow-origin'), 'http://localhost:5173');
  assert.equal(made.like, undefined);
  // a bodyless status has no content-length to change: built on its own
  const empty = { ...like, status: 204 };
  const none = finalize({ ...empty, body, fresh: true, like: empty }, req([]), cors);
  assert.equal(get(none.headers, 'content-length'), undefined);
  assert.equal(none.body.byteLength, 0);
});
