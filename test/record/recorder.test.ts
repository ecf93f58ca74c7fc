// Record mode end to end without the server wiring: a real upstream, the proxy client, the recorder and the
// CLI's rule committer write a workspace; then the upstream stops and the real program, started without record
// mode, replays every saved exchange (status, content type, body sha256); `mock validate` passes; comments stay.
// Also: confinement (hash snapshot of everything else), dry run (nothing changes), no overwrite.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRuleCommitter } from '../../src/launch/record/rules.js';
import { snapshotFrom } from '../../src/dispatch/snapshot.js';
import { parseRecordTarget } from '../../src/record/target.js';
import {
  createProxyClient,
  recordResponseOf,
  type ProxyClient,
  type ProxyResult,
} from '../../src/server/record/proxy.js';
import { createRecorder, type Recorder, type RecordOutcome } from '../../src/server/record/recorder.js';
import { makeTempDir, removeDir, runMock, spawnMock } from '../helpers/mock-cli.js';
import { treeContents } from './serve-helpers.js';
import { sha256, startUpstream, useUpstream, type Upstream } from './upstream.js';

const MOCK_TOML = '# my workspace\n[service]\nfallback_respond_dir = "public"   # files live here\n';

interface Sent {
  readonly method: string;
  readonly target: string;
  readonly body?: string;
}

interface Done {
  readonly sent: Sent;
  readonly result: ProxyResult;
  readonly outcome?: RecordOutcome;
}

async function exchange(client: ProxyClient, recorder: Recorder, sent: Sent): Promise<Done> {
  const headers: [string, string][] = sent.body === undefined ? [] : [['content-type', 'application/json']];
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
  const snap = snapshotFrom({ method: sent.method, target: sent.target, headers, ...(body ? { body } : {}) });
  const result = await client.forward({
    method: snap.method,
    rawPath: snap.rawPath,
    query: snap.query,
    headers: snap.headers,
    ...(body ? { body } : {}),
  });
  const response = recordResponseOf(result);
  if (result.kind === 'stream') for await (const chunk of result.rest) void chunk; // drained before the upstream stops
  const outcome = response === undefined ? undefined : await recorder.record({ request: snap, response });
  return { sent, result, ...(outcome ? { outcome } : {}) };
}

function setup(
  dir: string,
  fallback: string,
  upstream: Upstream,
  dryRun: boolean,
  totalTimeoutMs = 30_000,
): { client: ProxyClient; recorder: Recorder } {
  const target = parseRecordTarget(upstream.url);
  assert.ok(target.ok);
  const client = createProxyClient({ target: target.value, totalTimeoutMs });
  const commitRule = createRuleCommitter({ configAbs: join(dir, 'mock.toml'), dryRun, fallbackDir: fallback });
  return { client, recorder: createRecorder({ fallbackDir: fallback, dryRun, commitRule }) };
}

