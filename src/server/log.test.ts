import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { formatUtcTime, protocolLabel, requestLines, requestLogLines } from './log.js';

const AT = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
const enc = new TextEncoder();

test('time and protocol labels', () => {
  assert.equal(formatUtcTime(AT), '03:04:05 UTC');
  assert.equal(formatUtcTime(new Date(Date.UTC(2024, 0, 2, 23, 51, 1))), '23:51:01 UTC');
  assert.equal(protocolLabel('1.1'), 'HTTP/1.1');
  assert.equal(protocolLabel('1.0'), 'HTTP/1.0');
  assert.equal(protocolLabel('2.0'), 'HTTP/2');
});

test('default request lines', () => {
  const cases: { name: string; method: string; target: string; headers: [string, string][]; want: string[] }[] = [
    {
      name: 'plain',
      method: 'POST',
      target: '/echo?x=1',
      headers: [],
      want: ['<- /echo', '   [POST] [HTTP/1.1] request received (at 03:04:05 UTC)'],
    },
    {
      name: 'origin',
      method: 'GET',
      target: '/a',
      headers: [['Origin', 'http://localhost:5173']],
      want: ['<- /a', '   [GET] [ORIGIN http://localhost:5173] [HTTP/1.1] request received (at 03:04:05 UTC)'],
    },
    {
      name: 'decoded and normalised path',
      method: 'GET',
      target: '/caf%C3%A9/./x/../y/',
      headers: [],
      want: ['<- /café/y', '   [GET] [HTTP/1.1] request received (at 03:04:05 UTC)'],
    },
  ];
  for (const c of cases) {
    const req = snapshotFrom({ method: c.method, target: c.target, headers: c.headers });
    assert.deepEqual(requestLogLines(req, AT, { header: false, body: false }), c.want, c.name);
    assert.equal(requestLines(req, AT), c.want.join('\n'), `${c.name}: as one entry`);
  }
});

test('the two lines as one entry: the same text as the lines, across seconds and protocols', () => {
  const plain = snapshotFrom({ method: 'GET', target: '/a', headers: [] });
  const later = new Date(AT.getTime() + 61_000);
  assert.equal(requestLines(plain, AT), '<- /a\n   [GET] [HTTP/1.1] request received (at 03:04:05 UTC)');
  assert.equal(requestLines(plain, later), '<- /a\n   [GET] [HTTP/1.1] request received (at 03:05:06 UTC)');
  assert.equal(requestLines(plain, AT), '<- /a\n   [GET] [HTTP/1.1] request received (at 03:04:05 UTC)');
  const old = snapshotFrom({ method: 'DELETE', target: '/b', headers: [], httpVersion: '1.0' });
  assert.equal(requestLines(old, later), '<- /b\n   [DELETE] [HTTP/1.0] request received (at 03:05:06 UTC)');
  assert.equal(requestLines(old, later), requestLogLines(old, later, { header: false, body: false }).join('\n'));
});

test('verbose headers: lower-case, wire order, redacted, blank line at the end', () => {
  const req = snapshotFrom({
    method: 'GET',
    target: '/h',
    headers: [
      ['Host', 'x'],
      ['Authorization', 'Bearer secret'],
      ['X-Trace', 'abc'],
      ['Cookie', 'a=b'],
    ],
  });
  assert.deepEqual(requestLogLines(req, AT, { header: true, body: false }), [
    '<- /h',
    '   [GET] [HTTP/1.1] request received (at 03:04:05 UTC)',
    '   [request.headers]',
    'host: x',
    'authorization: [redacted]',
    'x-trace: abc',
    'cookie: [redacted]',
    '',
  ]);
});

test('verbose body: query and pretty JSON, redacted; non-JSON bodies print nothing', () => {
  const json = snapshotFrom({
    method: 'POST',
    target: '/b?x=1&access_token=t',
    headers: [['content-type', 'application/json']],
    body: enc.encode('{"user":"u","password":"p","items":[{"token":"t","n":1}]}'),
  });
  assert.deepEqual(requestLogLines(json, AT, { header: false, body: true }), [
    '<- /b',
    '   [POST] [HTTP/1.1] request received (at 03:04:05 UTC)',
    '   [request.query] x=1&access_token=[redacted]',
    '   [request.body.json]',
    '{',
    '  "user": "u",',
    '  "password": "[redacted]",',
    '  "items": [',
    '    {',
    '      "token": "[redacted]",',
    '      "n": 1',
    '    }',
    '  ]',
    '}',
    '',
  ]);
  const text = snapshotFrom({
    method: 'POST',
    target: '/t',
    headers: [['content-type', 'text/plain']],
    body: enc.encode('hello'),
  });
  assert.deepEqual(requestLogLines(text, AT, { header: false, body: true }), [
    '<- /t',
    '   [POST] [HTTP/1.1] request received (at 03:04:05 UTC)',
    '',
  ]);
});

test('both verbose flags: headers, then query and body, one blank line', () => {
  const req = snapshotFrom({
    method: 'PUT',
    target: '/p?secret=s',
    headers: [['X-Api-Key', 'k']],
    body: enc.encode('{"a":1}'),
  });
  assert.deepEqual(requestLogLines(req, AT, { header: true, body: true }), [
    '<- /p',
    '   [PUT] [HTTP/1.1] request received (at 03:04:05 UTC)',
    '   [request.headers]',
    'x-api-key: [redacted]',
    '   [request.query] secret=[redacted]',
    '   [request.body.json]',
    '{',
    '  "a": 1',
    '}',
    '',
  ]);
});
