// Collections against hostile requests, through the real program (docs/state.md, "Collections" and its
// differences from json-server): a `_like` pattern is matched in linear time (and one the linear engine does not
// take is a 400 saying why), an id outside the exact-integer range is refused and never blocks later POSTs, an item
// deeper than service.collection_max_depth is refused and a deep item in a data file does not break `?q=`,
// `--persist` keeps the data file's mode and symbolic link, and acknowledges a write only once it is on disk, so a
// SIGKILL loses none of them and leaves no temp file behind once the server starts again.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, sendText, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const json = { 'content-type': 'application/json' };

/** an object nested `depth` levels deep (the outermost is level 1), written as text without recursion */
function nested(depth: number, leaf = '"x"'): string {
  return `${'{"a":'.repeat(depth - 1)}{"leaf":${leaf}}${'}'.repeat(depth - 1)}`;
}

/** `fn`, failing when it takes longer than `ms` (the old code took minutes: the test fails rather than hangs) */
async function within<T>(ms: number, what: string, fn: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([fn(), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a --db server against hostile collection requests', () => {
  let dir: string;
  let mock: RunningMock;
  before(async () => {
    dir = makeTempDir('mock-collections-hostile-');
    await writeTree(dir, {
      'db.json': JSON.stringify({
        names: [],
        big: [{ id: 1e308, name: 'far' }],
        unsafe: [{ id: 9007199254740992 }],
        deep: [{ id: 1, name: 'shallow' }],
      }),
    });
    // an item nested 4,000 deep in the data file itself: json-server-style search walked it recursively
    const text = readFileSync(join(dir, 'db.json'), 'utf8').replace(
      '{"id":1,"name":"shallow"}',
      `{"id":1,"name":"shallow"},{"id":2,"n":${nested(4000)}}`,
    );
    await writeTree(dir, { 'db.json': text });
    mock = await spawnMock(['--db', 'db.json', '--no-watch'], { cwd: dir });
  });
  after(async () => {
    await mock.stop();
    await removeDir(dir);
  });

  it('_like with a backtracking pattern answers at once; lookaround and backreferences are a 400 naming why', async () => {
    const created = await sendText(mock.port, 'POST', '/names', json, JSON.stringify({ name: `${'a'.repeat(40)}!` }));
    assert.equal(created.status, 201);
    const started = Date.now();
    const r = await within(10_000, 'GET /names?name_like=^a{0,10}(a+)+$', () =>
      sendText(mock.port, 'GET', `/names?name_like=${encodeURIComponent('^a{0,10}(a+)+$')}`),
    );
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.text), []);
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    const hit = await sendText(mock.port, 'GET', `/names?name_like=${encodeURIComponent('^A+!$')}`);
    assert.equal((JSON.parse(hit.text) as unknown[]).length, 1, 'still case-insensitive, still a regular expression');
    for (const p of ['(a)\\1', 'a(?=b)', 'a(?!b)', '(?<=a)b']) {
      const refused = await sendText(mock.port, 'GET', `/names?name_like=${encodeURIComponent(p)}`);
      assert.equal(refused.status, 400, p);
      assert.match(refused.text, /linear time \(RE2 syntax\).*backreferences, lookahead or lookbehind/, p);
    }
    const bad = await sendText(mock.port, 'GET', '/names?name_like=(');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /Invalid regular expression/);
  });

  it('an id outside the exact-integer range is a 400; the next id never collides, even after such a seed', async () => {
    for (const id of ['1e308', '9007199254740993', '-1e308']) {
      const r = await sendText(mock.port, 'POST', '/names', json, `{"id": ${id}, "name": "x"}`);
      assert.equal(r.status, 400, id);
      assert.match(r.text, /outside the range of exact integers.*send it as a string/, id);
    }
    const asText = await sendText(mock.port, 'POST', '/names', json, '{"id": "9007199254740993"}');
    assert.equal(asText.status, 201);
    for (const path of ['/big', '/unsafe']) {
      const ids = new Set<unknown>();
      for (let i = 0; i < 3; i++) {
        const r = await sendText(mock.port, 'POST', path, json, '{"name": "next"}');
        assert.equal(r.status, 201, `${path}: ${r.text}`);
        ids.add((JSON.parse(r.text) as { id: unknown }).id);
      }
      assert.equal(ids.size, 3, `${path}: three new ids, all different: ${[...ids].join(', ')}`);
    }
  });

  it('an item deeper than service.collection_max_depth is a 400 naming it; a deep data-file item leaves q= working', async () => {
    for (const [method, path] of [
      ['POST', '/deep'],
      ['PUT', '/deep/1'],
      ['PATCH', '/deep/1'],
    ] as const) {
      // under the listener's JSON depth limit (service.max_json_depth, 128), over the collection's
      const r = await sendText(mock.port, method, path, json, nested(100));
      assert.equal(r.status, 400, `${method} ${path}: ${r.text.slice(0, 200)}`);
      assert.match(r.text, /more than 64 deep.*service\.collection_max_depth/);
      // far deeper: refused before it is parsed
      const deeper = await sendText(mock.port, method, path, json, nested(5000));
      assert.equal(deeper.status, 413, `${method} ${path}: ${deeper.text.slice(0, 200)}`);
      assert.match(deeper.text, /service\.max_json_depth/);
    }
    assert.equal((await sendText(mock.port, 'POST', '/deep', json, nested(64))).status, 201);
    assert.equal((await sendText(mock.port, 'POST', '/deep', json, nested(65))).status, 400);
    for (const q of ['nothing-has-this', 'shallow']) {
      const r = await sendText(mock.port, 'GET', `/deep?q=${q}&_limit=1`);
      assert.equal(r.status, 200, `q=${q}: ${r.text.slice(0, 200)}`);
    }
    const none = await sendText(mock.port, 'GET', '/deep?q=nothing-has-this');
    assert.deepEqual(JSON.parse(none.text), []);
  });
});

