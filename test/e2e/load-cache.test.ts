// The server's load cache (docs/load-cache.md), from the outside: a second start over unchanged files answers
// exactly what the first did, prints the same warnings, and re-reads whatever changed in between.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
import { PETSTORE_30 } from '../fixtures/openapi-docs.js';

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
    env: { XDG_CACHE_HOME: cache, ...env },
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

/**
 * The Node.js modules loaded when a server (live reload on) in `dir` has answered its first request: a preload
 * sends `path` the moment the server listens, as a client polling for it would, and writes process.moduleLoadList
 * once the answer is in.
 */
async function modulesAtFirstAnswer(dir: string, cache: string, path: string): Promise<string[]> {
  const out = join(temp('mock-cache-modules-'), 'modules.json');
  const preload = join(dirname(out), 'preload.cjs');
  writeFileSync(
    preload,
    `const http = require('node:http'); const net = require('node:net'); const { writeFileSync } = require('node:fs');
const emit = net.Server.prototype.emit;
let sent = false;
net.Server.prototype.emit = function (event, ...args) {
  const port = event === 'listening' ? this.address()?.port : undefined;
  if (port !== undefined && !sent && (sent = true))
    http.get({ host: '127.0.0.1', port, path: ${JSON.stringify(path)} }, (res) => {
      res.resume();
      res.on('end', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));
    });
  return emit.call(this, event, ...args);
};
`,
  );
  const mock = await spawnMock([], { cwd: dir, env: { XDG_CACHE_HOME: cache, NODE_OPTIONS: `--require ${preload}` } });
  try {
    for (let i = 0; i < 300 && !existsSync(out); i++) await new Promise((go) => setTimeout(go, 50));
    return JSON.parse(readFileSync(out, 'utf8')) as string[];
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
  // without the cache (MOCK_LOAD_CACHE=off), every rule set is decoded at start: the same answers again
  const off = await answers(dir, cache, { MOCK_LOAD_CACHE: 'off' });
  assert.deepEqual(off.got, cold.got);
  assert.equal(off.stderr, cold.stderr);
});

test('MOCK_LOAD_CACHE=off: nothing is written, and the answers are the same', async () => {
  const dir = temp('mock-cache-off-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const mock = await spawnMock(['--no-watch'], { cwd: dir, env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'off' } });
  const r = await sendText(mock.port, 'GET', '/a/one');
  await mock.stop();
  assert.equal(r.text, '{"one":1}');
  assert.deepEqual(cacheFiles(cache), []);
  // the flag does the same
  const flagged = await spawnMock(['--no-watch', '--no-load-cache'], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
  const f = await sendText(flagged.port, 'GET', '/a/one');
  await flagged.stop();
  assert.equal(f.text, '{"one":1}');
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
    env: { XDG_CACHE_HOME: cache },
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
    env: { XDG_CACHE_HOME: cache },
  });
  assert.equal(broken.code, 2, broken.stderr);
  assert.match(broken.stderr, /a\.toml:3:\d+: error: .*bodies\/one\.json/);
  await removeDir(join(dir, 'bodies'));
  const gone = await runMock(['--no-watch', '-p', '0'], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache },
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
  const mock = await spawnMock(['--inspect'], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
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
    env: { XDG_CACHE_HOME: cache },
  });
  assert.equal(why.code, 0, why.stderr);
  assert.match(why.stdout, /c\.toml/);
});

