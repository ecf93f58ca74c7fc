import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../shared/sha256.js';
import { indexFileText, indexOfPlan, parseIndexFile } from './file-index.js';
import { planImport, SPLIT_OPERATIONS, type ImportPlan } from './plan.js';
import { parseRuleSet, planUpdate, type UpdateInput } from './update.js';

type Ops = Record<string, Record<string, unknown>>;

function doc(paths: Ops): Record<string, unknown> {
  return { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths };
}

const get = (id: string, example: unknown, summary = id): Record<string, unknown> => ({
  get: {
    operationId: id,
    summary,
    responses: { '200': { description: 'x', content: { 'application/json': { example } } } },
  },
});

const planOf = (d: Record<string, unknown>): ImportPlan =>
  planImport(d, { source: 'a.json', command: 'mock --init --from a.json', basePath: '', taken: () => false });

/** The workspace as the first import wrote it (files as a path → text map), to edit and update. */
function workspace(p: ImportPlan): { ruleSets: Map<string, string>; files: Map<string, string> } {
  return {
    ruleSets: new Map(p.ruleSets.map((r) => [r.path, String(r.text)])),
    files: new Map(p.files.map((f) => [f.path, String(f.text)])),
  };
}

function input(next: ImportPlan, first: ImportPlan, ws: ReturnType<typeof workspace>): UpdateInput {
  return {
    plan: next,
    ruleSets: [...ws.ruleSets].map(([path, text]) => ({ path, text })),
    index: indexOfPlan(first),
    hashOf: (p) => (ws.files.has(p) ? sha256Hex(ws.files.get(p)!) : undefined),
  };
}

