import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Condition } from '../model/rule-set.js';
import { rule, ruleSet } from '../../test/helpers/routing-fixtures.js';
import { liveGroupKeys, matchGroupKey, RotationState, ruleFingerprint } from './rotation.js';

const RR = { kind: 'round_robin' } as const;
const path = (value: string): Condition => ({ on: 'url_path', op: 'equal', value, bare: true, compareTo: value });

test('RotationState: independent counters per key, wrapping at the group size', () => {
  const r = new RotationState();
  const got = [
    r.next('a', 2),
    r.next('b', 3),
    r.next('a', 2),
    r.next('b', 3),
    r.next('a', 2),
    r.next('b', 3),
    r.next('b', 3),
  ];
  assert.deepEqual(got, [0, 0, 1, 1, 0, 2, 0]);
  assert.equal(r.next('empty', 0), 0);
});

test('RotationState.prune: drops the keys the predicate rejects, keeps the others with their position', () => {
  const r = new RotationState();
  r.next('keep', 3);
  r.next('gone', 3);
  assert.equal(
    r.prune((k) => k === 'keep'),
    1,
  );
  assert.equal(r.size, 1);
  assert.equal(r.next('keep', 3), 1);
  assert.equal(r.next('gone', 3), 0);
});

test('ruleFingerprint: the decoded meaning, not the index or label', () => {
  const a = ruleSet([rule([path('/a')], { label: 'x' }), rule([path('/a')], { label: 'y' })]);
  const cases: readonly [string, ReturnType<typeof rule>, boolean][] = [
    ['same conditions, other label and index', rule([path('/a')], { label: 'z' }), true],
    ['other path', rule([path('/b')]), false],
    ['other priority', rule([path('/a')], { priority: 2 }), false],
    ['other weight', rule([path('/a')], { weight: 3 }), false],
  ];
  assert.equal(ruleFingerprint(a.rules[0]!), ruleFingerprint(a.rules[1]!));
  for (const [name, other, same] of cases) {
    const fp = ruleFingerprint(ruleSet([other]).rules[0]!);
    assert.equal(fp === ruleFingerprint(a.rules[0]!), same, name);
  }
});

test('matchGroupKey: follows the rules, not their positions', () => {
  const before = ruleSet([rule([path('/a')]), rule([path('/b')]), rule([path('/c')])], { strategy: RR });
  // a rule inserted above: the same rules are now at 1..3
  const after = ruleSet([rule([path('/z')]), rule([path('/a')]), rule([path('/b')]), rule([path('/c')])], {
    strategy: RR,
  });
  const edited = ruleSet([rule([path('/a')]), rule([path('/B')]), rule([path('/c')])], { strategy: RR });
  const elsewhere = ruleSet(before.rules, { strategy: RR, file: '/abs/other.toml' });
  assert.equal(matchGroupKey(before, [0, 1, 2]), matchGroupKey(after, [1, 2, 3]));
  assert.notEqual(matchGroupKey(before, [0, 1, 2]), matchGroupKey(edited, [0, 1, 2]));
  assert.notEqual(matchGroupKey(before, [0, 1, 2]), matchGroupKey(before, [0, 1]));
  assert.notEqual(matchGroupKey(before, [0, 1, 2]), matchGroupKey(before, [0, 2, 1]));
  assert.notEqual(matchGroupKey(before, [0, 1]), matchGroupKey(elsewhere, [0, 1]));
  const frozen = Object.freeze([0, 1]);
  assert.equal(matchGroupKey(before, frozen), matchGroupKey(before, frozen));
});

test('liveGroupKeys: a key lives while its file is round-robin and holds every fingerprint', () => {
  const rs = ruleSet([rule([path('/a')]), rule([path('/b')])], { strategy: RR });
  const key = matchGroupKey(rs, [0, 1]);
  const cases: readonly [string, Parameters<typeof liveGroupKeys>[0], boolean][] = [
    ['unchanged', [rs], true],
    ['rule inserted above', [ruleSet([rule([path('/z')]), ...rs.rules], { strategy: RR })], true],
    ['a rule of the group edited', [ruleSet([rule([path('/a')]), rule([path('/B')])], { strategy: RR })], false],
    ['no longer round-robin', [ruleSet(rs.rules)], false],
    ['the file gone', [ruleSet(rs.rules, { strategy: RR, file: '/abs/moved.toml' })], false],
  ];
  for (const [name, ruleSets, live] of cases) assert.equal(liveGroupKeys(ruleSets)(key), live, name);
});
