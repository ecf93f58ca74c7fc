// The server's load cache (docs/load-cache.md), from the outside: a second start over unchanged files answers
// exactly what the first did, prints the same warnings, and re-reads whatever changed in between.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { raw } from '../helpers/inspector-server.js';
import {
  makeTempDir,
  removeDir,
  runMock,
  sendText,
  spawnMock,
  writeTree,
  type RunningMock,
} from '../helpers/mock-cli.js';
import { waitReloaded, waitServed } from './live-reload-helpers.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
});

function temp(prefix: string): string {
  const d = makeTempDir(prefix);
  dirs.push(d);
  return d;
}

/** Rule sets of every kind the summary tells apart: exact paths, templates, texts, a prefix, a rule for any path. */
const WS: Record<string, string> = {
  'mock.toml': '[service]\nrule_sets = ["a.toml", "b.toml", "c.toml", "any.toml"]\nfallback_respond_dir = "files"\n',
  'a.toml':
    '[[rules]]\nwhen.request.url_path = "/a/one"\nrespond.file_path = "bodies/one.json"\n\n' +
    '[[rules]]\nwhen.request.url_path = { value = "/a/users/{id}", op = "path_template" }\nrespond.text = "user"\n\n' +
    '[[rules]]\nwhen.request.url_path = { value = "/a/", op = "starts_with" }\nwhen.request.method = "POST"\nrespond.status = 201\n',
  'b.toml':
    'strategy = { uniform_random = { seed = 7 } }\n[prefix]\nurl_path = "/b"\n\n[[rules]]\nwhen.request.url_path = "/two"\nrespond.json = \'{"b":2}\'\n\n' +
    '[[rules]]\nwhen.request.url_path = { value = ".csv", op = "ends_with" }\nrespond.text = "csv"\n\n' +
    '[[rules]]\nwhen.request.url_path = { value = "file", op = "contains" }\nrespond.text = "file"\n\n' +
    '[[rules]]\nwhen.request.url_path = "/warned"\nwhen.request.body.json."$.x" = { value = "1" }\nrespond.text = "x"\n',
  'c.toml':
    'strategy = { priority = { tiebreaker = "first_match" } }\n\n[[rules]]\nwhen.request.url_path = { value = "/c/{rest*}", op = "path_template" }\nrespond.text = "low"\n\n' +
    '[[rules]]\nwhen.request.url_path = "/c/x"\nrespond.text = "high"\npriority = 5\n',
  'any.toml':
    '[[rules]]\nwhen.request.method = "DELETE"\nrespond.status = 204\n\n' +
    '[[rules]]\nwhen.request.url_path = "/any/state"\nwhen.state.door = "open"\nrespond.text = "open"\n',
  'bodies/one.json': '{"one":1}',
  'files/plain.txt': 'plain',
};

const REQUESTS: readonly (readonly [string, string])[] = [
  ['GET', '/a/one'],
  ['GET', '/a/users/7'],
  ['GET', '/a/users/7/x'],
  ['POST', '/a/anything'],
  ['GET', '/b/two'],
  ['GET', '/b/file.csv'],
  ['GET', '/b/other'],
  ['GET', '/c/x'],
  ['GET', '/c/y/z'],
  ['DELETE', '/nowhere'],
  ['GET', '/any/state'],
  ['GET', '/plain.txt'],
  ['GET', '/missing'],
];

/** Every request's status and body, from a server started in `dir` (then stopped), with its stderr. */
async function answers(
  dir: string,
  cache: string,
  env: Record<string, string> = {},
): Promise<{ got: string[]; stderr: string }> {
  const mock = await spawnMock(['--no-watch'], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on', ...env },
  });
  try {
    const got: string[] = [];
    for (const [method, path] of REQUESTS) {
      const r = await sendText(mock.port, method, path);
      got.push(`${method} ${path} → ${r.status} ${r.text}`);
    }
    return { got, stderr: mock.stderr() };
  } finally {
    await mock.stop();
  }
}

