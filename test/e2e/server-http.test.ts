// The HTTP adapter over real sockets: default headers, OPTIONS, CORS, HEAD, bodyless statuses, delays,
// handler failures and raw UTF-8 request lines.
import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadWorkspace } from '../../src/config/load.js';
import { dispatch, type Outcome } from '../../src/dispatch/dispatch.js';
import { snapshotFrom } from '../../src/dispatch/snapshot.js';
import { finalize } from '../../src/dispatch/finalize.js';
import type { RequestSnapshot } from '../../src/model/request.js';
import type { Workspace } from '../../src/model/workspace.js';
import { createFsSource } from '../../src/node/file-cache/fs-source.js';
import { RotationState } from '../../src/routing/rotation.js';
import { MemoryStore } from '../../src/state/store.js';
import { TEXT_BODY_MAX } from '../../src/server/write.js';
import {
  channelEvents,
  EXPECTED_DEFAULT_HEADERS,
  EXPECTED_STAR_HEADERS,
  header,
  makeWorkspace,
  mockClock,
  parseResponses,
  rawExchange,
  send,
  startTestServer,
  tempDir,
  type SimpleResponse,
  type TestServer,
} from './server-harness.js';

const HELLO = '{"b":1,  "a":2}\n';
const CAFE = '{"cafe":true}';

/** every byte value, then bodies on both sides of the size up to which the server writes a body as a string */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);
const AT_TEXT_LIMIT = Uint8Array.from({ length: TEXT_BODY_MAX }, (_, i) => (i * 7 + 3) % 256);
const PAST_TEXT_LIMIT = Uint8Array.from({ length: TEXT_BODY_MAX + 1 }, (_, i) => (i * 11 + 5) % 256);

const dir = tempDir();
before(() => {
  writeFileSync(join(dir.path, 'all-bytes.bin'), ALL_BYTES);
  writeFileSync(join(dir.path, 'at-limit.bin'), AT_TEXT_LIMIT);
  writeFileSync(join(dir.path, 'past-limit.bin'), PAST_TEXT_LIMIT);
  writeFileSync(join(dir.path, 'hello.json'), HELLO);
  writeFileSync(join(dir.path, 'café.json'), CAFE);
});
after(() => dir.cleanup());

/** Our headers: Node's own framing ones (date, connection, keep-alive) set aside. */
function ours(r: { headers: readonly (readonly [string, string])[] }): [string, string][] {
  return r.headers.filter(([k]) => k !== 'date' && k !== 'connection' && k !== 'keep-alive').map(([k, v]) => [k, v]);
}

const DEFAULTS = EXPECTED_DEFAULT_HEADERS;
const STAR = EXPECTED_STAR_HEADERS;

