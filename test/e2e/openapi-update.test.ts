// `mock --init --from <document> --update` through the real program: a workspace imported from one document,
// one rule edited by hand, then updated to a document where both of those operations changed, one was removed
// and one added. The untouched rule follows the document, the edited one is reported and left as it was, the
// removed one is reported, the new one is added and answers; a second run changes nothing; --dry-run writes
// nothing; the markers survive the split of a large document.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { treeContents } from '../record/serve-helpers.js';
import { makeTempDir, removeDir, runMock } from '../helpers/mock-cli.js';

const json = (example: unknown): unknown => ({ description: 'x', content: { 'application/json': { example } } });

function doc(version: 1 | 2): unknown {
  const pets: Record<string, unknown> = {
    get: {
      operationId: 'listPets',
      summary: version === 1 ? 'All pets' : 'All pets, by name',
      responses: { '200': json(version === 1 ? [{ id: 1, name: 'Rex' }] : [{ id: 1, name: 'Rex', tag: 'dog' }]) },
    },
  };
  if (version === 2)
    pets['post'] = { operationId: 'createPet', summary: 'Add a pet', responses: { '201': json({ id: 2 }) } };
  const one: Record<string, unknown> = {
    get: {
      operationId: 'showPet',
      summary: version === 1 ? 'One pet' : 'One pet, in full',
      responses: {
        '200': json(version === 1 ? { id: 1 } : { id: 1, tag: 'dog' }),
        '404': json({ message: 'gone' }),
      },
    },
  };
  if (version === 1)
    one['delete'] = {
      operationId: 'deletePet',
      summary: 'Remove a pet',
      responses: { '204': { description: 'done' } },
    };
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: String(version) },
    servers: [{ url: 'http://api.example.com/v1' }],
    paths: { '/pets': pets, '/pets/{id}': one },
  };
}

/** The text of the rule whose marker names `operation response` (rules are separated by a blank line). */
function ruleOf(text: string, operation: string, response: string): string | undefined {
  const blocks = text.split(/\n\n+/);
  return blocks.find((b) => new RegExp(`^# openapi: ${operation} ${response} sha256:`, 'm').test(b));
}

