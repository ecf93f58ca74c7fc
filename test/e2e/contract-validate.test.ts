// `mock validate --against <openapi>` through the real program: a workspace imported from the document is clean
// (exit 0); edited five ways (an undocumented status, a body that breaks the schema, a new undocumented path, a
// documented operation left unanswered, a wrong content type), each edit is found, by kind, with where it is
// written and the document's pointer; --ignore, --format json, and a document that does not load (exit 2).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PETS_OPENAPI } from '../helpers/contract-doc.js';
import { makeTempDir, removeDir, runMock } from '../helpers/mock-cli.js';

let root: string;
let clean: string;
let edited: string;

before(async () => {
  root = makeTempDir();
  clean = join(root, 'clean');
  mkdirSync(clean);
  writeFileSync(join(clean, 'pets.yaml'), PETS_OPENAPI);
  const imported = await runMock(['--init', '--from', 'pets.yaml', '--yes'], { cwd: clean });
  assert.equal(imported.code, 0, imported.stderr);

  edited = join(root, 'edited');
  cpSync(clean, edited, { recursive: true });
  let rules = readFileSync(join(edited, 'pets.toml'), 'utf8');
  // 1. an undocumented status: the 404 answer becomes a 410
  rules = rules.replace('respond.status = 404\nrespond.file_path', 'respond.status = 410\nrespond.file_path');
  // 5. a wrong content type: POST /pets answers its 201 as text
  rules = rules.replace(
    'respond.status = 201\nrespond.file_path = "responses/createPet/201.json"',
    'respond.status = 201\nrespond.text = "created"',
  );
  // 4. a documented operation left unanswered: storeStock's rules are removed (its file with them)
  rules = rules.slice(0, rules.indexOf('# storeStock'));
  writeFileSync(join(edited, 'pets.toml'), rules);
  await removeDir(join(edited, 'responses', 'storeStock'));
  // 2. a body that breaks the schema: an id that is not an integer
  writeFileSync(join(edited, 'responses', 'listPets', '200.json'), '[{"id": "one", "name": "Rex"}]\n');
  // 3. a new undocumented path: a file the fallback folder serves
  mkdirSync(join(edited, 'owners'));
  writeFileSync(join(edited, 'owners', '1.json'), '{"name": "Ann"}\n');
  writeFileSync(join(edited, 'responses', 'createPet', '201.json'), '{"id": 2, "name": "Tom"}\n');
});
after(() => removeDir(root));

