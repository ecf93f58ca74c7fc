import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Json } from './json.js';
import {
  FIELD_DENYLIST,
  HEADER_DENYLIST,
  REDACTED,
  redactHeaders,
  redactJson,
  redactJsonText,
  redactQuery,
} from './redact.js';

test('header denylist redacts values case-insensitively, keeps names and order', () => {
  const cases: [string, string, string][] = [
    ['Authorization', 'Bearer abc', REDACTED],
    ['cookie', 'a=1', REDACTED],
    ['Set-Cookie', 'b=2', REDACTED],
    ['PROXY-AUTHORIZATION', 'Basic x', REDACTED],
    ['x-api-key', 'k', REDACTED],
    ['X-Api-Key', 'k', REDACTED],
    ['x-api-keys', 'k', 'k'],
    ['token', 't', 't'], // body/query-only names are not header-denied
    ['accept', '*/*', '*/*'],
  ];
  for (const [name, value, want] of cases) {
    assert.deepEqual(redactHeaders([[name, value]]), [[name, want]], name);
  }
  assert.deepEqual(
    redactHeaders([
      ['b', '1'],
      ['cookie', 'x'],
      ['a', '2'],
    ]),
    [
      ['b', '1'],
      ['cookie', REDACTED],
      ['a', '2'],
    ],
  );
});

test('the field denylist is the header list plus the token names', () => {
  for (const h of HEADER_DENYLIST) assert.ok((FIELD_DENYLIST as readonly string[]).includes(h), h);
  for (const f of ['token', 'access_token', 'refresh_token', 'password', 'secret', 'client_secret', 'api_key']) {
    assert.ok((FIELD_DENYLIST as readonly string[]).includes(f), f);
  }
});

test('query redaction', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['a=1', 'a=1'],
    ['a=1&token=xyz', `a=1&token=${REDACTED}`],
    ['x=1&access_token=a&token=b&Password=c', `x=1&access_token=${REDACTED}&token=${REDACTED}&Password=${REDACTED}`],
    ['api%5Fkey=1', `api%5Fkey=${REDACTED}`],
    ['client+secret=1&client_secret=2', `client+secret=1&client_secret=${REDACTED}`],
    ['token', 'token'],
    ['token=', `token=${REDACTED}`],
    ['Authorization=Bearer%20x&cookie=1', `Authorization=${REDACTED}&cookie=${REDACTED}`],
    ['bad%zz=1&secret=s', `bad%zz=1&secret=${REDACTED}`],
    ['a=1&&b=2', 'a=1&&b=2'],
  ];
  for (const [input, want] of cases) assert.equal(redactQuery(input), want, input);
});

test('JSON redaction is recursive, case-insensitive and keeps key order', () => {
  const cases: [Json, Json][] = [
    [
      { a: 1, password: 'p' },
      { a: 1, password: REDACTED },
    ],
    [{ PassWord: { deep: 1 } }, { PassWord: REDACTED }],
    [
      { user: { name: 'n', token: 't', inner: { Secret: 's' } } },
      { user: { name: 'n', token: REDACTED, inner: { Secret: REDACTED } } },
    ],
    [{ list: [{ api_key: 1 }, { ok: 2 }, 3] }, { list: [{ api_key: REDACTED }, { ok: 2 }, 3] }],
    [[{ cookie: 'c' }], [{ cookie: REDACTED }]],
    ['token', 'token'],
    [null, null],
    [12n, 12n],
    [
      { z: 1, token: 2, a: 3 },
      { z: 1, token: REDACTED, a: 3 },
    ],
  ];
  for (const [input, want] of cases)
    assert.deepEqual(
      redactJson(input),
      want,
      JSON.stringify(input, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    );
  assert.deepEqual(Object.keys(redactJson({ z: 1, token: 2, a: 3 }) as object), ['z', 'token', 'a']);
});

test('a __proto__ key stays an ordinary key', () => {
  const input = JSON.parse('{"__proto__": {"token": "t"}, "a": 1}') as Json;
  const out = redactJson(input) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out), ['__proto__', 'a']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { token: REDACTED });
});

test('redactJsonText: the value after a denylisted key is hidden, whole or cut, the rest kept as written', () => {
  assert.equal(redactJsonText('{"user":"ann", "password" : "hunter2"}'), '{"user":"ann", "password" : "[redacted]"}');
  assert.equal(redactJsonText('{"a":{"token":{"x":[1,"}"]},"b":2}}'), '{"a":{"token":"[redacted]","b":2}}');
  assert.equal(redactJsonText('{"Secret":12,"n":"x"}'), '{"Secret":"[redacted]","n":"x"}');
  // cut short: as far as it goes
  assert.equal(redactJsonText('{"pad":"xx","password":"hunt…'), '{"pad":"xx","password":"[redacted]"');
  assert.equal(redactJsonText('{"pass\\u0077ord":"hunter2"}'), '{"pass\\u0077ord":"[redacted]"}');
  // a denylisted word as a value, or text that is not JSON: as it is
  assert.equal(redactJsonText('["password","hunter2"]'), '["password","hunter2"]');
  assert.equal(redactJsonText('plain text'), 'plain text');
});