function cacheFiles(cache: string): string[] {
  try {
    return readdirSync(join(cache, 'mock')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
}

test('a warm start answers what a cold start answers, warnings included, and the cache holds every rule set', async () => {
  const dir = temp('mock-cache-ws-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const cold = await answers(dir, cache);
  assert.match(cold.stderr, /warning/, 'the workspace has a warning to print again');
  const files = cacheFiles(cache);
  assert.equal(files.length, 1, 'one cache file for the config');
  const stored = JSON.parse(readFileSync(join(cache, 'mock', files[0]!), 'utf8')) as { entries: object };
  assert.deepEqual(
    Object.keys(stored.entries).sort(),
    ['a.toml', 'any.toml', 'b.toml', 'c.toml'].map((f) => join(dir, f)),
  );
  const warm = await answers(dir, cache);
  assert.deepEqual(warm.got, cold.got);
  assert.equal(warm.stderr, cold.stderr);
  // without the cache (the default), every rule set is decoded at start: the same answers again
  const off = await answers(dir, cache, { MOCK_LOAD_CACHE: '' });
  assert.deepEqual(off.got, cold.got);
  assert.equal(off.stderr, cold.stderr);
});

test('without MOCK_LOAD_CACHE=on (the default): nothing is written, and the answers are the same', async () => {
  const dir = temp('mock-cache-off-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const mock = await spawnMock(['--no-watch'], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
  const r = await sendText(mock.port, 'GET', '/a/one');
  await mock.stop();
  assert.equal(r.text, '{"one":1}');
  assert.deepEqual(cacheFiles(cache), []);
});

test('a rule-set file edited between two starts is read again: a syntax error stops the start as usual', async () => {
  const dir = temp('mock-cache-edit-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  await answers(dir, cache);
  writeFileSync(join(dir, 'b.toml'), WS['b.toml']!.replace('"/two"', '"/three"'));
  const edited = await answers(dir, cache);
  assert.ok(edited.got.includes('GET /b/two → 404 '), edited.got.join('\n'));
  writeFileSync(join(dir, 'b.toml'), WS['b.toml']! + '\n[[rules]\n');
  const r = await runMock(['--no-watch', '-p', '0'], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on' },
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /b\.toml:\d+:\d+: error: /);
});

test('a respond file deleted or changed invalidates the rule sets naming it', async () => {
  const dir = temp('mock-cache-respond-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  await answers(dir, cache);
  writeFileSync(join(dir, 'bodies/one.json'), '{"one":');
  const broken = await runMock(['--no-watch', '-p', '0'], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on' },
  });
  assert.equal(broken.code, 2, broken.stderr);
  assert.match(broken.stderr, /a\.toml:3:\d+: error: .*bodies\/one\.json/);
  await removeDir(join(dir, 'bodies'));
  const gone = await runMock(['--no-watch', '-p', '0'], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on' },
  });
  assert.equal(gone.code, 2, gone.stderr);
  assert.match(gone.stderr, /a\.toml:3:\d+: error: .*does not exist/);
});

test('a warm start trusts a respond file of the same size and mtime (what the cache compares)', async () => {
  const dir = temp('mock-cache-stamp-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const body = join(dir, 'bodies/one.json');
  const SECONDS = 1_700_000_000;
  utimesSync(body, SECONDS, SECONDS);
  await answers(dir, cache);
  writeFileSync(body, '{"one":'.padEnd(statSync(body).size, ' '));
  utimesSync(body, SECONDS, SECONDS);
  // a cold load would refuse the invalid JSON; the warm one did not look at it again
  const warm = await answers(dir, cache);
  assert.ok(warm.got.includes('GET /b/two → 200 {"b":2}'), warm.got.join('\n'));
});

test('a corrupt cache file is ignored and replaced; an unwritable cache folder still starts', async () => {
  const dir = temp('mock-cache-corrupt-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const cold = await answers(dir, cache);
  const file = join(cache, 'mock', cacheFiles(cache)[0]!);
  for (const junk of ['{"format":1,', '[]', '{"format":1,"version":"x","config":"y","entries":{}}']) {
    writeFileSync(file, junk);
    const again = await answers(dir, cache);
    assert.deepEqual(again.got, cold.got);
  }
  JSON.parse(readFileSync(file, 'utf8'));
  // a cache entry of the wrong shape is not used
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { entry: { summary: unknown } }> };
  for (const e of Object.values(stored.entries)) e.entry.summary = { rules: 'many' };
  writeFileSync(file, JSON.stringify(stored));
  assert.deepEqual((await answers(dir, cache)).got, cold.got);

  const notAFolder = join(cache, 'plain-file');
  writeFileSync(notAFolder, 'x');
  const unwritable = await answers(dir, notAFolder);
  assert.deepEqual(unwritable.got, cold.got);
});

test('a warm server shows every rule set whole: the inspector counts its rules, `get --why` lists them', async () => {
  const dir = temp('mock-cache-inspect-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  await answers(dir, cache);
  const mock = await spawnMock(['--inspect'], { cwd: dir, env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on' } });
  try {
    const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
    const port = Number(/:(\d+)\//.exec(line ?? '')?.[1]);
    const r = await raw(port, 'GET', '/__mock/api/workspace');
    assert.equal(r.status, 200, r.text);
    const sets = (r.json as { result: { rule_sets: { entry: string; rules: number }[] } }).result.rule_sets;
    assert.deepEqual(
      sets.map((s) => [s.entry, s.rules]),
      [
        ['a.toml', 3],
        ['b.toml', 4],
        ['c.toml', 2],
        ['any.toml', 2],
      ],
    );
  } finally {
    await mock.stop();
  }
  const why = await runMock(['get', '/c/x', '--why'], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on' },
  });
  assert.equal(why.code, 0, why.stderr);
  assert.match(why.stdout, /c\.toml/);
});

test('live reload over a warm start: the same files watched, a respond file of an undecoded rule set reloads, counts whole', async () => {
  const dir = temp('mock-cache-live-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const watching = (m: RunningMock): string | undefined => m.stdoutLines.find((l) => l.startsWith('Watching '));
  const off = await spawnMock([], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
  const eager = watching(off);
  await off.stop();
  await answers(dir, cache);
  const m = await spawnMock([], { cwd: dir, env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'on' } });
  try {
    assert.equal(watching(m), eager);
    assert.equal((await sendText(m.port, 'GET', '/a/one')).text, '{"one":1}');
    writeFileSync(join(dir, 'bodies/one.json'), '{"one":2}');
    assert.match(
      await waitReloaded(m, 2),
      /^reloaded generation 2 after change to \.\/bodies\/one\.json \(11 rules across 4 rule sets, \d+ ms\)$/,
    );
    await waitServed(m.port, '/a/one', '{"one":2}');
    writeFileSync(join(dir, 'c.toml'), WS['c.toml']!.replace('"high"', '"HIGH"'));
    await waitServed(m.port, '/c/x', 'HIGH');
    assert.match(await waitReloaded(m, 3), /after change to \.\/c\.toml \(11 rules across 4 rule sets/);
    assert.equal((await sendText(m.port, 'GET', '/b/two')).text, '{"b":2}');
  } finally {
    await m.stop();
  }
});