function fetchMock(
  url: string,
  method: string,
  path: string,
): Promise<{ status: number; type: string | undefined; location: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    httpRequest({ host: u.hostname, port: u.port, method, path: u.pathname + u.search }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'],
          location: res.headers['location'],
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function header(r: ProxyResult, name: string): string | undefined {
  return r.headers.find(([k]) => k === name)?.[1];
}

describe('record, then replay without the target', () => {
  let up: Upstream;
  let dir: string;
  const done: Done[] = [];
  before(async () => {
    up = await startUpstream();
    dir = makeTempDir('mock-record-');
    writeFileSync(join(dir, 'mock.toml'), MOCK_TOML);
    mkdirSync(join(dir, 'public'));
    const { client, recorder } = setup(dir, join(dir, 'public'), up, false);
    const target = parseRecordTarget(up.url);
    assert.ok(target.ok);
    const hangClient = createProxyClient({ target: target.value, totalTimeoutMs: 1_000 });
    const sends: Sent[] = [
      { method: 'GET', target: '/api/users' },
      { method: 'GET', target: '/logo.png' },
      { method: 'GET', target: '/' },
      { method: 'GET', target: '/about' },
      { method: 'GET', target: '/gz' },
      { method: 'POST', target: '/api/users', body: '{"name":"Ann"}' },
      { method: 'DELETE', target: '/api/users/7' },
      { method: 'GET', target: '/teapot' },
      { method: 'GET', target: '/old' },
      { method: 'GET', target: '/page' },
      { method: 'GET', target: '/search?q=a' },
      { method: 'GET', target: '/search?q=b' },
      { method: 'HEAD', target: '/api/users' },
      { method: 'PATCH', target: '/api/users/7', body: '{}' },
      { method: 'GET', target: '/hang' },
      { method: 'GET', target: '/big' },
    ];
    try {
      for (const s of sends) done.push(await exchange(s.target === '/hang' ? hangClient : client, recorder, s));
    } finally {
      client.close();
      hangClient.close();
    }
    await up.close();
  });
  after(() => removeDir(dir));

  it('prints what it recorded and why the rest was not saved', () => {
    const lines = done.flatMap((d) => d.outcome?.lines ?? [`(${d.result.status}, not recorded)`]);
    const size = (i: number): number =>
      done[i]!.result.kind === 'answer' ? (done[i]!.result as { body: Uint8Array }).body.byteLength : -1;
    assert.deepEqual(lines, [
      `recorded api/users.json (200, ${size(0)} B)`,
      `recorded logo.png (200, ${size(1)} B)`,
      `recorded index.html (200, ${size(2)} B)`,
      `recorded about/index.html (200, ${size(3)} B)`,
      `recorded gz.json (200, ${size(4)} B)`,
      'recorded rule #1 in mock-recorded.toml: POST /api/users → 201',
      'recorded rule #2 in mock-recorded.toml: DELETE /api/users/7 → 204',
      'recorded rule #3 in mock-recorded.toml: GET /teapot → 418',
      'recorded rule #4 in mock-recorded.toml: GET /old → 302',
      `recorded .mock-recorded/GET/page.json (200, ${size(9)} B)`,
      'recorded rule #5 in mock-recorded.toml: GET /page → 200',
      `recorded .mock-recorded/GET/search.json (200, ${size(10)} B)`,
      'recorded rule #6 in mock-recorded.toml: GET /search?q=a → 200',
      `recorded .mock-recorded/GET/search-2.json (200, ${size(11)} B)`,
      'recorded rule #7 in mock-recorded.toml: GET /search?q=b → 200',
      'not saved: HEAD /api/users — HEAD is never recorded',
      'recorded .mock-recorded/PATCH/api/users/7.json (200, 16 B)',
      'recorded rule #8 in mock-recorded.toml: PATCH /api/users/7 → 200',
      '(502, not recorded)',
      'not saved: GET /big — the body is over 32 MiB (streamed, not saved)',
    ]);
  });

  it('kept the config comments, listed the rule set last, and wrote no secret', () => {
    const config = readFileSync(join(dir, 'mock.toml'), 'utf8');
    assert.ok(config.startsWith(MOCK_TOML.trimEnd().split('\n').slice(0, 2).join('\n')), config);
    assert.match(config, /fallback_respond_dir = "public"   # files live here/);
    assert.match(config, /rule_sets = \["mock-recorded\.toml"\]/);
    const rules = readFileSync(join(dir, 'mock-recorded.toml'), 'utf8');
    assert.match(rules, /respond\.headers\.location = "\/api\/users\/7"/);
    assert.match(rules, /respond\.headers\.link = /);
    assert.match(rules, /respond\.file_path = "public\/\.mock-recorded\/GET\/page\.json"/);
    const everything = [...treeContents(dir).keys()].map((k) => readFileOrEmpty(join(dir, k))).join('\n');
    assert.doesNotMatch(everything, /s3cret|set-cookie/i);
  });

  it('mock validate passes', async () => {
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });

  it('the program, without the target, answers every saved exchange the same', async () => {
    const server = await spawnMock([], { cwd: dir });
    try {
      const saved = done.filter((d) => d.outcome?.saved !== undefined);
      assert.equal(saved.length, 13);
      for (const d of saved) {
        const got = await fetchMock(server.url, d.sent.method, d.sent.target);
        const want = d.result;
        const what = `${d.sent.method} ${d.sent.target}`;
        assert.equal(got.status, want.status, what);
        assert.equal(got.type, header(want, 'content-type'), what);
        assert.equal(got.location, header(want, 'location'), what);
        assert.equal(sha256(got.body), sha256((want as { body: Uint8Array }).body), what);
      }
      // HEAD and the 40 MiB stream were not saved
      assert.equal((await fetchMock(server.url, 'GET', '/big')).status, 404);
      assert.equal((await fetchMock(server.url, 'GET', '/hang')).status, 404);
    } finally {
      await server.stop();
    }
  });
});

function readFileOrEmpty(abs: string): string {
  try {
    return lstatSync(abs).isFile() ? readFileSync(abs, 'latin1') : '';
  } catch {
    return '';
  }
}

describe('confinement, dry run, no overwrite', () => {
  const fx = useUpstream();
  const dirs = fx.dirs;

  it('/..%2f..%2fsecret, /%2e%2e/x and an outward symlinked directory change nothing outside the fallback directory', async () => {
    const dir = makeTempDir('mock-record-conf-');
    dirs.push(dir);
    writeFileSync(join(dir, 'mock.toml'), MOCK_TOML);
    writeFileSync(join(dir, 'secret.json'), '{"secret":true}');
    mkdirSync(join(dir, 'public'));
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'keep.json'), '{}');
    symlinkSync('../outside', join(dir, 'public', 'out'));
    const outsideOfRoot = (rel: string): boolean =>
      rel === 'public' || rel.startsWith('public/') || rel === 'mock.toml' || rel === 'mock-recorded.toml';
    const before = treeContents(dir, outsideOfRoot);
    const { client, recorder } = setup(dir, join(dir, 'public'), fx.up, false);
    const lines: string[] = [];
    try {
      for (const s of [
        { method: 'GET', target: '/..%2f..%2fsecret' },
        { method: 'GET', target: '/out/x' },
        { method: 'GET', target: '/out/sub/y' },
        { method: 'PUT', target: '/..%5c..%5csecret' },
        { method: 'GET', target: '/%2e%2e/x', clampedTo: 'x.json' },
        { method: 'GET', target: '/%2e%2e/%2e%2e/secret', clampedTo: 'secret.json' },
      ]) {
        const d = await exchange(client, recorder, s);
        const said = `${s.method} ${s.target}: ${d.outcome?.lines.join('; ')}`;
        if (s.clampedTo === undefined) {
          lines.push(...(d.outcome?.lines ?? []));
          assert.equal(d.outcome?.saved, undefined, said);
        } else {
          // a '..' at the root has nothing to remove (RFC 3986, as serving does): saved inside, where it is served from
          assert.deepEqual(d.outcome?.saved, { kind: 'file', file: s.clampedTo }, said);
          assert.ok(existsSync(join(dir, 'public', s.clampedTo)), said);
        }
      }
    } finally {
      client.close();
    }
    assert.deepEqual(treeContents(dir, outsideOfRoot), before);
    assert.equal(lines.length, 4);
    for (const l of lines) assert.match(l, /^not saved: /);
    assert.equal(readdirSync(join(dir, 'outside')).join(','), 'keep.json');
  });

  it('--dry-run writes nothing (no bootstrap either) and says what it would write', async () => {
    for (const withConfig of [true, false]) {
      const dir = makeTempDir('mock-record-dry-');
      dirs.push(dir);
      if (withConfig) writeFileSync(join(dir, 'mock.toml'), MOCK_TOML);
      const fallback = withConfig ? join(dir, 'public') : dir;
      mkdirSync(join(dir, 'public'), { recursive: true });
      const before = treeContents(dir);
      const { client, recorder } = setup(dir, fallback, fx.up, true);
      const lines: string[] = [];
      try {
        for (const s of [
          { method: 'GET', target: '/api/users' },
          { method: 'POST', target: '/api/users', body: '{"name":"B"}' },
          { method: 'DELETE', target: '/api/users/7' },
          { method: 'GET', target: '/page' },
          { method: 'GET', target: '/api/users?again=1' },
          { method: 'GET', target: '/api/users' },
        ]) {
          const d = await exchange(client, recorder, s);
          lines.push(...(d.outcome?.lines ?? []));
          assert.equal(d.outcome?.saved, undefined);
        }
      } finally {
        client.close();
      }
      assert.deepEqual(treeContents(dir), before, `withConfig=${withConfig}`);
      const page = withConfig ? 'public/.mock-recorded' : '.mock-recorded';
      assert.equal(lines.length, 8, lines.join('\n'));
      assert.match(lines[0]!, /^would write api\/users\.json \(200, \d+ B\)$/);
      assert.equal(lines[1], 'would append rule #1 to mock-recorded.toml: POST /api/users → 201');
      assert.equal(lines[2], 'would append rule #2 to mock-recorded.toml: DELETE /api/users/7 → 204');
      assert.match(lines[3]!, /^would write \.mock-recorded\/GET\/page\.json \(200, \d+ B\)$/, page);
      assert.equal(lines[4], 'would append rule #3 to mock-recorded.toml: GET /page → 200');
      assert.match(lines[5]!, /^would write \.mock-recorded\/GET\/api\/users\.json \(200, \d+ B\)$/);
      assert.equal(lines[6], 'would append rule #4 to mock-recorded.toml: GET /api/users?again=1 → 200');
      assert.match(lines[7]!, /^not saved: GET \/api\/users — GET \/api\/users is recorded already/);
    }
  });

  it('never overwrites: a taken body name gets the next free one, the old file untouched', async () => {
    const dir = makeTempDir('mock-record-nc-');
    dirs.push(dir);
    mkdirSync(join(dir, '.mock-recorded', 'PUT', 'api'), { recursive: true });
    writeFileSync(join(dir, '.mock-recorded', 'PUT', 'api', 'things.json'), 'old');
    const { client, recorder } = setup(dir, dir, fx.up, false);
    try {
      const d = await exchange(client, recorder, { method: 'PUT', target: '/api/things', body: '{"a":1}' });
      assert.deepEqual(d.outcome?.lines, [
        `recorded .mock-recorded/PUT/api/things-2.json (200, ${(d.result as { body: Uint8Array }).body.byteLength} B)`,
        'recorded rule #1 in mock-recorded.toml: PUT /api/things → 200',
      ]);
    } finally {
      client.close();
    }
    assert.equal(readFileSync(join(dir, '.mock-recorded', 'PUT', 'api', 'things.json'), 'utf8'), 'old');
    assert.match(
      readFileSync(join(dir, 'mock-recorded.toml'), 'utf8'),
      /file_path = "\.mock-recorded\/PUT\/api\/things-2\.json"/,
    );
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });

  it('a fresh directory: the bootstrapped config names the fallback directory in use, and replays', async () => {
    const dir = makeTempDir('mock-record-boot-');
    dirs.push(dir);
    mkdirSync(join(dir, 'public'));
    const { client, recorder } = setup(dir, join(dir, 'public'), fx.up, false);
    try {
      await exchange(client, recorder, { method: 'GET', target: '/api/users' });
      await exchange(client, recorder, { method: 'GET', target: '/teapot' });
    } finally {
      client.close();
    }
    assert.match(
      readFileSync(join(dir, 'mock.toml'), 'utf8'),
      /fallback_respond_dir = "public"\nrule_sets = \["mock-recorded\.toml"\]/,
    );
    const server = await spawnMock([], { cwd: dir });
    try {
      assert.equal((await fetchMock(server.url, 'GET', '/api/users')).status, 200);
      assert.equal((await fetchMock(server.url, 'GET', '/teapot')).status, 418);
    } finally {
      await server.stop();
    }
  });
});
