import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchGroupKey, RotationState } from './rotation.js';

test('RotationState: independent counters per key, wrapping at the group size', () => {
  const r = new RotationState();
  const got = [r.next('a', 2), r.next('b', 3), r.next('a', 2), r.next('b', 3), r.next('a', 2), r.next('b', 3), r.next('b', 3)];
  assert.deepEqual(got, [0, 0, 1, 1, 0, 2, 0]);
  assert.equal(r.next('empty', 0), 0);
});

test('matchGroupKey: rule set and exact index set', () => {
  assert.notEqual(matchGroupKey(0, [1, 2]), matchGroupKey(1, [1, 2]));
  assert.notEqual(matchGroupKey(0, [1, 2]), matchGroupKey(0, [12]));
  assert.notEqual(matchGroupKey(0, [1, 2]), matchGroupKey(0, [1, 2, 3]));
  assert.equal(matchGroupKey(3, [0, 4]), matchGroupKey(3, [0, 4]));
});
