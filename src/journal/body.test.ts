// Body capture, table-driven: by content type, up to the cap, at a character boundary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestBody } from '../model/request.js';
import { captureRequestBody, captureResponseBody } from './body.js';
import type { CapturedBody } from './entry.js';

const enc = (s: string) => new TextEncoder().encode(s);
const opts = { bodyBytes: 16, redact: true };
const NOT_JSON: RequestBody = { kind: 'bytes', byteLength: 1 };

test('response bodies by content type and size', () => {
  const cases: [string, string | null, string, CapturedBody][] = [
    ['empty', 'text/plain', '', { kind: 'none' }],
    ['json', 'application/json; charset=utf-8', '{"a":[1,2]}', { kind: 'json', value: { a: [1, 2] }, byteLength: 11 }],
    [
      '+json',
      'application/problem+json',
      '{"token":"t"}',
      { kind: 'json', value: { token: '[redacted]' }, byteLength: 13 },
    ],
    [
      'json over the cap',
      'application/json',
      '{"a":"0123456789abcdef"}',
      { kind: 'bytes', byteLength: 24, contentType: 'application/json' },
    ],
    [
      'json that does not parse',
      'application/json',
      '{oops',
      { kind: 'text', text: '{oops', byteLength: 5, truncated: false },
    ],
    ['text', 'text/plain', 'hello', { kind: 'text', text: 'hello', byteLength: 5, truncated: false }],
    [
      'text cut at the cap',
      'text/html',
      '<p>0123456789abcdef</p>',
      { kind: 'text', text: '<p>0123456789abc', byteLength: 23, truncated: true },
    ],
    [
      'cut never splits a character',
      'text/plain',
      '012345678901234\u00e9',
      { kind: 'text', text: '012345678901234', byteLength: 17, truncated: true },
    ],
    ['xml', 'application/xml', '<a/>', { kind: 'text', text: '<a/>', byteLength: 4, truncated: false }],
    ['+xml', 'image/svg+xml', '<svg/>', { kind: 'text', text: '<svg/>', byteLength: 6, truncated: false }],
    [
      'form, keys redacted',
      'application/x-www-form-urlencoded',
      'a=1&secret=s',
      { kind: 'text', text: 'a=1&secret=[redacted]', byteLength: 12, truncated: false },
    ],
    ['binary', 'image/png', '\u0089PNG', { kind: 'bytes', byteLength: 5, contentType: 'image/png' }],
    ['no type', null, 'abc', { kind: 'bytes', byteLength: 3, contentType: null }],
  ];
  for (const [name, type, body, want] of cases) {
    const headers: [string, string][] = type === null ? [] : [['content-type', type]];
    assert.deepEqual(captureResponseBody(enc(body), headers, 'GET', opts), want, name);
  }
  assert.deepEqual(
    captureResponseBody(enc('x'), [['content-type', 'text/plain']], 'HEAD', opts),
    { kind: 'none' },
    'HEAD sends no body',
  );
  assert.deepEqual(
    captureResponseBody(enc('{"a":1}'), [['content-type', 'application/json']], 'GET', { bodyBytes: 0, redact: true }),
    {
      kind: 'bytes',
      byteLength: 7,
      contentType: 'application/json',
    },
  );
});

test('request bodies: JSON when dispatch read it as JSON, whatever the declared type', () => {
  const json = (value: Extract<RequestBody, { kind: 'json' }>['value'], byteLength: number): RequestBody => ({
    kind: 'json',
    value,
    byteLength,
  });
  const cases: [string, [string, string][], string, RequestBody, CapturedBody, number?][] = [
    ['none', [], '', { kind: 'none' }, { kind: 'none' }],
    [
      'fetch string body (text/plain) read as JSON',
      [['content-type', 'text/plain;charset=UTF-8']],
      '{"sku":"A1"}',
      json({ sku: 'A1' }, 12),
      { kind: 'json', value: { sku: 'A1' }, byteLength: 12 },
    ],
    [
      'exact integer made plain',
      [['content-type', 'application/json']],
      '{"n":12345678901234567890}',
      json({ n: 12345678901234567890n }, 26),
      { kind: 'bytes', byteLength: 26, contentType: 'application/json' },
    ],
    [
      'JSON over the cap',
      [],
      '{"a":"0123456789abcdef"}',
      json({ a: '0123456789abcdef' }, 24),
      { kind: 'bytes', byteLength: 24, contentType: null },
    ],
    [
      'invalid JSON declared JSON',
      [['content-type', 'application/json']],
      '{x',
      { kind: 'invalid_json', message: 'm', byteLength: 2 },
      { kind: 'text', text: '{x', byteLength: 2, truncated: false },
    ],
    [
      'refused unread',
      [['content-type', 'text/plain']],
      '',
      NOT_JSON,
      { kind: 'bytes', byteLength: 900, contentType: 'text/plain' },
      900,
    ],
  ];
  for (const [name, headers, body, parsed, want, declared] of cases) {
    assert.deepEqual(captureRequestBody(enc(body), headers, parsed, opts, declared), want, name);
  }
  const big = { bodyBytes: 64, redact: true };
  assert.deepEqual(
    captureRequestBody(enc('{"n":12345678901234567890}'), [], json({ n: 12345678901234567890n }, 26), big),
    {
      kind: 'json',
      value: { n: 12345678901234567000 },
      byteLength: 26,
    },
  );
  assert.doesNotThrow(() =>
    JSON.stringify(
      captureRequestBody(enc('{"n":12345678901234567890}'), [], json({ n: 12345678901234567890n }, 26), big),
    ),
  );
});