describe('mock validate --against', () => {
  test('a freshly imported workspace is clean: exit 0', async () => {
    const r = await runMock(['validate', '--against', 'pets.yaml'], { cwd: clean });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^No findings: 9 rule\(s\), 0 file\(s\) and 4 documented operation\(s\) checked against pets\.yaml\.$/m,
    );
  });

  test('each of the five edits is found, grouped by kind, with its place and pointer: exit 1', async () => {
    const r = await runMock(['validate', '--against', 'pets.yaml'], { cwd: edited });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const out = r.stdout;
    assert.match(
      out,
      /\[undocumented_status\] \(1\):\n {2}error: pets\.toml:\d+: GET \/pets\/\{petId\} answers 410, which is not documented \(200, 404\) \(#\/paths\/~1pets~1\{petId\}\/get\/responses\)/,
    );
    assert.match(
      out,
      /\[schema_mismatch\] \(1\):\n {2}error: pets\.toml:\d+: GET \/pets answers 200 with a body that breaks the schema: body\.0\.id: must be integer \(#\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\)/,
    );
    assert.match(out, /error: owners\/1\.json: GET \/owners\/1 is not documented \(#\/paths\)/);
    assert.match(
      out,
      /\[unanswered_operation\] \(1\):\n {2}error: GET \/stores\/north\/stock: GET \/stores\/\{storeId\}\/stock is documented, but GET \/stores\/north\/stock finds no answer \(404\) \(#\/paths\/~1stores~1\{storeId\}~1stock\/get\)/,
    );
    assert.match(
      out,
      /\[undocumented_content_type\] \(1\):\n {2}error: pets\.toml:\d+: POST \/pets answers 201 as `text\/plain`, documented as `application\/json` \(#\/paths\/~1pets\/post\/responses\/201\/content\)/,
    );
    // the kinds come in a fixed order
    const order = [...out.matchAll(/\[(\w+)\] \(\d+\):/g)].map((m) => m[1]);
    assert.deepEqual(order, [
      'undocumented_path',
      'undocumented_status',
      'undocumented_content_type',
      'schema_mismatch',
      'unanswered_operation',
    ]);
    // the line named is the rule's own `[[rules]]` header
    const at = /error: pets\.toml:(\d+): GET \/pets\/\{petId\} answers 410/.exec(out);
    const lines = readFileSync(join(edited, 'pets.toml'), 'utf8').split('\n');
    assert.equal(lines[Number(at![1]) - 1], '[[rules]]');
    assert.match(lines.slice(Number(at![1])).join('\n').split('[[rules]]')[0]!, /respond\.status = 410/);
  });

  test("a collection's list and first item are checked like any answer", async () => {
    const ws = join(root, 'db');
    mkdirSync(ws);
    writeFileSync(join(ws, 'pets.yaml'), PETS_OPENAPI);
    writeFileSync(join(ws, 'mock.toml'), '[service]\ndb = "db.json"\n');
    // pets breaks the schema (a text id), owners is not documented at all
    writeFileSync(join(ws, 'db.json'), '{"pets": [{"id": "rex", "name": "Rex"}], "owners": [{"id": 1}]}\n');
    const r = await runMock(['validate', '--against', 'pets.yaml'], { cwd: ws });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /error: collection \/owners \(db\.json\): GET \/owners is not documented \(#\/paths\)/);
    assert.match(r.stdout, /error: collection \/owners \(db\.json\): GET \/owners\/1 is not documented/);
    assert.match(
      r.stdout,
      /error: collection \/pets \(db\.json\): GET \/pets answers 200 with a body that breaks the schema: body\.0\.id: must be integer/,
    );
    assert.match(
      r.stdout,
      /error: collection \/pets \(db\.json\): GET \/pets\/\{petId\} answers 200 with a body that breaks the schema: body\.id: must be integer/,
    );
    // the data file itself is not an answer
    assert.doesNotMatch(r.stdout, /GET \/db /);
  });

  test('--ignore drops a kind (repeatable); the rest still fail', async () => {
    const r = await runMock(
      ['validate', '--against', 'pets.yaml', '--ignore', 'undocumented_path', '--ignore', 'schema_mismatch'],
      { cwd: edited },
    );
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout, /undocumented_path|schema_mismatch/);
    const all = await runMock(
      [
        'validate',
        '--against',
        'pets.yaml',
        ...[
          'undocumented_path',
          'undocumented_status',
          'undocumented_content_type',
          'schema_mismatch',
          'unanswered_operation',
        ].flatMap((k) => ['--ignore', k]),
      ],
      { cwd: edited },
    );
    assert.equal(all.code, 0, all.stdout);
    const typo = await runMock(['validate', '--against', 'pets.yaml', '--ignore', 'schema'], { cwd: edited });
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown finding kind 'schema'/);
  });

  test('--format json lists each finding with kind, severity, where and pointer', async () => {
    const r = await runMock(['validate', '--against', 'pets.yaml', '--format', 'json'], { cwd: edited });
    assert.equal(r.code, 1);
    const env = JSON.parse(r.stdout) as {
      result: { against: { findings: { kind: string; severity: string; where: string; pointer: string }[] } };
    };
    const findings = env.result.against.findings;
    const kinds = new Set(findings.map((f) => f.kind));
    assert.deepEqual([...kinds].sort(), [
      'schema_mismatch',
      'unanswered_operation',
      'undocumented_content_type',
      'undocumented_path',
      'undocumented_status',
    ]);
    for (const f of findings) {
      assert.equal(f.severity, 'error');
      assert.match(f.pointer, /^#\/paths/);
      assert.ok(f.where.length > 0);
    }
  });

  test('a document that does not load is bad input: exit 2, naming it', async () => {
    writeFileSync(join(root, 'clean', 'broken.yaml'), 'openapi: 3.0.3\ninfo: [\n');
    const r = await runMock(['validate', '--against', 'broken.yaml'], { cwd: clean });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /broken\.yaml:\d+:\d+: not valid YAML or JSON/);
    const missing = await runMock(['validate', '--against', 'nope.yaml'], { cwd: clean });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read `nope\.yaml`/);
  });
});
