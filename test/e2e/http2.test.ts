// HTTP/2 through the real program (docs/http2.md): h2 by ALPN on the TLS listener and h2c with prior knowledge on
// the plain one, seen by Node's http2 client and by curl; the same answers as HTTP/1.1 (files, rules, templates,
// bodies), streams with their timing, faults as stream resets that leave the connection's other streams alone,
// the per-stream limits, and the protocol in the log and the journal.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startMock } from 'folder-mock';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { selfSignedPair } from './server-harness.js';

const HOLD_MS = 400;

const RULES = `
[[rules]]
when.request.url_path = "/hello"
respond = { text = "hi there", headers = { x-kind = "greeting" } }

[[rules]]
when.request = { url_path = "/orders", method = "POST", body.json.item = { value = "tea" } }
respond = { status = 201, json = '{"ok":true}' }

[[rules]]
when.request.url_path = { value = "/users/{id}", op = "path_template" }
respond = { template = true, json = '{"id": "{{request.params.id}}", "q": "{{request.query.q}}"}' }

[[rules]]
when.request.url_path = "/events"
respond = { stream = { file_path = "ticks.sse", interval_ms = 150 } }

[[rules]]
when.request.url_path = "/slow"
respond = { text = "late", delay_response_milliseconds = 300 }

[[rules]]
when.request.url_path = "/reset"
respond = { fault = "connection_reset" }

[[rules]]
when.request.url_path = "/empty"
respond = { fault = "empty_response" }

[[rules]]
when.request.url_path = "/malformed"
respond = { fault = "malformed_response" }

[[rules]]
when.request.url_path = "/partial"
respond = { fault = "partial_body", text = "0123456789abcdefghijklmnopqrstuvwxyz" }

[[rules]]
when.request.url_path = "/timeout"
respond = { fault = "timeout" }
`;

const SERVICE = `[service]\nrule_sets = ["rules.toml"]\nfault_hold_ms = ${HOLD_MS}\nmax_request_body_bytes = 4096\n`;

let dir: string;
let secure: RunningMock;
let h2c: RunningMock;
let plainOnly: RunningMock;
let ca: string;

before(async () => {
  dir = makeTempDir('mock-http2-');
  const pair = await selfSignedPair();
  ca = pair.cert;
  await writeTree(dir, {
    'tls.toml': `[listener]\nhttp2_max_streams = 8\n[listener.tls]\ncert = "cert.pem"\nkey = "key.pem"\n\n${SERVICE}`,
    'h2c.toml': `[listener]\nhttp2 = true\n\n${SERVICE}`,
    'mock.toml': SERVICE,
    'rules.toml': RULES,
    'ticks.sse': 'data: one\n\ndata: two\n\ndata: three\n\n',
    'data.json': '{"shelf": [1, 2, 3]}\n',
    'cert.pem': pair.cert,
    'key.pem': pair.key,
  });
  [secure, h2c, plainOnly] = await Promise.all([
    spawnMock(['-c', 'tls.toml', '--no-watch'], { cwd: dir }),
    spawnMock(['-c', 'h2c.toml', '--no-watch'], { cwd: dir }),
    spawnMock(['--no-watch'], { cwd: dir }),
  ]);
});

after(async () => {
  await Promise.all([secure?.stop(), h2c?.stop(), plainOnly?.stop()]);
  await removeDir(dir);
});

interface H2Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** the headers both protocols send, as one comparable list (HTTP/1.1's connection framing and the date left out) */
function comparable(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (name.startsWith(':') || ['date', 'connection', 'keep-alive'].includes(name)) continue;
    out[name] = String(v);
  }
  return out;
}

function h2request(session: http2.ClientHttp2Session, path: string, opts: Omit<Ask, 'path'> = {}): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': path, ':method': opts.method ?? 'GET', ...opts.headers });
    const chunks: Buffer[] = [];
    let status = 0;
    let headers: Record<string, string> = {};
    req.on('response', (h) => {
      status = Number(h[':status']);
      headers = comparable(h);
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve({ status, headers, body: Buffer.concat(chunks) }));
    req.on('error', reject);
    req.end(opts.body);
  });
}

