import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyStartIn, ChunkSizeFollower, type ChunkWatch } from './chunk-sizes.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

test('ChunkSizeFollower: what the size lines declare, against the cap (16 bytes here)', () => {
  const cases: [string, string, ChunkWatch][] = [
    ['a whole body within the cap', '8\r\naaaaaaaa\r\n8\r\nbbbbbbbb\r\n0\r\n\r\n', 'done'],
    ['one chunk of exactly the cap', '10\r\n0123456789abcdef\r\n0\r\n\r\n', 'done'],
    ['a size line over the cap, no data yet', '11\r\n', 'too_large'],
    ['2^63, refused on its line', '8000000000000000\r\n', 'too_large'],
    ['2^63 with an extension', '8000000000000000;name=value\r\n', 'too_large'],
    ['refused as soon as the digits end', '8000000000000000;', 'too_large'],
    ['a later line over what is left', '8\r\naaaaaaaa\r\n9\r\n', 'too_large'],
    ['a later line of exactly what is left', '8\r\naaaaaaaa\r\n8\r\n', 'reading'],
    ['leading zeros', '000000000000000000010\r\n', 'reading'],
    ['the largest size the parser reads', 'ffffffffffffffff\r\n', 'too_large'],
    ['beyond 64 bits: the parser refuses the line itself', 'fffffffffffffffff\r\n', 'lost'],
    ['beyond 64 bits after leading zeros', '00010000000000000000\r\n', 'lost'],
    ['upper-case hex', 'A\r\n', 'reading'],
    ['a size line still being read', '80000000', 'reading'],
    ['extensions and trailers', '4;a=b\r\nabcd\r\n0;x\r\nX-T: 1\r\nY: 2\r\n\r\n', 'done'],
    ['payload holding CRLFs and hex', '6\r\n\r\nFF\r\n\r\n0\r\n\r\n', 'done'],
    ['not a size line', 'zz\r\n', 'lost'],
    ['no digits', '\r\n', 'lost'],
    ['payload longer than declared', '2\r\nabc\r\n', 'lost'],
    ['a space after the digits', '5 \r\n', 'lost'],
  ];
  for (const [name, body, want] of cases) {
    assert.equal(new ChunkSizeFollower(16).feed(bytes(body)), want, name);
    // the same bytes one at a time: the follower keeps its place between packets
    const f = new ChunkSizeFollower(16);
    let got: ChunkWatch = f.status;
    for (const b of bytes(body)) got = f.feed(Uint8Array.of(b));
    assert.equal(got, want, `${name} (byte by byte)`);
  }
});

test('ChunkSizeFollower: starts at the offset given and stops reading once decided', () => {
  const f = new ChunkSizeFollower(16);
  assert.equal(f.feed(bytes('HEAD11\r\n'), 5), 'reading'); // '1\r\n' only
  assert.equal(new ChunkSizeFollower(16).feed(bytes('HEAD11\r\n'), 4), 'too_large');
  const done = new ChunkSizeFollower(16);
  assert.equal(done.feed(bytes('0\r\n\r\nFFFFFFFFFF\r\n')), 'done');
  assert.equal(done.feed(bytes('FFFFFFFFFF\r\n')), 'done');
  // a cap as large as the default does not lose precision
  assert.equal(new ChunkSizeFollower(33554432).feed(bytes('2000000\r\n')), 'reading');
  assert.equal(new ChunkSizeFollower(33554432).feed(bytes('2000001\r\n')), 'too_large');
});

test('bodyStartIn: just after the head with this request line and these header names', () => {
  const head = 'POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n';
  const line = 'POST /x HTTP/1.1\r\n';
  const names = ['Host', 'Transfer-Encoding'];
  const SAME_LINE = 'POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nab';
  const cases: [string, string, string, readonly string[], number | undefined][] = [
    ['the head alone', head, line, names, head.length],
    ['head and a size line', head + '5\r\n', line, names, head.length],
    ['after a pipelined request', 'GET / HTTP/1.1\r\nHost: h\r\n\r\n' + head + '5\r\n', line, names, 27 + head.length],
    ['after a same-line request with other headers', SAME_LINE + head, line, names, SAME_LINE.length + head.length],
    ['no headers at all', 'POST /x HTTP/1.1\r\n\r\n5\r\n', line, [], 20],
    ['the head began in an earlier packet', 'Transfer-Encoding: chunked\r\n\r\n5\r\n', line, names, undefined],
    ['the head has not ended', 'POST /x HTTP/1.1\r\nHost: h\r\n', line, names, undefined],
    ['other header names', head, line, ['Host', 'Content-Length'], undefined],
    ['another target', head, 'POST /y HTTP/1.1\r\n', names, undefined],
  ];
  for (const [name, packet, requestLine, headerNames, want] of cases) {
    assert.equal(bodyStartIn(bytes(packet), requestLine, headerNames), want, name);
  }
});
