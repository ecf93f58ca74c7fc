// node --test bench/lib/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseParser } from './response-parser.mjs';

const CASES = [
  {
    name: 'content-length body',
    wire: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
    want: [[200, 7, false]],
  },
  {
    name: 'empty 404 with content-length 0',
    wire: 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n',
    want: [[404, 0, false]],
  },
  {
    name: 'chunked with extension and trailer',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n1\r\n!\r\n0\r\nX-Trailer: 1\r\n\r\n',
    want: [[200, 6, false]],
  },
  {
    name: '204 has no body even with a length header',
    wire: 'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n',
    want: [[204, 0, false]],
  },
  {
    name: 'interim 100 then the final response',
    wire: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
    want: [[201, 2, false]],
  },
  {
    name: 'connection: close is reported',
    wire: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx',
    want: [[200, 1, true]],
  },
  {
    name: 'two responses back to back',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n',
    want: [
      [200, 1, false],
      [404, 0, false],
    ],
  },
];

for (const c of CASES) {
  test(`${c.name}: whole and split at every byte`, () => {
    const wire = Buffer.from(c.wire, 'latin1');
    for (let cut = 0; cut <= wire.length; cut++) {
      const got = [];
      const p = new ResponseParser((status, bytes, close) => got.push([status, bytes, close]));
      assert.equal(p.push(wire.subarray(0, cut)), true);
      assert.equal(p.push(wire.subarray(cut)), true);
      assert.deepEqual(got, c.want, `cut at ${cut}`);
    }
  });
}

test('a body without length or chunking ends at close', () => {
  const got = [];
  const p = new ResponseParser((status, bytes, close) => got.push([status, bytes, close]));
  p.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\nabc'));
  p.push(Buffer.from('de'));
  assert.deepEqual(got, []);
  assert.equal(p.end(), true);
  assert.deepEqual(got, [[200, 5, true]]);
});

test('garbage is refused', () => {
  for (const bad of [
    'hello world\r\n\r\n',
    'HTTP/1.1 2x0 OK\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  ]) {
    const p = new ResponseParser(() => assert.fail('no response expected'));
    assert.equal(p.push(Buffer.from(bad)), false, bad);
    assert.ok(p.error);
  }
});