describe('mock --init --from --update', () => {
  let dir: string;
  let edited: string;
  before(async () => {
    dir = makeTempDir('mock-openapi-update-');
    writeFileSync(join(dir, 'v1.json'), JSON.stringify(doc(1)));
    writeFileSync(join(dir, 'v2.json'), JSON.stringify(doc(2)));
    const first = await runMock(['--init', '--from', 'v1.json', '--yes'], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    // the user edits showPet's default rule: a header of their own
    const rules = readFileSync(join(dir, 'pets.toml'), 'utf8');
    const mine = ruleOf(rules, 'showPet', '200')!;
    edited = mine.replace(/respond\.file_path = (.*)/, 'respond.file_path = $1\nrespond.headers = { x-mine = "yes" }');
    assert.notEqual(edited, mine);
    writeFileSync(join(dir, 'pets.toml'), rules.replace(mine, edited));
  });
  after(() => removeDir(dir));

  it('the first import marks every rule and indexes every response file', () => {
    const rules = readFileSync(join(dir, 'pets.toml'), 'utf8');
    assert.equal((rules.match(/^\[\[rules\]\]$/gm) ?? []).length, (rules.match(/^# openapi: /gm) ?? []).length);
    assert.match(rules, /^# openapi: showPet 404 sha256:[0-9a-f]{16}$/m);
    const index = JSON.parse(readFileSync(join(dir, '.mock-openapi-index.json'), 'utf8')) as {
      base_path: string;
      files: Record<string, { operation: string; response: string; sha256: string }>;
    };
    assert.equal(index.base_path, '/v1');
    assert.deepEqual(index.files['responses/showPet/404.json']?.response, '404');
  });

  it('--dry-run shows the diff and writes nothing', async () => {
    const before = treeContents(dir);
    const r = await runMock(['--init', '--from', 'v2.json', '--update', '--dry-run'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Would update \(--dry-run, nothing written\)/);
    assert.match(r.stdout, /^--- pets\.toml\n\+\+\+ pets\.toml$/m);
    assert.match(r.stdout, /^\+# createPet: Add a pet$/m);
    assert.deepEqual(treeContents(dir), before);
  });

  it('updates the untouched rule, keeps and reports the edited one, reports the removed one, adds the new one', async () => {
    const r = await runMock(['--init', '--from', 'v2.json', '--update', '--format', 'json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const result = (JSON.parse(r.stdout) as { result: Record<string, unknown> }).result as {
      findings: { kind: string; where: string; pointer: string; message: string }[];
      updated: string[];
      added: string[];
      removed: string[];
    };
    const rules = readFileSync(join(dir, 'pets.toml'), 'utf8');
    // untouched: follows the document (its comment, and its file's bytes)
    assert.ok(result.updated.includes('listPets 200'));
    assert.match(ruleOf(rules, 'listPets', '200')!, /^# listPets: All pets, by name$/m);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'responses/listPets/200.json'), 'utf8')), [
      { id: 1, name: 'Rex', tag: 'dog' },
    ]);
    // edited: byte for byte as the user left it, reported with both versions
    assert.ok(rules.includes(edited), 'the edited rule is left as it was');
    const changed = result.findings.filter((f) => f.kind === 'edited_changed');
    assert.equal(changed.length, 1);
    assert.match(changed[0]!.where, /^pets\.toml:\d+$/);
    assert.equal(changed[0]!.pointer, '#/paths/~1pets~1{id}/get/responses/200');
    assert.ok(changed[0]!.message.includes('x-mine = "yes"'), 'yours');
    assert.ok(changed[0]!.message.includes('# showPet: One pet, in full'), "the document's");
    // removed: reported, its untouched rules gone
    const gone = result.findings.filter((f) => f.kind === 'removed_operation');
    assert.equal(gone.length, 1);
    assert.match(gone[0]!.message, /^deletePet is no longer in the document/);
    assert.doesNotMatch(rules, /deletePet/);
    assert.ok(result.removed.includes('deletePet 204'));
    // added, and it answers, and the workspace still loads
    assert.ok(result.added.includes('createPet 201'));
    const post = await runMock(['get', '/v1/pets', '-m', 'POST', '--format', 'json'], { cwd: dir });
    assert.equal((JSON.parse(post.stdout) as { result: { response: { status: number } } }).result.response.status, 201);
    const valid = await runMock(['validate'], { cwd: dir });
    assert.equal(valid.code, 0, valid.stderr);
  });

  it('a second run changes nothing', async () => {
    const before = treeContents(dir);
    const r = await runMock(['--init', '--from', 'v2.json', '--update'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /0 rule\(s\) updated, 0 added, 0 removed; 0 response file\(s\) written, 0 removed\./);
    assert.deepEqual(treeContents(dir), before);
  });

  it('without an earlier import: exit 2 and why', async () => {
    const empty = makeTempDir('mock-openapi-update-empty-');
    try {
      writeFileSync(join(empty, 'v2.json'), JSON.stringify(doc(2)));
      const none = await runMock(['--init', '--from', 'v2.json', '--update'], { cwd: empty });
      assert.equal(none.code, 2);
      assert.match(none.stderr, /--update needs the workspace of an earlier import/);
      writeFileSync(join(empty, 'mock.toml'), '');
      const unmarked = await runMock(['--init', '--from', 'v2.json', '--update'], { cwd: empty });
      assert.equal(unmarked.code, 2);
      assert.match(unmarked.stderr, /carries an `# openapi:` marker/);
    } finally {
      await removeDir(empty);
    }
  });
});

describe('mock --init --from --update: a concurrent edit', () => {
  it('is a conflict: nothing is replaced, the other edit is intact, new files are taken back', async () => {
    const dir = makeTempDir('mock-openapi-update-conflict-');
    try {
      writeFileSync(join(dir, 'v1.json'), JSON.stringify(doc(1)));
      writeFileSync(join(dir, 'v2.json'), JSON.stringify(doc(2)));
      assert.equal((await runMock(['--init', '--from', 'v1.json', '--yes'], { cwd: dir })).code, 0);
      const running = runMock(['--init', '--from', 'v2.json', '--update', '--format', 'json'], {
        cwd: dir,
        env: { MOCK_TEST_PAUSE_BEFORE_COMMIT_MS: '1500' },
      });
      // wait until the new rule set is staged (a temp file appears beside it), then edit it "in another editor"
      const staged = (): boolean => readdirSync(dir).some((f) => f.endsWith('.tmp'));
      const deadline = Date.now() + 15_000;
      while (!staged() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.ok(staged(), '--update staged its files');
      const theirs = readFileSync(join(dir, 'pets.toml'), 'utf8') + '\n# theirs\n';
      writeFileSync(join(dir, 'pets.toml'), theirs);
      const r = await running;
      assert.notEqual(r.code, 0, r.stdout);
      assert.equal((JSON.parse(r.stdout) as { error: { kind: string } }).error.kind, 'conflict');
      assert.equal(readFileSync(join(dir, 'pets.toml'), 'utf8'), theirs);
      assert.equal(existsSync(join(dir, 'responses/createPet/201.json')), false, 'the new file is taken back');
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        [],
        'no temp file left behind',
      );
    } finally {
      await removeDir(dir);
    }
  });
});
