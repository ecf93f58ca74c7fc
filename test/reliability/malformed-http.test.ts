// Reliability figure 4 (docs/reliability.md): malformed HTTP. Bad request lines, invalid header bytes, 100 KB headers, bad chunk sizes,
// HTTP/0.9, pipelined garbage: each gets a 4xx (400, 413, 431) or 505, or a closed connection; never another 5xx,
// and the server keeps answering. An invalid JSON body sent as application/json is the client's error: 400 with a
// plain-text reason.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  fetchOnce,
  makeTempDir,
  parseOneResponse,
  pool,
  removeDir,
  scale,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';
import { INVALID_JSON_BODIES, MALFORMED_CASES, type MalformedCase, type Refusal } from './malformed-cases.js';

const REPEAT = scale(1, 20);
const LANES = scale(4, 8);
const WAIT_MS = 3000;

interface Exchanged {
  readonly statuses: readonly number[];
  readonly ended: 'closed' | 'timeout' | 'enough';
  readonly ms: number;
}

/** Writes the bytes and collects responses until the server closes, `enough` arrived, or `waitMs` passed. */
function exchange(port: number, bytes: Buffer, enough: number, waitMs = WAIT_MS): Promise<Exchanged> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let buf = Buffer.alloc(0);
    const statuses: number[] = [];
    let done = false;
    const finish = (ended: Exchanged['ended']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses, ended, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish('timeout'), waitMs);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (let parsed = parseOneResponse(buf); parsed !== undefined; parsed = parseOneResponse(buf)) {
        statuses.push(parsed.response.status);
        buf = buf.subarray(parsed.used);
      }
      if (statuses.length >= enough) finish('enough');
    });
    socket.on('error', () => finish('closed'));
    socket.on('close', () => finish('closed'));
  });
}

/** Why this exchange is not acceptable for the case, or undefined when it is. */
function judge(c: MalformedCase, x: Exchanged): string | undefined {
  const want = c.before ?? [];
  const got = x.statuses.slice(0, want.length);
  if (got.join() !== want.join())
    return `expected ${want.join(', ') || 'nothing'} before the refusal, got ${x.statuses.join(', ') || 'nothing'} (${x.ended})`;
  const refusal = x.statuses[want.length];
  const outcome: Refusal | 'timeout' = refusal ?? (x.ended === 'timeout' ? 'timeout' : 'closed');
  if (x.statuses.some((s) => s >= 500 && s !== 505)) return `a 5xx: ${x.statuses.join(', ')}`;
  if (outcome === 'timeout') return `neither answered nor closed within ${c.waitMs ?? WAIT_MS} ms`;
  if (!c.refusal.includes(outcome)) return `got ${outcome}, expected one of ${c.refusal.join(', ')}`;
  return undefined;
}

