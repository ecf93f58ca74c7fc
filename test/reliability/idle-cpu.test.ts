// Reliability: an idle watching server costs (almost) no CPU. A watching server over a workspace with rule sets and
// a middleware, after a few edit-and-reload cycles, is left alone for a window; the CPU it used (read from
// /proc, Linux only) must stay under 1% of that window's wall time. The window is the point of this test, so it
// lives here rather than in `npm test`'s end-to-end tests; the short form watches 5 s, the long form 30 s.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { spawnMock } from '../helpers/mock-cli.js';
import { cpuTicks, get, path, rulesToml, waitReloaded } from '../e2e/live-reload-helpers.js';
import { delay, makeTempDir, removeDir, scale, writeTree } from './harness.js';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const WINDOW_MS = scale(5_000, 30_000);
const MAX_SHARE = 0.01;

test('an idle watching server uses under 1% of a CPU', { skip: !existsSync('/proc/self/stat') }, async (t) => {
  const dir = makeTempDir('mock-idle-cpu-');
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml"]\nmiddlewares = ["mw.rhai"]\n',
    'rules.toml': rulesToml([['/a', 'c0']]),
    'mw.rhai': 'if url_path == "/m" { return #{ text: "m" }; }\n',
  });
  const m = await spawnMock([], { cwd: dir });
  try {
    for (const p of ['/a', '/m', '/none']) await get(m.port, p);
    for (let i = 1; i <= 3; i++) {
      await writeFile(path(dir, 'rules.toml'), rulesToml([['/a', `c${i}`]]));
      await waitReloaded(m, i + 1);
    }
    const ticksBefore = cpuTicks(m.pid);
    const start = performance.now();
    await delay(WINDOW_MS); // the idle window being measured
    const wallMs = performance.now() - start;
    const cpuMs = ((cpuTicks(m.pid) - ticksBefore) * 1000) / TICKS_PER_SECOND;
    const share = cpuMs / wallMs;
    t.diagnostic(`figure idle-cpu: ${cpuMs} ms CPU in ${Math.round(wallMs)} ms idle (${(share * 100).toFixed(2)}%)`);
    assert.ok(
      share < MAX_SHARE,
      `${cpuMs} ms CPU in ${Math.round(wallMs)} ms idle is ${(share * 100).toFixed(2)}% of a CPU`,
    );
    assert.equal(m.stderr(), '');
  } finally {
    await m.stop();
    await removeDir(dir);
  }
});