describe('planUpdate', () => {
  const v1 = planOf(doc({ '/a': get('a', { x: 1 }), '/c': get('c', { z: 1 }), '/gone': get('gone', {}) }));

  it('a document that has not changed changes nothing', () => {
    const up = planUpdate(input(v1, v1, workspace(v1)));
    assert.deepEqual([up.ruleSets, up.files, up.removedFiles, up.findings], [[], [], [], []]);
    assert.equal(up.marked, v1.rules.length);
  });

  it('a rule is edited when its text no longer hashes to its marker; formatting elsewhere is kept', () => {
    const text = String(v1.ruleSets[0]!.text);
    const parsed = parseRuleSet('t.toml', text);
    assert.ok(parsed.blocks.every((b) => !b.edited));
    const touched = parseRuleSet(
      't.toml',
      text.replace('respond.file_path = "responses/a/200.json"', 'respond.text = "mine"'),
    );
    assert.deepEqual(
      touched.blocks.filter((b) => b.edited).map((b) => `${b.operation} ${b.response}`),
      ['a 200'],
    );
    // trailing spaces and blank lines never count as an edit
    const spaced = parseRuleSet('t.toml', text.replace(/\n/g, '  \n').replace(/\n\n/g, '\n\n\n'));
    assert.ok(spaced.blocks.every((b) => !b.edited));
  });

  it('new operations go in match order, beside their neighbours; removed untouched ones go with their files', () => {
    const v2 = planOf(
      doc({ '/a': get('a', { x: 2 }), '/b': get('b', { y: 1 }), '/c': get('c', { z: 1 }), '/d': get('d', {}) }),
    );
    const ws = workspace(v1);
    const up = planUpdate(input(v2, v1, ws));
    const after = up.ruleSets[0]!.after;
    const order = [...after.matchAll(/^# openapi: (\S+) (.+) sha256:/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(order, [...v2.rules.map((r) => `${r.operation} ${r.response}`)]);
    assert.deepEqual(up.added, ['b 400 other-codes', 'b 200', 'd 400 other-codes', 'd 200']);
    assert.deepEqual(up.removed, ['gone 400 other-codes', 'gone 200']);
    assert.deepEqual(up.updated, []);
    assert.deepEqual(
      up.files.map((f) => `${f.replace ? 'replace' : 'create'} ${f.path}`),
      ['replace responses/a/200.json', 'create responses/b/200.json', 'create responses/d/200.json'],
    );
    assert.deepEqual(up.removedFiles, ['responses/gone/200.json']);
    assert.deepEqual(
      up.findings.map((f) => [f.kind, f.message.split(';')[0]]),
      [['removed_operation', 'gone is no longer in the document']],
    );
    // the result, updated again, changes nothing
    const ws2 = { ruleSets: new Map([[v1.ruleSets[0]!.path, after]]), files: new Map(ws.files) };
    for (const f of up.files) ws2.files.set(f.path, String(f.text));
    for (const f of up.removedFiles) ws2.files.delete(f);
    const again = planUpdate({ ...input(v2, v1, ws2), index: up.index });
    assert.deepEqual([again.ruleSets, again.files, again.removedFiles, again.findings], [[], [], [], []]);
  });

  it('an edited file is kept and reported when the document changed it; an edited removed rule is kept', () => {
    const v2 = planOf(doc({ '/a': get('a', { x: 2 }), '/c': get('c', { z: 1 }) }));
    const ws = workspace(v1);
    ws.files.set('responses/a/200.json', '{"x": "mine"}\n');
    const path = v1.ruleSets[0]!.path;
    ws.ruleSets.set(path, ws.ruleSets.get(path)!.replace(/(# openapi: gone 200 .*\n\[\[rules\]\]\n)/, '$1# mine\n'));
    const up = planUpdate(input(v2, v1, ws));
    assert.deepEqual(up.files, []);
    assert.deepEqual(
      up.findings.map((f) => [f.kind, f.where]),
      [
        [
          'removed_operation',
          `${path}:${parseRuleSet(path, ws.ruleSets.get(path)!).blocks.find((b) => b.operation === 'gone')!.line}`,
        ],
        ['edited_changed', 'responses/a/200.json'],
      ],
    );
    assert.match(up.findings[0]!.message, /1 rule\(s\) you edited are kept/);
    assert.match(up.ruleSets[0]!.after, /# openapi: gone 200 /);
    assert.doesNotMatch(up.ruleSets[0]!.after, /# openapi: gone 400 /);
    // its file is still named by the kept rule: it stays
    assert.deepEqual(up.removedFiles, []);
  });

  it('the markers survive the split of a large document into several rule sets', () => {
    const paths: Ops = {};
    for (let i = 0; i <= SPLIT_OPERATIONS; i++) paths[`/r${i % 3}/x${i}`] = get(`op${i}`, { i });
    const big = planOf(doc(paths));
    assert.ok(big.ruleSets.length > 1);
    for (const rs of big.ruleSets) {
      const text = String(rs.text);
      assert.equal((text.match(/^\[\[rules\]\]$/gm) ?? []).length, (text.match(/^# openapi: /gm) ?? []).length);
    }
    const changed = { ...paths, '/r1/x1': get('op1', { i: 'one' }, 'changed') };
    const up = planUpdate(input(planOf(doc(changed)), big, workspace(big)));
    assert.deepEqual(up.updated, ['op1 400 other-codes', 'op1 200']);
    assert.equal(up.ruleSets.length, 1);
    assert.deepEqual(up.findings, []);
  });
});

describe('the file index', () => {
  it('reads back what it wrote, and refuses paths outside the workspace', () => {
    const files = new Map([['responses/a/200.json', { operation: 'a', response: '200', sha256: 'ab' }]]);
    const text = indexFileText({ basePath: '/v1', files });
    assert.deepEqual(parseIndexFile(text), { basePath: '/v1', files });
    for (const bad of ['../x.json', '/etc/x', 'a//b', 'a/../../b']) {
      const r = parseIndexFile(text.replace('responses/a/200.json', bad));
      assert.equal(typeof r, 'string', bad);
      assert.match(r as string, /inside the workspace/);
    }
  });
});
