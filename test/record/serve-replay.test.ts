// Record mode through the real program, the main loop: `mock serve --record <upstream>` on 127.0.0.1 port 0
// against the test's own upstream (test/record/upstream.ts), then the upstream stops and the program, started
// without --record, answers every saved exchange the same (status, content type, body sha256). Also: the
// startup line, what the console says for each exchange, a saved file or rule answering the next request at
// once, what the target received, query variants each replayed, HEAD and the 40 MiB stream unsaved, PATCH saved
// as a rule, a PUT on a path a saved file answers forwarded and saved as a rule, prefix misses unproxied, comments
// kept, no secret written, `mock validate` passes.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { header, type SimpleResponse } from '../e2e/server-harness.js';
import { makeTempDir, removeDir, runMock, spawnMock } from '../helpers/mock-cli.js';
import { ask, lineMatching, MOCK_TOML, PRE_TOML, treeContents, type Sent } from './serve-helpers.js';
import { sha256, startUpstream, type Upstream } from './upstream.js';

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
    const m = await spawnMock(['serve', '--record', up.url, '--record-header', 'X-Request-Id'], { cwd: dir });
    try {
      for (const s of [
        // the POST first: once GET /api/users is saved as a file, the file answers every method (docs/files-and-rules.md#files)
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
        // api/users.json answers GET /api/users by now; a write to that path still goes to the target
        { method: 'PUT', path: '/api/users', body: '{"name":"Cy"}' },
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
        { method: 'PUT', path: '/api/users', body: '{"name":"Dee"}' },
        { method: 'PATCH', path: '/api/users/7', body: '{}' },
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
        'recorded .mock-recorded/GET/search.json (200, n B)',
        'recorded rule #6 in mock-recorded.toml: GET /search?q=a → 200',
        'recorded .mock-recorded/GET/search-2.json (200, n B)',
        'recorded rule #7 in mock-recorded.toml: GET /search?q=b → 200',
        'not saved: HEAD /nothing-here — HEAD is never recorded',
        'recorded .mock-recorded/PATCH/api/users/7.json (200, n B)',
        'recorded rule #8 in mock-recorded.toml: PATCH /api/users/7 → 200',
        'recorded .mock-recorded/PUT/api/users.json (200, n B)',
        'recorded rule #9 in mock-recorded.toml: PUT /api/users → 200',
        'not saved: GET /big — the body is over 32 MiB (streamed, not saved)',
        "not proxied: GET /pre/unknown — a rule set's url_path_prefix claims this path, so a recording there could never be served (said once per path)",
      ],
    );
  });

  it("the client got the upstream answers (the 40 MiB stream whole), with mock's CORS headers in place of the upstream's", () => {
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

  it('a PUT that the saved file api/users.json would have answered reached the target', () => {
    const put = up.seen.filter((x) => x.method === 'PUT');
    assert.deepEqual(
      put.map((x) => [x.url, x.body.toString()]),
      [['/v2/api/users', '{"name":"Cy"}']],
    );
    assert.deepEqual(JSON.parse(done.find((d) => d.sent.method === 'PUT')!.got.body.toString()), {
      path: '/api/users',
    });
  });

  it('each query variant is recorded as its own rule with a query condition', () => {
    assert.equal(up.seen.filter((x) => x.url.startsWith('/v2/search')).length, 2);
    const [a, b] = ['/search?q=a', '/search?q=b'].map((p) => done.find((d) => d.sent.path === p)!.got);
    assert.equal(a!.body.toString(), '{"q":"a"}');
    assert.equal(b!.body.toString(), '{"q":"b"}');
    const rules = readFileSync(join(dir, 'mock-recorded.toml'), 'utf8');
    assert.match(
      rules,
      /when\.request\.url_path = "\/search"\nwhen\.request\.method = "GET"\nwhen\.request\.query\.q = "a"\n/,
    );
    assert.match(rules, /when\.request\.query\.q = "b"\n/);
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
    const all = [...treeContents(dir).entries()]
      .filter(([, h]) => h !== 'dir')
      .map(([k]) => readFileSync(join(dir, k), 'latin1'));
    assert.doesNotMatch(all.join('\n'), /s3cret|set-cookie|t0ken|authorization/i);
  });

  it('mock validate exits 0', async () => {
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });

  it('without the target and without --record, every saved exchange answers the same', async () => {
    const m = await spawnMock([], { cwd: dir });
    try {
      const saved = done.filter((d) => !['/big', '/nothing-here', '/pre/unknown'].includes(d.sent.path));
      assert.equal(saved.length, 14);
      for (const d of saved) {
        const got = await ask(m, d.sent);
        const what = `${d.sent.method} ${d.sent.path}`;
        assert.equal(got.status, d.got.status, what);
        assert.equal(header(got, 'content-type'), header(d.got, 'content-type'), what);
        assert.equal(header(got, 'location'), header(d.got, 'location'), what);
        assert.equal(sha256(got.body), sha256(d.got.body), what);
      }
      // each query variant answered its own recording (checked above: `{"q":"a"}` and `{"q":"b"}`); an unrecorded
      // variant is no rule's and there is no file, so it is a 404; the stream and HEAD-only were not saved
      assert.equal((await ask(m, { method: 'GET', path: '/search?q=c' })).status, 404);
      assert.equal((await ask(m, { method: 'GET', path: '/big' })).status, 404);
      assert.equal((await ask(m, { method: 'GET', path: '/nothing-here' })).status, 404);
      // rules come before files: PUT by its rule, GET by the file
      assert.deepEqual(JSON.parse((await ask(m, { method: 'PUT', path: '/api/users', body: '{}' })).body.toString()), {
        path: '/api/users',
      });
      assert.equal(sha256((await ask(m, { method: 'GET', path: '/api/users' })).body), sha256(done[1]!.got.body));
    } finally {
      await m.stop();
    }
  });
});
