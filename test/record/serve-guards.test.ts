// Record mode through the real program, its guards: writes confined to the fallback directory (a hash snapshot
// of everything else), --dry-run writes nothing, no overwrite, --no-watch still serves a saved rule at once, an
// upstream down or hanging is a 502 within the limits with nothing written, HTTPS with NODE_EXTRA_CA_CERTS or
// --record-insecure (else a 502 naming the certificate error), and the usage and layout errors that exit 2.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { header, type SimpleResponse } from '../e2e/server-harness.js';
import { makeTempDir, removeDir, runMock, spawnMock } from '../helpers/mock-cli.js';
import { ask, closedPort, lineMatching, MOCK_TOML, PRE_TOML, treeContents } from './serve-helpers.js';
import { useUpstream } from './upstream.js';

const LONG = { timeoutMs: 30_000 } as const;

describe('mock --record: confinement, dry run, no overwrite, failures', () => {
  const fx = useUpstream();
  const dirs = fx.dirs;
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
    const writable = (rel: string): boolean =>
      rel === 'public' || rel.startsWith('public/') || rel === 'mock.toml' || rel === 'mock-recorded.toml';
    const before = treeContents(dir, writable);
    const m = await spawnMock(['--record', fx.up.url], { cwd: dir });
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
      const refused = m.stdoutLines.filter((l) => l.startsWith('not saved: ') || l.startsWith('not forwarded: '));
      assert.deepEqual(
        refused.map((l) => l.slice(0, l.indexOf(' — '))),
        [
          'not forwarded: GET /..%2f..%2fsecret',
          'not forwarded: GET /%2e%2e/x',
          'not forwarded: GET /%2e%2e/%2e%2e/secret',
          'not saved: GET /out/x',
          'not saved: GET /out/sub/y',
          'not forwarded: PUT /..%5c..%5csecret',
        ],
      );
    } finally {
      await m.stop();
    }
    assert.deepEqual(treeContents(dir, writable), before);
    assert.deepEqual(readdirSync(join(dir, 'outside')), ['keep.json']);
  });

  it('a path that climbs above the base path is refused (400) before the upstream sees it; dot segments are resolved', async () => {
    const dir = workspace('mock-record-e2e-climb-');
    const m = await spawnMock(['--record', fx.up.url], { cwd: dir });
    const seenBefore = fx.up.seen.length;
    try {
      for (const path of [
        '/../x',
        '/%2e%2e/x',
        '/.%2E/x',
        '/a/../../x',
        '/a/%2e%2e/%2E%2E/x',
        '/a/..%2f..%2fx',
        '/a%5c..%5c..%5cx',
        '/a/..%5C..%5Cx',
      ]) {
        const got = await ask(m, { method: 'GET', path });
        assert.equal(got.status, 400, path);
        assert.match(got.body.toString(), /^mock: not forwarded to http:\/\/127\.0\.0\.1:\d+\/v2: /, path);
      }
      assert.deepEqual(
        fx.up.seen.slice(seenBefore).map((s) => s.url),
        [],
        'the upstream saw none of them',
      );
      const climbs = await lineMatching(m, /^not forwarded: GET \/\.\.\/x — /);
      assert.match(climbs, /climbs above the record target's base path \/v2 .*; answered 400$/);
      for (const [path, upstream] of [
        ['/a/./b/../c', '/v2/a/c'],
        ['/a/%2e/b/%2E%2e/d', '/v2/a/d'],
        ['/a/b/..', '/v2/a/'],
        ['/keep%2fslash', '/v2/keep%2fslash'],
      ] as const) {
        const got = await ask(m, { method: 'GET', path });
        assert.equal(got.status, 200, path);
        assert.equal(fx.up.seen.at(-1)?.url, upstream, path);
      }
    } finally {
      await m.stop();
    }
  });

  it('never records onto a denied path (.env, .git/, .ssh/): the answer is passed on, nothing is written', async () => {
    const dir = workspace('mock-record-e2e-denied-');
    const m = await spawnMock(['--record', fx.up.url], { cwd: dir });
    try {
      for (const s of [
        { method: 'GET', path: '/.env' },
        { method: 'GET', path: '/.git/config' },
        { method: 'GET', path: '/deep/.git/HEAD' },
        { method: 'GET', path: '/.ssh/id_rsa' },
        { method: 'POST', path: '/.env.local', body: '{}' },
      ]) {
        const got = await ask(m, s);
        assert.equal(got.status, 200, `${s.method} ${s.path}: proxied as it came`);
        assert.match(got.body.toString(), /"path"/, `${s.method} ${s.path}`);
      }
      await lineMatching(m, /^not saved: POST \/\.env\.local/);
      const lines = m.stdoutLines.filter((l) => l.startsWith('not saved: '));
      assert.equal(lines.length, 5, lines.join('\n'));
      assert.match(
        lines[0]!,
        /^not saved: GET \/\.env — the file would be written at \.mock-recorded\/GET\/\.env\.json \(denied by \.env\.\*\), a path service\.deny never serves/,
      );
      assert.match(
        lines[1]!,
        /written at \.mock-recorded\/GET\/\.git\/config\.json \(inside \.git\/, which a recording never writes into\)/,
      );
      assert.match(lines[4]!, /written at \.mock-recorded\/POST\/\.env\.local\.json \(denied by \.env\.\*\)/);
    } finally {
      await m.stop();
    }
    assert.deepEqual(readdirSync(join(dir, 'public')), [], 'nothing written under the fallback directory');
    assert.equal(readdirSync(dir).includes('mock-recorded.toml'), false, 'no rule appended');
  });

  it('--dry-run leaves every file as it was and prints its would lines', async () => {
    for (const withConfig of [true, false]) {
      const dir = makeTempDir('mock-record-e2e-dry-');
      dirs.push(dir);
      if (withConfig) writeFileSync(join(dir, 'mock.toml'), MOCK_TOML.replace(/rule_sets.*\n/, ''));
      mkdirSync(join(dir, 'public'));
      const before = treeContents(dir);
      const m = await spawnMock(['--record', fx.up.url, '--dry-run'], { cwd: dir });
      try {
        assert.ok(
          m.stdoutLines.includes(`[record] ${fx.up.url} (misses are forwarded there; dry run: nothing is written)`),
          m.stdoutLines.join('\n'),
        );
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
      assert.deepEqual(treeContents(dir), before, `withConfig=${withConfig}`);
    }
  });

  it('never overwrites: a taken body name gets the next free one, the old file untouched', async () => {
    const dir = workspace('mock-record-e2e-nc-');
    mkdirSync(join(dir, 'public', '.mock-recorded', 'PUT', 'api'), { recursive: true });
    writeFileSync(join(dir, 'public', '.mock-recorded', 'PUT', 'api', 'things.json'), 'old');
    const m = await spawnMock(['--record', fx.up.url], { cwd: dir });
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
    const m = await spawnMock(['--record', fx.up.url, '--no-watch'], { cwd: dir });
    try {
      assert.ok(!m.stdoutLines.some((l) => l.startsWith('Watching ')), m.stdoutLines.join('\n'));
      const first = await ask(m, { method: 'GET', path: '/teapot' });
      const seen = fx.up.seen.length;
      const second = await ask(m, { method: 'GET', path: '/teapot' });
      assert.equal(fx.up.seen.length, seen, 'the second request never reached the target');
      assert.equal(second.status, 418);
      assert.equal(second.body.toString(), first.body.toString());
    } finally {
      await m.stop();
    }
  });

  it('-p <port> in a folder without mock.toml: the bootstrapped mock.toml keeps that port', async () => {
    const dir = makeTempDir('mock-record-e2e-port-');
    dirs.push(dir);
    const port = await closedPort();
    const m = await spawnMock(['--record', fx.up.url, '-p', String(port)], { cwd: dir });
    try {
      assert.equal(m.port, port);
      assert.equal((await ask(m, { method: 'GET', path: '/teapot' })).status, 418);
    } finally {
      await m.stop();
    }
    assert.match(readFileSync(join(dir, 'mock.toml'), 'utf8'), new RegExp(`^port = ${port}$`, 'm'));
  });

  it('upstream down: 502 text/plain naming the error, nothing written', async () => {
    const dir = workspace('mock-record-e2e-down-');
    const port = await closedPort();
    const before = treeContents(dir);
    const m = await spawnMock(['--record', `http://127.0.0.1:${port}`], { cwd: dir });
    try {
      const got = await ask(m, { method: 'GET', path: '/api/users' });
      assert.equal(got.status, 502);
      assert.match(header(got, 'content-type') ?? '', /^text\/plain/);
      assert.match(got.body.toString(), /ECONNREFUSED/);
      await lineMatching(m, /^not saved: GET \/api\/users — the target failed: .*ECONNREFUSED/);
    } finally {
      await m.stop();
    }
    assert.deepEqual(treeContents(dir), before);
  });

  it('upstream hanging: 502 within the total limit (shortened for the test), nothing written', async () => {
    const dir = workspace('mock-record-e2e-hang-');
    const before = treeContents(dir);
    const m = await spawnMock(['--record', fx.up.url], { cwd: dir, env: { MOCK_RECORD_TOTAL_TIMEOUT_MS: '500' } });
    try {
      // /hang never answers: only the shortened total limit can end this, and the message names it
      const got = await ask(m, { method: 'GET', path: '/hang' });
      assert.equal(got.status, 502);
      assert.match(got.body.toString(), /no complete answer within 500 ms/);
    } finally {
      await m.stop();
    }
    assert.deepEqual(treeContents(dir), before);
  });
});

