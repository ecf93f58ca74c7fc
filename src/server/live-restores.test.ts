import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeWorkspace } from '../../test/e2e/server-harness.js';
import type { LoadAttempt } from '../model/reload.js';
import { LiveWorkspace } from './live.js';

// A real LiveWorkspace over a loader whose answers the test chooses: good (sources A), broken (B), good again (A).
test('an ok reload after a rejection is a restore; applied and unchanged reloads are not', async () => {
  const ws = makeWorkspace();
  const good: LoadAttempt = { kind: 'loaded', workspace: ws, sources: new Map([['/w/mock.toml', '=a']]), stable: true };
  const bad: LoadAttempt = {
    kind: 'failed',
    failure: { kind: 'config_invalid', message: 'broken', diagnostics: [] },
    sources: new Map([['/w/mock.toml', '=b']]),
    stable: true,
  };
  const other: LoadAttempt = { ...good, sources: new Map([['/w/mock.toml', '=c']]) };
  let next: LoadAttempt = good;
  const live = new LiveWorkspace(ws, { load: async () => next, sources: good.sources });
  const restored: number[] = [];
  live.onRestored((g) => restored.push(g));
  const steps: readonly [LoadAttempt, string, number[]][] = [
    [good, 'unchanged', []],
    [bad, 'rejected', []],
    [bad, 'unchanged', []],
    [good, 'unchanged', [1]],
    [good, 'unchanged', [1]],
    [bad, 'rejected', [1]],
    [other, 'applied', [1]],
  ];
  for (const [attempt, outcome, want] of steps) {
    next = attempt;
    const r = await live.reload();
    assert.equal(r.outcome, outcome);
    assert.deepEqual(restored, want);
  }
  assert.equal(live.generation, 2);
});
