#!/usr/bin/env node
// Profiles `mock` on one benchmark workload: starts it under
// `node --cpu-prof`, loads it like bench/run.mjs does, stops it (SIGTERM,
// so the profile is written) and prints the top frames.
//
//   node bench/profile.mjs <letter> [--duration S] [--conns N] [--mock-entry FILE] [--startup] [--warm] [--keep]
//                                   [--inspect] [--sse]
//
// --startup: no load; profile spawn → first answer → exit (the ready time).
// --warm: start mock once before, unprofiled, so the profiled start finds the load cache filled (as every measured
// start of bench/run.mjs does: its preflight start fills it).
// --inspect: mock runs with `--inspect` (the journal capturing); --sse: and one event-stream client reads
// every event (in the load process, as the bench's journal workloads do).
//
// The .cpuprofile is left in bench/out/profiles/ (open it in Chrome
// DevTools or summarise it again with bench/lib/profile-top.mjs).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, FLAVOURS, buildWorkspaces } from './lib/scenarios.mjs';
import { freePort, startServer, stopServer, stopAll, runLoad, httpRequest } from './lib/proc.mjs';
import { spawnSync } from 'node:child_process';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const args = process.argv.slice(2);
const letter = args[0];
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const scn = SCENARIOS.find((s) => s.letter === letter || s.id === letter);
if (!scn) {
  console.error(
    `usage: node bench/profile.mjs <${SCENARIOS.map((s) => s.letter).join('|')}> [--duration S] [--conns N] [--mock-entry FILE]`,
  );
  process.exit(2);
}
const duration = Number(flag('--duration', 5));
const conns = Number(flag('--conns', 50));
const inspect = args.includes('--inspect') || args.includes('--sse');
const sse = args.includes('--sse');
const entry = path.resolve(flag('--mock-entry', path.join(ROOT, 'dist', 'bin', 'main.cjs')));
if (!fs.existsSync(entry)) {
  console.error(`${entry} not found; build first`);
  process.exit(2);
}

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-profile-'));
const profDir = path.join(BENCH, 'out', 'profiles');
fs.mkdirSync(profDir, { recursive: true });
const cleanup = () => {
  if (!args.includes('--keep')) fs.rmSync(TMP, { recursive: true, force: true });
};
process.on('SIGINT', async () => {
  await stopAll();
  cleanup();
  process.exit(130);
});

try {
  const dirs = buildWorkspaces(TMP, [scn], { apimock: false });
  fs.mkdirSync(path.join(TMP, 'logs')); // not beside the workspace: mock watches the workspace's ancestors
  const dir = dirs[scn.id].mock;
  const port = await freePort();
  const inspectPort = inspect ? await freePort() : null;
  if (args.includes('--warm')) {
    const first = await startServer({
      argv: [process.execPath, entry, '-c', path.join(dir, FLAVOURS.mock.config), '-p', String(port)],
      cwd: dir,
      port,
      logFile: path.join(TMP, 'logs', 'warm-up.log'),
    });
    if (first.error) throw new Error(`mock did not start: ${first.error}\n${first.log}`);
    await stopServer(first);
  }
  const before = new Set(fs.readdirSync(profDir));
  const srv = await startServer({
    argv: [
      process.execPath,
      '--cpu-prof',
      '--cpu-prof-dir',
      profDir,
      entry,
      '-c',
      path.join(dir, FLAVOURS.mock.config),
      '-p',
      String(port),
      ...(inspect ? [`--inspect=${inspectPort}`] : []),
    ],
    cwd: dir,
    port,
    logFile: path.join(TMP, 'logs', 'server.log'),
  });
  if (srv.error) throw new Error(`mock did not start: ${srv.error}\n${srv.log}`);
  const r = scn.request;
  const res = await httpRequest(port, {
    method: r.method,
    path: r.path,
    headers: r.headers ?? {},
    body: r.bodyFile ? fs.readFileSync(path.join(dir, r.bodyFile)) : null,
  });
  console.log(
    `${scn.letter} ${scn.title}: preflight ${res.error ?? `${res.status}, ${res.body.length} B`}; ready ${srv.readyMs.toFixed(0)} ms`,
  );
  const load = args.includes('--startup')
    ? { error: 'skipped (--startup: start-up only)' }
    : await runLoad(path.join(BENCH, 'lib', 'load-client.mjs'), {
        port,
        method: r.method,
        path: r.path,
        headers: r.headers ?? {},
        bodyFile: r.bodyFile ? path.join(dir, r.bodyFile) : null,
        conns,
        warmupS: 1,
        durationS: duration,
        timeoutMs: 5000,
        expectStatus: scn.expectStatus,
        ...(sse ? { sse: { port: inspectPort } } : {}),
      });
  if (load.sse)
    console.log(
      `event stream: ${load.sse.events} events for ${load.sse.requests} requests, ${load.sse.reconnects} reconnects`,
    );
  console.log(
    load.error
      ? `load: ${load.error}`
      : `${Math.round(load.rps)} req/s, p50 ${load.latency_ms.p50.toFixed(2)} ms, p99 ${load.latency_ms.p99.toFixed(2)} ms (profiler on)`,
  );
  await stopServer(srv);
  const fresh = fs.readdirSync(profDir).filter((f) => !before.has(f) && f.endsWith('.cpuprofile'));
  if (!fresh.length) throw new Error('no profile written (did the server exit on SIGTERM?)');
  const file = path.join(profDir, `${scn.id}-${fresh[0]}`);
  fs.renameSync(path.join(profDir, fresh[0]), file);
  console.log(`profile: ${path.relative(process.cwd(), file)}\n`);
  if (load.answered_total) {
    // per answered request (warm-up included; start-up is in the profile too, so these err high by a little)
    const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
    const self = new Map();
    for (let i = 0; i < prof.samples.length; i++)
      self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
    let busy = 0;
    let gc = 0;
    for (const n of prof.nodes) {
      const t = self.get(n.id) ?? 0;
      if (n.callFrame.functionName === '(idle)') continue;
      busy += t;
      if (n.callFrame.functionName === '(garbage collector)') gc += t;
    }
    const per = (us) => (us / load.answered_total).toFixed(1);
    console.log(
      `per request (${load.answered_total} answered): ${per(busy)} µs busy, of which ${per(gc)} µs garbage collection\n`,
    );
  }
  spawnSync(process.execPath, [path.join(BENCH, 'lib', 'profile-top.mjs'), file, flag('--rows', '30')], {
    stdio: 'inherit',
  });
} catch (e) {
  console.error(String(e?.message ?? e));
  process.exitCode = 1;
} finally {
  await stopAll();
  cleanup();
}