function http1request(base: string, path: string, opts: Omit<Ask, 'path'> = {}): Promise<H2Answer> {
  const url = new URL(path, base);
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers ?? {}, ca, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: comparable(res.headers), body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

function connect(base: string): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = http2.connect(base, { ca });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

interface Ask {
  readonly path: string;
  readonly method?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

const ASKED: readonly Ask[] = [
  { path: '/hello' },
  { path: '/data.json' },
  { path: '/users/42?q=tea' },
  { path: '/orders', method: 'POST', body: '{"item":"tea"}', headers: { 'content-type': 'application/json' } },
  { path: '/nothing-here' },
];

for (const [name, server] of [
  ['over TLS (ALPN h2)', () => secure],
  ['in the clear (h2c)', () => h2c],
] as const) {
  describe(`HTTP/2 ${name}`, () => {
    test('files, rules, templates and bodies answer as over HTTP/1.1, byte for byte', async () => {
      const session = await connect(server().url);
      try {
        for (const ask of ASKED) {
          const [two, one] = await Promise.all([
            h2request(session, ask.path, ask),
            http1request(server().url, ask.path, ask),
          ]);
          assert.equal(two.status, one.status, `${ask.path}: status`);
          assert.deepEqual(two.headers, one.headers, `${ask.path}: headers`);
          assert.ok(two.body.equals(one.body), `${ask.path}: body ${two.body.toString()} vs ${one.body.toString()}`);
        }
        const hello = await h2request(session, '/hello');
        assert.equal(hello.body.toString(), 'hi there');
        assert.equal(hello.headers['x-kind'], 'greeting');
      } finally {
        session.close();
      }
    });

    test('streams share one connection: a slow answer does not hold the others back', async () => {
      const session = await connect(server().url);
      try {
        const started = performance.now();
        let slowDoneAt = 0;
        const slow = h2request(session, '/slow').then((a) => {
          slowDoneAt = performance.now() - started;
          return a;
        });
        const quick = await h2request(session, '/hello');
        const quickAt = performance.now() - started;
        assert.equal(quick.body.toString(), 'hi there');
        assert.equal((await slow).body.toString(), 'late');
        assert.ok(
          quickAt < slowDoneAt,
          `the quick answer (${quickAt} ms) came before the delayed one (${slowDoneAt} ms)`,
        );
        assert.ok(slowDoneAt >= 280, `the delay was kept (${slowDoneAt} ms)`);
      } finally {
        session.close();
      }
    });

    test('a stream keeps its timing: each event leaves on its schedule', async () => {
      const session = await connect(server().url);
      try {
        const req = session.request({ ':path': '/events' });
        const arrivals: { at: number; text: string }[] = [];
        const start = performance.now();
        let type = '';
        req.on('response', (h) => (type = String(h['content-type'])));
        req.setEncoding('utf8');
        req.on('data', (t: string) => arrivals.push({ at: performance.now() - start, text: t }));
        await new Promise((resolve, reject) => {
          req.on('end', resolve);
          req.on('error', reject);
        });
        assert.match(type, /^text\/event-stream/);
        assert.equal(arrivals.map((a) => a.text).join(''), 'data: one\n\ndata: two\n\ndata: three\n\n');
        assert.ok(arrivals.length >= 3, `three events in three pieces (${arrivals.length})`);
        const last = arrivals[arrivals.length - 1]!.at;
        // two pauses of 150 ms: at least 280 ms in all, whatever the machine's load
        assert.ok(last >= 280, `the last event came after its pauses (${last} ms)`);
      } finally {
        session.close();
      }
    });

    test('each fault is a reset of its own stream; the connection and its other streams go on', async () => {
      const session = await connect(server().url);
      try {
        const seen = await Promise.all(
          ['/reset', '/empty', '/malformed', '/partial', '/timeout'].map((path) => faultSeen(session, path)),
        );
        const by = Object.fromEntries(seen.map((s) => [s.path, s]));
        assert.deepEqual(
          { code: by['/reset']!.rstCode, response: by['/reset']!.response },
          { code: http2.constants.NGHTTP2_INTERNAL_ERROR, response: false },
        );
        assert.deepEqual(
          { code: by['/empty']!.rstCode, response: by['/empty']!.response, bytes: by['/empty']!.bytes },
          { code: http2.constants.NGHTTP2_NO_ERROR, response: false, bytes: 0 },
        );
        assert.equal(by['/malformed']!.rstCode, http2.constants.NGHTTP2_PROTOCOL_ERROR);
        assert.deepEqual(
          { code: by['/partial']!.rstCode, response: by['/partial']!.response, bytes: by['/partial']!.bytes },
          { code: http2.constants.NGHTTP2_INTERNAL_ERROR, response: true, bytes: 18 },
        );
        assert.equal(by['/timeout']!.rstCode, http2.constants.NGHTTP2_CANCEL);
        assert.ok(by['/timeout']!.ms >= HOLD_MS - 20, `the timeout held its stream (${by['/timeout']!.ms} ms)`);
        const after = await h2request(session, '/hello');
        assert.equal(after.body.toString(), 'hi there', 'the same connection still answers');
        assert.equal(session.destroyed, false);
      } finally {
        session.close();
      }
    });

    test('a body over the cap is refused 413 on its stream; the connection goes on', async () => {
      const session = await connect(server().url);
      try {
        const big = await h2request(session, '/orders', { method: 'POST', body: 'x'.repeat(10_000) });
        assert.equal(big.status, 413);
        const after = await h2request(session, '/hello');
        assert.equal(after.status, 200);
      } finally {
        session.close();
      }
    });

    test('a header list past the limit is refused; the connection goes on', async () => {
      const session = await connect(server().url);
      try {
        const refused = await new Promise<{ status?: number; code?: number }>((resolve) => {
          const req = session.request({ ':path': '/hello', 'x-huge': 'a'.repeat(40_000) });
          req.on('response', (h) => resolve({ status: Number(h[':status']) }));
          req.on('close', () => resolve({ code: req.rstCode }));
          req.on('error', () => undefined);
          req.resume();
          req.end();
        });
        assert.ok(
          refused.status === 431 || (refused.code !== undefined && refused.code !== 0),
          `refused: ${JSON.stringify(refused)}`,
        );
        if (session.destroyed) return assert.fail('the session was ended');
        const after = await h2request(session, '/hello');
        assert.equal(after.status, 200);
      } finally {
        session.close();
      }
    });

    test('the log line names the protocol', async () => {
      const session = await connect(server().url);
      try {
        await h2request(session, '/hello?logged=1');
      } finally {
        session.close();
      }
      const lines = server().stdoutLines;
      const at = lines.findIndex((l) => l.includes('/hello?logged=1') || l.includes('[HTTP/2]'));
      assert.ok(at >= 0, lines.join('\n'));
      assert.ok(
        lines.some((l) => /\[GET\].*\[HTTP\/2\] request received/.test(l)),
        lines.join('\n'),
      );
    });
  });
}

interface FaultSeen {
  readonly path: string;
  readonly rstCode: number;
  readonly response: boolean;
  readonly bytes: number;
  readonly ms: number;
}

function faultSeen(session: http2.ClientHttp2Session, path: string): Promise<FaultSeen> {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = session.request({ ':path': path });
    let response = false;
    let bytes = 0;
    req.on('response', () => (response = true));
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('error', () => undefined);
    req.on('close', () => resolve({ path, rstCode: req.rstCode, response, bytes, ms: performance.now() - start }));
    req.end();
  });
}

