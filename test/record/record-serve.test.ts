// Record mode through the real program: `mock --record <upstream>` on 127.0.0.1 port 0 against the test's own
// upstream (test/record/upstream.ts; node:http, and node:https with a selfsigned certificate). Issue 21's
// acceptance items 1-7: record, stop the upstream, replay without --record (status, content type, body sha256);
// validate; comments kept; a saved file or rule answers the next request at once; confinement (hash snapshot);
// dry run; no overwrite; query variants, HEAD, PATCH unsaved; prefix misses unproxied; upstream down or hanging
// → 502 within the limits, nothing written; HTTPS with NODE_EXTRA_CA_CERTS or --record-insecure, else a 502
// naming the certificate error; usage errors exit 2.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { header, selfSignedPair, send, type SimpleResponse } from '../e2e/server-harness.js';
import { makeTempDir, removeDir, runMock, startMock, type RunningMock } from '../helpers/mock-cli.js';
import { sha256, startUpstream, type Upstream } from './upstream.js';

const MOCK_TOML = '# my workspace\n[service]\nfallback_respond_dir = "public"   # files live here\nrule_sets = ["pre.toml"]  # a prefixed set\n';
const PRE_TOML = 'prefix.url_path = "/pre"\n\n[[rules]]\nwhen.request.url_path = "/known"\nrespond.text = "known"\n';
const LONG = { timeoutMs: 30_000 } as const;

/** Every entry under `dir` (symlinks not followed) → a hash of its content, or its link target. */
function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel === '' ? name : `${rel}/${name}`;
      if (skip(r)) continue;
      const abs = join(dir, r);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, 'link:' + readlinkSync(abs));
      else if (st.isDirectory()) {
        out.set(r, 'dir');
        walk(r);
      } else out.set(r, createHash('sha256').update(readFileSync(abs)).digest('hex'));
    }
  };
  walk('');
  return out;
}

