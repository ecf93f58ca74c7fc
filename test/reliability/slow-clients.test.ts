// Reliability figure 3 (docs/reliability.md): slow clients. On the plain listener, connections that send their headers one byte a second
// do not stop normal requests from being answered within 2 s, and are themselves closed by the header timeout.
// On the TLS listener, connections that never complete a handshake are closed at handshake_timeout_seconds while
// HTTPS requests are served.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import {
  delay,
  fetchOnce,
  makeTempDir,
  maxOf,
  median,
  minOf,
  ms,
  percentile,
  removeDir,
  scale,
  selfSignedPair,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';

const SLOW = scale(50, 500);
const TLS_STALLED = scale(30, 300);
/** the server's header timeout (server/start.ts DEFAULT_TIMEOUTS.headersMs; not configurable) */
const HEADER_TIMEOUT_MS = 10_000;
const HANDSHAKE_TIMEOUT_S = 3;
/** listener.tls.max_connections for the TLS test: room for the stalled connections and the real requests */
const TLS_MAX_CONNECTIONS = 1024;
/** the issue's figure is 2 s; the short form runs inside `npm test` beside other test files, so it allows for contention */
const ANSWER_WITHIN_MS = scale(5000, 2000);
/** max_connections below TLS_STALLED, for the queueing case (undefined: the default, 256) */
const SMALL_MAX_CONNECTIONS = scale<number | undefined>(20, undefined);
/** how late after the handshake timeout a stalled TLS connection may be closed */
const TLS_CLOSE_SLACK_MS = 1500;
const PROBE_EVERY_MS = 100;

interface Held {
  readonly socket: Socket;
  readonly openedAt: number;
  connectedAt?: number;
  closedAt?: number;
  received: string;
  sent: number;
}

/** Opens a connection that writes `first` and then `drip` one byte per second (at most `maxBytes`), until the server closes it. */
function hold(port: number, first: Buffer, drip: string, maxBytes: number): Held {
  const socket = connect(port, '127.0.0.1');
  const held: Held = { socket, openedAt: performance.now(), received: '', sent: 0 };
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    held.connectedAt = performance.now();
    if (first.length > 0) socket.write(first);
    if (drip.length === 0) return;
    timer = setInterval(() => {
      if (held.sent >= maxBytes || socket.destroyed) {
        clearInterval(timer);
        return;
      }
      socket.write(drip[held.sent % drip.length]!);
      held.sent++;
    }, 1000);
  });
  socket.on('data', (d: Buffer) => (held.received += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clearInterval(timer);
    held.closedAt ??= performance.now();
  });
  return held;
}

/** Waits until every held connection is closed, or `limitMs` passed (the rest are then destroyed by us, and counted). */
async function allClosed(held: readonly Held[], limitMs: number): Promise<number> {
  const deadline = performance.now() + limitMs;
  while (held.some((h) => h.closedAt === undefined) && performance.now() < deadline) await delay(100);
  const open = held.filter((h) => h.closedAt === undefined).length;
  for (const h of held) if (h.closedAt === undefined) h.socket.destroy();
  return open;
}

/** Fresh-connection requests every PROBE_EVERY_MS until `until()` is true (at most `maxMs`). */
async function probe(
  port: number,
  until: () => boolean,
  maxMs: number,
  ca?: string,
): Promise<{ statuses: number[]; latencies: number[]; errors: string[] }> {
  const out = { statuses: [] as number[], latencies: [] as number[], errors: [] as string[] };
  const stopAt = performance.now() + maxMs;
  while (!until() && performance.now() < stopAt) {
    const r = await fetchOnce(port, '/ok.json', { ...(ca !== undefined ? { ca } : {}), timeoutMs: 10_000 });
    out.statuses.push(r.status);
    out.latencies.push(r.ms);
    if (r.error !== undefined && out.errors.length < 10) out.errors.push(r.error);
    await delay(PROBE_EVERY_MS);
  }
  return out;
}

