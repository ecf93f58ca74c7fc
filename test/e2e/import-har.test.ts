// `mock --init --from <file.har>` end to end, on a HAR nobody wrote by hand: Debian's chromium (driven by
// playwright-core, recordHar) loads a small local app whose script calls a local API, through `mock --record`.
// The same traffic is thus saved twice: live by record mode, and in the HAR. Importing the HAR into an empty
// folder gives the same workspace, byte for byte; twice gives the same bytes; it validates; and the server answers
// every recorded request as the API did. Also: static files skipped by default, `--har-host`, base64 bodies, and
// a HAR without `log.entries` (exit 2, nothing written). Without /usr/bin/chromium the browser tests are skipped.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, type RunningMock } from '../helpers/mock-cli.js';
import { waitFor } from './live-reload-helpers.js';
import { header, send } from './server-harness.js';
import { fileTree } from '../helpers/file-tree.js';

const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); browser tests skipped`;

const PAGE = `<!doctype html><html><head><title>app</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css"></head><body><ul id="out"></ul><script src="/app.js"></script></body></html>`;
// one request after another, so the recording and the HAR see them in the same order
const SCRIPT = `(async () => {
  const calls = [
    ['/api/users', {}],
    ['/api/users/1', {}],
    ['/api/search?q=ada', {}],
    ['/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sku":"A1"}' }],
    ['/api/missing', {}],
    ['/api/logo.bin', {}],
  ];
  for (const [url, init] of calls) {
    const r = await fetch(url, init);
    await r.arrayBuffer();
  }
  document.title = 'done';
})();`;
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10, 0x80]);

/** The API the app calls (and serves the app itself): what every answer should be. */
const API: Record<string, { status: number; type?: string; body: string | Buffer; headers?: Record<string, string> }> =
  {
    'GET /': { status: 200, type: 'text/html; charset=utf-8', body: PAGE },
    'GET /app.css': { status: 200, type: 'text/css', body: 'body { font-family: sans-serif; }\n' },
    'GET /app.js': { status: 200, type: 'text/javascript', body: SCRIPT },
    'GET /api/users': { status: 200, type: 'application/json', body: '[{"id":1,"name":"Ada"},{"id":2,"name":"Bo"}]' },
    'GET /api/users/1': { status: 200, type: 'application/json', body: '{"id":1,"name":"Ada"}' },
    'GET /api/search?q=ada': { status: 200, type: 'application/json', body: '{"hits":[1]}' },
    'POST /api/orders': {
      status: 201,
      type: 'application/json',
      body: '{"id":7}',
      headers: { location: '/api/orders/7' },
    },
    'GET /api/missing': { status: 404, type: 'text/plain', body: 'no such thing' },
    'GET /api/logo.bin': { status: 200, type: 'application/octet-stream', body: LOGO },
  };

function assertSameTree(a: string, b: string): void {
  const ta = fileTree(a);
  const tb = fileTree(b);
  assert.deepEqual([...tb.keys()].sort(), [...ta.keys()].sort());
  for (const [k, v] of ta) {
    if (k === INDEX) continue;
    assert.equal(tb.get(k)!.toString('latin1'), v.toString('latin1'), `${k} differs`);
  }
  if (ta.has(INDEX)) assert.deepEqual(indexOf(tb.get(INDEX)!), indexOf(ta.get(INDEX)!), `${INDEX} differs`);
}

/** the recording index (docs/drift.md) */
const INDEX = join('.mock-recorded', 'index.json');

/**
 * What the index says was recorded, in a stable order. Its `upstream` is left out: the live session names the API
 * behind the proxy, the HAR the address the browser called (the proxy); and a live session lists exchanges in the
 * order their answers completed, the HAR in the order they were sent.
 */
function indexOf(text: Buffer): unknown {
  const { exchanges } = JSON.parse(text.toString('utf8')) as { exchanges: { method: string; target: string }[] };
  const key = (x: { method: string; target: string }): string => `${x.method} ${x.target}`;
  return [...exchanges].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
}