/** Polls the program's stdout for a line matching `want` (up to 10 s). */
async function lineMatching(m: RunningMock, want: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = m.stdoutLines.find((l) => want.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) assert.fail(`no line matching ${want} in:\n${m.stdoutLines.join('\n')}\n${m.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
}

const ask = (m: RunningMock, s: Sent, headers: Record<string, string> = {}): Promise<SimpleResponse> =>
  send(m.port, { method: s.method, path: s.path, headers: s.body === undefined ? headers : { 'content-type': 'application/json', ...headers }, ...(s.body !== undefined ? { body: s.body } : {}) });

describe('mock --record: record, then replay without the target', () => {
  let up: Upstream;
  let dir: string;
  const done: { sent: Sent; got: SimpleResponse }[] = [];
  let lines: string[] = [];
  let seenAfterRecording = 0;
  before(async () => {
    up = await startUpstream();
    dir = makeTempDir('mock-record-e2e-');
    writeFileSync(join(dir, 'mock.toml'), MOCK_TOML);
    writeFileSync(join(dir, 'pre.toml'), PRE_TOML);
    mkdirSync(join(dir, 'public'));
    const m = await startMock(['serve', '--record', up.url, '--record-header', 'X-Request-Id'], { cwd: dir });
    try {
      for (const s of [
        // the POST first: once GET /api/users is saved as a file, the file answers every method (SPEC 4.2)
        { method: 'POST', path: '/api/users', body: '{"name":"Ann"}' },
        { method: 'GET', path: '/api/users' },
        { method: 'GET', path: '/logo.png' },
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/about' },
        { method: 'GET', path: '/gz' },
        { method: 'DELETE', path: '/api/users/7' },
        { method: 'GET', path: '/teapot' },
        { method: 'GET', path: '/old' },
        { method: 'GET', path: '/page' },
        { method: 'GET', path: '/search?q=a' },
        { method: 'GET', path: '/search?q=b' },
        { method: 'HEAD', path: '/nothing-here' },
        { method: 'PATCH', path: '/api/users/7', body: '{}' },
        { method: 'GET', path: '/big' },
        { method: 'GET', path: '/pre/unknown' },
        { method: 'GET', path: '/pre/unknown' },
        { method: 'POST', path: '/pre/unknown', body: '{}' },
      ]) {
        done.push({ sent: s, got: await ask(m, s, { authorization: 'Bearer t0ken-x' }) });
      }
      await lineMatching(m, /^not saved: GET \/big/);
      seenAfterRecording = up.seen.length;
      // a saved file and a saved rule answer the very next request, without the target
      const again = [
        { method: 'GET', path: '/api/users' },
        { method: 'POST', path: '/api/users', body: '{"name":"Bob"}' },
        { method: 'GET', path: '/teapot' },
      ];
      for (const s of again) {
        const got = await ask(m, s);
        const first = done.find((d) => d.sent.method === s.method && d.sent.path === s.path)!;
        assert.equal(got.status, first.got.status, `${s.method} ${s.path}`);
        assert.equal(sha256(got.body), sha256(first.got.body), `${s.method} ${s.path}`);
      }
      assert.equal(up.seen.length, seenAfterRecording, 'the repeated requests never reached the target');
    } finally {
      await m.stop();
      lines = [...m.stdoutLines];
    }
    await up.close();
  });
  after(() => removeDir(dir));

  it('says record mode is on before the Listening line, and what it recorded', () => {
    const listening = lines.findIndex((l) => l.startsWith('Listening on '));
    const on = lines.findIndex((l) => l.startsWith('[record] '));
    assert.ok(on >= 0 && on < listening, lines.join('\n'));
    assert.equal(lines[on], `[record] ${up.url} (misses are forwarded there and saved)`);
    const said = lines.filter((l) => /^(recorded|not saved|not proxied)/.test(l));
    assert.deepEqual(
      said.map((l) => l.replace(/\(200, \d+ B\)/, '(200, n B)')),
      [
        'recorded rule #1 in mock-recorded.toml: POST /api/users → 201',
        'recorded api/users.json (200, n B)',
        'recorded logo.png (200, n B)',
        'recorded index.html (200, n B)',
        'recorded about/index.html (200, n B)',
        'recorded gz.json (200, n B)',
        'recorded rule #2 in mock-recorded.toml: DELETE /api/users/7 → 204',
        'recorded rule #3 in mock-recorded.toml: GET /teapot → 418',
        'recorded rule #4 in mock-recorded.toml: GET /old → 302',
        'recorded .mock-recorded/GET/page.json (200, n B)',
        'recorded rule #5 in mock-recorded.toml: GET /page → 200',
        'recorded search.json (200, n B)',
        'not saved: HEAD /nothing-here — HEAD is never recorded',
        'not saved: PATCH /api/users/7 — PATCH is never recorded',
        'not saved: GET /big — the body is over 32 MiB (streamed, not saved)',
        'not proxied: GET /pre/unknown — a rule set\'s url_path_prefix claims this path, so a recording there could never be served (said once per path)',
      ],
    );
  });

  it('the client got the upstream answers (the 40 MiB stream whole), with mock\'s CORS headers in place of the upstream\'s', () => {
    const big = done.find((d) => d.sent.path === '/big')!.got;
    assert.equal(big.body.byteLength, 40 * 1024 * 1024);
    const users = done[1]!.got;
    assert.equal(header(users, 'access-control-allow-origin'), '*');
    assert.equal(users.headers.filter(([k]) => k === 'access-control-allow-origin').length, 1);
    assert.equal(header(done.find((d) => d.sent.path === '/old')!.got, 'location'), '/new');
    assert.equal(done.find((d) => d.sent.path === '/teapot')!.got.status, 418);
  });

  it('the target got the body bytes and the credentials, with its own host', () => {
    const post = up.seen.find((x) => x.method === 'POST')!;
    assert.equal(post.url, '/v2/api/users');
    assert.equal(post.body.toString(), '{"name":"Ann"}');
    assert.equal(post.headers['authorization'], 'Bearer t0ken-x');
    assert.equal(post.headers['host'], `127.0.0.1:${up.port}`);
    assert.equal(post.headers['accept-encoding'], 'identity');
  });

  it('a query variant is answered by the first recording, not proxied', () => {
    assert.equal(up.seen.filter((x) => x.url.startsWith('/v2/search')).length, 1);
    const [a, b] = ['/search?q=a', '/search?q=b'].map((p) => done.find((d) => d.sent.path === p)!.got);
    assert.equal(sha256(b!.body), sha256(a!.body));
  });

  it('prefix misses and nothing else stayed away from the target', () => {
    assert.equal(up.seen.filter((s) => s.url.includes('/pre/')).length, 0);
    const pre = done.filter((d) => d.sent.path === '/pre/unknown');
    assert.equal(pre.length, 3);
    for (const d of pre) assert.equal(d.got.status, 404);
    assert.equal(up.seen.length, seenAfterRecording);
  });

  it('kept the config comments, listed the rule set last, kept the --record-header, and wrote no secret', () => {
    const config = readFileSync(join(dir, 'mock.toml'), 'utf8');
    assert.match(config, /^# my workspace\n/);
    assert.match(config, /fallback_respond_dir = "public"   # files live here/);
    assert.match(config, /rule_sets = \["pre\.toml", "mock-recorded\.toml"\]/);
    const rules = readFileSync(join(dir, 'mock-recorded.toml'), 'utf8');
    assert.match(rules, /respond\.headers\.x-request-id = "r-1"/);
    const all = [...snapshot(dir).entries()].filter(([, h]) => h !== 'dir').map(([k]) => readFileSync(join(dir, k), 'latin1'));
    assert.doesNotMatch(all.join('\n'), /s3cret|set-cookie|t0ken|authorization/i);
  });

  it('mock validate exits 0', async () => {
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });

  it('without the target and without --record, every saved exchange answers the same', async () => {
    const m = await startMock([], { cwd: dir });
    try {
      const saved = done.filter((d) => !['/big', '/nothing-here', '/pre/unknown', '/search?q=b'].includes(d.sent.path) && d.sent.method !== 'PATCH');
      assert.equal(saved.length, 11);
      for (const d of saved) {
        const got = await ask(m, d.sent);
        const what = `${d.sent.method} ${d.sent.path}`;
        assert.equal(got.status, d.got.status, what);
        assert.equal(header(got, 'content-type'), header(d.got, 'content-type'), what);
        assert.equal(header(got, 'location'), header(d.got, 'location'), what);
        assert.equal(sha256(got.body), sha256(d.got.body), what);
      }
      // the query variant answers the first recording; the stream, HEAD-only and PATCH were not saved
      const q = await ask(m, { method: 'GET', path: '/search?q=b' });
      assert.equal(sha256(q.body), sha256(done.find((d) => d.sent.path === '/search?q=a')!.got.body));
      assert.equal((await ask(m, { method: 'GET', path: '/big' })).status, 404);
      assert.equal((await ask(m, { method: 'GET', path: '/nothing-here' })).status, 404);
      assert.equal((await ask(m, { method: 'PATCH', path: '/api/users/7', body: '{}' })).status, 404);
    } finally {
      await m.stop();
    }
  });
});

describe('mock --record: confinement, dry run, no overwrite, failures', () => {
  let up: Upstream;
  const dirs: string[] = [];
  before(async () => {
    up = await startUpstream();
  });
  after(async () => {
    await up.close();
    for (const d of dirs) await removeDir(d);
  });
  const workspace = (prefix: string): string => {
    const dir = makeTempDir(prefix);
    dirs.push(dir);
    writeFileSync(join(dir, 'mock.toml'), MOCK_TOML);
    writeFileSync(join(dir, 'pre.toml'), PRE_TOML);
    mkdirSync(join(dir, 'public'));
    return dir;
  };

  it('/..%2f..%2fsecret, /%2e%2e/x and an outward symlinked directory: nothing outside the fallback directory changes', async () => {
    const dir = workspace('mock-record-e2e-conf-');
    writeFileSync(join(dir, 'secret.json'), '{"secret":true}');
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'keep.json'), '{}');
    symlinkSync('../outside', join(dir, 'public', 'out'));
    const writable = (rel: string): boolean => rel === 'public' || rel.startsWith('public/') || rel === 'mock.toml' || rel === 'mock-recorded.toml';
    const before = snapshot(dir, writable);
    const m = await startMock(['--record', up.url], { cwd: dir });
    try {
      for (const s of [
        { method: 'GET', path: '/..%2f..%2fsecret' },
        { method: 'GET', path: '/%2e%2e/x' },
        { method: 'GET', path: '/%2e%2e/%2e%2e/secret' },
        { method: 'GET', path: '/out/x' },
        { method: 'GET', path: '/out/sub/y' },
        { method: 'PUT', path: '/..%5c..%5csecret', body: '{}' },
        { method: 'POST', path: '/out/z', body: '{}' },
      ]) {
        const got = await ask(m, s);
        assert.ok(got.status < 500, `${s.method} ${s.path}: ${got.status}`);
      }
      await lineMatching(m, /POST \/out\/z/);
      const refused = m.stdoutLines.filter((l) => l.startsWith('not saved: '));
      assert.deepEqual(
        refused.map((l) => l.slice(0, l.indexOf(' — '))),
        ['not saved: GET /..%2f..%2fsecret', 'not saved: GET /out/x', 'not saved: GET /out/sub/y', 'not saved: PUT /..%5c..%5csecret'],
      );
    } finally {
      await m.stop();
    }
    assert.deepEqual(snapshot(dir, writable), before);
    assert.deepEqual(readdirSync(join(dir, 'outside')), ['keep.json']);
  });

  it('--dry-run leaves every file as it was and prints its would lines', async () => {
    for (const withConfig of [true, false]) {
      const dir = makeTempDir('mock-record-e2e-dry-');
      dirs.push(dir);
      if (withConfig) writeFileSync(join(dir, 'mock.toml'), MOCK_TOML.replace(/rule_sets.*\n/, ''));
      mkdirSync(join(dir, 'public'));
      const before = snapshot(dir);
      const m = await startMock(['--record', up.url, '--dry-run'], { cwd: dir });
      try {
        assert.ok(m.stdoutLines.includes(`[record] ${up.url} (misses are forwarded there; dry run: nothing is written)`), m.stdoutLines.join('\n'));
        for (const s of [
          { method: 'GET', path: '/api/users' },
          { method: 'POST', path: '/api/users', body: '{"name":"B"}' },
          { method: 'GET', path: '/teapot' },
        ]) {
          assert.notEqual((await ask(m, s)).status, 502);
        }
        await lineMatching(m, /^would write api\/users\.json \(200, \d+ B\)$/);
        await lineMatching(m, /^would append rule #1 to mock-recorded\.toml: POST \/api\/users → 201$/);
        await lineMatching(m, /^would append rule #2 to mock-recorded\.toml: GET \/teapot → 418$/);
      } finally {
        await m.stop();
      }
      assert.deepEqual(snapshot(dir), before, `withConfig=${withConfig}`);
    }
  });

  it('never overwrites: a taken body name gets the next free one, the old file untouched', async () => {
    const dir = workspace('mock-record-e2e-nc-');
    mkdirSync(join(dir, 'public', '.mock-recorded', 'PUT', 'api'), { recursive: true });
    writeFileSync(join(dir, 'public', '.mock-recorded', 'PUT', 'api', 'things.json'), 'old');
    const m = await startMock(['--record', up.url], { cwd: dir });
    try {
      await ask(m, { method: 'PUT', path: '/api/things', body: '{"a":1}' });
      await lineMatching(m, /^recorded rule #1 in mock-recorded\.toml: PUT \/api\/things → 200$/);
      await lineMatching(m, /^recorded \.mock-recorded\/PUT\/api\/things-2\.json/);
    } finally {
      await m.stop();
    }
    assert.equal(readFileSync(join(dir, 'public', '.mock-recorded', 'PUT', 'api', 'things.json'), 'utf8'), 'old');
  });

  it('with --no-watch a saved rule still answers the next request (record mode reloads the workspace itself)', async () => {
    const dir = workspace('mock-record-e2e-nowatch-');
    const m = await startMock(['--record', up.url, '--no-watch'], { cwd: dir });
    try {
      assert.ok(!m.stdoutLines.some((l) => l.startsWith('Watching ')), m.stdoutLines.join('\n'));
      const first = await ask(m, { method: 'GET', path: '/teapot' });
      const seen = up.seen.length;
      const second = await ask(m, { method: 'GET', path: '/teapot' });
      assert.equal(up.seen.length, seen, 'the second request never reached the target');
      assert.equal(second.status, 418);
      assert.equal(second.body.toString(), first.body.toString());
    } finally {
      await m.stop();
    }
  });

  it('upstream down: 502 text/plain naming the error, nothing written', async () => {
    const dir = workspace('mock-record-e2e-down-');
    const port = await closedPort();
    const before = snapshot(dir);
    const m = await startMock(['--record', `http://127.0.0.1:${port}`], { cwd: dir });
    try {
      const got = await ask(m, { method: 'GET', path: '/api/users' });
      assert.equal(got.status, 502);
      assert.match(header(got, 'content-type') ?? '', /^text\/plain/);
      assert.match(got.body.toString(), /ECONNREFUSED/);
      await lineMatching(m, /^not saved: GET \/api\/users — the target failed: .*ECONNREFUSED/);
    } finally {
      await m.stop();
    }
    assert.deepEqual(snapshot(dir), before);
  });

  it('upstream hanging: 502 within the total limit (shortened for the test), nothing written', async () => {
    const dir = workspace('mock-record-e2e-hang-');
    const before = snapshot(dir);
    const m = await startMock(['--record', up.url], { cwd: dir, env: { MOCK_RECORD_TOTAL_TIMEOUT_MS: '500' } });
    try {
      const started = Date.now();
      const got = await ask(m, { method: 'GET', path: '/hang' });
      const took = Date.now() - started;
      assert.equal(got.status, 502);
      assert.match(got.body.toString(), /no complete answer within 500 ms/);
      assert.ok(took >= 450 && took < 10_000, `took ${took} ms`);
    } finally {
      await m.stop();
    }
    assert.deepEqual(snapshot(dir), before);
  });
});

