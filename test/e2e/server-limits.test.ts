// service.max_request_body_bytes over real sockets: exact limit accepted, limit+1 refused with the exact text,
// huge declared and chunked uploads refused without buffering, OPTIONS exempt, Expect: 100-continue.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  EXPECTED_DEFAULT_HEADERS,
  EXPECTED_STAR_HEADERS,
  header,
  makeWorkspace,
  parseResponses,
  rawExchange,
  send,
  startTestServer,
  type TestServer,
} from './server-harness.js';

const DEFAULTS = [...EXPECTED_DEFAULT_HEADERS, ...EXPECTED_STAR_HEADERS];

interface Upload {
  readonly response: string;
  /** body bytes we managed to hand to the socket before the server answered */
  readonly sentBeforeAnswer: number;
  readonly closedByServer: boolean;
}

/**
 * Send `head`, then stream `total` body bytes (as chunked frames when `chunked`) with backpressure, stopping as
 * soon as a response arrives or the server closes.
 */
function upload(port: number, head: string, total: number, chunked: boolean, timeoutMs = 10_000): Promise<Upload> {
  return new Promise((resolve) => {
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const frame = chunked
      ? Buffer.concat([Buffer.from(piece.length.toString(16) + '\r\n'), piece, Buffer.from('\r\n')])
      : piece;
    let sent = 0;
    let answeredAt: number | undefined;
    let response = '';
    let done = false;
    const s = connect(port, '127.0.0.1', () => {
      s.write(head);
      pump();
    });
    const pump = (): void => {
      while (!done && answeredAt === undefined && sent < total) {
        sent += piece.length;
        if (!s.write(frame)) {
          s.once('drain', pump);
          return;
        }
      }
    };
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      resolve({ response, sentBeforeAnswer: answeredAt ?? sent, closedByServer });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    s.on('data', (d: Buffer) => {
      response += d.toString('latin1');
      answeredAt ??= sent;
    });
    s.on('error', () => finish(true));
    s.on('close', () => finish(true));
  });
}

describe('a 16-byte cap', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(makeWorkspace({ maxRequestBodyBytes: 16 }));
  });
  after(() => server.close());

  test('exactly the limit is accepted; limit+1 is 413 with the exact text and the full default header set', async () => {
    const ok = await send(server.port, { method: 'POST', path: '/x', body: 'a'.repeat(16) });
    assert.equal(ok.status, 404);
    const r = await send(server.port, { method: 'POST', path: '/x', body: 'a'.repeat(17) });
    assert.equal(r.status, 413);
    const text = 'request body exceeds the configured limit (16 bytes)';
    assert.equal(r.body.toString('utf8'), text);
    const mine = r.headers.filter(([k]) => k !== 'date' && k !== 'connection');
    assert.deepEqual(mine, [
      ...DEFAULTS,
      ['content-type', 'text/plain; charset=utf-8'],
      ['content-length', String(text.length)],
    ]);
    assert.equal(header(r, 'connection'), 'close');
  });

  test('chunked bodies are capped the same way', async () => {
    const within = await rawExchange(
      server.port,
      'POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n8\r\naaaaaaaa\r\n8\r\nbbbbbbbb\r\n0\r\n\r\n',
    );
    assert.deepEqual(
      parseResponses(within.text).map((r) => r.status),
      [404],
    );
    const over = await rawExchange(
      server.port,
      'POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n8\r\naaaaaaaa\r\n9\r\nbbbbbbbbb\r\n0\r\n\r\n',
    );
    const [r] = parseResponses(over.text);
    assert.ok(r, over.text);
    assert.equal(r.status, 413);
    assert.equal(r.body, 'request body exceeds the configured limit (16 bytes)');
    assert.equal(over.ended, 'closed', 'the connection is closed after a 413');
  });

  test('OPTIONS is answered 204 whatever its body', async () => {
    const r = await send(server.port, { method: 'OPTIONS', path: '/x', body: 'a'.repeat(100) });
    assert.equal(r.status, 204);
    const huge = await rawExchange(
      server.port,
      'OPTIONS /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\nabc',
    );
    const [h] = parseResponses(huge.text);
    assert.ok(h, huge.text);
    assert.equal(h.status, 204);
  });

  test('no request log line for a 413 (nor for OPTIONS); an accepted request is logged', async () => {
    server.logs.length = 0;
    await send(server.port, { method: 'POST', path: '/refused', body: 'a'.repeat(17) });
    await send(server.port, { method: 'OPTIONS', path: '/preflight' });
    await send(server.port, { method: 'POST', path: '/accepted', body: 'a' });
    assert.deepEqual(
      server.logs.filter((l) => l.startsWith('<- ')),
      ['<- /accepted'],
    );
  });

  test('Expect: 100-continue gets no 100 for a body that will be refused, and a 100 otherwise', async () => {
    const refused = await rawExchange(
      server.port,
      'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\nExpect: 100-continue\r\n\r\n',
      {
        timeoutMs: 1500,
      },
    );
    assert.match(refused.text, /^HTTP\/1\.1 413 /);
    const accepted = await rawExchange(
      server.port,
      'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n',
      {
        timeoutMs: 500,
      },
    );
    assert.match(accepted.text, /^HTTP\/1\.1 100 Continue\r\n\r\n$/);
  });
});

describe('the default 32 MiB cap', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(makeWorkspace());
  });
  after(() => server.close());

  test('a declared 1 GiB Content-Length is refused at once, without reading the body', async () => {
    // no body is ever sent: a server that waited for it would leave rawExchange to end on its own 3 s limit
    const r = await rawExchange(server.port, 'PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n', {
      timeoutMs: 3000,
    });
    const [res] = parseResponses(r.text);
    assert.ok(res, r.text);
    assert.equal(res.status, 413);
    assert.equal(res.body, 'request body exceeds the configured limit (33554432 bytes)');
    assert.equal(r.ended, 'closed');
  });

  test('a declared 1 GiB upload that keeps sending is answered and cut off early', async () => {
    const before = process.memoryUsage().rss;
    const u = await upload(
      server.port,
      'POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n',
      1024 ** 3,
      false,
    );
    assert.match(u.response, /^HTTP\/1\.1 413 /);
    assert.ok(u.closedByServer, 'server closed the connection');
    assert.ok(u.sentBeforeAnswer < 16 * 1024 * 1024, `sent ${u.sentBeforeAnswer} bytes before the answer`);
    const grown = process.memoryUsage().rss - before;
    assert.ok(grown < 64 * 1024 * 1024, `rss grew by ${grown} bytes`);
  });

  test('a chunked upload is refused while it is still being sent, and memory stays flat', async () => {
    const before = process.memoryUsage().rss;
    const u = await upload(
      server.port,
      'POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
      1024 ** 3,
      true,
    );
    assert.match(u.response, /^HTTP\/1\.1 413 /);
    assert.ok(u.response.includes('request body exceeds the configured limit (33554432 bytes)'));
    assert.ok(u.closedByServer, 'server closed the connection');
    // the cap is 32 MiB; the answer comes right after it is passed, long before the 1 GiB would be through
    assert.ok(u.sentBeforeAnswer < 96 * 1024 * 1024, `sent ${u.sentBeforeAnswer} bytes before the answer`);
    const grown = process.memoryUsage().rss - before;
    assert.ok(grown < 96 * 1024 * 1024, `rss grew by ${grown} bytes`);
  });

  test('the server still answers afterwards', async () => {
    const r = await send(server.port, { path: '/after' });
    assert.equal(r.status, 404);
  });
});