describe('HTTP/2 settings', () => {
  test('the TLS listener tells its stream bound (listener.http2_max_streams) in its settings', async () => {
    const session = await connect(secure.url);
    try {
      // the server's settings come before its first answer
      await h2request(session, '/hello');
      assert.equal(session.remoteSettings.maxConcurrentStreams, 8);
      assert.equal(session.alpnProtocol, 'h2');
    } finally {
      session.close();
    }
  });

  test('HTTP/1.1 stays on the same ports: HTTPS without ALPN, and the h2c listener', async () => {
    for (const base of [secure.url, h2c.url]) {
      const a = await http1request(base, '/hello');
      assert.equal(a.body.toString(), 'hi there', base);
    }
  });

  test('without listener.http2 = true the plain listener speaks HTTP/1.1 only', async () => {
    const failed = await new Promise<boolean>((resolve) => {
      const s = http2.connect(plainOnly.url);
      s.on('error', () => resolve(true));
      const req = s.request({ ':path': '/hello' });
      req.on('error', () => resolve(true));
      req.on('response', () => resolve(false));
      req.end();
    });
    assert.equal(failed, true);
    const a = await http1request(plainOnly.url, '/hello');
    assert.equal(a.body.toString(), 'hi there');
  });
});

const hasCurl = spawnSync('curl', ['--version']).stdout?.toString().includes('HTTP2') === true;

function curl(args: readonly string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-s', '-m', '20', ...args], (err, stdout) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, out: stdout });
    });
  });
}

describe('curl', { skip: hasCurl ? false : 'curl without HTTP/2' }, () => {
  test('curl --http2 over TLS and --http2-prior-knowledge in the clear get HTTP/2 answers', async () => {
    const certFile = join(dir, 'cert.pem');
    const tls = await curl(['--http2', '--cacert', certFile, '-w', '\n%{http_version}', `${secure.url}/hello`]);
    assert.deepEqual(tls, { code: 0, out: 'hi there\n2' });
    const clear = await curl(['--http2-prior-knowledge', '-w', '\n%{http_version}', `${h2c.url}/users/7?q=x`]);
    assert.deepEqual(clear, { code: 0, out: '{"id": "7", "q": "x"}\n2' });
    const fault = await curl(['--http2-prior-knowledge', `${h2c.url}/reset`]);
    assert.notEqual(fault.code, 0, 'a reset stream is an error to curl');
  });
});

test('the journal names the protocol of an HTTP/2 request', async () => {
  const m = await startMock({ root: dir, config: 'h2c.toml' });
  try {
    const session = await connect(m.url);
    try {
      await h2request(session, '/hello');
    } finally {
      session.close();
    }
    await http1request(m.url, '/hello?one');
    const [two, one] = m.requests({ path: '/hello' });
    assert.equal(two?.protocol, 'HTTP/2');
    assert.equal(one?.protocol, undefined, 'HTTP/1.1 entries have no protocol field');
  } finally {
    await m.close();
  }
});
