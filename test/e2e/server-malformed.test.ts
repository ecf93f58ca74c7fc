// Malformed HTTP: a 4xx or a closed connection, never a 5xx, and the server keeps answering. Also slow and
// vanishing clients.
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  channelEvents,
  makeWorkspace,
  parseResponses,
  rawExchange,
  send,
  startTestServer,
  type TestServer,
} from './server-harness.js';

describe('malformed requests', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(makeWorkspace({ maxRequestBodyBytes: 1024 }), {
      timeouts: { headersMs: 600, requestMs: 1200, checkIntervalMs: 100 },
    });
  });
  after(() => server.close());

  const cases: { name: string; data: string | Buffer; want: readonly number[] | 'closed'; keptOpen?: true }[] = [
    { name: 'HTTP/1.1 without Host is still answered', data: 'GET /x HTTP/1.1\r\n\r\n', want: [404], keptOpen: true },
    { name: 'HTTP/1.0 is answered and closed', data: 'GET /x HTTP/1.0\r\n\r\n', want: [404] },
    { name: 'bad request line', data: 'GARBAGE\r\n\r\n', want: [400] },
    { name: 'space in the target', data: 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n', want: [400] },
    { name: 'bare LF line endings', data: 'GET /lf HTTP/1.1\nHost: x\n\n', want: [400] },
    { name: 'unsupported version token', data: 'GET / HTTP/1.2\r\nHost: x\r\n\r\n', want: [400] },
    { name: 'HTTP/0.9', data: 'GET /\r\n\r\n', want: [505] },
    { name: 'space in a header name', data: 'GET / HTTP/1.1\r\nHo st: x\r\n\r\n', want: [400] },
    { name: 'control byte in a header value', data: 'GET / HTTP/1.1\r\nX-A: a\x01b\r\n\r\n', want: [400] },
    { name: '100 KB header', data: `GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`, want: [431] },
    {
      name: 'bad chunk size',
      data: 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      want: [400],
    },
    {
      name: 'Content-Length with Transfer-Encoding',
      data: 'POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      want: [400],
    },
    {
      name: 'two Content-Lengths',
      data: 'POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd',
      want: [400],
    },
    { name: 'negative Content-Length', data: 'POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n', want: [400] },
    {
      name: 'pipelined garbage after a good request',
      data: 'GET /a HTTP/1.1\r\nHost: x\r\n\r\n\x00\x01\x02garbage\r\n\r\n',
      want: [404, 400],
    },
    { name: 'CONNECT', data: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n', want: 'closed' },
    {
      name: 'raw invalid UTF-8 in the target (repaired, then a miss)',
      data: Buffer.from('GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
      want: [404],
      keptOpen: true,
    },
    {
      name: 'bad chunk framing after a good chunk',
      data: 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nxyz\r\n',
      want: [400],
    },
    {
      name: 'raw UTF-8 plus a control byte in the target',
      data: Buffer.from('GET /\xc3\xa9\x01 HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
      want: [400],
    },
    {
      name: 'raw UTF-8 in the method',
      data: Buffer.from('G\xc3\xa9T / HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
      want: [400],
    },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const r = await rawExchange(server.port, c.data, { timeoutMs: 2500, ...(c.keptOpen ? { responses: 1 } : {}) });
      const statuses = parseResponses(r.text).map((x) => x.status);
      assert.ok(
        statuses.every((s) => s < 500 || s === 505),
        `got ${statuses.join(',')}`,
      );
      if (c.want === 'closed') {
        assert.deepEqual(statuses, []);
        assert.equal(r.ended, 'closed');
      } else {
        assert.deepEqual(statuses, c.want, r.text.slice(0, 200));
        assert.equal(r.ended, c.keptOpen ? 'enough' : 'closed', 'a refused connection is closed');
      }
      const after = await send(server.port, { path: '/still-here' });
      assert.equal(after.status, 404);
    });
  }

  test('a client that never finishes its request head gets 408 (or a close) within the header timeout', async () => {
    // closed by the server (not by rawExchange's own 4 s limit, which would say 'timeout')
    const r = await rawExchange(server.port, 'GET / HTTP/1.1\r\nHost: x\r\n', { timeoutMs: 4000 });
    assert.equal(r.ended, 'closed');
    const statuses = parseResponses(r.text).map((x) => x.status);
    assert.ok(statuses.length === 0 || (statuses.length === 1 && statuses[0] === 408), r.text);
  });

  test('a connection that sends nothing is closed', async () => {
    const r = await rawExchange(server.port, '', { timeoutMs: 4000 });
    assert.equal(r.ended, 'closed');
  });

  test('a client that vanishes mid-body is dropped quietly', async () => {
    server.logs.length = 0;
    // the server's side of the connection, so the test can wait for the server to have seen it close
    const accepted = new Promise<import('node:net').Socket>((resolve) => {
      const on = (m: unknown): void => {
        unsubscribe('net.server.socket', on);
        resolve((m as { socket: import('node:net').Socket }).socket);
      };
      subscribe('net.server.socket', on);
    });
    const started = channelEvents('http.server.request.start');
    const s = connect(server.port, '127.0.0.1', () => {
      s.write('POST /half HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n0123456789');
    });
    s.on('error', () => {});
    const theirs = await accepted;
    const serverClosed = new Promise((r) => theirs.once('close', r));
    await started.reached(1);
    started.stop();
    s.destroy();
    await serverClosed;
    assert.deepEqual(server.logs, []);
    const r = await send(server.port, { path: '/still-here' });
    assert.equal(r.status, 404);
  });
});
