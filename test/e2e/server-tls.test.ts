// HTTPS: HTTPS-only and dual mode, bad material refused before binding, the handshake deadline, the
// max_connections queue, and binding errors.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { TlsConfig } from '../../src/model/config.js';
import { MockError } from '../../src/model/errors.js';
import { startServer } from '../../src/server/start.js';
import {
  header,
  makeWorkspace,
  mockClock,
  type MockClock,
  parseResponses,
  rawExchange,
  selfSignedPair,
  send,
  startTestServer,
  tempDir,
  writePair,
} from './server-harness.js';

const dir = tempDir('mock-server-tls-');
let pair: { cert: string; key: string };
let files: { cert: string; key: string };

before(async () => {
  pair = await selfSignedPair();
  files = writePair(dir.path, pair);
  const other = await selfSignedPair();
  writeFileSync(join(dir.path, 'other-key.pem'), other.key);
  writeFileSync(join(dir.path, 'garbage.pem'), 'not a pem file\n');
  writeFileSync(join(dir.path, 'cafe.json'), '{"tls":true}');
  writeFileSync(join(dir.path, 'café.json'), '{"tls":"utf8"}');
});
after(() => dir.cleanup());

function tls(o: Partial<TlsConfig> = {}): TlsConfig {
  return {
    cert: files.cert,
    key: files.key,
    certEntry: 'cert.pem',
    keyEntry: 'key.pem',
    handshakeTimeoutSeconds: 10,
    maxConnections: 256,
    ...o,
  };
}

