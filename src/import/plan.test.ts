// planSource: the rule sets a decoded source becomes, in order, when some rules answer by a strategy of their own
// (each group a rule set between the rules before and after it) and where collections go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planSource, type SourceGroup, type SourceImport, type SourceRule } from './plan.js';

const rule = (path: string): SourceRule => ({
  place: path,
  title: '',
  urlPath: { op: 'equal', value: path },
  status: 200,
  body: { kind: 'text', text: path },
  respondHeaders: [],
});
const group = (after: number, title: string, strategy: SourceGroup['strategy'] = 'round_robin'): SourceGroup => ({
  after,
  place: title,
  title,
  strategy,
  rules: [rule(`/${title}/1`), rule(`/${title}/2`)],
});

function plan(rules: SourceRule[], groups: SourceGroup[], extra: Partial<SourceImport> = {}) {
  return planSource(
    {
      format: 'mockoon',
      title: 'T',
      rules,
      leftOut: [],
      read: { count: 1, noun: 'route' },
      strategy: 'first_match',
      groups,
      ...extra,
    },
    { source: 'env.json', command: 'mock --init --from env.json', ruleSetName: 'shop', taken: () => false },
  );
}

const rulePaths = (text: string): string[] => [...text.matchAll(/respond\.text = "([^"]+)"/g)].map((m) => m[1]!);

test('a group splits the rule set: the rules before it, the group, the rules after it', () => {
  const p = plan([rule('/a'), rule('/b'), rule('/c')], [group(2, 'seq')]);
  assert.deepEqual(
    p.ruleSets.map((r) => [r.path, rulePaths(r.text as string)]),
    [
      ['shop.toml', ['/a', '/b']],
      ['shop-seq.toml', ['/seq/1', '/seq/2']],
      ['shop-2.toml', ['/c']],
    ],
  );
  assert.match(p.ruleSets[1]!.text as string, /^strategy = "round_robin"$/m);
  assert.equal(p.rules, 5);
});

test('a group first, two groups side by side, a group last: no empty rule set beyond the first', () => {
  const p = plan([rule('/a')], [group(0, 'one', 'uniform_random'), group(0, 'two'), group(1, 'three')]);
  assert.deepEqual(
    p.ruleSets.map((r) => [r.path, rulePaths(r.text as string)]),
    [
      ['shop.toml', []],
      ['shop-one.toml', ['/one/1', '/one/2']],
      ['shop-two.toml', ['/two/1', '/two/2']],
      ['shop-2.toml', ['/a']],
      ['shop-three.toml', ['/three/1', '/three/2']],
    ],
  );
  assert.match(p.ruleSets[1]!.text as string, /^strategy = \{ uniform_random = \{\} \}$/m);
});

test('a collection goes in the rule set at its place, its data a file of its own', () => {
  const users = '[{"id":1}]';
  const p = plan([rule('/a')], [group(1, 'seq')], {
    collections: [
      { place: 'routes[3]', title: '', path: '/users', name: 'users', data: users, id: 'id', groupsBefore: 1 },
    ],
  });
  assert.deepEqual(
    p.ruleSets.map((r) => r.path),
    ['shop.toml', 'shop-seq.toml', 'shop-2.toml'],
  );
  assert.match(p.ruleSets[2]!.text as string, /\[\[collections\]\]\npath = "\/users"\ndata = "users.json"\n/);
  assert.deepEqual(p.files, [{ path: 'users.json', text: users }]);
});
