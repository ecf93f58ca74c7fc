// Drift, through the real program: `mock serve --record` against the test's own upstream writes the recording
// index; the upstream then changes (a renamed field, a changed type, a new status), and
// `mock validate --against-upstream` finds each difference with its JSON pointer, sends no credentials unless
// --header gives them, never replays a POST, and stays within --rate.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock } from '../helpers/mock-cli.js';
import { ask, lineMatching } from './serve-helpers.js';

interface Arrival {
  readonly at: number;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
}

/** The API before and after it moved. */
function answer(changed: boolean, method: string, url: string): [number, string, unknown] {
  const path = url.replace(/^\/v2/, '');
  if (method === 'POST' && path === '/users') return [201, 'application/json', { id: 2 }];
  if (path === '/users/1')
    return changed
      ? [200, 'application/json', { id: 1, full_name: 'Ann', tags: [{ label: 'a' }] }]
      : [200, 'application/json', { id: 1, name: 'Ann', tags: [{ label: 'b' }, { label: 'c' }] }];
  if (path === '/count') return [200, 'application/json', { n: changed ? '3' : 3 }];
  if (path === '/health')
    return changed ? [503, 'application/json', { error: 'down' }] : [200, 'application/json', { ok: true }];
  if (path === '/search?q=a') return [200, 'application/json; charset=utf-8', { hits: [{ id: changed ? 9 : 1 }] }];
  if (path.startsWith('/same/')) return [200, 'application/json', { same: true, n: changed ? 2 : 1 }];
  return [404, 'text/plain', 'no'];
}

