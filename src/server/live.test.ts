import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS, type Config } from '../model/config.js';
import type { LoadAttempt, ReloadEvent, SourceSet } from '../model/reload.js';
import type { RuleSet } from '../model/rule-set.js';
import { DEFAULT_STRATEGY } from '../model/strategy.js';
import type { Workspace } from '../model/workspace.js';
import { matchGroupKey } from '../routing/rotation.js';
import { LiveWorkspace } from './live.js';

function workspace(o: { port?: number; ruleSets?: readonly RuleSet[] } = {}): Workspace {
  const config: Config = {
    listener: { ipAddress: '127.0.0.1', port: o.port ?? 3001 },
    service: {
      ruleSets: [],
      ruleSetEntries: [],
      middlewares: [],
      middlewareEntries: [],
      fallbackRespondDir: '/w',
      strategy: DEFAULT_STRATEGY,
      corsAllowCredentialsOrigins: [],
      maxRequestBodyBytes: 1000,
      middlewareMaxOperations: DEFAULTS.middlewareMaxOperations,
    },
    log: { verbose: { header: false, body: false } },
    fileTreeView: { ...DEFAULTS.fileTreeView },
  };
  return {
    baseDir: '/w',
    config,
    middlewares: [],
    ruleSets: o.ruleSets ?? [],
    fallbackDir: '/w',
    cors: { allowedOrigins: [] },
    warnings: [],
  };
}

const sources = (entries: Record<string, string>): SourceSet => new Map(Object.entries(entries));
const loaded = (ws: Workspace, src: SourceSet, stable = true): LoadAttempt => ({
  kind: 'loaded',
  workspace: ws,
  sources: src,
  stable,
});
const failed = (src: SourceSet): LoadAttempt => ({
  kind: 'failed',
  sources: src,
  stable: true,
  failure: {
    kind: 'config_invalid',
    message: 'bad',
    diagnostics: [{ severity: 'error', code: 'toml_syntax', message: 'x', file: '/w/r.toml', line: 1, column: 2 }],
  },
});

/** A LiveWorkspace whose loader answers the queued attempts in order (and counts its calls). */
function live(start: Workspace, startSources: SourceSet, attempts: LoadAttempt[]) {
  let calls = 0;
  const lw = new LiveWorkspace(start, {
    sources: startSources,
    unstableRetryMs: 1,
    load: async () => {
      calls++;
      const next = attempts.shift();
      if (next === undefined) throw new Error('no more attempts');
      return next;
    },
  });
  const events: ReloadEvent[] = [];
  lw.onReload((e) => events.push(e));
  return { lw, events, calls: () => calls };
}

const S1 = sources({ '/w/mock.toml': 'a', '/w/r.toml': 'b' });
const S2 = sources({ '/w/mock.toml': 'a', '/w/r.toml': 'c' });

test('an applied reload swaps the live state, bumps the generation and names the changed files', async () => {
  const next = workspace({ port: 4000 });
  const { lw, events } = live(workspace(), S1, [loaded(next, S2)]);
  const before = lw.current;
  const r = await lw.reload();
  assert.deepEqual([r.ok, r.outcome, r.generation], [true, 'applied', 2]);
  assert.equal(lw.current.ws, next);
  assert.equal(lw.current.generation, 2);
  assert.equal(before.generation, 1, 'the old state object is unchanged (requests holding it keep it)');
  assert.equal(events.length, 1);
  const e = events[0]!;
  assert.equal(e.kind, 'applied');
  if (e.kind === 'applied') {
    assert.deepEqual(e.changed, ['/w/r.toml']);
    assert.deepEqual(e.listenerChanges, [{ key: 'listener.port', from: '3001', to: '4000' }]);
  }
});

test('identical sources change nothing and say nothing', async () => {
  const { lw, events } = live(workspace(), S1, [
    loaded(workspace(), sources({ '/w/r.toml': 'b', '/w/mock.toml': 'a' })),
  ]);
  const r = await lw.reload();
  assert.deepEqual([r.ok, r.outcome, r.generation], [true, 'unchanged', 1]);
  assert.equal(events.length, 0);
});

