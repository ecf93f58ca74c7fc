import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkRecordHeader,
  forwardedRequestHeaders,
  forwardedResponseHeaders,
  isNeverKept,
  keptHeaders,
} from './headers.js';

describe('record headers', () => {
  it('never kept: hop-by-hop, framing, secrets, CORS, date, server, vary; any case', () => {
    for (const n of [
      'Connection',
      'transfer-encoding',
      'content-length',
      'content-encoding',
      'date',
      'server',
      'set-cookie',
      'Authorization',
      'cookie',
      'x-api-key',
      'proxy-authorization',
      'access-control-allow-origin',
      'Access-Control-Expose-Headers',
      'vary',
    ]) {
      assert.equal(isNeverKept(n), true, n);
    }
    for (const n of ['location', 'link', 'x-total-count', 'etag', 'content-type'])
      assert.equal(isNeverKept(n), false, n);
  });

  const kept: readonly { name: string; headers: [string, string][]; extra?: string[]; want: [string, string][] }[] = [
    {
      name: 'the kept list, in order, lower-cased',
      headers: [
        ['Location', '/a'],
        ['Retry-After', '5'],
        ['WWW-Authenticate', 'Bearer'],
        ['Content-Disposition', 'attachment'],
        ['etag', '"1"'],
      ],
      want: [
        ['location', '/a'],
        ['retry-after', '5'],
        ['www-authenticate', 'Bearer'],
        ['content-disposition', 'attachment'],
      ],
    },
    {
      name: 'repeated names joined',
      headers: [
        ['link', '<a>; rel="next"'],
        ['link', '<b>; rel="last"'],
      ],
      want: [['link', '<a>; rel="next", <b>; rel="last"']],
    },
    {
      name: 'extra names kept, never-kept ones not, content-type left to the plan',
      headers: [
        ['etag', '"1"'],
        ['set-cookie', 'x'],
        ['content-type', 'text/plain'],
      ],
      extra: ['ETag', 'set-cookie', 'content-type'],
      want: [['etag', '"1"']],
    },
    { name: 'a value the loader cannot hold is dropped', headers: [['location', 'a\u0001b']], want: [] },
  ];
  for (const c of kept) it(`keptHeaders: ${c.name}`, () => assert.deepEqual(keptHeaders(c.headers, c.extra), c.want));

  it('forwarded request headers: no hop-by-hop (nor what connection lists), conditionals, range, host, accept-encoding, content-length', () => {
    const given: [string, string][] = [
      ['Host', 'localhost'],
      ['Connection', 'close, X-Trace'],
      ['x-trace', '1'],
      ['If-None-Match', '"x"'],
      ['range', 'bytes=0-1'],
      ['accept-encoding', 'gzip'],
      ['content-length', '3'],
      ['te', 'trailers'],
      ['authorization', 'Bearer t'],
      ['cookie', 'a=1'],
      ['accept', 'application/json'],
    ];
    assert.deepEqual(forwardedRequestHeaders(given), [
      ['authorization', 'Bearer t'],
      ['cookie', 'a=1'],
      ['accept', 'application/json'],
    ]);
  });

  it('forwarded response headers: end-to-end ones, content-length left out', () => {
    assert.deepEqual(
      forwardedResponseHeaders([
        ['transfer-encoding', 'chunked'],
        ['content-length', '9'],
        ['keep-alive', 'timeout=5'],
        ['set-cookie', 's=1'],
        ['content-type', 'text/plain'],
      ]),
      [
        ['set-cookie', 's=1'],
        ['content-type', 'text/plain'],
      ],
    );
  });

  it('checkRecordHeader', () => {
    assert.equal(checkRecordHeader('X-Request-Id'), undefined);
    assert.match(checkRecordHeader('bad name') ?? '', /not a valid HTTP header name/);
    assert.match(checkRecordHeader('Set-Cookie') ?? '', /never recorded/);
  });
});
