import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chain, setUnheardFailureReporter, Soon } from './value-or-promise.js';

describe('Soon', () => {
  test('continuations run synchronously as it settles, in the order they were added', () => {
    const s = new Soon<number>();
    const seen: string[] = [];
    s.listen((ok, v) => seen.push(`a ${ok} ${String(v)}`));
    const doubled = chain(s, (v) => v * 2);
    assert.ok(doubled instanceof Soon);
    doubled.listen((_, v) => seen.push(`b ${String(v)}`));
    s.listen((_, v) => seen.push(`c ${String(v)}`));
    assert.equal(seen.length, 0);
    s.resolve(21);
    assert.deepEqual(seen, ['a true 21', 'b 42', 'c 21']);
    // settled: a listener added now runs at once, and a second settlement is ignored
    s.resolve(5);
    s.listen((_, v) => seen.push(`d ${String(v)}`));
    assert.equal(seen.at(-1), 'd 21');
  });

  test('a throwing continuation fails the next one, which a failure handler can turn back into a value', () => {
    const s = new Soon<string>();
    const failed = s.then(() => {
      throw new Error('boom');
    });
    const results: unknown[] = [];
    failed.listen((ok, e) => results.push(ok, (e as Error).message));
    const recovered = failed.then(
      () => 'unreachable',
      (e) => `caught ${(e as Error).message}`,
    );
    recovered.listen((ok, v) => results.push(ok, v));
    s.resolve('x');
    assert.deepEqual(results, [false, 'boom', true, 'caught boom']);
  });

  test('it adopts a promise or another Soon, and await takes it', async () => {
    const fromPromise = new Soon<number>();
    fromPromise.resolve(Promise.resolve(7));
    assert.equal(await fromPromise, 7);

    const inner = new Soon<number>();
    const outer = new Soon<number>();
    outer.resolve(inner);
    let got: number | undefined;
    outer.listen((_, v) => (got = v as number));
    inner.resolve(8);
    assert.equal(got, 8);

    const rejected = new Soon<number>();
    rejected.resolve(Promise.reject(new Error('no')));
    await assert.rejects(async () => await rejected, /no/);
  });

  test('chain keeps plain values synchronous and promises promises', async () => {
    assert.equal(
      chain(2, (v) => v + 1),
      3,
    );
    const p = chain(Promise.resolve(2), (v) => v + 1);
    assert.ok(p instanceof Promise);
    assert.equal(await p, 3);
  });
});

describe('a Soon failure nobody listens to', () => {
  const failuresReported = async (act: () => void): Promise<unknown[]> => {
    const seen: unknown[] = [];
    const before = setUnheardFailureReporter((e) => seen.push(e));
    try {
      act();
      // the check runs at the end of the turn the Soon failed in
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      setUnheardFailureReporter(before);
    }
    return seen;
  };

  test('reaches the reporter, the one a failing continuation made too', async () => {
    const boom = new Error('boom');
    const seen = await failuresReported(() => {
      new Soon<number>().reject(boom);
      const s = new Soon<number>();
      void s.then(() => {
        throw new Error('in a continuation');
      });
      s.resolve(1);
    });
    assert.equal(seen.length, 2);
    assert.equal(seen[0], boom);
    assert.equal((seen[1] as Error).message, 'in a continuation');
  });

  test('is not reported when a listener hears it, before or later in the same turn', async () => {
    const seen = await failuresReported(() => {
      const early = new Soon<number>();
      early.listen(() => undefined);
      early.reject(new Error('heard early'));
      const late = new Soon<number>();
      late.reject(new Error('heard late'));
      late.listen(() => undefined);
      const chained = new Soon<number>();
      chained.then(undefined, () => 0).listen(() => undefined);
      chained.reject(new Error('recovered'));
    });
    assert.deepEqual(seen, []);
  });
});