describe('mock --record over HTTPS (selfsigned)', () => {
  let up: Upstream;
  let dir: string;
  let caFile: string;
  before(async () => {
    const pair = await selfSignedPair();
    up = await startUpstream(pair);
    dir = makeTempDir('mock-record-e2e-tls-');
    caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, pair.cert);
  });
  after(async () => {
    await up.close();
    await removeDir(dir);
  });

  const once = async (args: readonly string[], env: Record<string, string> = {}): Promise<{ got: SimpleResponse; lines: string[] }> => {
    const ws = makeTempDir('mock-record-e2e-tls-ws-');
    try {
      const m = await startMock(['--record', up.url, '--dry-run', ...args], { cwd: ws, env });
      try {
        return { got: await ask(m, { method: 'GET', path: '/api/users' }), lines: m.stdoutLines };
      } finally {
        await m.stop();
      }
    } finally {
      await removeDir(ws);
    }
  };

  it('with NODE_EXTRA_CA_CERTS: the answer comes through', async () => {
    const { got } = await once([], { NODE_EXTRA_CA_CERTS: caFile });
    assert.equal(got.status, 200);
    assert.match(got.body.toString(), /"z" : 1/);
  });

  it('with --record-insecure: the answer comes through, and startup says so', async () => {
    const { got, lines } = await once(['--record-insecure']);
    assert.equal(got.status, 200);
    assert.ok(lines.includes(`[record] --record-insecure: the certificate of ${up.url} is not verified`), lines.join('\n'));
  });

  it('with neither: a 502 naming the certificate error', async () => {
    const { got } = await once([]);
    assert.equal(got.status, 502);
    assert.match(got.body.toString(), /self[- ]signed certificate/i);
  });
});

