// Reliability: the inspector's event stream pushes each request's event as it happens, not on a timer or in
// batches. Against the real program with --inspect: for each of a run of requests, the time from sending it to its
// event's chunk arriving on an open stream, against the time the same request took to be answered. The median
// event delay must stay within a small multiple of the median round trip (a stream flushed every 100 ms would
// be far outside it). A ratio of medians, so a loaded machine slows both sides alike.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { events, raw } from '../helpers/inspector-server.js';
import { spawnMock } from '../helpers/mock-cli.js';
import { waitFor } from '../e2e/live-reload-helpers.js';
import { makeTempDir, median, removeDir, scale, writeTree } from './harness.js';

const REQUESTS = scale(30, 300);
const MAX_RATIO = 25;

test("an event reaches the stream within a small multiple of its request's round trip", async (t) => {
  const dir = makeTempDir('mock-inspect-events-');
  await writeTree(dir, { 'a.json': '{"a":1}' });
  const m = await spawnMock(['--inspect'], { cwd: dir });
  try {
    const line = m.stdoutLines.find((l) => l.startsWith('Inspector: '));
    const port = Number(/:(\d+)\//.exec(line ?? '')?.[1]);
    assert.ok(port > 0, `an Inspector line: ${m.stdoutLines.join('\n')}`);
    const live = await events(port);
    assert.equal(live.res.statusCode, 200);
    // learn the id the next request gets from a first one
    await raw(m.port, 'GET', '/a.json');
    const first = await waitFor('the first event', () => /^id: (\d+)$/m.exec(live.text())?.[1]);
    const roundTrips: number[] = [];
    const delays: number[] = [];
    for (let k = 1; k <= REQUESTS; k++) {
      const t0 = performance.now();
      await raw(m.port, 'GET', '/a.json');
      roundTrips.push(performance.now() - t0);
      const at = await waitFor('the request event', () => live.arrived(`id: ${Number(first) + k}\n`));
      delays.push(at - t0);
    }
    live.close();
    const ratio = median(delays) / median(roundTrips);
    t.diagnostic(
      `figure inspector-events: median event delay ${median(delays).toFixed(1)} ms, median round trip ${median(roundTrips).toFixed(1)} ms (×${ratio.toFixed(1)}) over ${REQUESTS} requests`,
    );
    assert.ok(
      ratio < MAX_RATIO,
      `events took ${ratio.toFixed(1)} × the round trip (median ${median(delays).toFixed(1)} ms)`,
    );
  } finally {
    await m.stop();
    await removeDir(dir);
  }
});