describe('--persist keeps the data file as the user set it up', () => {
  it('keeps a 0600 mode, and a symbolic link stays a link to the file it names', async () => {
    const dir = makeTempDir('mock-collections-keep-');
    try {
      await writeTree(dir, { 'data/real.json': '{\n  "notes": []\n}\n', 'private.json': '{"notes": []}' });
      chmodSync(join(dir, 'private.json'), 0o600);
      symlinkSync(join('data', 'real.json'), join(dir, 'db.json'));
      for (const [file, check] of [
        ['private.json', () => assert.equal(statSync(join(dir, 'private.json')).mode & 0o777, 0o600)],
        [
          'db.json',
          () => {
            assert.ok(lstatSync(join(dir, 'db.json')).isSymbolicLink(), 'db.json is still a link');
            assert.equal(realpathSync(join(dir, 'db.json')), join(dir, 'data', 'real.json'));
            assert.deepEqual(readdirSync(dir).sort(), ['data', 'db.json', 'private.json']);
            assert.deepEqual(readdirSync(join(dir, 'data')), ['real.json']);
          },
        ],
      ] as const) {
        const mock = await spawnMock(['--db', file, '--persist', '--no-watch'], { cwd: dir });
        try {
          const r = await sendText(mock.port, 'POST', '/notes', json, '{"text": "kept"}');
          assert.equal(r.status, 201);
        } finally {
          await mock.stop();
        }
        // the 201 left once the file was written: no waiting here
        const notes = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { notes: { text: string }[] }).notes;
        assert.deepEqual(
          notes.map((n) => n.text),
          ['kept'],
          file,
        );
        check();
      }
    } finally {
      await removeDir(dir);
    }
  });
});

describe('--persist acknowledges a write once it is on disk', () => {
  it('concurrent POSTs, then SIGKILL: every acknowledged write is in the file, and no temp file is left', async () => {
    const dir = makeTempDir('mock-collections-ack-');
    try {
      await writeTree(dir, { 'db.json': '{\n  "notes": []\n}' });
      const acknowledged = new Set<number>();
      for (let round = 0; round < 3; round++) {
        const mock = await spawnMock(['--db', 'db.json', '--persist', '--no-watch'], { cwd: dir });
        let seq = round * 100_000;
        let stop = false;
        const clients = Array.from({ length: 8 }, async () => {
          while (!stop) {
            const mine = seq++;
            const r = await sendText(mock.port, 'POST', '/notes', json, JSON.stringify({ seq: mine })).catch(
              () => undefined,
            );
            if (r === undefined) return;
            assert.equal(r.status, 201, r.text);
            acknowledged.add(mine);
          }
        });
        // killed while the clients are mid-burst, once some writes are acknowledged
        const goal = acknowledged.size + 150;
        const deadline = Date.now() + 60_000;
        while (acknowledged.size < goal) {
          assert.ok(Date.now() < deadline, `only ${acknowledged.size} of ${goal} writes acknowledged in 60 s`);
          await new Promise((r) => setTimeout(r, 5));
        }
        mock.signal('SIGKILL');
        stop = true;
        await Promise.all(clients);
        await mock.stop();
        const stored = new Set(
          (JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as { notes: { seq: number }[] }).notes.map(
            (n) => n.seq,
          ),
        );
        const lost = [...acknowledged].filter((s) => !stored.has(s));
        assert.deepEqual(lost, [], `round ${round}: ${lost.length} of ${acknowledged.size} acknowledged writes lost`);
      }
      // a temp file a killed writer left (a pid that cannot be live): removed when the server starts
      await writeTree(dir, { '.db.json.4194999.0badc0de.tmp': '{"notes": [' });
      const last = await spawnMock(['--db', 'db.json', '--persist', '--no-watch'], { cwd: dir });
      await last.stop();
      assert.deepEqual(
        readdirSync(dir).filter((n) => n !== 'db.json'),
        [],
        'nothing beside db.json',
      );
    } finally {
      await removeDir(dir);
    }
  });
});
