import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EVENT_HEADERS,
  guardRequest,
  isJsonContentType,
  JSON_HEADERS,
  PAGE_HEADERS,
  type GuardInput,
} from './security.js';

const PORT = 4321;
const own = { host: `127.0.0.1:${PORT}` };
const guarded = { ...own, 'x-mock-client': 'inspector' };

type Row = readonly [string, Omit<GuardInput, 'port' | 'hasBody'> & { hasBody?: boolean }, number | 'ok'];

const ROWS: readonly Row[] = [
  ['GET with our Host', { method: 'GET', headers: own }, 'ok'],
  ['GET with localhost', { method: 'GET', headers: { host: `localhost:${PORT}` } }, 'ok'],
  ['GET with LOCALHOST (case-insensitive)', { method: 'GET', headers: { host: `LocalHost:${PORT}` } }, 'ok'],
  ['HEAD with our Host', { method: 'HEAD', headers: own }, 'ok'],
  ['GET without Host', { method: 'GET', headers: {} }, 403],
  ['GET with a foreign Host (DNS rebinding)', { method: 'GET', headers: { host: `evil.test:${PORT}` } }, 403],
  ['GET with evil.test', { method: 'GET', headers: { host: 'evil.test' } }, 403],
  ['GET with our name but another port', { method: 'GET', headers: { host: '127.0.0.1:1' } }, 403],
  ['GET with our name and no port', { method: 'GET', headers: { host: '127.0.0.1' } }, 403],
  ['GET with ::1 (not bound there)', { method: 'GET', headers: { host: `[::1]:${PORT}` } }, 403],
  ['GET with 0.0.0.0', { method: 'GET', headers: { host: `0.0.0.0:${PORT}` } }, 403],
  [
    'OPTIONS (preflight) with our Host',
    { method: 'OPTIONS', headers: { ...own, origin: 'http://evil.test', 'access-control-request-method': 'DELETE' } },
    405,
  ],
  ['OPTIONS, foreign Host: the Host check comes first', { method: 'OPTIONS', headers: { host: 'evil.test' } }, 403],
  ['PUT with the client header, no Origin', { method: 'PUT', headers: guarded }, 'ok'],
  ['PUT without the client header', { method: 'PUT', headers: own }, 403],
  ['PATCH', { method: 'PATCH', headers: guarded }, 405],
  ['POST with the client header, no Origin', { method: 'POST', headers: guarded }, 'ok'],
  [
    'DELETE with the client header, own Origin',
    { method: 'DELETE', headers: { ...guarded, origin: `http://127.0.0.1:${PORT}` } },
    'ok',
  ],
  [
    'DELETE with own Origin via localhost',
    { method: 'DELETE', headers: { ...guarded, origin: `http://localhost:${PORT}` } },
    'ok',
  ],
  ['DELETE, same-origin fetch', { method: 'DELETE', headers: { ...guarded, 'sec-fetch-site': 'same-origin' } }, 'ok'],
  ['DELETE without the client header', { method: 'DELETE', headers: own }, 403],
  ['DELETE with a cross Origin', { method: 'DELETE', headers: { ...guarded, origin: 'http://evil.test' } }, 403],
  ['DELETE with Origin null (sandboxed frame)', { method: 'DELETE', headers: { ...guarded, origin: 'null' } }, 403],
  [
    'DELETE with our host but https',
    { method: 'DELETE', headers: { ...guarded, origin: `https://127.0.0.1:${PORT}` } },
    403,
  ],
  [
    'DELETE with our host on another port',
    { method: 'DELETE', headers: { ...guarded, origin: 'http://127.0.0.1:3001' } },
    403,
  ],
  ['DELETE, cross-site fetch', { method: 'DELETE', headers: { ...guarded, 'sec-fetch-site': 'cross-site' } }, 403],
  [
    'DELETE, same-site fetch (another port)',
    { method: 'DELETE', headers: { ...guarded, 'sec-fetch-site': 'same-site' } },
    403,
  ],
  ['DELETE, typed navigation (none)', { method: 'DELETE', headers: { ...guarded, 'sec-fetch-site': 'none' } }, 403],
  [
    'POST with a JSON body',
    { method: 'POST', headers: { ...guarded, 'content-type': 'application/json' }, hasBody: true },
    'ok',
  ],
  [
    'POST with a JSON body and charset',
    { method: 'POST', headers: { ...guarded, 'content-type': 'Application/JSON; charset=utf-8' }, hasBody: true },
    'ok',
  ],
  [
    'POST with a text/plain body',
    { method: 'POST', headers: { ...guarded, 'content-type': 'text/plain' }, hasBody: true },
    415,
  ],
  [
    'POST with a form body',
    { method: 'POST', headers: { ...guarded, 'content-type': 'application/x-www-form-urlencoded' }, hasBody: true },
    415,
  ],
  ['POST with an untyped body', { method: 'POST', headers: guarded, hasBody: true }, 415],
  [
    'POST text/plain, cross-origin: 403 before 415',
    {
      method: 'POST',
      headers: { ...guarded, origin: 'http://evil.test', 'content-type': 'text/plain' },
      hasBody: true,
    },
    403,
  ],
];

