// Record mode and the request journal: the real listener (createListener, real dispatch, real files) with a
// record mode and a Journal on its hook chain, in front of the test's own upstream. A proxied exchange is
// captured once, with answered_by {kind: 'proxied', target, saved}; a failed one with saved null; a dispatched
// answer once, as dispatch answered it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRuleCommitter } from '../../src/launch/record/rules.js';
import { dispatch } from '../../src/dispatch/dispatch.js';
import { Journal } from '../../src/journal/journal.js';
import { createFsSource } from '../../src/node/file-cache/fs-source.js';
import { parseRecordTarget } from '../../src/record/target.js';
import { RotationState } from '../../src/routing/rotation.js';
import { MemoryStore } from '../../src/state/store.js';
import { SocketActivity } from '../../src/server/activity.js';
import { journalHook } from '../../src/server/journal-hook.js';
import { createListener } from '../../src/server/listener.js';
import { LiveWorkspace } from '../../src/server/live.js';
import { createRecordMode, type RecordMode } from '../../src/server/record/mode.js';
import { makeWorkspace, send } from '../e2e/server-harness.js';
import { makeTempDir, removeDir } from '../helpers/mock-cli.js';
import { startUpstream, type Upstream } from './upstream.js';

describe('record mode captures proxied exchanges in the journal', () => {
  let up: Upstream;
  let dir: string;
  let server: Server;
  let port: number;
  let record: RecordMode;
  const journal = new Journal();
  const lines: string[] = [];
  let reloads = 0;
  before(async () => {
    up = await startUpstream();
    dir = makeTempDir('mock-record-journal-');
    const target = parseRecordTarget(up.url);
    assert.ok(target.ok);
    const ws = makeWorkspace({ fallbackDir: dir });
    const live = new LiveWorkspace(ws);
    record = createRecordMode(
      {
        target: target.value,
        insecure: false,
        dryRun: false,
        keepHeaders: [],
        fallbackDir: dir,
        commitRule: createRuleCommitter({ configAbs: join(dir, 'mock.toml'), dryRun: false, fallbackDir: dir }),
        totalTimeoutMs: 500,
      },
      { log: (l) => lines.push(l), reload: async () => void reloads++ },
    );
    const log = (l: string): void => void lines.push(l);
    const listener = createListener({
      live,
      env: {
        files: createFsSource(),
        rotation: new RotationState(),
        state: new MemoryStore(),
        random: Math.random,
        log,
      },
      dispatch,
      log,
      now: () => new Date(),
      activity: new SocketActivity(),
      hooks: [journalHook(journal), record],
    });
    server = createServer(listener.onRequest);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await record.close();
    await up.close();
    await removeDir(dir);
  });

  it('a saved file, a saved rule, a failure; then the file answers the next request, through dispatch', async () => {
    assert.equal((await send(port, { path: '/api/users' })).status, 200);
    assert.equal((await send(port, { path: '/teapot' })).status, 418);
    assert.equal((await send(port, { path: '/hang' })).status, 502);
    assert.equal((await send(port, { path: '/api/users' })).status, 200); // the file now: dispatch answers
    const entries = journal.requests();
    assert.deepEqual(
      entries.map((e) => [e.request.path, e.response.status, e.answeredBy]),
      [
        ['/api/users', 200, { kind: 'proxied', target: up.url, saved: 'api/users.json' }],
        ['/teapot', 418, { kind: 'proxied', target: up.url, saved: 'mock-recorded.toml#1' }],
        ['/hang', 502, { kind: 'proxied', target: up.url, saved: null }],
        ['/api/users', 200, { kind: 'fallback', file: 'api/users.json' }],
      ],
    );
    assert.equal(entries[0]!.stage, 'dyn_route');
    assert.equal(reloads, 1, 'one reload, after the saved rule');
    assert.ok(
      lines.some((l) => l.startsWith('recorded api/users.json')),
      lines.join('\n'),
    );
  });
});