describe('real pipeline (zero-config over a fallback directory)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      makeWorkspace({ fallbackDir: dir.path, corsAllowCredentialsOrigins: ['https://app.example.com'] }),
    );
  });
  after(() => server.close());

  test('a miss: 404, empty body, the default header set', async () => {
    const r = await send(server.port, { path: '/nothing' });
    assert.equal(r.status, 404);
    assert.equal(r.body.length, 0);
    assert.deepEqual(ours(r), [...DEFAULTS, ...STAR, ['content-length', '0']]);
    assert.ok(header(r, 'date'));
  });

  test('a file: 200, bytes as written, application/json, exact content-length', async () => {
    const r = await send(server.port, { path: '/hello' });
    assert.equal(r.status, 200);
    assert.equal(r.body.toString('utf8'), HELLO);
    assert.deepEqual(ours(r), [
      ...DEFAULTS,
      ...STAR,
      ['content-type', 'application/json'],
      ['content-length', String(Buffer.byteLength(HELLO))],
    ]);
  });

  test('any bytes come back exactly as on disk, whatever their size (twice: the second from memory)', async () => {
    for (const [name, bytes] of [
      ['all-bytes.bin', ALL_BYTES],
      ['at-limit.bin', AT_TEXT_LIMIT],
      ['past-limit.bin', PAST_TEXT_LIMIT],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const r = await send(server.port, { path: `/${name}` });
        assert.equal(r.status, 200, name);
        assert.equal(header(r, 'content-length'), String(bytes.byteLength), name);
        assert.ok(r.body.equals(bytes), `${name}, round ${round + 1}`);
      }
    }
    const cafe = await send(server.port, { path: '/caf%C3%A9.json' });
    assert.ok(cafe.body.equals(Buffer.from(CAFE, 'utf8')));
  });

  test('OPTIONS: 204 with the CORS headers, no body, no content-length, no content-type', async () => {
    const res = await rawExchange(
      server.port,
      'OPTIONS /anything/at/all HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    const [r, ...rest] = parseResponses(res.text);
    assert.equal(rest.length, 0);
    assert.ok(r);
    assert.equal(r.status, 204);
    assert.equal(res.text.slice(res.text.indexOf('\r\n\r\n') + 4), '');
    assert.deepEqual(ours(r), [...DEFAULTS, ...STAR]);
  });

  test('HEAD: the GET headers (content-length included) and no body', async () => {
    const res = await rawExchange(server.port, 'HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const [r] = parseResponses(res.text, true);
    assert.ok(r);
    assert.equal(r.status, 200);
    assert.equal(header(r, 'content-length'), String(Buffer.byteLength(HELLO)));
    assert.equal(header(r, 'content-type'), 'application/json');
    assert.equal(res.text.slice(res.text.indexOf('\r\n\r\n') + 4), '');
  });

  test('CORS rows (docs/output.md#options-and-cors)', async () => {
    const cases: {
      name: string;
      headers: Record<string, string>;
      origin: string;
      vary: string;
      credentials?: string;
    }[] = [
      { name: 'no credentials, no origin', headers: {}, origin: '*', vary: '*' },
      { name: 'origin without credentials', headers: { Origin: 'http://localhost:5173' }, origin: '*', vary: '*' },
      {
        name: 'cookie from localhost',
        headers: { Cookie: 'a=1', Origin: 'http://localhost:5173' },
        origin: 'http://localhost:5173',
        vary: 'Origin',
        credentials: 'true',
      },
      {
        name: 'authorization from 127.0.0.1',
        headers: { Authorization: 'Bearer x', Origin: 'http://127.0.0.1:8080' },
        origin: 'http://127.0.0.1:8080',
        vary: 'Origin',
        credentials: 'true',
      },
      {
        name: 'localhost without port',
        headers: { Cookie: 'a', Origin: 'http://localhost' },
        origin: 'http://localhost',
        vary: 'Origin',
        credentials: 'true',
      },
      { name: 'evil origin', headers: { Cookie: 'a', Origin: 'https://evil.example' }, origin: '*', vary: '*' },
      {
        name: 'localhost look-alike',
        headers: { Cookie: 'a', Origin: 'http://localhost.evil.example' },
        origin: '*',
        vary: '*',
      },
      { name: 'https localhost', headers: { Cookie: 'a', Origin: 'https://localhost:3000' }, origin: '*', vary: '*' },
      { name: 'credentials without origin', headers: { Authorization: 'x' }, origin: '*', vary: '*' },
      {
        name: 'configured origin',
        headers: { Cookie: 'a', Origin: 'https://app.example.com' },
        origin: 'https://app.example.com',
        vary: 'Origin',
        credentials: 'true',
      },
      {
        name: 'unlisted origin',
        headers: { Authorization: 'x', Origin: 'https://other.example.com' },
        origin: '*',
        vary: '*',
      },
    ];
    for (const c of cases) {
      for (const method of ['GET', 'OPTIONS']) {
        const r = await send(server.port, { method, path: '/cors', headers: c.headers });
        const label = `${c.name} (${method})`;
        assert.equal(header(r, 'access-control-allow-origin'), c.origin, label);
        assert.equal(header(r, 'vary'), c.vary, label);
        assert.equal(header(r, 'access-control-allow-credentials'), c.credentials, label);
      }
    }
  });

  test('raw UTF-8 bytes in the request line reach the file, like the percent-encoded form', async () => {
    const rawLine = Buffer.concat([
      Buffer.from('GET /'),
      Buffer.from('café', 'utf8'),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]);
    const raw = await rawExchange(server.port, rawLine);
    const [r] = parseResponses(raw.text);
    assert.ok(r, raw.text);
    assert.equal(r.status, 200);
    assert.equal(r.body, CAFE);
    const encoded = await send(server.port, { path: '/caf%C3%A9' });
    assert.equal(encoded.status, 200);
    assert.equal(encoded.body.toString(), CAFE);
  });

  test('raw UTF-8 works pipelined and on a kept-alive connection', async () => {
    const bad = (p: string): Buffer =>
      Buffer.concat([Buffer.from('GET /'), Buffer.from(p, 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]);
    // a normal request, then the UTF-8 one, then another normal one, all in one packet
    const pipelined = Buffer.concat([
      Buffer.from('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n'),
      bad('café'),
      Buffer.from('GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    const r1 = await rawExchange(server.port, pipelined, { responses: 3 });
    assert.deepEqual(
      parseResponses(r1.text).map((r) => [r.status, r.body]),
      [
        [200, HELLO],
        [200, CAFE],
        [404, ''],
      ],
    );
    // the UTF-8 request in a later packet on the same connection, and again after that
    const { connect } = await import('node:net');
    const text = await new Promise<string>((resolve, reject) => {
      let got = '';
      const s = connect(server.port, '127.0.0.1', () => s.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n'));
      let step = 0;
      s.on('data', (d: Buffer) => {
        got += d.toString('latin1');
        const n = parseResponses(got).length;
        if (n === 1 && step === 0) {
          step = 1;
          s.write(bad('CAFÉ'));
        } else if (n === 2 && step === 1) {
          step = 2;
          s.write(bad('café'));
        } else if (n === 3) {
          s.end();
          resolve(got);
        }
      });
      s.on('error', reject);
      setTimeout(() => reject(new Error('timed out: ' + got)), 3000).unref();
    });
    assert.deepEqual(
      parseResponses(text).map((r) => [r.status, r.body]),
      [
        [200, HELLO],
        [200, CAFE],
        [200, CAFE],
      ],
    );
  });

  test('a declared-JSON body that does not parse: 400; the server goes on', async () => {
    const r = await send(server.port, {
      method: 'POST',
      path: '/x',
      headers: { 'content-type': 'application/json' },
      body: '{bad',
    });
    assert.equal(r.status, 400);
    assert.equal(header(r, 'content-type'), 'text/plain; charset=utf-8');
    const ok = await send(server.port, { path: '/hello' });
    assert.equal(ok.status, 200);
  });

  test('HTTP versions other than 1.x are refused with 505 (plain-text HTTP/2 and HTTP/0.9)', async () => {
    for (const line of ['GET / HTTP/2.0\r\nHost: x\r\n\r\n', 'GET /\r\n\r\n']) {
      const res = await rawExchange(server.port, line);
      const statuses = parseResponses(res.text).map((r) => r.status);
      assert.deepEqual(statuses, [505], JSON.stringify(line));
    }
  });
});

/** A dispatch stand-in: answers by path, for statuses and stages the real rule engine would need a rule set for. */
function scripted(ws: Workspace): (w: Workspace, req: RequestSnapshot) => Promise<Outcome> {
  const enc = new TextEncoder();
  return async (_w, req) => {
    const [, what, arg] = req.path.split('/');
    const body = (text: string): Uint8Array => enc.encode(text);
    switch (what) {
      case 'status':
        return {
          answer: finalize(
            {
              status: Number(arg),
              body: body('some text'),
              contentType: 'text/plain; charset=utf-8',
              headers: [],
              delayMs: 0,
            },
            req,
            ws.cors,
          ),
          stage: { kind: 'rule_set', ruleSetIndex: 0, ruleIndex: 0 },
        };
      case 'slow':
        return {
          answer: finalize({ status: 200, body: body('slow'), headers: [], delayMs: Number(arg) }, req, ws.cors),
          stage: { kind: 'rule_set', ruleSetIndex: 0, ruleIndex: 1 },
        };
      case 'boom':
        throw new Error('boom');
      case 'bad-header':
        return {
          answer: finalize(
            {
              status: 200,
              body: body('x'),
              headers: [
                ['x-a', 'line\nbreak'],
                ['bad name', 'v'],
                ['x-ok', 'fine'],
              ],
              delayMs: 0,
            },
            req,
            ws.cors,
          ),
          stage: { kind: 'rule_set', ruleSetIndex: 0, ruleIndex: 2 },
        };
      case 'echo':
        return {
          answer: finalize(
            { status: 200, body: body(`${req.method} ${req.path}`), headers: [], delayMs: 0 },
            req,
            ws.cors,
          ),
          stage: { kind: 'miss' },
        };
      default:
        return dispatch(ws, req, {
          files: createFsSource(),
          rotation: new RotationState(),
          state: new MemoryStore(),
          random: Math.random,
          log: () => {},
        });
    }
  };
}

describe('scripted answers', () => {
  let server: TestServer;
  before(async () => {
    const ws = makeWorkspace({ fallbackDir: dir.path });
    server = await startTestServer(ws, { dispatch: scripted(ws) });
  });
  after(() => server.close());

  test('204 and 304: no body, no content-length, no content-type; the connection stays usable', async () => {
    for (const status of [204, 304]) {
      const res = await rawExchange(
        server.port,
        `GET /status/${status} HTTP/1.1\r\nHost: x\r\n\r\nGET /echo HTTP/1.1\r\nHost: x\r\n\r\n`,
        { responses: 2 },
      );
      const [a, b] = parseResponses(res.text);
      assert.ok(a && b, res.text);
      assert.equal(a.status, status);
      assert.equal(header(a, 'content-length'), undefined);
      assert.equal(header(a, 'content-type'), undefined);
      assert.equal(header(a, 'transfer-encoding'), undefined);
      assert.equal(b.status, 200);
      assert.equal(b.body, 'GET /echo');
    }
  });

  test('other statuses carry their body', async () => {
    for (const status of [201, 301, 400, 401, 403, 404, 429, 500, 503]) {
      const r = await send(server.port, { path: `/status/${status}` });
      assert.equal(r.status, status);
      assert.equal(r.body.toString(), 'some text');
    }
  });

  test('a delay is a timer: other requests are answered meanwhile', async (t) => {
    const clock = mockClock(t);
    let slowDone = false;
    const slow = send(server.port, { path: '/slow/400' }).then((r) => ((slowDone = true), r));
    // the slow answer waits on its timer, and mocked time stands still until the tick
    await clock.scheduled(400);
    const quick = await send(server.port, { path: '/echo' });
    assert.equal(quick.status, 200);
    assert.equal(slowDone, false, 'the slow answer came before its delay');
    clock.tick(400);
    assert.equal((await slow).status, 200);
  });

  test('a failing handler answers 500 once, is logged, and the server keeps answering', async () => {
    const r = await send(server.port, { path: '/boom' });
    assert.equal(r.status, 500);
    assert.equal(r.body.toString(), 'internal server error');
    assert.equal(header(r, 'content-type'), 'text/plain; charset=utf-8');
    assert.ok(server.logs.includes('request handling failed: boom'), server.logs.join('\n'));
    const again = await send(server.port, { path: '/echo' });
    assert.equal(again.status, 200);
  });

  test('an invalid header value is sent empty and an invalid name dropped, each with a console line', async () => {
    const r: SimpleResponse = await send(server.port, { path: '/bad-header' });
    assert.equal(r.status, 200);
    assert.equal(header(r, 'x-a'), '');
    assert.equal(header(r, 'bad name'), undefined);
    assert.equal(header(r, 'x-ok'), 'fine');
    assert.ok(server.logs.some((l) => l.includes('header key = x-a')));
    assert.ok(server.logs.some((l) => l.includes('header key: bad name')));
  });

  test('methods beyond the four reach dispatch (PATCH, TRACE); HEAD gets no body', async () => {
    for (const method of ['PATCH', 'TRACE', 'DELETE', 'PUT']) {
      const r = await send(server.port, { method, path: '/echo' });
      assert.equal(r.body.toString(), `${method} /echo`, method);
    }
    const head = await rawExchange(server.port, 'HEAD /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const [h] = parseResponses(head.text, true);
    assert.ok(h);
    assert.equal(header(h, 'content-length'), String('HEAD /echo'.length));
    assert.equal(head.text.slice(head.text.indexOf('\r\n\r\n') + 4), '');
  });
});

describe('connections', () => {
  test('several requests on one kept-alive connection', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path }));
    try {
      const req = 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n';
      const r = await rawExchange(server.port, req + req + req, { responses: 3 });
      assert.deepEqual(
        parseResponses(r.text).map((x) => x.status),
        [200, 200, 200],
      );
      assert.equal(r.ended, 'enough');
    } finally {
      await server.close();
    }
  });

  test('many connections at once, each with pipelined requests: every answer complete, on its own connection, in order', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path }));
    try {
      const hello = 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n';
      const cafe = 'GET /caf%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n';
      const missing = 'GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n';
      const orders = Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? [hello, cafe, missing] : [missing, cafe, hello],
      );
      const results = await Promise.all(orders.map((o) => rawExchange(server.port, o.join(''), { responses: 3 })));
      results.forEach((r, i) => {
        const got = parseResponses(r.text).map((x) => `${x.status} ${x.body}`);
        const want = orders[i]!.map((q) =>
          q === hello ? `200 ${HELLO}` : q === cafe ? `200 ${Buffer.from(CAFE).toString('latin1')}` : '404 ',
        );
        assert.deepEqual(got, want, `connection ${i}`);
      });
    } finally {
      await server.close();
    }
  });

  test('plain HTTP connections over the bound queue until one closes', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path }), { plainMaxConnections: 1 });
    const { connect } = await import('node:net');
    const accepted = channelEvents('net.server.socket');
    const holder = connect(server.port, '127.0.0.1');
    holder.on('error', () => {});
    try {
      await accepted.reached(1);
      let answered = false;
      const pending = send(server.port, { path: '/hello' }).then((r) => ((answered = true), r));
      // the server has both connections: the second waits for the holder's slot
      await accepted.reached(2);
      assert.equal(answered, false, 'answered past the bound');
      holder.destroy();
      assert.equal((await pending).status, 200);
    } finally {
      accepted.stop();
      holder.destroy();
      await server.close();
    }
  });

  test('close() does not wait for a pending response delay', async (t) => {
    const ws = makeWorkspace({ fallbackDir: dir.path });
    const server = await startTestServer(ws, { dispatch: scripted(ws) });
    const clock = mockClock(t);
    const pending = send(server.port, { path: '/slow/5000' }).then(
      () => 'answered',
      () => 'dropped',
    );
    await clock.scheduled(5000);
    // back to real timers (close() drains on one); the delay's mocked timer can now never fire, so a close() that
    // waited for it would never return
    clock.reset();
    await server.close();
    assert.equal(await pending, 'dropped');
  });
});

