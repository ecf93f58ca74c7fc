#!/usr/bin/env node
// Two or more builds (or settings) of mock side by side on one workload, the bench's way: every variant is started
// fresh in each rep (over the same workspace, each with a load cache of its own, so the first rep is a cold start
// and the rest warm ones), then one load client alternates windows between them, and each one's CPU time per
// answered request is read from /proc. For a difference too small for bench/run.mjs's ratios to show.
//
//   node bench/ab.mjs <letter> <reps> <label>=<entry>[=<ENV>:<value>] ...
//   node bench/ab.mjs l 4 now=dist/bin/main.cjs off=dist/bin/main.cjs=MOCK_LOAD_CACHE:off old=/tmp/old/dist/bin/main.cjs

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, FLAVOURS, buildWorkspaces } from './lib/scenarios.mjs';
import { freePort, startServer, stopServer, stopAll, runLoad, sleep, httpRequest } from './lib/proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const [letter, reps, ...specs] = process.argv.slice(2);
const scn = SCENARIOS.find((s) => s.letter === letter || s.id === letter);
if (!scn || !(Number(reps) >= 1) || specs.length < 1) {
  console.error('usage: node bench/ab.mjs <letter> <reps> <label>=<entry>[=<ENV>:<value>] ...');
  process.exit(2);
}
const variants = specs.map((spec) => {
  const [label, entry, env] = spec.split('=');
  const [name, value] = env === undefined ? [] : env.split(':');
  return { label, entry: path.resolve(entry), env: name === undefined ? {} : { [name]: value ?? '' } };
});
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-ab-'));
process.on('SIGINT', async () => {
  await stopAll();
  process.exit(130);
});
try {
  const dir = buildWorkspaces(TMP, [scn], { apimock: false })[scn.id].mock;
  const q = scn.request;
  const request = { method: q.method, path: q.path, headers: q.headers ?? {} };
  const out = new Map(variants.map((v) => [v.label, []]));
  for (let rep = 0; rep < Number(reps); rep++) {
    const running = [];
    for (const v of variants) {
      const port = await freePort();
      const srv = await startServer({
        argv: [process.execPath, v.entry, '-c', path.join(dir, FLAVOURS.mock.config), '-p', String(port)],
        cwd: dir,
        port,
        logFile: path.join(TMP, `${v.label}-${rep}.log`),
        env: { ...process.env, XDG_CACHE_HOME: path.join(TMP, `cache-${v.label}`), ...v.env },
      });
      if (srv.error) throw new Error(`${v.label} did not start: ${srv.error}\n${srv.log}`);
      running.push(srv);
    }
    await sleep(500);
    for (const srv of running) await httpRequest(srv.port, request);
    const load = await runLoad(path.join(BENCH, 'lib', 'load-client.mjs'), {
      targets: running.map((srv) => ({ port: srv.port, pid: srv.pid })),
      ...request,
      bodyFile: q.bodyFile ? path.join(dir, q.bodyFile) : null,
      conns: 50,
      warmupS: 1,
      durationS: 4,
      slices: 4,
      sliceWarmupS: 0.25,
      timeoutMs: 5000,
      expectStatus: scn.expectStatus,
    });
    for (const srv of running) await stopServer(srv);
    if (!load.targets) throw new Error(`load failed: ${JSON.stringify(load).slice(0, 300)}`);
    load.targets.forEach((t, i) => {
      // CPU ticks are 10 ms (USER_HZ 100)
      const us = (t.server_ticks * 10_000) / t.requests;
      out.get(variants[i].label).push(`${Math.round(t.rps)}/s ${us.toFixed(1)} µs`);
    });
  }
  console.log(`${scn.letter} ${scn.title}: req/s and CPU per request, rep by rep (the first a cold start)`);
  for (const [label, rows] of out) console.log(`${label.padEnd(8)} ${rows.join('   ')}`);
} finally {
  fs.rmSync(TMP, { recursive: true, force: true });
}
