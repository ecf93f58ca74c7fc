// Streams under load (docs/faults.md): 1,000 concurrent Server-Sent Events clients, in this process, against the
// real program in its own, each receiving one event every 100 ms for 30 s from an SSE file with `: delay 100`
// pauses. Checked: no event lost or reordered; the p99 lateness of an event against its schedule (reported, with
// a target); the server's RSS flat after the first 5 s. Long form only (`npm run test:reliability`): it needs the
// machine to itself for 30 s, so `npm test` skips it.
//
// HTTPS with `max_connections = 1100`: plain HTTP admits at most 512 connections at once (the rest queue), so a
// thousand streams at once go through the TLS listener, whose bound is configurable.
import assert from 'node:assert/strict';
import { connect, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import {
  LONG,
  makeTempDir,
  maxOf,
  mib,
  MiB,
  ms,
  percentile,
  removeDir,
  sampleRss,
  selfSignedPair,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';

const CLIENTS = 1000;
const EVENTS = 300;
const INTERVAL_MS = 100;
/**
 * the target for the p99 lateness on a 2-core machine: quiet runs measured 22, 42 and 27 ms (docs/reliability.md),
 * too wide a spread to tighten it without measuring the machine rather than the server
 */
const P99_TARGET_MS = 50;
const FLAT_LIMIT = 10 * MiB;
const CONNECT_BATCH = 50;

function sseFile(): string {
  let out = '';
  for (let i = 0; i < EVENTS; i++) out += (i > 0 ? `: delay ${INTERVAL_MS}\n` : '') + `data: ${i}\n\n`;
  return out;
}

interface ClientResult {
  /** arrival times (performance.now()) of each event by number, in order of arrival */
  readonly numbers: number[];
  readonly arrivals: number[];
  error?: string;
}

/** resolves `connected` once the request is sent, and the returned promise when the stream is over */
function sseClient(port: number, ca: string, results: ClientResult[], connected: () => void): Promise<void> {
  return new Promise((resolve) => {
    const r: ClientResult = { numbers: [], arrivals: [] };
    results.push(r);
    const socket: TLSSocket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      socket.write('GET /events HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n\r\n');
      connected();
    });
    let buf = '';
    let inBody = false;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      const now = performance.now();
      buf += d;
      if (!inBody) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        buf = buf.slice(end + 4);
        inBody = true;
      }
      // chunked framing: find every `data: N` line; the chunk-size lines never start with `data: `
      let at: number;
      while ((at = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, at);
        buf = buf.slice(at + 2);
        const m = /data: (\d+)$/.exec(block);
        if (m !== null) {
          r.numbers.push(Number(m[1]));
          r.arrivals.push(now);
        }
      }
      if (buf.endsWith('0\r\n\r\n') && r.numbers.length === EVENTS) socket.end();
    });
    socket.on('error', (e) => (r.error = e.message));
    // a stream that stalls (a lost event would leave the client waiting) ends the client, counted as lost events
    socket.setTimeout(5000, () => {
      r.error = 'no byte for 5 s';
      socket.destroy();
    });
    socket.on('close', () => {
      connected();
      resolve();
    });
  });
}

describe('SSE soak: 1,000 streams of one event per 100 ms for 30 s', {
  skip: LONG ? false : 'long form only (npm run test:reliability)',
}, () => {
  let dir = '';
  let server: Server;
  let ca = '';
  before(async () => {
    dir = makeTempDir('mock-rel-sse-');
    const pair = await selfSignedPair();
    ca = pair.cert;
    await writeTree(dir, {
      'mock.toml':
        '[listener.tls]\ncert = "cert.pem"\nkey = "key.pem"\nmax_connections = 1100\n\n[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml':
        '[[rules]]\nwhen.request.url_path = "/events"\nrespond = { stream = { file_path = "events.sse" } }\n',
      'events.sse': sseFile(),
      'cert.pem': pair.cert,
      'key.pem': pair.key,
    });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    await removeDir(dir);
  });

  it('no event lost or reordered; p99 lateness reported; RSS flat after 5 s', { timeout: 180_000 }, async (t) => {
    const rss = sampleRss(server.pid, 250);
    const started = performance.now();
    const results: ClientResult[] = [];
    const done: Promise<void>[] = [];
    // the handshakes in batches, so that a thousand at once do not starve the streams already running
    for (let i = 0; i < CLIENTS; i += CONNECT_BATCH) {
      const batch: Promise<void>[] = [];
      for (let j = i; j < Math.min(CLIENTS, i + CONNECT_BATCH); j++)
        batch.push(new Promise<void>((c) => done.push(sseClient(server.port, ca, results, c))));
      await Promise.all(batch);
    }
    const connectedAfter = performance.now() - started;
    await Promise.all(done);
    const elapsed = performance.now() - started;
    const samples = rss.stop();

    let lost = 0;
    let reordered = 0;
    const errors = results.filter((r) => r.error !== undefined).length;
    const lateness: number[] = [];
    for (const r of results) {
      lost += EVENTS - r.numbers.length;
      for (let i = 0; i < r.numbers.length; i++) if (r.numbers[i] !== i) reordered++;
      // the schedule is anchored at the stream's least late event (the server's clock is not seen from here)
      let t0 = Infinity;
      for (let i = 0; i < r.arrivals.length; i++) t0 = Math.min(t0, r.arrivals[i]! - r.numbers[i]! * INTERVAL_MS);
      for (let i = 0; i < r.arrivals.length; i++) lateness.push(r.arrivals[i]! - t0 - r.numbers[i]! * INTERVAL_MS);
    }
    // RSS while every stream runs: the 5 s after the last client connected against the 5 s before the first ended
    const at = (msFromStart: number): number =>
      Math.max(0, Math.min(samples.length - 1, Math.round(msFromStart / 250)));
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    let firstEnd = Infinity;
    for (const r of results)
      if (r.arrivals.length > 0) firstEnd = Math.min(firstEnd, r.arrivals[r.arrivals.length - 1]! - started);
    const early = mean(samples.slice(at(connectedAfter), at(connectedAfter + 5000)));
    const late = mean(samples.slice(at(firstEnd - 5000), at(firstEnd)));
    const p50 = percentile(lateness, 50);
    const p99 = percentile(lateness, 99);
    const kinds = new Map<string, number>();
    for (const r of results) if (r.error !== undefined) kinds.set(r.error, (kinds.get(r.error) ?? 0) + 1);
    t.diagnostic(
      `figure sse: ${CLIENTS} clients (all connected after ${ms(connectedAfter)}) × ${EVENTS} events in ${ms(elapsed)}: lost ${lost}, reordered ${reordered}, client errors ${errors} ${JSON.stringify([...kinds])}`,
    );
    t.diagnostic(
      `figure sse: lateness against the schedule p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(maxOf(lateness))} (target p99 ≤ ${P99_TARGET_MS} ms)`,
    );
    t.diagnostic(
      `figure sse: server RSS ${mib(early)} in the 5 s after the last client connected, ${mib(late)} in the 5 s before the first stream ended (${mib(late - early)} change), peak ${mib(maxOf(samples))}`,
    );
    assert.equal(errors, 0);
    assert.equal(lost, 0, 'no event lost');
    assert.equal(reordered, 0, 'no event reordered');
    assert.ok(late - early < FLAT_LIMIT, `RSS grew ${mib(late - early)} after the first 5 s`);
    if (p99 > P99_TARGET_MS) t.diagnostic(`figure sse: p99 lateness ${ms(p99)} is over the ${P99_TARGET_MS} ms target`);
  });
});