describe('slow clients', () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) await removeDir(d);
  });

  it(`plain listener: ${SLOW} connections sending headers one byte a second`, { timeout: 60_000 }, async (t) => {
    const dir = makeTempDir('mock-rel-slow-');
    dirs.push(dir);
    await writeTree(dir, { 'ok.json': '{"ok": true}\n' });
    const server = await spawnServer([], dir);
    servers.push(server);

    const held = Array.from({ length: SLOW }, () =>
      hold(server.port, Buffer.from('GET /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '), 'abcdefghij', 40),
    );
    const connectBy = performance.now() + 10_000;
    while (held.some((h) => h.connectedAt === undefined && h.closedAt === undefined) && performance.now() < connectBy)
      await delay(20);
    const connected = held.filter((h) => h.connectedAt !== undefined).length;
    const probing = probe(server.port, () => held.every((h) => h.closedAt !== undefined), HEADER_TIMEOUT_MS + 8_000);
    const leftOpen = await allClosed(held, HEADER_TIMEOUT_MS + 10_000);
    const p = await probing;

    const lifetimes = held.map((h) => (h.closedAt ?? Infinity) - (h.connectedAt ?? h.openedAt));
    const answered408 = held.filter((h) => /^HTTP\/1\.1 408 /.test(h.received)).length;
    const otherAnswers = held
      .filter((h) => h.received !== '' && !/^HTTP\/1\.1 408 /.test(h.received))
      .map((h) => h.received.slice(0, 60));
    const worst = maxOf(p.latencies);
    t.diagnostic(
      `figure 3a: ${connected}/${SLOW} slow connections held; ${p.statuses.length} normal requests meanwhile, ` +
        `all ${p.statuses.every((s) => s === 200) ? '200' : 'NOT 200'}, latency p50 ${ms(median(p.latencies))} p99 ${ms(percentile(p.latencies, 99))} max ${ms(worst)}; ` +
        `slow connections closed after ${ms(minOf(lifetimes))}..${ms(maxOf(lifetimes))} (header timeout ${HEADER_TIMEOUT_MS} ms), ` +
        `${answered408} with a 408; left open ${leftOpen}`,
    );
    assert.equal(connected, SLOW, 'every slow connection was accepted');
    assert.ok(p.statuses.length >= 20, `enough normal requests ran (${p.statuses.length})`);
    assert.deepEqual(p.errors, []);
    assert.deepEqual([...new Set(p.statuses)], [200]);
    assert.ok(worst <= ANSWER_WITHIN_MS, `slowest normal request took ${ms(worst)}`);
    assert.equal(leftOpen, 0, 'every slow connection was closed by the server');
    assert.deepEqual(otherAnswers, [], 'a slow connection gets a 408 or nothing');
    assert.ok(
      minOf(lifetimes) >= HEADER_TIMEOUT_MS - 1000,
      `closed by the header timeout, not before (${ms(minOf(lifetimes))})`,
    );
    assert.ok(
      maxOf(lifetimes) <= HEADER_TIMEOUT_MS + 5000,
      `closed soon after the header timeout (${ms(maxOf(lifetimes))})`,
    );
    assert.ok(server.alive());
  });

  /** Starts an HTTPS-only server, stalls TLS_STALLED connections on it, and probes it with real HTTPS requests. */
  async function stalledTls(maxConnections: number | undefined): Promise<{
    connected: number;
    leftOpen: number;
    lifetimes: number[];
    held: Held[];
    p: Awaited<ReturnType<typeof probe>>;
    server: Server;
  }> {
    const dir = makeTempDir('mock-rel-tls-');
    dirs.push(dir);
    const pair = await selfSignedPair();
    await writeTree(dir, {
      'mock.toml':
        '[listener.tls]\ncert = "cert.pem"\nkey = "key.pem"\n' +
        `handshake_timeout_seconds = ${HANDSHAKE_TIMEOUT_S}\n${maxConnections !== undefined ? `max_connections = ${maxConnections}\n` : ''}`,
      'cert.pem': pair.cert,
      'key.pem': pair.key,
      'ok.json': '{"ok": true}\n',
    });
    const server = await spawnServer([], dir);
    servers.push(server);
    assert.equal(server.scheme, 'https');

    // half say nothing at all; half send the first bytes of a ClientHello record and stall
    const partialHello = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01]);
    const held = Array.from({ length: TLS_STALLED }, (_, i) =>
      hold(server.port, i % 2 === 0 ? Buffer.alloc(0) : partialHello, '', 0),
    );
    const connectBy = performance.now() + 10_000;
    while (held.some((h) => h.connectedAt === undefined && h.closedAt === undefined) && performance.now() < connectBy)
      await delay(20);
    const connected = held.filter((h) => h.connectedAt !== undefined).length;
    const probing = probe(
      server.port,
      () => held.every((h) => h.closedAt !== undefined),
      HANDSHAKE_TIMEOUT_S * 2000 + 8000,
      pair.cert,
    );
    const leftOpen = await allClosed(held, HANDSHAKE_TIMEOUT_S * 2000 + 10_000);
    const p = await probing;
    const lifetimes = held.map((h) => (h.closedAt ?? Infinity) - (h.connectedAt ?? h.openedAt));
    return { connected, leftOpen, lifetimes, held, p, server };
  }

  it(`TLS listener: ${TLS_STALLED} connections that never handshake`, { timeout: 60_000 }, async (t) => {
    const { connected, leftOpen, lifetimes, held, p, server } = await stalledTls(TLS_MAX_CONNECTIONS);
    const worst = maxOf(p.latencies);
    t.diagnostic(
      `figure 3b: ${connected}/${TLS_STALLED} stalled TLS connections (handshake_timeout_seconds = ${HANDSHAKE_TIMEOUT_S}, max_connections = ${TLS_MAX_CONNECTIONS}); ` +
        `closed after ${ms(minOf(lifetimes))}..${ms(maxOf(lifetimes))}; left open ${leftOpen}; ` +
        `${p.statuses.length} HTTPS requests meanwhile, all ${p.statuses.every((s) => s === 200) ? '200' : 'NOT 200'}, ` +
        `latency p50 ${ms(median(p.latencies))} p99 ${ms(percentile(p.latencies, 99))} max ${ms(worst)}`,
    );
    assert.equal(connected, TLS_STALLED);
    assert.ok(p.statuses.length >= 5, `enough HTTPS requests ran (${p.statuses.length})`);
    assert.deepEqual(p.errors, []);
    assert.deepEqual([...new Set(p.statuses)], [200]);
    assert.ok(worst <= ANSWER_WITHIN_MS, `slowest HTTPS request took ${ms(worst)}`);
    assert.equal(leftOpen, 0);
    assert.ok(
      minOf(lifetimes) >= HANDSHAKE_TIMEOUT_S * 1000 - 300,
      `not closed before the timeout (${ms(minOf(lifetimes))})`,
    );
    assert.ok(
      maxOf(lifetimes) <= HANDSHAKE_TIMEOUT_S * 1000 + TLS_CLOSE_SLACK_MS,
      `closed at the timeout (${ms(maxOf(lifetimes))})`,
    );
    assert.ok(
      held.every((h) => h.received === ''),
      'nothing is sent to a connection that never handshakes',
    );
    assert.ok(server.alive());
  });

  // With more stalled connections than max_connections (the default 256 in the long form, 20 in the short form),
  // the excess queue in the connection gate. The spec bounds "a connection that opens and never completes its TLS handshake" by
  // handshake_timeout_seconds, so a queued one must not outlive it either (asserted). HTTPS requests queue behind
  // them until slots free (measured, not asserted: max_connections is the user's bound on connections in flight).
  it(`TLS listener: ${TLS_STALLED} stalled connections, more than max_connections (${SMALL_MAX_CONNECTIONS ?? 'default 256'})`, {
    timeout: 60_000,
  }, async (t) => {
    const { connected, leftOpen, lifetimes, p, server } = await stalledTls(SMALL_MAX_CONNECTIONS);
    t.diagnostic(
      `figure 3c (max_connections ${SMALL_MAX_CONNECTIONS ?? 'default 256'}): ${connected}/${TLS_STALLED} stalled; closed after ${ms(minOf(lifetimes))}..${ms(maxOf(lifetimes))}; left open ${leftOpen}; ` +
        `${p.statuses.length} HTTPS requests meanwhile (${p.statuses.filter((s) => s === 200).length} answered 200), ` +
        `latency p50 ${ms(median(p.latencies))} p99 ${ms(percentile(p.latencies, 99))} max ${ms(maxOf(p.latencies))}`,
    );
    assert.equal(leftOpen, 0, 'the stalled connections are all closed in the end');
    assert.ok(
      maxOf(lifetimes) <= HANDSHAKE_TIMEOUT_S * 1000 + TLS_CLOSE_SLACK_MS,
      `every stalled connection closed at the timeout, counted from its opening (${ms(maxOf(lifetimes))})`,
    );
    assert.ok(server.alive());
  });
});