test('a rejected load keeps serving, reports once, and watches what it tried to read', async () => {
  const start = workspace();
  const bad = sources({ '/w/mock.toml': 'z', '/w/new.toml': 'missing' });
  const { lw, events } = live(start, S1, [failed(bad), failed(bad), loaded(workspace(), S2)]);
  const r = await lw.reload();
  assert.deepEqual([r.ok, r.outcome, r.generation, r.diagnostics.length], [false, 'rejected', 1, 1]);
  assert.equal(lw.current.ws, start);
  assert.deepEqual(lw.watchedFiles(), ['/w/mock.toml', '/w/r.toml', '/w/new.toml']);
  const again = await lw.reload();
  assert.deepEqual(
    [again.ok, again.outcome, again.diagnostics.length],
    [false, 'unchanged', 1],
    'the same broken files: no second report',
  );
  assert.deepEqual(
    events.map((e) => e.kind),
    ['rejected'],
  );
  assert.equal((await lw.reload()).generation, 2);
  assert.deepEqual(lw.watchedFiles(), ['/w/mock.toml', '/w/r.toml']);
});

test('a load whose files moved while read is rerun silently', async () => {
  const next = workspace();
  const { lw, events, calls } = live(
    workspace(),
    S1,
    [failed(S2 /* half-written */), loaded(next, S2, false), loaded(next, S2)].map((a, i) =>
      i === 0 ? { ...a, stable: false } : a,
    ),
  );
  const r = await lw.reload();
  assert.equal(calls(), 3);
  assert.equal(r.outcome, 'applied');
  assert.deepEqual(
    events.map((e) => e.kind),
    ['applied'],
  );
});

test('one load at a time: calls during a load share one more load after it', async () => {
  let release: () => void = () => undefined;
  let calls = 0;
  const lw = new LiveWorkspace(workspace(), {
    sources: S1,
    load: async () => {
      calls++;
      if (calls === 1) await new Promise<void>((r) => (release = r));
      return loaded(workspace(), calls === 1 ? S2 : sources({ '/w/r.toml': 'd' }));
    },
  });
  const first = lw.reload();
  const queued = [lw.reload(), lw.reload(), lw.reload()];
  assert.equal(queued[0], queued[2], 'the same queued load');
  await new Promise((r) => setImmediate(r));
  release();
  assert.equal((await first).generation, 2);
  assert.deepEqual(
    (await Promise.all(queued)).map((r) => r.generation),
    [3, 3, 3],
  );
  assert.equal(calls, 2);
});

test('without a loader, reload() is unavailable', async () => {
  const r = await new LiveWorkspace(workspace()).reload();
  assert.deepEqual([r.ok, r.outcome, r.generation], [false, 'unavailable', 1]);
});

test('after a swap, rotation groups that can no longer occur are pruned', async () => {
  const rule = (text: string) => ({
    index: 0,
    label: '/rr',
    priority: 0,
    weight: 1,
    conditions: [{ on: 'url_path', op: 'equal', value: '/rr', bare: true, compareTo: '/rr' }] as const,
    respond: { body: { kind: 'text', text } as const, headers: [], delayMs: 0 },
  });
  const rs = (texts: readonly string[]): RuleSet => ({
    index: 0,
    file: '/w/r.toml',
    entry: 'r.toml',
    strategy: { kind: 'round_robin' },
    rules: texts.map((t, i) => ({ ...rule(t), index: i })),
  });
  const a = rs(['A1', 'A2']);
  const b = rs(['B1', 'B2']);
  const { lw } = live(workspace({ ruleSets: [a] }), S1, [
    loaded(workspace({ ruleSets: [a, b] }), S2),
    loaded(workspace({ ruleSets: [b] }), S1),
  ]);
  lw.rotation.next(matchGroupKey(a, [0, 1]), 2);
  await lw.reload();
  assert.equal(lw.rotation.size, 1, 'still possible: kept');
  await lw.reload();
  assert.equal(lw.rotation.size, 0, 'gone with its rules');
});