describe('mock --record over HTTPS (selfsigned)', () => {
  const fx = useUpstream('mock-record-e2e-tls-');

  const once = async (
    args: readonly string[],
    env: Record<string, string> = {},
  ): Promise<{ got: SimpleResponse; lines: string[] }> => {
    const ws = makeTempDir('mock-record-e2e-tls-ws-');
    try {
      const m = await spawnMock(['--record', fx.up.url, '--dry-run', ...args], { cwd: ws, env });
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
    const { got } = await once([], { NODE_EXTRA_CA_CERTS: fx.caFile });
    assert.equal(got.status, 200);
    assert.match(got.body.toString(), /"z" : 1/);
  });

  it('with --record-insecure: the answer comes through, and startup says so', async () => {
    const { got, lines } = await once(['--record-insecure']);
    assert.equal(got.status, 200);
    assert.ok(
      lines.includes(`[record] --record-insecure: the certificate of ${fx.up.url} is not verified`),
      lines.join('\n'),
    );
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
    [
      'a secret --record-header',
      ['--record', 'http://127.0.0.1:1', '--record-header', 'Authorization'],
      /never recorded/,
    ],
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
    const r = await runMock(['--record', 'http://127.0.0.1:1', '-c', 'conf/mock.toml', '-p', '0'], {
      cwd: dir,
      ...LONG,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(join(dir, 'public')) && r.stderr.includes(join(dir, 'conf')), r.stderr);
  });

  it("-d naming another directory than the config's fallback_respond_dir", async () => {
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
