// Paced answers to clients that never read (docs/faults.md): the server writes a dribbled body or a stream only as
// fast as the client takes it, so ten such clients cost it about a socket buffer each, not a copy of the answer
// (in tens of thousands of queued writes) each, the memory does not grow once they are gone, and a small request
// on another connection is answered as fast as ever. A body of 60,000 pieces from a remembered file: every client
// shares the one file, so what grows is what the server queues for each.
import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  delay,
  fetchOnce,
  makeTempDir,
  mib,
  ms,
  MiB,
  removeDir,
  runProgram,
  sampleRss,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';
import { assertNeighbourFast, neighbourDelay } from './neighbour.js';

const CLIENTS = 10;
/** under the file cache's 8 MiB per-file bound, so every client shares the one file; above what the kernel's
 * socket buffers take for a client that does not read (about 4 MiB on Linux loopback) */
const STREAM_BYTES = 6 * MiB;
const PIECES = 60_000;
/** a stream written whole to each client costs several times its size each (its chunks and their framing) */
const GROWTH_LIMIT = 100 * MiB;

function ndjson(bytes: number): string {
  const line = JSON.stringify({ id: 0, text: 'y'.repeat(80) }) + '\n';
  return line.repeat(Math.ceil(bytes / line.length));
}

/** A connection that asks for `path` and then reads nothing. */
function nonReader(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.pause();
      s.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
      resolve(s);
    });
    s.on('error', reject);
  });
}

describe('a body in pieces to clients that never read', { timeout: 120_000 }, () => {
  let dir: string;
  let server: Server;
  before(async () => {
    dir = makeTempDir('mock-backpressure-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml': `[[rules]]\nwhen.request.url_path = "/export"\nrespond = { file_path = "rows.ndjson", chunks = { count = ${PIECES}, interval_ms = 0 } }\n`,
      'rows.ndjson': ndjson(STREAM_BYTES),
      'small.txt': 'ok\n',
    });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });

  it('hold a bounded amount of memory each, released when they leave, and do not slow a neighbour', async (t) => {
    // one full read first: the file is parsed and remembered, the heap has grown to its working size
    const whole = await fetchOnce(server.port, '/export', { timeoutMs: 60_000 });
    assert.equal(whole.status, 200);
    assert.equal(whole.body.length, ndjson(STREAM_BYTES).length);
    await delay(500);
    const baseline = server.rss();
    const rss = sampleRss(server.pid, 25);
    const clients: Socket[] = [];
    const r = await neighbourDelay(server.port, '/small.txt', async () => {
      for (let i = 0; i < CLIENTS; i++) clients.push(await nonReader(server.port, '/export'));
      // long enough for the server to write all it will to them
      await delay(2000);
    });
    const peak = rss.peak();
    for (const c of clients) c.destroy();
    await delay(1000);
    const afterLeaving = rss.stop().at(-1)!;
    assert.ok(
      peak - baseline < GROWTH_LIMIT,
      `RSS grew by ${mib(peak - baseline)} with ${CLIENTS} clients that do not read a ${mib(STREAM_BYTES)} body in ${PIECES} pieces ` +
        `(baseline ${mib(baseline)}, peak ${mib(peak)}); the limit is ${mib(GROWTH_LIMIT)}`,
    );
    assert.ok(afterLeaving <= peak + 8 * MiB, `RSS went on growing after the clients left: ${mib(afterLeaving)}`);
    t.diagnostic(
      `RSS +${mib(peak - baseline)} at peak, ${mib(afterLeaving)} after; neighbour worst ${ms(r.worstMs)}, ` +
        `median ${ms(r.medianMs)} over ${r.probes} probes`,
    );
    assertNeighbourFast(r, `${CLIENTS} clients that never read a ${mib(STREAM_BYTES)} body in ${PIECES} pieces`);
    // and the server still sends the whole body to a client that reads
    const again = await fetchOnce(server.port, '/export', { timeoutMs: 60_000 });
    assert.equal(again.body.length, whole.body.length);
  });
});

/**
 * `clients` connections that ask for `path` and read nothing, beside a neighbour: the server's RSS growth at the
 * peak and once they left (each against the RSS before them), and the neighbour's delays.
 */