describe('mock --record: usage and layout errors exit 2', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await removeDir(d);
  });
  const cases: readonly [string, readonly string[], RegExp][] = [
    ['--record ftp://x', ['--record', 'ftp://x'], /unsupported scheme 'ftp'/],
    ['a lone --dry-run', ['--dry-run'], /--dry-run goes with --record <url> or --init --from <file>/],
    ['mock record', ['record'], /unknown subcommand 'record'/],
    ['mock serve --record with a query', ['serve', '--record', 'http://127.0.0.1:1/v2?x=1'], /a query/],
    ['--record-insecure alone', ['--record-insecure'], /--record-insecure goes with --record <url>/],
    ['--record-header alone', ['--record-header', 'x-a'], /--record-header goes with --record <url>/],
    ['a secret --record-header', ['--record', 'http://127.0.0.1:1', '--record-header', 'Authorization'], /never recorded/],
    ['--record with --init', ['--record', 'http://127.0.0.1:1', '--init', '--yes'], /--record does not go with --init/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const dir = makeTempDir('mock-record-e2e-usage-');
      dirs.push(dir);
      const r = await runMock(args, { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.deepEqual(readdirSync(dir), []);
    });
  }

  it('a fallback directory outside the config directory, naming both', async () => {
    const dir = makeTempDir('mock-record-e2e-layout-');
    dirs.push(dir);
    mkdirSync(join(dir, 'conf'));
    mkdirSync(join(dir, 'public'));
    writeFileSync(join(dir, 'conf', 'mock.toml'), '[service]\nfallback_respond_dir = "../public"\n');
    const r = await runMock(['--record', 'http://127.0.0.1:1', '-c', 'conf/mock.toml', '-p', '0'], { cwd: dir, ...LONG });
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(join(dir, 'public')) && r.stderr.includes(join(dir, 'conf')), r.stderr);
  });

  it('-d naming another directory than the config\'s fallback_respond_dir', async () => {
    const dir = makeTempDir('mock-record-e2e-d-');
    dirs.push(dir);
    mkdirSync(join(dir, 'public'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'mock.toml'), '[service]\nfallback_respond_dir = "public"\n');
    const r = await runMock(['--record', 'http://127.0.0.1:1', '-d', 'other', '-p', '0'], { cwd: dir, ...LONG });
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(join(dir, 'other')) && r.stderr.includes(join(dir, 'public')), r.stderr);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
