// The record-mode proxy client against a real upstream (node:http and node:https on 127.0.0.1 port 0).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer as createHttp, request as httpRequest } from 'node:http';
import { createServer as createNet, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseRecordTarget, type RecordTarget } from '../../src/record/target.js';
import {
  clientLocation,
  createProxyClient,
  recordResponseOf,
  type ForwardRequest,
  type ProxyResult,
} from '../../src/server/record/proxy.js';
import { writeProxied } from '../../src/server/record/respond.js';
import { BIG_BYTES, bigBody, ODD_JSON, sha256, startUpstream, useUpstream, type Upstream } from './upstream.js';

function targetOf(url: string): RecordTarget {
  const t = parseRecordTarget(url);
  if (!t.ok) throw new Error(t.error);
  return t.value;
}

const get = (rawPath: string, headers: readonly (readonly [string, string])[] = [], query = ''): ForwardRequest => ({
  method: 'GET',
  rawPath,
  query,
  headers,
});

function text(r: ProxyResult): string {
  assert.notEqual(r.kind, 'stream');
  return r.kind === 'stream' ? '' : Buffer.from(r.body).toString('utf8');
}

describe('proxy client over http', () => {
  let up: Upstream;
  before(async () => {
    up = await startUpstream();
  });
  after(() => up.close());

  it('forwards method, base + path, query, body and end-to-end headers; host is the target', async () => {
    const client = createProxyClient({ target: targetOf(up.url) });
    try {
      const r = await client.forward({
        method: 'GET',
        rawPath: '/echo',
        query: 'a=1&b=%20',
        headers: [
          ['host', 'localhost:3001'],
          ['authorization', 'Bearer t0k'],
          ['cookie', 'c=1'],
          ['if-none-match', '"abc"'],
          ['if-modified-since', 'Wed, 21 Oct 2015 07:28:00 GMT'],
          ['range', 'bytes=0-1'],
          ['connection', 'keep-alive, x-hop'],
          ['x-hop', 'drop me'],
          ['accept-encoding', 'gzip, br'],
          ['x-custom', 'kept'],
        ],
      });
      assert.equal(r.status, 200);
      const echo = JSON.parse(text(r)) as { url: string; headers: Record<string, string> };
      assert.equal(echo.url, '/v2/echo?a=1&b=%20');
      assert.equal(echo.headers['host'], `127.0.0.1:${up.port}`);
      assert.equal(echo.headers['authorization'], 'Bearer t0k');
      assert.equal(echo.headers['cookie'], 'c=1');
      assert.equal(echo.headers['accept-encoding'], 'identity');
      assert.equal(echo.headers['x-custom'], 'kept');
      for (const gone of ['if-none-match', 'if-modified-since', 'range', 'x-hop'])
        assert.equal(echo.headers[gone], undefined, gone);
      assert.equal(up.seen.at(-1)!.method, 'GET');

      const post = await client.forward({
        method: 'POST',
        rawPath: '/api/users',
        query: '',
        headers: [
          ['content-type', 'application/json'],
          ['transfer-encoding', 'chunked'],
        ],
        body: Buffer.from('{"name":"Ann"}'),
      });
      assert.equal(post.status, 201);
      assert.equal(text(post), '{"id":7,"name":"Ann"}');
      assert.equal(up.seen.at(-1)!.headers['content-length'], '14');
      assert.equal(up.seen.at(-1)!.body.toString(), '{"name":"Ann"}');
      // a location on the target's origin becomes the client's path (base taken off); redirects are not followed
      assert.deepEqual(
        post.headers.find(([k]) => k === 'location'),
        ['location', '/api/users/7'],
      );
      const old = await client.forward(get('/old'));
      assert.equal(old.status, 302);
      assert.deepEqual(
        old.headers.find(([k]) => k === 'location'),
        ['location', '/new'],
      );
      const away = await client.forward(get('/elsewhere'));
      assert.deepEqual(
        away.headers.find(([k]) => k === 'location'),
        ['location', 'https://example.org/x'],
      );
      // the answer's framing is its own; set-cookie reaches the client
      assert.equal(
        post.headers.find(([k]) => k === 'content-length'),
        undefined,
      );
      assert.ok(post.headers.some(([k, v]) => k === 'set-cookie' && v === 'session=s3cret'));
      const head = await client.forward({ method: 'HEAD', rawPath: '/api/users', query: '', headers: [] });
      assert.equal(head.status, 200);
      assert.equal(head.kind === 'answer' && head.body.byteLength, 0);
      const del = await client.forward({ method: 'DELETE', rawPath: '/api/users/7', query: '', headers: [] });
      assert.equal(del.status, 204);
      assert.equal(del.kind === 'answer' && del.body.byteLength, 0);
    } finally {
      client.close();
    }
  });

  it('decodes gzip, br, deflate and raw deflate anyway, byte for byte', async () => {
    const client = createProxyClient({ target: targetOf(up.url) });
    try {
      for (const path of ['/gz', '/br', '/deflate', '/deflate-raw']) {
        const r = await client.forward(get(path));
        assert.equal(text(r), ODD_JSON, path);
        assert.equal(
          r.headers.find(([k]) => k === 'content-encoding'),
          undefined,
          path,
        );
        const rec = recordResponseOf(r);
        assert.equal(rec?.body.kind, 'bytes', path);
      }
    } finally {
      client.close();
    }
  });

  it('a hang: 502 naming the total timeout, within it', async () => {
    const client = createProxyClient({ target: targetOf(up.url), totalTimeoutMs: 400 });
    try {
      // /hang never answers: only the client's own 400 ms limit can end this, and its message names it
      const r = await client.forward(get('/hang'));
      assert.equal(r.kind, 'failed');
      assert.equal(r.status, 502);
      assert.deepEqual(r.headers, [['content-type', 'text/plain; charset=utf-8']]);
      assert.match(text(r), /no complete answer within 400 ms/);
      assert.equal(recordResponseOf(r), undefined);
    } finally {
      client.close();
    }
  });

  it('a target that is down: 502 naming the error', async () => {
    const probe = createHttp();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = createProxyClient({ target: targetOf(`http://127.0.0.1:${port}`) });
    try {
      const r = await client.forward(get('/x'));
      assert.equal(r.status, 502);
      assert.match(text(r), new RegExp(`record target http://127\\.0\\.0\\.1:${port} failed: .*ECONNREFUSED`));
    } finally {
      client.close();
    }
  });

  it('a connection that never completes its TLS handshake: 502 naming the connect timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createNet((s) => void sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const client = createProxyClient({
      target: targetOf(`https://127.0.0.1:${port}`),
      connectTimeoutMs: 300,
      totalTimeoutMs: 20_000,
    });
    try {
      // the total limit (20 s) is far off: the message says the 300 ms connect limit ended it
      const r = await client.forward(get('/x'));
      assert.equal(r.status, 502);
      assert.match(text(r), /no connection within 300 ms/);
    } finally {
      client.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('40 MiB: handed over as a stream (not saved), and a client gets every byte', async () => {
    const client = createProxyClient({ target: targetOf(up.url) });
    const front = createHttp((req, res) => {
      void client
        .forward({ method: req.method ?? 'GET', rawPath: (req.url ?? '/').split('?')[0]!, query: '', headers: [] })
        .then((r) => writeProxied(res, r));
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const direct = await client.forward(get('/big'));
      assert.equal(direct.kind, 'stream');
      assert.deepEqual(recordResponseOf(direct)?.body, { kind: 'streamed' });
      if (direct.kind === 'stream') direct.rest.destroy();

      const port = (front.address() as { port: number }).port;
      const got = await new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/big' }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
      assert.equal(got.status, 200);
      assert.equal(got.body.byteLength, BIG_BYTES);
      assert.equal(sha256(got.body), sha256(bigBody()));
    } finally {
      client.close();
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
    }
  });

  it('clientLocation: only the target origin (absolute or a path) is rewritten', () => {
    const t = targetOf('http://api.test:8080/v2');
    const cases: readonly [string, string][] = [
      ['http://api.test:8080/v2/users/1?x=1#f', '/users/1?x=1#f'],
      ['http://api.test:8080/v2', '/'],
      ['http://api.test:8080/other', '/other'],
      ['/v2/users', '/users'],
      ['/v2x/users', '/v2x/users'],
      ['//api.test:8080/v2/a', '/a'],
      ['https://api.test:8080/v2/a', 'https://api.test:8080/v2/a'],
      ['http://elsewhere/v2/a', 'http://elsewhere/v2/a'],
      ['users/1', 'users/1'],
    ];
    for (const [given, want] of cases) assert.equal(clientLocation(given, t), want, given);
  });
});

describe('proxy client over https (selfsigned)', () => {
  const fx = useUpstream('mock-record-tls-');

  it('verifies by default: a self-signed target is a 502 naming the certificate error', async () => {
    const client = createProxyClient({ target: targetOf(fx.up.url) });
    try {
      const r = await client.forward(get('/api/users'));
      assert.equal(r.status, 502);
      assert.match(text(r), /self[- ]signed certificate/i);
    } finally {
      client.close();
    }
  });

  it('insecure: answers', async () => {
    const client = createProxyClient({ target: targetOf(fx.up.url), insecure: true });
    try {
      const r = await client.forward(get('/api/users'));
      assert.equal(r.status, 200);
      assert.equal(text(r), ODD_JSON);
    } finally {
      client.close();
    }
  });

  it('NODE_EXTRA_CA_CERTS: answers, verified', async () => {
    const proxyModule = fileURLToPath(new URL('../../src/server/record/proxy.js', import.meta.url));
    const targetModule = fileURLToPath(new URL('../../src/record/target.js', import.meta.url));
    const script = `
      const { createProxyClient } = await import(${JSON.stringify(proxyModule)});
      const { parseRecordTarget } = await import(${JSON.stringify(targetModule)});
      const client = createProxyClient({ target: parseRecordTarget(${JSON.stringify(fx.up.url)}).value });
      const r = await client.forward({ method: 'GET', rawPath: '/api/users', query: '', headers: [] });
      client.close();
      process.stdout.write(r.status + ' ' + Buffer.from(r.body).toString('utf8').length);`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: fx.caFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('close', (code) => {
        clearTimeout(killer);
        if (code === 0) resolve(stdout);
        else reject(new Error(`child exited ${code}: ${stderr}`));
      });
    });
    assert.equal(out, `200 ${ODD_JSON.length}`);
  });
});