async function holdNonReaders(server: Server, paths: string | readonly string[], clients: number) {
  const asked = typeof paths === 'string' ? [paths] : paths;
  await delay(500);
  const baseline = server.rss();
  const rss = sampleRss(server.pid, 25);
  const held: Socket[] = [];
  const r = await neighbourDelay(server.port, '/small.txt', async () => {
    for (let i = 0; i < clients; i++) held.push(await nonReader(server.port, asked[i % asked.length]!));
    // long enough for the server to write all it will to them
    await delay(2000);
  });
  const peak = rss.peak();
  for (const c of held) c.destroy();
  await delay(1500);
  const afterLeaving = rss.stop().at(-1)!;
  return { baseline, peak, afterLeaving, neighbour: r };
}

/** status, headers and the body's length of one request (the body read and counted, not kept) */
function lengthOf(
  port: number,
  path: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a stream file to clients that never read', { timeout: 120_000 }, () => {
  let dir: string;
  let server: Server;
  before(async () => {
    dir = makeTempDir('mock-stream-file-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml':
        '[[rules]]\nwhen.request.url_path = "/feed"\nrespond = { stream = { file_path = "feed.ndjson", interval_ms = 0 } }\n',
      'feed.ndjson': ndjson(STREAM_BYTES),
      'small.txt': 'ok\n',
    });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });

  it('share one parse of the file: bounded memory each, released when they leave, a neighbour unhurt', async (t) => {
    const whole = await fetchOnce(server.port, '/feed', { timeoutMs: 60_000 });
    assert.equal(whole.status, 200);
    assert.equal(whole.body, ndjson(STREAM_BYTES));
    const m = await holdNonReaders(server, '/feed', CLIENTS);
    t.diagnostic(
      `RSS +${mib(m.peak - m.baseline)} at peak, ${mib(m.afterLeaving)} after; neighbour worst ${ms(m.neighbour.worstMs)}, ` +
        `median ${ms(m.neighbour.medianMs)} over ${m.neighbour.probes} probes`,
    );
    assert.ok(
      m.peak - m.baseline < GROWTH_LIMIT,
      `RSS grew by ${mib(m.peak - m.baseline)} with ${CLIENTS} clients that do not read a ${mib(STREAM_BYTES)} NDJSON ` +
        `stream file (baseline ${mib(m.baseline)}, peak ${mib(m.peak)}); the limit is ${mib(GROWTH_LIMIT)}`,
    );
    assert.ok(m.afterLeaving <= m.peak + 8 * MiB, `RSS went on growing after the clients left: ${mib(m.afterLeaving)}`);
    assertNeighbourFast(m.neighbour, `${CLIENTS} clients that never read a ${mib(STREAM_BYTES)} NDJSON stream file`);
    const again = await fetchOnce(server.port, '/feed', { timeoutMs: 60_000 });
    assert.equal(again.body.length, whole.body.length);
  });
});

/** over the file cache's 8 MiB per-file bound */
const BIG_STREAM_BYTES = 12 * MiB;
/** a few copies of the stream in all; a parse per client is ten (+91 MiB measured) */
const BIG_STREAM_GROWTH_LIMIT = 3 * BIG_STREAM_BYTES;

describe('a stream file larger than the file cache holds, to clients that never read', { timeout: 120_000 }, () => {
  let dir: string;
  let server: Server;
  before(async () => {
    dir = makeTempDir('mock-big-stream-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml':
        '[[rules]]\nwhen.request.url_path = "/feed"\nrespond = { stream = { file_path = "feed.ndjson", interval_ms = 0 } }\n',
      'feed.ndjson': ndjson(BIG_STREAM_BYTES),
      'small.txt': 'ok\n',
    });
    // settled: a file modified a moment ago may change again within the same mtime, and is parsed per request
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'feed.ndjson'), past, past);
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });

  it('share one parse of the file too: bounded memory each, a neighbour unhurt', async (t) => {
    const whole = await lengthOf(server.port, '/feed');
    assert.equal(whole.status, 200);
    assert.equal(whole.bytes, ndjson(BIG_STREAM_BYTES).length);
    const m = await holdNonReaders(server, '/feed', CLIENTS);
    t.diagnostic(
      `RSS +${mib(m.peak - m.baseline)} at peak, ${mib(m.afterLeaving)} after; neighbour worst ${ms(m.neighbour.worstMs)}, ` +
        `median ${ms(m.neighbour.medianMs)} over ${m.neighbour.probes} probes`,
    );
    assert.ok(
      m.peak - m.baseline < BIG_STREAM_GROWTH_LIMIT,
      `RSS grew by ${mib(m.peak - m.baseline)} with ${CLIENTS} clients that do not read a ${mib(BIG_STREAM_BYTES)} ` +
        `NDJSON stream file (baseline ${mib(m.baseline)}, peak ${mib(m.peak)}); the limit is ${mib(BIG_STREAM_GROWTH_LIMIT)}`,
    );
    assertNeighbourFast(
      m.neighbour,
      `${CLIENTS} clients that never read a ${mib(BIG_STREAM_BYTES)} NDJSON stream file`,
    );
    // an edit is seen: the next client gets the new version
    writeFileSync(join(dir, 'feed.ndjson'), ndjson(BIG_STREAM_BYTES + MiB));
    const edited = await lengthOf(server.port, '/feed');
    assert.equal(edited.bytes, ndjson(BIG_STREAM_BYTES + MiB).length);
  });
});

