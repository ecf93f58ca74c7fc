import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Strategy } from '../model/strategy.js';
import { xorshift64 } from '../shared/prng.js';
import { method, rule, ruleSet } from '../../test/helpers/routing-fixtures.js';
import { RotationState } from './rotation.js';
import { selectWinner } from './strategy.js';

/** Evenly spaced draws in [0, 1): over n draws each bucket of width 1/n is hit exactly once. */
function evenly(n: number): () => number {
  let k = 0;
  return () => ((k++ % n) + 0.5) / n;
}

/** A deterministic stand-in for Math.random. */
function prngRandom(seed: number): () => number {
  const p = xorshift64(seed);
  return () => Number(p.next() >> 11n) / 2 ** 53;
}

function never(): number {
  throw new Error('random must not be used');
}

function weighted(weights: readonly number[], strategy: Strategy) {
  return ruleSet(
    weights.map((weight) => rule([method('GET')], { weight })),
    { strategy },
  );
}

function tally(draws: number, size: number, pick: () => number | undefined): number[] {
  const counts = new Array<number>(size).fill(0);
  for (let i = 0; i < draws; i++) {
    const w = pick();
    assert.notEqual(w, undefined);
    counts[w!]!++;
  }
  return counts;
}

const all = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

test('first_match: the earliest match, no randomness', () => {
  const rs = ruleSet([rule([]), rule([]), rule([])]);
  assert.equal(selectWinner([1, 2], rs, { rotation: new RotationState(), random: never }), 1);
  assert.equal(selectWinner([], rs, { rotation: new RotationState(), random: never }), undefined);
});

test('weighted_random: weights 1/9/0 over 2,000 evenly spaced draws give exactly 200/1800/0', () => {
  const rs = weighted([1, 9, 0], { kind: 'weighted_random' });
  const ctx = { rotation: new RotationState(), random: evenly(2000) };
  assert.deepEqual(
    tally(2000, 3, () => selectWinner(all(3), rs, ctx)),
    [200, 1800, 0],
  );
});

test('weighted_random: weight 0 in the middle is never picked; walk is in file order', () => {
  const rs = weighted([3, 0, 1], { kind: 'weighted_random' });
  const ctx = { rotation: new RotationState(), random: evenly(400) };
  assert.deepEqual(
    tally(400, 3, () => selectWinner(all(3), rs, ctx)),
    [300, 0, 100],
  );
});

test('weighted_random: with a pseudo-random source, 1/9/0 stays within bounds', () => {
  const rs = weighted([1, 9, 0], { kind: 'weighted_random' });
  const ctx = { rotation: new RotationState(), random: prngRandom(7) };
  const [a, b, c] = tally(2000, 3, () => selectWinner(all(3), rs, ctx));
  assert.ok(a! >= 140 && a! <= 260, `rule 0 drawn ${a} times`);
  assert.equal(b, 2000 - a!);
  assert.equal(c, 0);
});

test('weighted_random: only the matching rules take part', () => {
  const rs = weighted([5, 1, 5], { kind: 'weighted_random' });
  const ctx = { rotation: new RotationState(), random: evenly(100) };
  assert.deepEqual(
    tally(100, 3, () => selectWinner([1], rs, ctx)),
    [0, 100, 0],
  );
});

test('weighted_random: all weights zero → no winner', () => {
  const rs = weighted([0, 0], { kind: 'weighted_random' });
  assert.equal(selectWinner([0, 1], rs, { rotation: new RotationState(), random: () => 0.5 }), undefined);
  const seededRs = weighted([0, 0], { kind: 'weighted_random', seed: 3n });
  assert.equal(selectWinner([0, 1], seededRs, { rotation: new RotationState(), random: never }), undefined);
});

test('weighted_random: non-integer weights are honoured', () => {
  const rs = weighted([0.5, 1.5], { kind: 'weighted_random' });
  const ctx = { rotation: new RotationState(), random: evenly(1000) };
  assert.deepEqual(
    tally(1000, 2, () => selectWinner(all(2), rs, ctx)),
    [250, 750],
  );
});

test('uniform_random: weight is not consulted', () => {
  const rs = weighted([100, 1], { kind: 'uniform_random' });
  const ctx = { rotation: new RotationState(), random: evenly(2000) };
  assert.deepEqual(
    tally(2000, 2, () => selectWinner(all(2), rs, ctx)),
    [1000, 1000],
  );
  const ctx2 = { rotation: new RotationState(), random: prngRandom(11) };
  const [a] = tally(2000, 2, () => selectWinner(all(2), rs, ctx2));
  assert.ok(a! >= 900 && a! <= 1100, `rule 0 drawn ${a} times`);
});

