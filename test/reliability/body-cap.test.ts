// Reliability figure 2 (docs/reliability.md): the body cap under pressure. Against a 1 MiB cap, uploads that declare a huge length
// (1 GiB in the long form) and chunked uploads that never end are refused with 413 while the client is still
// sending, and the server's memory grows by less than 50 MB while several run at once.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  delay,
  getRequest,
  makeTempDir,
  maxOf,
  MiB,
  mib,
  ms,
  parseOneResponse,
  RawConnection,
  removeDir,
  sampleRss,
  scale,
  spawnServer,
  writeTree,
  type RawResponse,
  type Server,
} from './harness.js';

const CAP = MiB;
const DECLARED = scale(64 * MiB, 1024 * MiB);
/** an endless upload is abandoned (and the test fails) after this many bytes without a 413 */
const ENDLESS_BOUND = scale(256 * MiB, 2048 * MiB);
/** uploads of each kind running at once during the memory measurement */
const PARALLEL = scale(4, 16);
const MEMORY_LIMIT = 50 * 1_000_000;
const CHUNK = 64 * 1024;

interface Upload {
  readonly response?: RawResponse;
  /** bytes the client had handed to the kernel when the response arrived */
  readonly sentAtResponse: number;
  readonly sent: number;
  readonly ms: number;
  readonly ended: 'response' | 'closed' | 'bound';
}

/**
 * Streams a body after `head` until a response arrives, the server closes, or `bound` bytes went out. `frame`
 * wraps each chunk (chunked transfer coding, or nothing).
 */
function upload(port: number, head: string, bound: number, frame: (chunk: Buffer) => Buffer): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    const payload = frame(Buffer.alloc(CHUNK, 0x61));
    let buf = Buffer.alloc(0);
    let sent = 0;
    let response: RawResponse | undefined;
    let sentAtResponse = -1;
    let done = false;
    let wake: (() => void) | undefined;
    const finish = (ended: Upload['ended']): void => {
      if (done) return;
      done = true;
      wake?.();
      socket.destroy();
      resolve({
        ...(response !== undefined ? { response } : {}),
        sentAtResponse,
        sent,
        ms: performance.now() - started,
        ended,
      });
    };
    socket.on('error', () => finish(response !== undefined ? 'response' : 'closed'));
    socket.on('close', () => finish(response !== undefined ? 'response' : 'closed'));
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const parsed = parseOneResponse(buf);
      if (parsed !== undefined && response === undefined) {
        response = parsed.response;
        sentAtResponse = socket.bytesWritten;
        finish('response');
      }
    });
    socket.on('drain', () => wake?.());
    socket.once('connect', () => {
      void (async () => {
        socket.write(head);
        while (!done && sent < bound) {
          const ok = socket.write(payload);
          sent += payload.length;
          if (!ok) await new Promise<void>((r) => (wake = r));
          wake = undefined;
        }
        if (!done) {
          // everything went out and no answer came: give the server a moment, then call it
          await delay(2000);
          finish('bound');
        }
      })();
    });
  });
}

const declaredHead = (n: number): string =>
  `POST /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${n}\r\n\r\n`;
const chunkedHead =
  'POST /ok.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
const asIs = (c: Buffer): Buffer => c;
const chunked = (c: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]);