describe('mock validate --against-upstream: the recording against an upstream that moved', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let changed = false;
  const arrivals: Arrival[] = [];
  const GETS = ['/users/1', '/count', '/health', '/search?q=a', '/same/1', '/same/2', '/same/3', '/same/4'];

  before(async () => {
    server = createServer((req, res) => {
      arrivals.push({ at: performance.now(), method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => {
        const [status, type, body] = answer(changed, req.method ?? '', req.url ?? '');
        res.writeHead(status, { 'content-type': type });
        res.end(req.method === 'HEAD' ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
    dir = makeTempDir('mock-drift-');
    writeFileSync(join(dir, 'mock.toml'), '[service]\nfallback_respond_dir = "public"\n');
    mkdirSync(join(dir, 'public'));
    const m = await spawnMock(['serve', '--record', base], { cwd: dir });
    try {
      await ask(m, { method: 'POST', path: '/users', body: '{}' }, { authorization: 'Bearer s3cret' });
      for (const path of GETS) await ask(m, { method: 'GET', path }, { authorization: 'Bearer s3cret' });
      await lineMatching(m, /^recorded .*same\/4/);
    } finally {
      await m.stop();
    }
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await removeDir(dir);
  });

  it('record mode wrote the index: method, target with its query, the file or rule holding the answer', () => {
    const index = JSON.parse(readFileSync(join(dir, 'public/.mock-recorded/index.json'), 'utf8')) as {
      version: number;
      upstream: string;
      exchanges: { method: string; target: string; status: number; file?: string; rule?: string }[];
    };
    assert.equal(index.version, 1);
    assert.equal(index.upstream, base);
    const by = new Map(index.exchanges.map((x) => [`${x.method} ${x.target}`, x]));
    assert.equal(index.exchanges.length, 9);
    assert.deepEqual(by.get('GET /users/1'), {
      method: 'GET',
      target: '/users/1',
      status: 200,
      content_type: 'application/json',
      file: 'users/1.json',
    });
    assert.match(by.get('POST /users')!.rule!, /^mock-recorded\.toml#\d+$/);
    const search = by.get('GET /search?q=a')!;
    assert.match(search.rule!, /^mock-recorded\.toml#\d+$/);
    assert.equal(search.file, '.mock-recorded/GET/search.json');
    assert.equal(JSON.stringify(index).includes('s3cret'), false, 'no credentials in the index');
  });

  it('finds the renamed field, the changed type and the new status, and stays within --rate', async () => {
    changed = true;
    const from = arrivals.length;
    const started = performance.now();
    const r = await runMock(['validate', '--against-upstream', base, '--rate', '2', '--format', 'json'], {
      cwd: dir,
      timeoutMs: 60_000,
    });
    const took = performance.now() - started;
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const findings = (JSON.parse(r.stdout) as { result: { findings: Record<string, string>[] } }).result.findings;
    const got = findings.map((f) => `${f.kind} ${f.severity} ${f.where} ${f.pointer}`);
    assert.deepEqual(got, [
      'upstream_shape error GET /users/1 (users/1.json) #/name',
      'upstream_shape warning GET /users/1 (users/1.json) #/full_name',
      'upstream_shape error GET /count (count.json) #/n',
      'upstream_status error GET /health (health.json) #',
    ]);
    // what it sent: each recorded GET once, the POST never, and no credentials
    const sent = arrivals.slice(from);
    assert.deepEqual(
      sent.map((a) => `${a.method} ${a.url}`),
      GETS.map((p) => `GET /v2${p}`),
    );
    for (const a of sent) assert.equal(a.headers.authorization, undefined, a.url);
    // --rate 2: the program starts one request at least 500 ms after the one before, so the whole run takes at
    // least 7 × 500 ms; at the upstream, no second holds more than 3 arrivals (one of margin for loopback latency)
    assert.ok(took >= 7 * 500, `the run took ${Math.round(took)} ms`);
    for (const a of sent) {
      const inSecond = sent.filter((o) => o.at >= a.at && o.at < a.at + 1000).length;
      assert.ok(inSecond <= 3, `${inSecond} requests in the second from ${a.url}`);
    }
    assert.ok(sent.at(-1)!.at - sent[0]!.at >= 6 * 500, 'the arrivals span at least six intervals');
  });

  it('text output grouped by kind; --header sends credentials; --ignore leaves a kind out', async () => {
    changed = true;
    const from = arrivals.length;
    const r = await runMock(
      [
        'validate',
        '--against-upstream',
        base,
        '--rate',
        '50',
        '-H',
        'Authorization: Bearer t0k',
        '--ignore',
        'upstream_status',
      ],
      { cwd: dir, timeoutMs: 60_000 },
    );
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^the upstream body has another shape \[upstream_shape\] \(3\):$/m);
    assert.match(
      r.stdout,
      /^ {2}error: GET \/count \(count\.json\): `\/n` is recorded as number, the upstream sends string \(#\/n\)$/m,
    );
    assert.doesNotMatch(r.stdout, /upstream_status/);
    assert.match(
      r.stdout,
      /^2 error\(s\), 1 warning\(s\): 8 recorded exchange\(s\) against .* \(1 not GET or HEAD, not sent\)\.$/m,
    );
    for (const a of arrivals.slice(from)) assert.equal(a.headers.authorization, 'Bearer t0k');
  });

  it('an upstream that has not moved: exit 0', async () => {
    changed = false;
    const r = await runMock(['validate', '--against-upstream', base, '--rate', '50'], { cwd: dir, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^No findings: 8 recorded exchange\(s\) against /m);
  });

  it('bad input: exit 2 with the reason', async () => {
    const cases: [string[], RegExp][] = [
      [['--against-upstream', 'ftp://x'], /--against-upstream expects http\(s\):\/\/host/],
      [['--against-upstream', base, '--rate', '0'], /--rate expects a number/],
      [['--against-upstream', base, '-H', 'nocolon'], /--header expects "Name: value"/],
      [['--against-upstream', base, '--ignore', 'typo'], /unknown finding kind 'typo'/],
      [['--rate', '3'], /--rate needs --against-upstream/],
    ];
    for (const [args, want] of cases) {
      const r = await runMock(['validate', ...args], { cwd: dir });
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, want);
    }
    const empty = makeTempDir('mock-drift-empty-');
    try {
      writeFileSync(join(empty, 'mock.toml'), '');
      const r = await runMock(['validate', '--against-upstream', base], { cwd: empty });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /there is no recording index at .*index\.json: record the real API first/);
    } finally {
      await removeDir(empty);
    }
  });
});