test('seeded strategies: the same rule every time, from a fresh generator per call; random unused', () => {
  for (const kind of ['uniform_random', 'weighted_random'] as const) {
    const winners = new Set<number | undefined>();
    for (let seed = 1n; seed <= 40n; seed++) {
      const rs = weighted([1, 1, 1, 1, 1], { kind, seed });
      const ctx = { rotation: new RotationState(), random: never };
      const first = selectWinner(all(5), rs, ctx);
      for (let i = 0; i < 20; i++) assert.equal(selectWinner(all(5), rs, ctx), first, `${kind} seed ${seed}`);
      winners.add(first);
    }
    assert.ok(winners.size >= 3, `${kind}: different seeds pick different rules (${[...winners].join(', ')})`);
  }
});

test('seed 42 over three equal candidates picks the second, like the reference', () => {
  for (const kind of ['uniform_random', 'weighted_random'] as const) {
    const rs = weighted([1, 1, 1], { kind, seed: 42n });
    assert.equal(selectWinner(all(3), rs, { rotation: new RotationState(), random: never }), 1, kind);
  }
  // seed 0 is replaced, not a stuck generator
  const rs0 = weighted([1, 1, 1], { kind: 'uniform_random', seed: 0n });
  assert.notEqual(selectWinner(all(3), rs0, { rotation: new RotationState(), random: never }), undefined);
});

test('priority: highest wins regardless of file order; omitted (0) ties with explicit 0', () => {
  const p = (priorities: readonly number[], tiebreaker: 'first_match' | 'uniform_random' = 'first_match') =>
    ruleSet(
      priorities.map((priority) => rule([], { priority })),
      { strategy: { kind: 'priority', tiebreaker } },
    );
  const ctx = { rotation: new RotationState(), random: never };
  assert.equal(selectWinner(all(3), p([1, 5, 3]), ctx), 1);
  assert.equal(selectWinner([0, 2], p([1, 5, 3]), ctx), 2);
  assert.equal(selectWinner(all(3), p([0, -1, 0]), ctx), 0);
  assert.equal(selectWinner(all(3), p([-5, -1, -3]), ctx), 1);
  assert.equal(selectWinner(all(4), p([2, 7, 1, 7]), ctx), 1);
});

test('priority with uniform_random tiebreaker: random among the tied top only', () => {
  const rs = ruleSet(
    [0, 7, 1, 7, 7].map((priority) => rule([], { priority })),
    {
      strategy: { kind: 'priority', tiebreaker: 'uniform_random' },
    },
  );
  const ctx = { rotation: new RotationState(), random: evenly(300) };
  assert.deepEqual(
    tally(300, 5, () => selectWinner(all(5), rs, ctx)),
    [0, 100, 0, 100, 100],
  );
  // a single top rule needs no tiebreak
  const one = ruleSet(
    [1, 9, 1].map((priority) => rule([], { priority })),
    { strategy: { kind: 'priority', tiebreaker: 'uniform_random' } },
  );
  assert.equal(selectWinner(all(3), one, { rotation: new RotationState(), random: () => 0.99 }), 1);
});

test('round_robin: cycles per match group in file order', () => {
  const rs = ruleSet([rule([]), rule([]), rule([]), rule([]), rule([])], { strategy: { kind: 'round_robin' } });
  const ctx = { rotation: new RotationState(), random: never };
  const a = [0, 1];
  const b = [2, 3, 4];
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) {
    seen.push(`a${selectWinner(a, rs, ctx)}`);
    seen.push(`b${selectWinner(b, rs, ctx)}`);
    if (i % 2 === 0) seen.push(`b${selectWinner(b, rs, ctx)}`);
  }
  const onlyA = seen.filter((s) => s.startsWith('a'));
  const onlyB = seen.filter((s) => s.startsWith('b'));
  assert.deepEqual(onlyA, ['a0', 'a1', 'a0', 'a1', 'a0', 'a1']);
  assert.deepEqual(onlyB, ['b2', 'b3', 'b4', 'b2', 'b3', 'b4', 'b2', 'b3', 'b4']);
});

test('round_robin: the same rules in another rule-set file are another group', () => {
  const rotation = new RotationState();
  const rs0 = ruleSet([rule([]), rule([])], { strategy: { kind: 'round_robin' }, index: 0, file: '/abs/a.toml' });
  const rs1 = ruleSet([rule([]), rule([])], { strategy: { kind: 'round_robin' }, index: 1, file: '/abs/b.toml' });
  const ctx = { rotation, random: never };
  assert.deepEqual(
    [
      selectWinner([0, 1], rs0, ctx),
      selectWinner([0, 1], rs1, ctx),
      selectWinner([0, 1], rs0, ctx),
      selectWinner([0, 1], rs1, ctx),
    ],
    [0, 0, 1, 1],
  );
  // a fresh state starts again at the first rule
  assert.equal(selectWinner([0, 1], rs0, { rotation: new RotationState(), random: never }), 0);
});
