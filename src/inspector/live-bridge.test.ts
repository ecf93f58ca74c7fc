import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'node:http';
import { raw, startInspectorServer } from '../../test/helpers/inspector-server.js';
import { WS } from '../journal/fixtures/exchanges.js';
import type { LoadAttempt, ReloadEvent as LiveReloadEvent } from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import { LiveWorkspace } from '../server/live.js';
import { createEventHub } from './events.js';
import { connectLive, reloadEventOf, workspaceRoute } from './live-bridge.js';

const diag = {
  severity: 'error',
  code: 'unknown_key',
  message: 'unknown key `url_pth`',
  file: '/w/rules.toml',
  line: 3,
  column: 14,
} as const;
const rejected: LiveReloadEvent = {
  kind: 'rejected',
  generation: 2,
  changed: ['/w/rules.toml'],
  ms: 4,
  diagnostics: [diag],
};
const applied: LiveReloadEvent = {
  kind: 'applied',
  generation: 3,
  workspace: {} as Workspace,
  changed: [],
  ms: 3,
  warnings: [],
  listenerChanges: [],
};

test('reloadEventOf: rejected → ok false with file:line:col; applied → ok true', () => {
  assert.deepEqual(reloadEventOf(rejected), {
    generation: 2,
    ok: false,
    diagnostics: [
      {
        severity: 'error',
        code: 'unknown_key',
        message: 'unknown key `url_pth`',
        file: '/w/rules.toml',
        line: 3,
        column: 14,
      },
    ],
  });
  assert.deepEqual(reloadEventOf(applied), { generation: 3, ok: true, diagnostics: [] });
});

test("connectLive: a real LiveWorkspace's rejected then applied reload reach a stream client", async () => {
  const attempts: LoadAttempt[] = [
    {
      kind: 'failed',
      failure: { kind: 'config_invalid', message: 'bad', diagnostics: [diag] },
      sources: new Map([['/w/rules.toml', '=bad']]),
      stable: true,
    },
    { kind: 'loaded', workspace: WS, sources: new Map([['/w/rules.toml', '=good']]), stable: true },
  ];
  const live = new LiveWorkspace(WS, {
    load: async () => attempts.shift()!,
    sources: new Map([['/w/rules.toml', '=v1']]),
  });
  const hub = createEventHub({ pingMs: 60_000 });
  const off = connectLive(live, hub);
  const wsRoute = workspaceRoute(live);
  const srv = await startInspectorServer([hub.route, wsRoute]);
  try {
    const text = await new Promise<() => string>((resolve, reject) => {
      request(
        { host: '127.0.0.1', port: srv.port, path: '/__mock/api/events', headers: { host: `127.0.0.1:${srv.port}` } },
        (res) => {
          let t = '';
          res.setEncoding('utf8').on('data', (d: string) => {
            t += d;
            if (t.includes(': connected')) resolve(() => t);
          });
        },
      )
        .on('error', reject)
        .end();
    });
    assert.equal((await live.reload()).ok, false);
    const failing = (await raw(srv.port, 'GET', '/__mock/api/workspace')).json as {
      result: { last_reload: { ok: boolean; diagnostics: { line: number }[] } };
    };
    assert.equal(failing.result.last_reload.ok, false);
    assert.equal(failing.result.last_reload.diagnostics[0]!.line, 3);
    assert.equal((await live.reload()).ok, true);
    const deadline = Date.now() + 10_000;
    while ((text().match(/event: reload/g) ?? []).length < 2) {
      assert.ok(Date.now() < deadline, text());
      await new Promise((r) => setTimeout(r, 10));
    }
    const events = [...text().matchAll(/event: reload\ndata: (.*)\n/g)].map(
      (m) => JSON.parse(m[1]!) as { ok: boolean; generation: number },
    );
    assert.deepEqual(
      events.map((e) => [e.ok, e.generation]),
      [
        [false, 1],
        [true, 2],
      ],
    );
    const info = (await raw(srv.port, 'GET', '/__mock/api/workspace')).json as { result: Record<string, unknown> };
    assert.equal(info.result['generation'], 2);
    assert.deepEqual(info.result['last_reload'], { ok: true, generation: 2, diagnostics: [] });
    assert.equal((info.result['rule_sets'] as unknown[]).length, WS.ruleSets.length);
    assert.equal(info.result['fallback_dir'], WS.fallbackDir);
  } finally {
    off();
    wsRoute.close();
    hub.close();
    await srv.close();
  }
});

test('a broken edit undone (the files back to what serves) clears last_reload through onRestored, with no swap', async () => {
  const v1 = new Map([['/w/rules.toml', '=v1']]);
  const attempts: LoadAttempt[] = [
    {
      kind: 'failed',
      failure: { kind: 'config_invalid', message: 'bad', diagnostics: [diag] },
      sources: new Map([['/w/rules.toml', '=bad']]),
      stable: true,
    },
    { kind: 'loaded', workspace: WS, sources: v1, stable: true },
  ];
  const live = new LiveWorkspace(WS, { load: async () => attempts.shift()!, sources: v1 });
  const published: { ok: boolean; generation: number }[] = [];
  const hub = { ...createEventHub({ pingMs: 60_000 }) };
  const off = connectLive(live, { ...hub, reload: (e) => published.push({ ok: e.ok, generation: e.generation }) });
  const wsRoute = workspaceRoute(live);
  const srv = await startInspectorServer([wsRoute]);
  try {
    assert.equal((await live.reload()).outcome, 'rejected');
    const r = await live.reload();
    assert.deepEqual([r.ok, r.outcome, r.generation], [true, 'unchanged', 1]);
    assert.deepEqual(published, [
      { ok: false, generation: 1 },
      { ok: true, generation: 1 },
    ]);
    const info = (await raw(srv.port, 'GET', '/__mock/api/workspace')).json as { result: Record<string, unknown> };
    assert.deepEqual(info.result['last_reload'], { ok: true, generation: 1, diagnostics: [] });
  } finally {
    off();
    wsRoute.close();
    hub.close();
    await srv.close();
  }
});
