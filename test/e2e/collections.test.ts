// Collections through the real program (docs/state.md, "Collections"): a rule set's `[[collections]]` under its
// prefix and after its rules, `get --why`, a bad data file at load, `persist` writing back in the file's own style,
// an edited data file reseeding, `service.collection_max_items`, and `--persist` surviving a SIGKILL mid-burst.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  makeTempDir,
  removeDir,
  runMock,
  sendText,
  spawnMock,
  writeTree,
  type RunningMock,
} from '../helpers/mock-cli.js';

const json = { 'content-type': 'application/json' };

/** Re-checks `ready` after each short wait, at most `tries` times (the server writes and reloads on its own time). */
async function eventually<T>(
  what: string,
  probe: () => Promise<T> | T,
  ready: (v: T) => boolean,
  tries = 400,
): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await probe();
    if (ready(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`${what}: never happened; last seen ${JSON.stringify(last)}`);
}

const USERS = `[
  { "uuid": "u1", "name": "Ada" },
  { "uuid": "u2", "name": "Grace" }
]
`;

const RULES = `
prefix.url_path = "/api"

[[rules]]
when.request = { url_path = "/users/u1", method = "GET" }
respond.json = '{ "from": "a rule" }'

[[rules]]
when.request.url_path = { value = "/users/{id}/card", op = "path_template" }
respond.template = true
respond.json = '{ "card": {{toJson (collection "users" id=request.params.id)}} }'

[[collections]]
path = "/users"
data = "data/users.json"
id = "uuid"
persist = true
`;

describe('a rule set with [[collections]]', () => {
  let dir: string;
  let mock: RunningMock;
  before(async () => {
    dir = makeTempDir('mock-collections-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\ncollection_max_items = 3\n',
      'rules.toml': RULES,
      'data/users.json': USERS,
    });
    mock = await spawnMock([], { cwd: dir });
  });
  after(async () => {
    await mock.stop();
    await removeDir(dir);
  });

  it('answers after its rules, under its prefix; a path no rule nor collection takes is the prefix 404', async () => {
    assert.deepEqual(JSON.parse((await sendText(mock.port, 'GET', '/api/users/u1')).text), { from: 'a rule' });
    const u2 = await sendText(mock.port, 'GET', '/api/users/u2');
    assert.equal(u2.status, 200);
    assert.deepEqual(JSON.parse(u2.text), { uuid: 'u2', name: 'Grace' });
    assert.equal((await sendText(mock.port, 'GET', '/users')).status, 404);
    assert.equal((await sendText(mock.port, 'GET', '/api/other')).status, 404);
    assert.equal((await sendText(mock.port, 'GET', '/api/users/nobody')).status, 404);
  });

  it('creates, writes the file back in its style, and refuses past collection_max_items with 507', async () => {
    assert.equal((await sendText(mock.port, 'POST', '/api/users', json, '[1]')).status, 400);
    assert.equal((await sendText(mock.port, 'POST', '/api/users', json, '{"uuid":"u1"}')).status, 409);
    const created = await sendText(mock.port, 'POST', '/api/users', json, '{"name":"Linus"}');
    assert.equal(created.status, 201);
    const item = JSON.parse(created.text) as { uuid: string; name: string };
    assert.match(item.uuid, /^[A-Za-z0-9_-]{7}$/, 'a string id collection gets a random 7-character id');
    // absolute, as json-server sends it: the scheme and the host the client used
    assert.equal(created.headers.location, `http://127.0.0.1:${mock.port}/api/users/${item.uuid}`);
    const text = await eventually(
      'the data file holds the new item',
      () => readFileSync(join(dir, 'data/users.json'), 'utf8'),
      (t) => t.includes('Linus'),
    );
    assert.equal(text, `${JSON.stringify(JSON.parse(text), null, 2)}\n`, '2-space JSON with its final newline');
    assert.deepEqual((JSON.parse(text) as unknown[]).at(-1), item);
    const full = await sendText(mock.port, 'POST', '/api/users', json, '{"name":"Too many"}');
    assert.equal(full.status, 507);
  });

  it('starts again from the data file when it is edited', async () => {
    writeFileSync(join(dir, 'data/users.json'), '[{ "uuid": "z9", "name": "Edited" }]\n');
    const list = await eventually(
      'the edit is served',
      async () => JSON.parse((await sendText(mock.port, 'GET', '/api/users')).text) as unknown,
      (v) => JSON.stringify(v) === JSON.stringify([{ uuid: 'z9', name: 'Edited' }]),
    );
    assert.equal((list as unknown[]).length, 1);
  });

  it('get --why names the collection that answered; a template reads it with the collection helper', async () => {
    const card = await runMock(['get', '/api/users/z9/card', '--format', 'json'], { cwd: dir });
    assert.equal(card.code, 0, card.stderr);
    const answer = (JSON.parse(card.stdout) as { result: { response: { body: string } } }).result.response.body;
    assert.deepEqual(JSON.parse(answer), { card: { uuid: 'z9', name: 'Edited' } });
    const r = await runMock(['get', '/api/users/z9', '--why'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Answered: collection \/api\/users \(show\)/);
    assert.match(
      r.stdout,
      /Answered by the collection at \/api\/users \(one item by id, or the single resource\) from rule set #1/,
    );
  });
});

describe('a bad data file', () => {
  it('is a load error naming the file and the line', async () => {
    const dir = makeTempDir('mock-collections-bad-');
    try {
      await writeTree(dir, { 'db.json': '{\n  "users": [\n    { "id": 1, }\n  ]\n}\n' });
      const r = await runMock(['get', '/users', '--db', 'db.json'], { cwd: dir });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr + r.stdout, /db\.json:3:\d+.*not valid JSON/);
      await writeTree(dir, { 'db.json': '{ "users": [1, 2] }' });
      const shape = await runMock(['get', '/users', '--db', 'db.json'], { cwd: dir });
      assert.notEqual(shape.code, 0);
      assert.match(shape.stderr + shape.stdout, /"users"\[0\] is not an object/);
    } finally {
      await removeDir(dir);
    }
  });
});

describe('--db --persist killed during a burst of writes', () => {
  it('leaves a file that parses and holds a prefix of the writes', async () => {
    const dir = makeTempDir('mock-collections-kill-');
    try {
      await writeTree(dir, { 'db.json': '{\n  "notes": []\n}' });
      const mock = await spawnMock(['--db', 'db.json', '--persist', '--no-watch'], { cwd: dir });
      let acknowledged = 0;
      let written = 0;
      // a bounded burst: the server is killed once a few writes have reached the file, with more in flight
      for (let i = 0; i < 2000; i++) {
        const r = await sendText(mock.port, 'POST', '/notes', json, JSON.stringify({ seq: i, pad: 'x'.repeat(200) }));
        assert.equal(r.status, 201);
        acknowledged++;
        if (i % 25 === 0) {
          written = (JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as { notes: unknown[] }).notes.length;
          if (written >= 100) break;
        }
      }
      mock.signal('SIGKILL');
      await mock.stop();
      const db = JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as { notes: { seq: number; id: number }[] };
      assert.ok(db.notes.length >= written && db.notes.length <= acknowledged, `${db.notes.length} of ${acknowledged}`);
      db.notes.forEach((n, i) => assert.deepEqual([n.seq, n.id], [i, i + 1], 'the writes in order, none missing'));
    } finally {
      await removeDir(dir);
    }
  });
});