/** over the file cache's 8 MiB per-file bound: read from disk for each request */
const BIG_BYTES = 40 * MiB;
/** just over the bound: small enough for `mock get` to print */
const MID_BYTES = 9 * MiB;

describe('a file larger than the file cache holds, to clients that never read', { timeout: 120_000 }, () => {
  let dir: string;
  let server: Server;
  before(async () => {
    dir = makeTempDir('mock-big-file-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml':
        '[[rules]]\nwhen.request.url_path = "/download"\nrespond = { file_path = "big.txt" }\n\n' +
        '[[rules]]\nwhen.request.url_path = { value = "/files/{rest*}", op = "path_template" }\n' +
        'respond = { template = true, file_path = "{{request.params.rest}}" }\n',
      'big.txt': 'z'.repeat(BIG_BYTES - 1) + '\n',
      'mid.txt': 'm'.repeat(MID_BYTES - 1) + '\n',
      'small.txt': 'ok\n',
    });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });

  it('is streamed from disk: bounded memory each, released when they leave, a neighbour unhurt', async (t) => {
    const whole = await lengthOf(server.port, '/big.txt');
    assert.equal(whole.status, 200);
    assert.equal(whole.bytes, BIG_BYTES);
    assert.equal(whole.headers['content-length'], String(BIG_BYTES));
    // the fallback file, a rule's file_path and a rendered one
    const m = await holdNonReaders(server, ['/big.txt', '/download', '/files/big.txt'], CLIENTS);
    t.diagnostic(
      `RSS +${mib(m.peak - m.baseline)} at peak, ${mib(m.afterLeaving)} after; neighbour worst ${ms(m.neighbour.worstMs)}, ` +
        `median ${ms(m.neighbour.medianMs)} over ${m.neighbour.probes} probes`,
    );
    assert.ok(
      m.peak - m.baseline < GROWTH_LIMIT,
      `RSS grew by ${mib(m.peak - m.baseline)} with ${CLIENTS} clients that do not read a ${mib(BIG_BYTES)} file ` +
        `(baseline ${mib(m.baseline)}, peak ${mib(m.peak)}); the limit is ${mib(GROWTH_LIMIT)}`,
    );
    assert.ok(m.afterLeaving <= m.peak + 8 * MiB, `RSS went on growing after the clients left: ${mib(m.afterLeaving)}`);
    assertNeighbourFast(m.neighbour, `${CLIENTS} clients that never read a ${mib(BIG_BYTES)} file`);
  });

  it('answers a rule file_path, a rendered one, HEAD and a reading client whole, with its length announced', async () => {
    const byRule = await lengthOf(server.port, '/download');
    assert.equal(byRule.status, 200);
    assert.equal(byRule.bytes, BIG_BYTES);
    assert.equal(byRule.headers['content-length'], String(BIG_BYTES));
    assert.match(String(byRule.headers['content-type']), /^text\/plain/);
    const rendered = await lengthOf(server.port, '/files/big.txt');
    assert.equal(rendered.status, 200);
    assert.equal(rendered.bytes, BIG_BYTES);
    assert.equal(rendered.headers['content-length'], String(BIG_BYTES));
    const head = await lengthOf(server.port, '/big.txt', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.bytes, 0);
    assert.equal(head.headers['content-length'], String(BIG_BYTES));
  });

  it('is printed whole by `mock get`', async () => {
    const r = await runProgram(['get', '/mid.txt'], dir, 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('m'.repeat(MID_BYTES - 1)), `mock get printed ${r.stdout.length} characters`);
  });
});