describe(`body cap under pressure (cap ${mib(CAP)}, declared ${mib(DECLARED)})`, () => {
  let dir = '';
  let server: Server;

  before(async () => {
    dir = makeTempDir('mock-rel-cap-');
    await writeTree(dir, { 'mock.toml': `[service]\nmax_request_body_bytes = ${CAP}\n`, 'ok.json': '{"ok": true}\n' });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    await removeDir(dir);
  });

  it('a body of exactly the cap is accepted; one byte more is a 413', async () => {
    const c = new RawConnection(server.port);
    try {
      const at = await c.request(Buffer.concat([Buffer.from(declaredHead(CAP)), Buffer.alloc(CAP, 0x61)]));
      assert.equal(at.kind, 'response');
      if (at.kind === 'response') assert.equal(at.response.status, 200);
      const over = await upload(server.port, declaredHead(CAP + 1), CAP + 1, asIs);
      assert.equal(over.response?.status, 413);
    } finally {
      c.close();
    }
  });

  it('a declared huge upload: 413 from the headers, while the client is still sending', async (t) => {
    const u = await upload(server.port, declaredHead(DECLARED), DECLARED, asIs);
    t.diagnostic(
      `figure 2a: declared ${mib(DECLARED)}: ${u.response?.status ?? u.ended} after ${ms(u.ms)}, client had sent ${mib(u.sentAtResponse)} of the body`,
    );
    assert.equal(u.ended, 'response', `the server answered (ended: ${u.ended}, sent ${mib(u.sent)})`);
    assert.equal(u.response?.status, 413);
    assert.match(
      u.response?.body.toString('utf8') ?? '',
      new RegExp(`exceeds the configured limit \\(${CAP} bytes\\)`),
    );
    assert.equal(u.response?.headers.get('connection'), 'close');
    assert.ok(u.sentAtResponse < DECLARED, 'the answer came while the body was still being sent');
  });

  it('an endless chunked upload: 413 soon after the cap, while the client is still sending', async (t) => {
    const u = await upload(server.port, chunkedHead, ENDLESS_BOUND, chunked);
    t.diagnostic(
      `figure 2b: endless chunked: ${u.response?.status ?? u.ended} after ${ms(u.ms)}, client had sent ${mib(u.sentAtResponse)}`,
    );
    assert.equal(u.ended, 'response', `the server answered (ended: ${u.ended}, sent ${mib(u.sent)})`);
    assert.equal(u.response?.status, 413);
    assert.match(u.response?.body.toString('utf8') ?? '', /exceeds the configured limit/);
    // refused near the cap, not after reading a large part of the stream (socket buffers allow a few MiB)
    assert.ok(u.sentAtResponse < 32 * MiB, `413 came after ${mib(u.sentAtResponse)}`);
  });

  it(`${PARALLEL} declared + ${PARALLEL} endless uploads at once: all 413, memory growth under 50 MB`, {
    timeout: scale(60_000, 300_000),
  }, async (t) => {
    // warm up so the baseline includes the code paths a request takes
    const warm = new RawConnection(server.port);
    for (let i = 0; i < 20; i++) await warm.request(getRequest('/ok.json'));
    warm.close();
    await delay(200);
    const baseline = server.rss();
    const rss = sampleRss(server.pid, 20);
    const uploads = await Promise.all([
      ...Array.from({ length: PARALLEL }, () => upload(server.port, declaredHead(DECLARED), DECLARED, asIs)),
      ...Array.from({ length: PARALLEL }, () => upload(server.port, chunkedHead, ENDLESS_BOUND, chunked)),
    ]);
    // and the same again, one after another, still while sampling
    for (let i = 0; i < PARALLEL; i++) uploads.push(await upload(server.port, chunkedHead, ENDLESS_BOUND, chunked));
    await delay(200);
    const samples = rss.stop();
    const peak = maxOf(samples);
    const statuses = uploads.map((u) => u.response?.status ?? u.ended);
    const worst = maxOf(uploads.map((u) => u.sentAtResponse));
    t.diagnostic(
      `figure 2c: ${uploads.length} uploads (${PARALLEL} declared ${mib(DECLARED)} + ${PARALLEL * 2} endless chunked): ` +
        `${statuses.filter((s) => s === 413).length} answered 413; most sent before a 413 ${mib(worst)}; ` +
        `server RSS ${mib(baseline)} → peak ${mib(peak)} (growth ${mib(peak - baseline)}, ${samples.length} samples)`,
    );
    assert.deepEqual(
      statuses,
      uploads.map(() => 413),
    );
    assert.ok(peak - baseline < MEMORY_LIMIT, `RSS grew by ${mib(peak - baseline)}`);
    assert.ok(server.alive());
    const after = new RawConnection(server.port);
    const r = await after.request(getRequest('/ok.json'));
    after.close();
    assert.equal(r.kind === 'response' ? r.response.status : r.kind, 200);
  });
});