/** A port nothing listens on (bound and released). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(true));
  });
}

describe('HTTPS only', () => {
  test('serves HTTPS on listener.port and nothing plain', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path, listener: { tls: tls() } }));
    try {
      assert.deepEqual(server.handle.addresses, [{ scheme: 'https', ip: '127.0.0.1', port: server.port }]);
      const r = await send(server.port, { path: '/cafe', ca: pair.cert });
      assert.equal(r.status, 200);
      assert.equal(r.body.toString(), '{"tls":true}');
      assert.equal(header(r, 'access-control-allow-origin'), '*');
      const miss = await send(server.port, { path: '/nothing', ca: pair.cert });
      assert.equal(miss.status, 404);
      // plain HTTP to the TLS port: no HTTP answer, a handshake failure in the log
      const plain = await rawExchange(server.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', { timeoutMs: 2000 });
      assert.deepEqual(parseResponses(plain.text), []);
      assert.equal(plain.ended, 'closed');
      assert.ok(
        server.logs.some((l) => l.startsWith('TLS handshake failed: ')),
        server.logs.join('\n'),
      );
    } finally {
      await server.close();
    }
  });

  test('raw UTF-8 in the request line works over TLS too', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path, listener: { tls: tls() } }));
    try {
      const data = Buffer.concat([
        Buffer.from('GET /'),
        Buffer.from('café', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\nGET /cafe HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]);
      const r = await rawExchange(server.port, data, { ca: pair.cert, responses: 2 });
      assert.deepEqual(
        parseResponses(r.text).map((x) => [x.status, x.body]),
        [
          [200, '{"tls":"utf8"}'],
          [200, '{"tls":true}'],
        ],
      );
    } finally {
      await server.close();
    }
  });
});

describe('dual mode', () => {
  test('HTTP on listener.port and HTTPS on tls.port, http listed first', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path, listener: { tls: tls({ port: 0 }) } }));
    try {
      const [http, https] = server.handle.addresses;
      assert.ok(http && https);
      assert.equal(http.scheme, 'http');
      assert.equal(https.scheme, 'https');
      assert.notEqual(http.port, https.port);
      assert.equal((await send(http.port, { path: '/cafe' })).status, 200);
      assert.equal((await send(https.port, { path: '/cafe', ca: pair.cert })).status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('bad TLS material stops startup before any listener binds', () => {
  const cases: { name: string; tls: () => Partial<TlsConfig>; file: () => string; message: RegExp }[] = [
    {
      name: 'missing cert',
      tls: () => ({ cert: join(dir.path, 'nope.pem'), certEntry: 'nope.pem' }),
      file: () => join(dir.path, 'nope.pem'),
      message: /^nope\.pem: error: .*certificate file does not exist/,
    },
    {
      name: 'missing key',
      tls: () => ({ key: join(dir.path, 'nokey.pem'), keyEntry: 'nokey.pem' }),
      file: () => join(dir.path, 'nokey.pem'),
      message: /^nokey\.pem: error: .*private key file does not exist/,
    },
    {
      name: 'unparseable cert',
      tls: () => ({ cert: join(dir.path, 'garbage.pem'), certEntry: 'garbage.pem' }),
      file: () => join(dir.path, 'garbage.pem'),
      message: /^garbage\.pem: error: expected a PEM certificate/,
    },
    {
      name: 'unparseable key',
      tls: () => ({ key: join(dir.path, 'garbage.pem'), keyEntry: 'garbage.pem' }),
      file: () => join(dir.path, 'garbage.pem'),
      message: /^garbage\.pem: error: expected a PEM private key/,
    },
    {
      name: 'key not matching the cert',
      tls: () => ({ key: join(dir.path, 'other-key.pem'), keyEntry: 'other-key.pem' }),
      file: () => join(dir.path, 'other-key.pem'),
      message: /matches the certificate cert\.pem/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const httpPort = await freePort();
      const ws = makeWorkspace({ listener: { port: httpPort, tls: tls({ port: 0, ...c.tls() }) } });
      await assert.rejects(startServer(ws, { log: () => {} }), (e: unknown) => {
        assert.ok(e instanceof MockError);
        assert.equal(e.kind, 'config_invalid');
        assert.match(e.message, c.message);
        assert.equal(e.diagnostics[0]?.file, c.file());
        assert.equal(e.diagnostics[0]?.code, 'tls_material');
        return true;
      });
      // the plain listener of dual mode never started
      assert.equal(await refused(httpPort), true);
    });
  }
});

describe('handshake deadline and connection cap', () => {
  // Time is node:test's mock clock: each test waits for the server to arm a connection's deadline (an event), then
  // moves time on by hand, so nothing here waits on the wall clock or asserts a duration.
  const TIMED_OUT = 'TLS handshake timed out after 1s; dropping connection';

  /** A server with a 1 s handshake deadline and one raw TCP client whose deadline is armed; `elapse` moves the
   * mocked time to 1 ms before the deadline, and the client must be dropped only at the deadline itself. */
  const stalledClient = async (
    t: TestContext,
    elapse: (s: Socket, clock: MockClock) => Promise<void>,
  ): Promise<void> => {
    const server = await startTestServer(makeWorkspace({ listener: { tls: tls({ handshakeTimeoutSeconds: 1 }) } }));
    const clock = mockClock(t);
    const s = connect(server.port, '127.0.0.1');
    s.on('error', () => {});
    const closed = new Promise((r) => s.once('close', r));
    try {
      await clock.scheduled(1000);
      await elapse(s, clock);
      assert.ok(!server.logs.includes(TIMED_OUT), 'dropped before its deadline');
      clock.tick(1);
      assert.ok(server.logs.includes(TIMED_OUT), server.logs.join('\n'));
      await closed;
    } finally {
      s.destroy();
      clock.reset();
      await server.close();
    }
  };

  test('a connection that never completes its handshake is dropped after handshake_timeout_seconds', async (t) => {
    await stalledClient(t, async (_s, clock) => {
      clock.tick(999);
    });
  });

  test('a client trickling bytes does not extend the deadline', async (t) => {
    await stalledClient(t, async (s, clock) => {
      // a TLS record header, one byte every 150 ms of mocked time, never completing a ClientHello
      for (const b of [0x16, 0x03, 0x01, 0x02, 0x00, 0x01]) {
        await new Promise<void>((r) => s.write(Buffer.from([b]), () => r()));
        clock.tick(150);
      }
      clock.tick(99);
    });
  });

  test('connections over max_connections queue until a slot frees, then are served', async (t) => {
    const server = await startTestServer(
      makeWorkspace({
        fallbackDir: dir.path,
        listener: { tls: tls({ handshakeTimeoutSeconds: 2, maxConnections: 2 }) },
      }),
    );
    const clock = mockClock(t);
    const idle = [connect(server.port, '127.0.0.1'), connect(server.port, '127.0.0.1')];
    for (const s of idle) s.on('error', () => {});
    const idleClosed = idle.map((s) => new Promise((r) => s.once('close', r)));
    try {
      await clock.scheduled(2000, 2);
      // a queued connection's own deadline counts from its arrival, so it arrives 1 s after the idle ones
      clock.tick(1000);
      let answered = false;
      const pending = send(server.port, { path: '/cafe', ca: pair.cert }).then((r) => ((answered = true), r));
      await clock.scheduled(2000, 3);
      clock.tick(999);
      assert.equal(answered, false, 'served while both slots were held');
      // the idle connections' deadlines free both slots; the queued one's (at 3 s) has not come
      clock.tick(1);
      await Promise.all(idleClosed);
      const r = await pending;
      assert.equal(r.status, 200);
      assert.equal(
        server.logs.filter((l) => l.startsWith('TLS handshake timed out')).length,
        2,
        server.logs.join('\n'),
      );
    } finally {
      for (const s of idle) s.destroy();
      clock.reset();
      await server.close();
    }
  });

  test('a queued connection is served as soon as an active one closes', async (t) => {
    const server = await startTestServer(
      makeWorkspace({
        fallbackDir: dir.path,
        listener: { tls: tls({ handshakeTimeoutSeconds: 10, maxConnections: 1 }) },
      }),
    );
    const clock = mockClock(t);
    const holder = connect(server.port, '127.0.0.1');
    holder.on('error', () => {});
    try {
      await clock.scheduled(10_000);
      const pending = send(server.port, { path: '/cafe', ca: pair.cert });
      await clock.scheduled(10_000, 2);
      // the mocked clock stands still: only the holder's close can free the slot
      holder.destroy();
      const r = await pending;
      assert.equal(r.status, 200);
    } finally {
      holder.destroy();
      clock.reset();
      await server.close();
    }
  });
});

describe('binding', () => {
  let blocker: Server;
  let taken = 0;
  before(async () => {
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    taken = (blocker.address() as { port: number }).port;
  });
  after(() => new Promise<void>((r) => blocker.close(() => r())));

  test('a port in use is an io MockError naming the address', async () => {
    await assert.rejects(startServer(makeWorkspace({ listener: { port: taken } }), { log: () => {} }), (e: unknown) => {
      assert.ok(e instanceof MockError);
      assert.equal(e.kind, 'io');
      assert.equal(e.message, `cannot listen on 127.0.0.1:${taken}: address already in use`);
      return true;
    });
  });

  test('all or none: when the HTTPS port is taken, the HTTP listener is released again', async () => {
    const httpPort = await freePort();
    await assert.rejects(
      startServer(makeWorkspace({ listener: { port: httpPort, tls: tls({ port: taken }) } }), { log: () => {} }),
      /address already in use/,
    );
    assert.equal(await refused(httpPort), true);
  });

  test('close() releases the ports', async () => {
    const server = await startTestServer(makeWorkspace({ listener: { tls: tls({ port: 0 }) } }));
    const ports = server.handle.addresses.map((a) => a.port);
    await server.close();
    for (const p of ports) assert.equal(await refused(p), true);
  });
});