describe(`malformed HTTP (${MALFORMED_CASES.length} kinds × ${REPEAT})`, () => {
  let dir = '';
  let server: Server;
  const handlerFailed = /request handling failed|internal error/;

  before(async () => {
    dir = makeTempDir('mock-rel-malformed-');
    await writeTree(dir, {
      'ok.json': '{"ok": true}\n',
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml':
        '[[rules]]\nwhen.request.url_path = "/echo"\nwhen.request.body.json.a = { value = "1" }\nrespond.text = "matched"\n',
    });
    server = await spawnServer([], dir, [handlerFailed]);
  });
  after(async () => {
    await server?.stop();
    await removeDir(dir);
  });

  it('every malformed request gets a 4xx, a 505 or a closed connection, and the server keeps answering', {
    timeout: scale(60_000, 300_000),
  }, async (t) => {
    const failures: string[] = [];
    const seen = new Map<string, Map<string, number>>();
    let sanity = 0;
    const jobs = MALFORMED_CASES.flatMap((c) => Array.from({ length: REPEAT }, () => c));
    await pool(jobs.length, LANES, async (i) => {
      const c = jobs[i]!;
      const x = await exchange(server.port, c.bytes, (c.before?.length ?? 0) + 1, c.waitMs);
      const why = judge(c, x);
      if (why !== undefined && failures.length < 30) failures.push(`${c.name}: ${why}`);
      const label = x.statuses[c.before?.length ?? 0]?.toString() ?? x.ended;
      const byCase = seen.get(c.name) ?? new Map<string, number>();
      byCase.set(label, (byCase.get(label) ?? 0) + 1);
      seen.set(c.name, byCase);
      // the server still answers a normal request on a fresh connection
      const ok = await fetchOnce(server.port, '/ok.json', { timeoutMs: 5000 });
      if (ok.status === 200) sanity++;
      else if (failures.length < 30)
        failures.push(`after "${c.name}": a normal request got ${ok.status} ${ok.error ?? ''}`);
    });
    const outcomes = new Map<string, number>();
    for (const byCase of seen.values())
      for (const [label, n] of byCase) outcomes.set(label, (outcomes.get(label) ?? 0) + n);
    t.diagnostic(
      `figure 4a: ${MALFORMED_CASES.length} kinds × ${REPEAT} = ${jobs.length} malformed exchanges: ` +
        [...outcomes]
          .sort()
          .map(([k, n]) => `${k}×${n}`)
          .join(', ') +
        `; ${sanity}/${jobs.length} normal requests after them answered 200; handler failures logged ${server.count(handlerFailed)}`,
    );
    for (const [name, byCase] of seen)
      t.diagnostic(`  ${name}: ${[...byCase].map(([k, n]) => `${k}×${n}`).join(', ')}`);
    assert.deepEqual(failures, []);
    assert.equal(sanity, jobs.length);
    assert.equal(server.count(handlerFailed), 0);
    assert.ok(server.alive());
  });

  it('an invalid JSON body sent as application/json is a 400 with a plain-text reason', async (t) => {
    const failures: string[] = [];
    for (const [name, body] of INVALID_JSON_BODIES) {
      for (let i = 0; i < REPEAT; i++) {
        const x = await fetchOnce(server.port, '/echo', {
          method: 'POST',
          body: body.toString('latin1'),
          headers: { 'content-type': 'application/json' },
        });
        // fetchOnce sends strings as UTF-8; the invalid-UTF-8 case goes raw below
        if (name === 'invalid UTF-8') break;
        if (x.status !== 400 || !x.body.startsWith('request body is not valid JSON: '))
          failures.push(`${name}: ${x.status} ${JSON.stringify(x.body.slice(0, 100))}`);
      }
    }
    // raw bytes (invalid UTF-8), with the content type checked too
    const raw = INVALID_JSON_BODIES.find(([n]) => n === 'invalid UTF-8')![1];
    const head = `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${raw.length}\r\n\r\n`;
    const socket = connect(server.port, '127.0.0.1');
    const text = await new Promise<Buffer>((resolve) => {
      let buf = Buffer.alloc(0);
      socket.on('connect', () => socket.write(Buffer.concat([Buffer.from(head, 'latin1'), raw])));
      socket.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        if (parseOneResponse(buf) !== undefined) resolve(buf);
      });
      socket.on('close', () => resolve(buf));
      setTimeout(() => resolve(buf), WAIT_MS);
    });
    socket.destroy();
    const r = parseOneResponse(text)?.response;
    const rawBody = r?.body.toString('utf8') ?? '';
    if (
      r?.status !== 400 ||
      r.headers.get('content-type') !== 'text/plain; charset=utf-8' ||
      !/^request body is not valid JSON: \S/.test(rawBody)
    ) {
      failures.push(
        `invalid UTF-8: ${r?.status ?? 'no answer'} ${r?.headers.get('content-type') ?? ''} ${JSON.stringify(rawBody.slice(0, 100))}`,
      );
    }
    // a valid body still matches, so the 400s are about the bodies, not the route
    const ok = await fetchOnce(server.port, '/echo', {
      method: 'POST',
      body: '{"a": "1"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body, 'matched');
    t.diagnostic(
      `figure 4b: ${INVALID_JSON_BODIES.length} invalid JSON bodies × ${REPEAT}: ${failures.length === 0 ? 'all' : `${failures.length} NOT`} 400 "request body is not valid JSON: …" (text/plain)`,
    );
    assert.deepEqual(failures, []);
  });
});