test('live reload over a warm start: the same files watched, a respond file of an undecoded rule set reloads, counts whole', async () => {
  const dir = temp('mock-cache-live-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const watching = (m: RunningMock): string | undefined => m.stdoutLines.find((l) => l.startsWith('Watching '));
  const off = await spawnMock([], { cwd: dir, env: { XDG_CACHE_HOME: cache, MOCK_LOAD_CACHE: 'off' } });
  const eager = watching(off);
  await off.stop();
  await answers(dir, cache);
  const m = await spawnMock([], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
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

/** the stored facts of each rule-set file's bytes, by file */
function storedBytes(cache: string): Record<string, { readAt: number; digest: string }> {
  const stored = JSON.parse(readFileSync(join(cache, 'mock', cacheFiles(cache)[0]!), 'utf8')) as {
    entries: Record<string, { bytes: { readAt: number; digest: string } }>;
  };
  return Object.fromEntries(Object.entries(stored.entries).map(([f, e]) => [f, e.bytes]));
}

test('a rule-set file still since well before it was read is vouched for by its signature: not read at start, the same answers', async () => {
  const dir = temp('mock-cache-settled-');
  const cache = temp('mock-cache-home-');
  await writeTree(dir, WS);
  const cold = await answers(dir, cache);
  const first = storedBytes(cache);
  // a file changed less than 2 s before it was read might change again within one tick of the file system's
  // clock: it is hashed again at each start until it has been still that long (a wait on the clock, not an event)
  const written = Math.max(...Object.keys(first).map((f) => statSync(f).ctimeMs));
  await new Promise((go) => setTimeout(go, Math.max(0, written + 2_100 - Date.now())));
  const settling = await answers(dir, cache);
  assert.deepEqual(settling.got, cold.got);
  const settled = storedBytes(cache);
  for (const [f, b] of Object.entries(settled)) {
    assert.equal(b.digest, first[f]!.digest, f);
    // read (at the first start or this one) once it had been still for longer than the file system's tick
    assert.ok(b.readAt - statSync(f).ctimeMs >= 100, `${f} is known to have been still when read`);
  }
  const cacheFile = join(cache, 'mock', cacheFiles(cache)[0]!);
  const before = statSync(cacheFile).mtimeMs;
  const warm = await answers(dir, cache);
  assert.deepEqual(warm.got, cold.got);
  assert.equal(warm.stderr, cold.stderr);
  // nothing was read or hashed again, so nothing in the cache changed: it was not written
  assert.equal(statSync(cacheFile).mtimeMs, before);
  assert.deepEqual(storedBytes(cache), settled);
  // with live reload on, what the reload will compare is worked out later: the first answer waits for no SHA-256
  // (of mock.toml) and so for no node:crypto
  const loaded = await modulesAtFirstAnswer(dir, cache, '/c/x');
  assert.ok(loaded.includes('NativeModule http'), loaded.join(' '));
  assert.ok(!loaded.includes('NativeModule crypto'), 'node:crypto was loaded before the first answer');

  writeFileSync(join(dir, 'c.toml'), WS['c.toml']!.replace('"high"', '"HIGH"'));
  // an edit gives the file a new signature: the next start reads and hashes it, and answers what it says now
  const after = await answers(dir, cache);
  assert.ok(after.got.includes('GET /c/x → 200 HIGH'), after.got.join('\n'));
});

test('an import fills the cache: the first start after `mock --init --from` finds every rule set in it', async () => {
  const root = temp('mock-cache-import-');
  const cache = temp('mock-cache-home-');
  await writeTree(root, PETSTORE_30.files);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const env = { XDG_CACHE_HOME: cache };
  const r = await runMock(['--init', '--from', `../${PETSTORE_30.main}`, '--yes'], { cwd: ws, env });
  assert.equal(r.code, 0, r.stderr);
  const files = cacheFiles(cache);
  assert.equal(files.length, 1, 'the import wrote the cache of the new mock.toml');
  const stored = JSON.parse(readFileSync(join(cache, 'mock', files[0]!), 'utf8')) as {
    config: string;
    entries: Record<string, { entry: { summary: { rules: number } } }>;
  };
  assert.equal(stored.config, join(ws, 'mock.toml'));
  const listed = /rule_sets = \[([^\]]*)\]/.exec(readFileSync(join(ws, 'mock.toml'), 'utf8'))![1]!;
  const ruleSets = [...listed.matchAll(/"([^"]+)"/g)].map((m) => join(ws, m[1]!));
  assert.deepEqual(Object.keys(stored.entries).sort(), ruleSets.sort());
  assert.ok(Object.values(stored.entries).every((e) => e.entry.summary.rules > 0));
  // a dry run, --no-load-cache or MOCK_LOAD_CACHE=off writes none
  const cache2 = temp('mock-cache-home-');
  const ws2 = join(root, 'ws2');
  mkdirSync(ws2);
  mkdirSync(join(root, 'ws3'));
  const off = await runMock(['--init', '--from', `../${PETSTORE_30.main}`, '--yes'], {
    cwd: ws2,
    env: { XDG_CACHE_HOME: cache2, MOCK_LOAD_CACHE: 'off' },
  });
  assert.equal(off.code, 0, off.stderr);
  const flagged = await runMock(['--init', '--from', `../${PETSTORE_30.main}`, '--yes', '--no-load-cache'], {
    cwd: join(root, 'ws3'),
    env: { XDG_CACHE_HOME: cache2 },
  });
  assert.equal(flagged.code, 0, flagged.stderr);
  const dry = await runMock(['--init', '--from', `../${PETSTORE_30.main}`, '--yes', '--dry-run'], {
    cwd: ws2,
    env: { XDG_CACHE_HOME: cache2 },
  });
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(cacheFiles(cache2), []);
  // and the first start serves the documented answers
  const m = await spawnMock(['--no-watch'], { cwd: ws, env });
  try {
    assert.equal((await sendText(m.port, 'GET', '/v1/pets')).status, 200);
  } finally {
    await m.stop();
  }
});