for (const [name, input, expected] of ROWS) {
  test(`guard: ${name} → ${expected}`, () => {
    const verdict = guardRequest({ port: PORT, hasBody: false, ...input });
    if (expected === 'ok') assert.deepEqual(verdict, { ok: true });
    else {
      assert.equal(verdict.ok, false);
      if (!verdict.ok) {
        assert.equal(verdict.status, expected);
        assert.ok(verdict.message.length > 0);
        if (expected === 405) assert.equal(verdict.allow, 'GET, HEAD, POST, PUT, DELETE');
      }
    }
  });
}

test('isJsonContentType', () => {
  for (const [type, json] of [
    ['application/json', true],
    ['application/problem+json', true],
    ['application/json;charset=utf-8', true],
    ['text/json', false],
    ['application/jsonp', false],
    [undefined, false],
    ['', false],
  ] as const)
    assert.equal(isJsonContentType(type), json, String(type));
});

test('header sets: CSP, nosniff, no-store; no access-control-* anywhere', () => {
  assert.equal(PAGE_HEADERS['content-security-policy'], "default-src 'self'; frame-ancestors 'none'");
  for (const set of [PAGE_HEADERS, JSON_HEADERS, EVENT_HEADERS]) {
    assert.equal(set['x-content-type-options'], 'nosniff');
    assert.equal(set['cache-control'], 'no-store');
    assert.deepEqual(
      Object.keys(set).filter((k) => k.startsWith('access-control-')),
      [],
    );
  }
});

test('with a token: 401 without the bearer (the page aside), any Host with it, the Origin check kept', () => {
  const token = 't0ken';
  const base = { port: PORT, hasBody: false, token };
  const bearer = { authorization: `Bearer ${token}` };
  const status = (v: ReturnType<typeof guardRequest>) => (v.ok ? 'ok' : v.status);
  assert.equal(
    status(
      guardRequest({ ...base, method: 'GET', target: '/__mock/api/requests', headers: { host: `127.0.0.1:${PORT}` } }),
    ),
    401,
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'GET',
        target: '/__mock/api/requests',
        headers: { host: 'x', authorization: 'Bearer nope!' },
      }),
    ),
    401,
  );
  assert.equal(status(guardRequest({ ...base, method: 'GET', target: '/', headers: { host: 'mock:4000' } })), 'ok');
  assert.equal(
    status(guardRequest({ ...base, method: 'GET', target: '/assets/app.js', headers: { host: 'mock:4000' } })),
    'ok',
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'GET',
        target: '/__mock/api/requests',
        headers: { host: 'mock:4000', ...bearer },
      }),
    ),
    'ok',
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'GET',
        target: `/__mock/api/events?access_token=${token}`,
        headers: { host: 'mock:4000' },
      }),
    ),
    'ok',
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'GET',
        target: `/__mock/api/requests?access_token=${token}`,
        headers: { host: 'mock:4000' },
      }),
    ),
    401,
    'the query token is for the event stream only',
  );
  const write = { ...bearer, host: 'mock:4000', 'x-mock-client': 't' };
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'POST',
        target: '/__mock/api/reset',
        headers: { ...write, origin: 'http://mock:4000' },
      }),
    ),
    'ok',
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'POST',
        target: '/__mock/api/reset',
        headers: { ...write, origin: 'http://evil.test' },
      }),
    ),
    403,
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'POST',
        target: '/__mock/api/reset',
        headers: { ...write, 'sec-fetch-site': 'cross-site' },
      }),
    ),
    403,
  );
  assert.equal(
    status(
      guardRequest({
        ...base,
        method: 'POST',
        target: '/__mock/api/reset',
        headers: { host: 'mock:4000', 'x-mock-client': 't' },
      }),
    ),
    401,
  );
});