describe('remembered file answers', () => {
  test('two rules serving the same file with different headers keep their own answers', async () => {
    const ws = tempDir();
    try {
      const past = new Date(Date.now() - 3_600_000);
      writeFileSync(join(ws.path, 'mock.toml'), '[service]\nrule_sets = ["rs.toml"]\n');
      writeFileSync(
        join(ws.path, 'rs.toml'),
        '[[rules]]\nwhen.request.url_path = "/x"\nrespond = { file_path = "a.json", headers = { x-rule = "1" } }\n\n' +
          '[[rules]]\nwhen.request.url_path = "/y"\nrespond = { file_path = "a.json" }\n',
      );
      writeFileSync(join(ws.path, 'a.json'), '{"a":1}');
      for (const f of ['mock.toml', 'rs.toml', 'a.json', '.']) utimesSync(join(ws.path, f), past, past);
      const loaded = await loadWorkspace({ cwd: ws.path });
      assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.error.message));
      const files = createFsSource();
      try {
        const env = {
          files,
          rotation: new RotationState(),
          state: new MemoryStore(),
          random: Math.random,
          log: () => undefined,
        };
        const get = async (path: string): Promise<Outcome> =>
          dispatch(loaded.value, snapshotFrom({ method: 'GET', target: path, headers: [] }), env);
        const both = async (): Promise<void> => {
          const [x, y] = [await get('/x'), await get('/y')];
          assert.equal(x.answer.status, 200);
          assert.equal(x.answer.headers.find(([k]) => k === 'x-rule')?.[1], '1');
          assert.equal(y.answer.status, 200);
          assert.equal(
            y.answer.headers.find(([k]) => k === 'x-rule'),
            undefined,
          );
          assert.equal(new TextDecoder().decode(y.answer.body), '{"a":1}');
        };
        // while the stats are not yet trusted, and then once both answers come from memory (no stat at all)
        let remembered = false;
        for (let i = 0; i < 5000 && !remembered; i++) {
          const stats = files.counters.stat;
          await both();
          remembered = i > 0 && files.counters.stat === stats;
          await new Promise((r) => setImmediate(r));
        }
        if (process.platform === 'linux') assert.ok(remembered, 'the answers came to be remembered');
        for (let i = 0; i < 10; i++) await both();
      } finally {
        files.close();
      }
    } finally {
      ws.cleanup();
    }
  });
});