describe('mock --init --from: a HAR captured by chromium through a live recording', { skip }, () => {
  let root: string;
  let api: Server;
  let recording: RunningMock | undefined;
  let har: string;
  const live = (): string => join(root, 'live');

  before(async () => {
    root = makeTempDir('mock-import-har-');
    api = createServer((req, res) => {
      const a = API[`${req.method} ${req.url}`];
      req.resume();
      if (a === undefined) {
        res.writeHead(500).end('unexpected ' + req.url);
        return;
      }
      res.writeHead(a.status, { ...(a.type === undefined ? {} : { 'content-type': a.type }), ...a.headers });
      res.end(a.body);
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    mkdirSync(live());
    recording = await spawnMock(['--record', apiUrl], { cwd: live() });
    har = join(root, 'app.har');
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
      const page = await context.newPage();
      await page.goto(recording.url + '/');
      await page.waitForFunction('document.title === "done"', undefined, { timeout: 20_000 });
      await context.close();
    } finally {
      await browser.close();
    }
    // the recorder saves one exchange after another: the last request's line means every one is saved
    await waitFor(
      `the recording of /api/logo.bin\n${recording.stdoutLines.join('\n')}`,
      () => (recording!.stdoutLines.some((l) => l.includes('api/logo.bin')) ? true : undefined),
      20_000,
    );
    await recording.stop();
    recording = undefined;
  });
  after(async () => {
    await recording?.stop();
    await new Promise((r) => api?.close(r));
    await removeDir(root);
  });

  it('the HAR holds the traffic (chromium wrote it)', () => {
    const data = JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    const paths = data.log.entries.map((e) => new URL(e.request.url).pathname);
    for (const p of ['/', '/app.js', '/api/users', '/api/orders', '/api/logo.bin']) assert.ok(paths.includes(p), p);
  });

  it('imported with --include-static, it gives the workspace the live recording left, byte for byte, twice', async () => {
    for (const name of ['a', 'b']) {
      const ws = join(root, name);
      mkdirSync(ws);
      const r = await runMock(['--init', '--from', har, '--include-static', '--yes'], { cwd: ws });
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assertSameTree(live(), ws);
    }
    const v = await runMock(['validate'], { cwd: join(root, 'a') });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });

  it('the imported workspace answers every request as the API did (status, content type, body)', async () => {
    const server = await spawnMock([], { cwd: join(root, 'a') });
    try {
      for (const [key, a] of Object.entries(API)) {
        const [method, path] = key.split(' ') as [string, string];
        const got = await send(server.port, {
          method,
          path,
          ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{"sku":"A1"}' } : {}),
        });
        assert.equal(got.status, a.status, key);
        assert.equal(header(got, 'content-type')?.split(';')[0], a.type?.split(';')[0], key);
        assert.ok(got.body.equals(Buffer.from(a.body)), `${key}: ${got.body.toString()}`);
        for (const [k, v] of Object.entries(a.headers ?? {})) assert.equal(header(got, k), v, key);
      }
    } finally {
      await server.stop();
    }
  });

  it('by default, images, fonts, scripts and style sheets are left out, and the summary says so', async () => {
    const ws = join(root, 'default');
    mkdirSync(ws);
    const r = await runMock(['--init', '--from', har, '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const result = (JSON.parse(r.stdout) as { result: { left_out: { place: string; reason: string }[] } }).result;
    assert.ok(
      result.left_out.some((l) => /^2 image, font, script or style sheet entries skipped/.test(l.reason)),
      JSON.stringify(result.left_out),
    );
    assert.ok(!existsSync(join(ws, 'app.js')));
    assert.ok(existsSync(join(ws, 'index.html')));
  });
});

describe('mock --init --from: HAR files written by hand', () => {
  let root: string;
  before(() => {
    root = makeTempDir('mock-import-har2-');
  });
  after(async () => {
    await removeDir(root);
  });

  const entry = (url: string, status: number, mimeType: string, text: string, encoding?: string): unknown => ({
    startedDateTime: '2026-01-01T00:00:00.000Z',
    request: { method: 'GET', url, headers: [] },
    response: {
      status,
      headers: [{ name: 'Content-Type', value: mimeType }],
      content: { size: text.length, mimeType, text, ...(encoding === undefined ? {} : { encoding }) },
    },
  });

  it('base64 bodies are decoded; --har-host picks the host; the others are counted as left out', async () => {
    const file = join(root, 'two-hosts.har');
    writeFileSync(
      file,
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [
            entry('https://api.example.com/v1/bin', 200, 'application/octet-stream', 'AAEC/w==', 'base64'),
            entry('https://api.example.com/v1/me', 200, 'application/json', '{"me":1}'),
            entry('https://other.example.com/x', 200, 'application/json', '{"x":1}'),
          ],
        },
      }),
    );
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const r = await runMock(['--init', '--from', file, '--har-host', 'api.example.com'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /log\.entries: 1 entry for another host \(other\.example\.com\)/);
    const server = await spawnMock([], { cwd: ws });
    try {
      const bin = await send(server.port, { path: '/v1/bin' });
      assert.deepEqual([...bin.body], [0, 1, 2, 255]);
      const me = await send(server.port, { path: '/v1/me' });
      assert.equal(me.body.toString(), '{"me":1}');
    } finally {
      await server.stop();
    }
  });

  it('a HAR without log.entries exits 2 naming the place and writes nothing', async () => {
    const file = join(root, 'empty.har');
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' } } }));
    const ws = join(root, 'ws-bad');
    mkdirSync(ws);
    const r = await runMock(['--init', '--from', file], { cwd: ws });
    assert.equal(r.code, 2, r.stderr + r.stdout);
    assert.match(r.stderr, /empty\.har: log\.entries: a HAR file needs `log\.entries`, an array/);
    assert.deepEqual(readdirSync(ws), []);
  });
});
