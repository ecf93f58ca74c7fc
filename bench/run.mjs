#!/usr/bin/env node
// `npm run bench`: throughput, latency, memory and start-up of `mock` next to
// a bare node:http server sending the same bytes and, when APIMOCK_BIN
// points at its binary, apimock-rs; all in one run, interleaved, several
// repetitions.  Writes the table to bench/RESULTS.md.  See bench/README.md.
//
// Loopback only.  Every server is a child spawned here and stopped by its
// PID; every load, wait and loop is bounded in time or count.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { SCENARIOS, FLAVOURS, CLI_GET_PATH, buildWorkspaces } from './lib/scenarios.mjs';
import {
  freePort,
  httpRequest,
  rssKb,
  startServer,
  stopServer,
  stopAll,
  runLoad,
  sleep,
  readLog,
} from './lib/proc.mjs';
import { probe, timeCommands } from './lib/cli-timing.mjs';
import { renderResults } from './lib/report.mjs';
import { runPeers, PEER_IDS } from './lib/peers.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const CLIENT = path.join(BENCH, 'lib', 'load-client.mjs');
const BARE = path.join(BENCH, 'lib', 'bare-server.mjs');

// ---------------------------------------------------------------- options
const HELP = `usage: npm run bench -- [options]      (or: node bench/run.mjs [options])

  --only a,b,...     scenarios by letter or id (default: all)
  --reps N           repetitions (default 3)
  --duration S       measured load per server per rep, seconds (default 5)
  --warmup S         warm-up per server per rep, discarded, seconds (default 1)
  --slices N         the measured load of each server in N interleaved
                     windows (default 5; see bench/README.md)
  --slice-warmup S   unmeasured load at the start of each window (default 0.25)
  --conns N          concurrent keep-alive connections (default 50)
  --soak             also run each selected scenario on mock for 60 s,
                     sampling RSS every second (flatness check)
  --soak-duration S  soak length (default 60)
  --cli-runs N       cold starts per command per rep (default 20, +3 warm-up)
  --no-cli           skip the CLI cold-start timings
  --no-http          skip the HTTP workloads
  --no-journal       skip the journal workloads (b with --inspect, with an
                     event-stream client, and through startMock())
  --out FILE         markdown output (default bench/RESULTS.md)
  --json FILE        raw results (default bench/out/results-<time>.json)
  --mock-entry FILE  the mock entry point (default dist/bin/main.cjs)
  --apimock FILE     apimock-rs binary (default $APIMOCK_BIN; skipped if unset)
  --keep             keep the generated workspaces (path printed)
  --list             list the scenarios
  --peers            also compare mock with the servers a user would otherwise
                     pick, on workload b (installed on demand into a cache
                     outside the project); writes bench/PEERS.md and
                     bench/peers.svg (see bench/peers/README.md)
  --peers-only       only that comparison (RESULTS.md untouched)
  --peer-names a,b   only these peers (${PEER_IDS.join(', ')})
  --jvm-warmup S     extra warm-up for JVM peers (default 40)
  --peers-out FILE   the comparison's markdown (default bench/PEERS.md; the
                     chart peers.svg goes next to it)
`;

function parseArgs(argv) {
  const o = {
    only: null,
    reps: 3,
    duration: 5,
    warmup: 1,
    slices: 5,
    sliceWarmup: 0.25,
    conns: 50,
    soak: false,
    soakDuration: 60,
    cliRuns: 20,
    cli: true,
    http: true,
    journal: true,
    out: path.join(BENCH, 'RESULTS.md'),
    json: null,
    mockEntry: path.join(ROOT, 'dist', 'bin', 'main.cjs'),
    apimock: process.env.APIMOCK_BIN || null,
    keep: false,
    peers: false,
    peersOnly: false,
    peerNames: null,
    jvmWarmup: 40,
    peersOut: path.join(BENCH, 'PEERS.md'),
    peersDir: path.join(BENCH, 'peers'),
  };
  const num = (v, name, min, max) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max)
      die(`${name} must be a number in ${min}..${max}, got ${JSON.stringify(v)}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) die(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--only':
        o.only = val()
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        break;
      case '--reps':
        o.reps = num(val(), a, 1, 50);
        break;
      case '--duration':
        o.duration = num(val(), a, 0.5, 600);
        break;
      case '--warmup':
        o.warmup = num(val(), a, 0, 60);
        break;
      case '--slices':
        o.slices = num(val(), a, 1, 100);
        if (!Number.isInteger(o.slices)) die('--slices must be a whole number');
        break;
      case '--slice-warmup':
        o.sliceWarmup = num(val(), a, 0, 10);
        break;
      case '--conns':
        o.conns = num(val(), a, 1, 1000);
        break;
      case '--soak':
        o.soak = true;
        break;
      case '--soak-duration':
        o.soakDuration = num(val(), a, 5, 3600);
        break;
      case '--cli-runs':
        o.cliRuns = num(val(), a, 1, 500);
        break;
      case '--no-cli':
        o.cli = false;
        break;
      case '--no-http':
        o.http = false;
        break;
      case '--no-journal':
        o.journal = false;
        break;
      case '--out':
        o.out = path.resolve(val());
        break;
      case '--json':
        o.json = path.resolve(val());
        break;
      case '--mock-entry':
        o.mockEntry = path.resolve(val());
        break;
      case '--apimock':
        o.apimock = path.resolve(val());
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--peers':
        o.peers = true;
        break;
      case '--peers-only':
        o.peers = true;
        o.peersOnly = true;
        break;
      case '--peer-names':
        o.peerNames = val()
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        for (const n of o.peerNames) if (!PEER_IDS.includes(n)) die(`unknown peer ${n} (${PEER_IDS.join(', ')})`);
        break;
      case '--jvm-warmup':
        o.jvmWarmup = num(val(), a, 0, 300);
        break;
      case '--peers-out':
        o.peersOut = path.resolve(val());
        break;
      case '--list':
        for (const s of SCENARIOS) console.log(`${s.letter}  ${s.id.padEnd(14)} ${s.title}`);
        process.exit(0);
        break;
      case '-h':
      case '--help':
        process.stdout.write(HELP);
        process.exit(0);
        break;
      default:
        die(`unknown option ${a}\n\n${HELP}`);
    }
  }
  return o;
}
function die(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

const opt = parseArgs(process.argv.slice(2));
const scenarios = opt.only
  ? SCENARIOS.filter((s) => opt.only.includes(s.letter) || opt.only.includes(s.id))
  : SCENARIOS;
if (opt.only && scenarios.length !== opt.only.length)
  die(`unknown scenario in --only ${opt.only.join(',')} (see --list)`);
if (!fs.existsSync(opt.mockEntry)) die(`${path.relative(ROOT, opt.mockEntry)} not found; build first (npm run build)`);
if (opt.apimock && !fs.existsSync(opt.apimock)) die(`apimock-rs binary ${opt.apimock} not found`);

// A long run must measure one build: `dist/` may be rebuilt meanwhile (npm test, npm run build), so the
// compiled tree is copied once under bench/out/ (inside the repo, so its imports still resolve through
// node_modules) and mock runs from the copy.
const ENTRY_SHOWN = path.relative(ROOT, opt.mockEntry);
let SNAPSHOT = null;
for (const part of ['bin', 'src']) {
  const built = path.join(ROOT, 'dist', part);
  if (!opt.mockEntry.startsWith(built + path.sep)) continue;
  SNAPSHOT = path.join(BENCH, 'out', `snapshot-${process.pid}`);
  fs.rmSync(SNAPSHOT, { recursive: true, force: true });
  fs.cpSync(built, path.join(SNAPSHOT, part), { recursive: true });
  // the library (startMock) of the same build, for the journal workloads
  const lib = path.join(ROOT, 'dist', 'lib');
  if (fs.existsSync(lib)) fs.cpSync(lib, path.join(SNAPSHOT, 'lib'), { recursive: true });
  opt.mockEntry = path.join(SNAPSHOT, part, path.relative(built, opt.mockEntry));
}
// the library beside the entry point's build (dist/lib next to dist/bin)
const LIBRARY = path.join(path.dirname(path.dirname(opt.mockEntry)), 'lib', 'library', 'index.js');

const fmt = (x, d = 0) =>
  Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '–';

// ---------------------------------------------------------------- servers
// each: how to start it for a scenario; flavour picks the workspace
const MOCK = {
  name: 'mock',
  flavour: 'mock',
  argv: (cfg, port) => [process.execPath, opt.mockEntry, '-c', cfg, '-p', String(port)],
};
const APIMOCK = opt.apimock
  ? { name: 'apimock-rs', flavour: 'apimock', argv: (cfg, port) => [opt.apimock, '-c', cfg, '-p', String(port)] }
  : null;
const BARE_SRV = { name: 'bare', flavour: 'bare', argv: (spec, port) => [process.execPath, BARE, String(port), spec] };
// The journal workloads (on b): mock with the journal capturing and no page; with one event-stream client reading
// every event (it runs in the load-client process, and is counted: bench/lib/sse-client.mjs); and the library's
// startMock() in a process of its own, with its defaults (journal on, no request log), as a test suite gets it.
const JOURNAL_SCENARIO = 'b_small_file';
const MOCK_INSPECT = {
  name: 'mock --inspect',
  flavour: 'mock',
  inspect: true,
  argv: (cfg, port, inspectPort) => [...MOCK.argv(cfg, port), `--inspect=${inspectPort}`],
};
const MOCK_SSE = { name: 'mock --inspect + SSE', flavour: 'mock', inspect: true, sse: true, argv: MOCK_INSPECT.argv };
const MOCK_LIBRARY = {
  name: 'startMock()',
  flavour: 'mock',
  argv: (cfg, port) => [process.execPath, LIBRARY_SERVER, LIBRARY, path.dirname(cfg), String(port)],
};
const LIBRARY_SERVER = path.join(BENCH, 'lib', 'library-server.mjs');

function machine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model?.trim() ?? '?'}`,
    mem_gib: +(os.totalmem() / 2 ** 30).toFixed(1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadavg_start: os.loadavg().map((x) => +x.toFixed(2)),
  };
}
function commandLine() {
  const args = process.argv
    .slice(2)
    .map((a) => (/[\s"'$]/.test(a) ? JSON.stringify(a) : a))
    .join(' ');
  const env = opt.apimock ? 'APIMOCK_BIN=<apimock-rs 6.2.0 binary> ' : '';
  if (process.env.npm_lifecycle_event === 'bench') return `${env}npm run bench${args ? ` -- ${args}` : ''}`;
  return `${env}node bench/run.mjs${args ? ` ${args}` : ''}`;
}
function apimockVersion() {
  if (!opt.apimock) return null;
  const r = spawnSync(opt.apimock, ['--version'], { encoding: 'utf8', timeout: 10000 });
  return (r.stdout || '').trim() || null;
}

// ---------------------------------------------------------------- state
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-'));
const results = {
  date: new Date().toISOString(),
  command: commandLine(),
  machine: machine(),
  settings: {
    reps: opt.reps,
    duration_s: opt.duration,
    warmup_s: opt.warmup,
    slices: opt.slices,
    slice_warmup_s: opt.sliceWarmup,
    conns: opt.conns,
    soak: opt.soak ? opt.soakDuration : null,
    cli_runs: opt.cliRuns,
  },
  mock_entry: ENTRY_SHOWN,
  apimock: opt.apimock ? (apimockVersion() ?? 'apimock-rs') : null,
  scenarios: scenarios.map((s) => ({ id: s.id, letter: s.letter, title: s.title, target: s.target })),
  bare_specs: {},
  runs: [],
  cli: [],
  cli_checks: [],
  soak: [],
};
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  if (SNAPSHOT) fs.rmSync(SNAPSHOT, { recursive: true, force: true });
  if (opt.keep) console.log(`workspaces kept in ${TMP}`);
  else fs.rmSync(TMP, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    console.error(`\n${sig}: stopping servers`);
    await stopAll();
    cleanup();
    process.exit(130);
  });
}

// ---------------------------------------------------------------- runs
/** a workload's second request, sent in turn with the first (a write then a read) */
function thenOf(scn, dirs) {
  const t = scn.request.then;
  if (t === undefined) return {};
  return { then: { ...t, bodyFile: t.bodyFile ? path.join(dirs[scn.id].mock, t.bodyFile) : null } };
}

function requestOf(scn, dir) {
  const r = scn.request;
  return {
    method: r.method,
    path: r.path,
    headers: r.headers ?? {},
    body: r.bodyFile ? fs.readFileSync(path.join(dir, r.bodyFile)) : null,
  };
}

async function launch(server, scn, dirs, tag) {
  const port = await freePort();
  const inspectPort = server.inspect ? await freePort() : undefined;
  let argv;
  let cwd;
  if (server === BARE_SRV) {
    const spec = results.bare_specs[scn.id];
    argv = server.argv(spec.file, port);
    cwd = path.dirname(spec.file);
  } else {
    cwd = dirs[scn.id][server.flavour];
    argv = server.argv(path.join(cwd, FLAVOURS[server.flavour].config), port, inspectPort);
  }
  const logFile = path.join(TMP, 'logs', `${tag}.log`);
  const srv = await startServer({ argv, cwd, port, logFile });
  if (!srv.error) srv.inspectPort = inspectPort;
  return srv;
}

/** Bare server bytes: mock's own answer when it is right, else the canonical one. */
async function captureBareSpec(scn, dirs) {
  const dir = path.join(TMP, scn.id, 'bare');
  fs.mkdirSync(dir, { recursive: true });
  let spec = null;
  const srv = await launch(MOCK, scn, dirs, `capture-${scn.id}`);
  if (!srv.error) {
    const req = requestOf(scn, dirs[scn.id].mock);
    const res = await httpRequest(srv.port, req);
    const fetch = () => httpRequest(srv.port, req);
    if (!res.error && (await scn.check(res, { fetch })) === null) {
      const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
      const headers = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        if (!skip.has(res.rawHeaders[i].toLowerCase())) headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      }
      spec = { source: 'captured from mock', status: res.status, headers, body: res.body };
    }
    await stopServer(srv);
  }
  if (!spec) {
    const c = scn.canonical();
    spec = {
      source: 'canonical (mock did not answer right)',
      status: c.status,
      headers: c.contentType ? [['content-type', c.contentType]] : [],
      body: c.body,
    };
  }
  const bodyFile = path.join(dir, 'body.bin');
  fs.writeFileSync(bodyFile, spec.body);
  const file = path.join(dir, 'response.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ status: spec.status, headers: spec.headers, bodyFile, parseBody: !!scn.parseBody }),
  );
  if (scn.request.bodyFile)
    fs.copyFileSync(path.join(dirs[scn.id].mock, scn.request.bodyFile), path.join(dir, scn.request.bodyFile));
  results.bare_specs[scn.id] = {
    file,
    source: spec.source,
    status: spec.status,
    header_count: spec.headers.length,
    body_bytes: spec.body.length,
  };
}

/** Start one server for a run: ready time, idle RSS, and whether its answer is right. */
async function startRun(server, scn, dirs, rep) {
  const tag = `${server.name.replace(/[^\w]+/g, '_')}-${scn.id}-r${rep}`;
  const rec = { server: server.name, scenario: scn.id, rep };
  const label = `[rep ${rep}/${opt.reps}] ${scn.letter} ${scn.id.padEnd(14)} ${server.name.padEnd(server.name.length > 10 ? 20 : 10)}`;
  const srv = await launch(server, scn, dirs, tag);
  if (srv.error) {
    rec.error = `start failed: ${srv.error}`;
    rec.log = srv.log;
    console.log(
      `${label} START FAILED: ${srv.error}\n${srv.log
        .split('\n')
        .slice(0, 6)
        .map((l) => `    ${l}`)
        .join('\n')}`,
    );
    results.runs.push(rec);
    return null;
  }
  rec.ready_ms = srv.readyMs;
  await sleep(500);
  rec.rss_idle_kb = rssKb(srv.pid);
  // preflight: is the answer right?
  const wsDir = server === BARE_SRV ? path.dirname(results.bare_specs[scn.id].file) : dirs[scn.id][server.flavour];
  const req = requestOf(scn, wsDir);
  const res = await httpRequest(srv.port, req);
  if (res.error) rec.check = `request failed: ${res.error}`;
  else {
    rec.sample = { status: res.status, bytes: res.body.length, content_type: res.headers['content-type'] ?? null };
    if (server === BARE_SRV)
      rec.check = res.status === results.bare_specs[scn.id].status ? 'ok' : `status ${res.status}`;
    else {
      try {
        rec.check = (await scn.check(res, { fetch: () => httpRequest(srv.port, req) })) ?? 'ok';
      } catch (e) {
        rec.check = `check threw: ${e?.message}`;
      }
    }
  }
  return { rec, srv, label, req, wsDir, sse: server.sse === true };
}

/**
 * One rep of one workload: every server started (one after the other, in the rep's order), then loaded by one
 * client in interleaved slices (see load-client.mjs), then stopped.
 */
async function runGroup(servers, scn, dirs, rep) {
  const runs = [];
  try {
    for (const server of servers) {
      const run = await startRun(server, scn, dirs, rep);
      if (run !== null) runs.push(run);
    }
    if (runs.length === 0) return;
    const req = runs[0].req;
    const multi = await runLoad(CLIENT, {
      targets: runs.map((r) => ({
        port: r.srv.port,
        pid: r.srv.pid,
        ...(r.sse ? { sse: { port: r.srv.inspectPort } } : {}),
      })),
      method: req.method,
      path: req.path,
      headers: req.headers,
      bodyFile: scn.request.bodyFile ? path.join(dirs[scn.id].mock, scn.request.bodyFile) : null,
      ...thenOf(scn, dirs),
      conns: opt.conns,
      warmupS: opt.warmup,
      durationS: opt.duration,
      slices: opt.slices,
      sliceWarmupS: opt.sliceWarmup,
      timeoutMs: 5000,
      expectStatus: scn.expectStatus,
    });
    for (const [i, { rec, srv, label }] of runs.entries()) {
      const load = multi.error ? { error: multi.error } : multi.targets[i];
      rec.rss_after_kb = rssKb(srv.pid);
      if (srv.exited) rec.error = `server exited during load ${JSON.stringify(srv.exited)}`;
      if (load.error) rec.error = `load: ${load.error}`;
      else {
        rec.load = load;
        rec.server_cpu_us_per_req = load.requests ? ((load.server_ticks / CLK_TCK) * 1e6) / load.requests : NaN;
      }
      const errs = load.errors ? Object.values(load.errors).reduce((a, b) => a + b, 0) : 0;
      const notes = [rec.check !== 'ok' ? `CHECK: ${rec.check}` : 'ok'];
      if (load.sse)
        notes.push(
          `events ${load.sse.events}/${load.sse.requests}${load.sse.lost ? ` LOST ${load.sse.lost}` : ''}${load.sse.duplicates ? ` repeated ${load.sse.duplicates}` : ''}${load.sse.out_of_order ? ` out of order ${load.sse.out_of_order}` : ''}${load.sse.reconnects ? ` (${load.sse.reconnects} reconnects)` : ''}`,
        );
      if (load.unexpected_status)
        notes.push(`${load.unexpected_status} unexpected statuses ${JSON.stringify(load.statuses)}`);
      if (errs) notes.push(`socket errors ${JSON.stringify(load.errors)}`);
      if (rec.error) notes.push(rec.error);
      console.log(
        `${label} ${fmt(load.rps).padStart(7)} req/s  p50 ${fmt(load.latency_ms?.p50, 2)} ms  p99 ${fmt(load.latency_ms?.p99, 2)} ms  rss ${fmt(rec.rss_idle_kb / 1024, 1)}→${fmt(rec.rss_after_kb / 1024, 1)} MB  ready ${fmt(rec.ready_ms)} ms  client cpu ${fmt(load.client_cpu, 2)}  ${notes.join('; ')}`,
      );
    }
  } finally {
    for (const { rec, srv } of runs) {
      await stopServer(srv);
      rec.log_head = readLog(srv.logFile, 600);
      // the per-request console log of a loaded server runs to megabytes: keep only its head
      if (!opt.keep) fs.rmSync(srv.logFile, { force: true });
      results.runs.push(rec);
    }
  }
}

async function soakOne(scn, dirs) {
  const rec = { scenario: scn.id, duration_s: opt.soakDuration, samples: [] };
  const srv = await launch(MOCK, scn, dirs, `soak-${scn.id}`);
  if (srv.error) {
    rec.error = srv.error;
    results.soak.push(rec);
    console.log(`[soak] ${scn.id} START FAILED: ${srv.error}`);
    return;
  }
  try {
    await sleep(500);
    rec.rss_idle_kb = rssKb(srv.pid);
    const req = requestOf(scn, dirs[scn.id].mock);
    const t0 = Date.now();
    const load = await runLoad(
      CLIENT,
      {
        port: srv.port,
        method: req.method,
        path: req.path,
        headers: req.headers,
        bodyFile: scn.request.bodyFile ? path.join(dirs[scn.id].mock, scn.request.bodyFile) : null,
        ...thenOf(scn, dirs),
        conns: opt.conns,
        warmupS: opt.warmup,
        durationS: opt.soakDuration,
        timeoutMs: 5000,
        expectStatus: scn.expectStatus,
      },
      { onTick: () => rec.samples.push([+((Date.now() - t0) / 1000).toFixed(1), rssKb(srv.pid)]), tickMs: 1000 },
    );
    rec.rss_after_kb = rssKb(srv.pid);
    if (load.error) rec.error = load.error;
    else {
      rec.rps = load.rps;
      rec.per_second = load.per_second;
      rec.p99_ms = load.latency_ms.p99;
    }
    console.log(
      `[soak] ${scn.id.padEnd(14)} ${fmt(load.rps)} req/s  rss idle ${fmt(rec.rss_idle_kb / 1024, 1)} MB, samples ${rec.samples.map((s) => fmt(s[1] / 1024, 0)).join(' ')}`,
    );
  } finally {
    await stopServer(srv);
    if (!opt.keep) fs.rmSync(srv.logFile, { force: true });
  }
  results.soak.push(rec);
}

function cliRep(rep, dirs) {
  const mockDir = dirs.cli_mock;
  const mockCfg = path.join(mockDir, FLAVOURS.mock.config);
  const cmds = [
    { name: 'mock validate', op: 'validate', argv: [process.execPath, opt.mockEntry, 'validate', '--config', mockCfg] },
    { name: 'mock get', op: 'get', argv: [process.execPath, opt.mockEntry, 'get', CLI_GET_PATH, '-c', mockCfg] },
    { name: 'node -e 0', op: 'floor', argv: [process.execPath, '-e', '0'] },
    { name: 'mock --version', op: 'version', argv: [process.execPath, opt.mockEntry, '--version'] },
  ];
  // `npx mock` in the checkout, and npm's own floor for `npm exec` there: what npx adds beyond npm is
  // (npx mock --version) - (npm exec -- node -e 0), to be set against `mock --version` (docs/development.md)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  cmds.push({ name: 'npx mock --version', op: 'npx', argv: [npx, 'mock', '--version'], cwd: ROOT });
  cmds.push({ name: 'npm exec node -e 0', op: 'npx-floor', argv: [npm, 'exec', '--', 'node', '-e', '0'], cwd: ROOT });
  if (opt.apimock) {
    const aCfg = path.join(dirs.cli_apimock, FLAVOURS.apimock.config);
    cmds.push({ name: 'apimock-rs validate', op: 'validate', argv: [opt.apimock, 'validate', '--config', aCfg] });
    cmds.push({ name: 'apimock-rs get', op: 'get', argv: [opt.apimock, 'get', CLI_GET_PATH, '-c', aCfg] });
  }
  if (rep === 1) {
    for (const c of cmds) {
      const p = probe(c, mockDir);
      let ok = p.exit === 0;
      if (c.name.endsWith('validate')) ok = ok && /passed/i.test(p.output);
      if (c.name.endsWith(' get')) ok = ok && /Status:\s*200/.test(p.output);
      results.cli_checks.push({ name: c.name, exit: p.exit, first_line: p.first_line, ok });
      if (!ok) console.log(`[cli] ${c.name}: exit ${p.exit}: ${p.output.split('\n').slice(0, 4).join(' | ')}`);
    }
  }
  const t = timeCommands(cmds, { cwd: mockDir, runs: opt.cliRuns, warmup: 3 });
  for (const c of cmds) {
    results.cli.push({ rep, name: c.name, ...t[c.name] });
    console.log(
      `[rep ${rep}/${opt.reps}] cli ${c.name.padEnd(20)} ${fmt(t[c.name].median_ms, 1)} ms (median of ${t[c.name].runs})`,
    );
  }
}

// ---------------------------------------------------------------- main
function peers() {
  return runPeers({
    opt,
    tmp: TMP,
    bench: BENCH,
    loadClient: CLIENT,
    bareServer: BARE,
    mockEntry: opt.mockEntry,
    mockEntryShown: ENTRY_SHOWN,
    mockVersion: JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
    command: commandLine(),
    machine: machine(),
  });
}

async function main() {
  if (opt.peersOnly) {
    await peers();
    return;
  }
  fs.mkdirSync(path.join(TMP, 'logs'), { recursive: true });
  const dirs = buildWorkspaces(TMP, scenarios, { apimock: !!APIMOCK });
  const servers = [MOCK, BARE_SRV, ...(APIMOCK ? [APIMOCK] : [])];
  console.log(
    `mock: node ${results.mock_entry}; bare: bench/lib/bare-server.mjs; apimock-rs: ${APIMOCK ? results.apimock : 'skipped (set APIMOCK_BIN)'}`,
  );
  console.log(
    `${scenarios.length} scenarios × ${servers.length} servers × ${opt.reps} reps, ${opt.warmup}+${opt.duration} s each, ${opt.conns} connections; workspaces in ${TMP}`,
  );
  const t0 = Date.now();
  if (opt.http) {
    for (const scn of scenarios) await captureBareSpec(scn, dirs);
    for (const [id, b] of Object.entries(results.bare_specs))
      console.log(`bare ${id}: ${b.status}, ${b.header_count} headers, ${b.body_bytes} B body (${b.source})`);
  }
  for (let rep = 1; rep <= opt.reps; rep++) {
    if (opt.http) {
      for (const [si, scn] of scenarios.entries()) {
        const group =
          opt.journal && scn.id === JOURNAL_SCENARIO ? [...servers, MOCK_INSPECT, MOCK_SSE, MOCK_LIBRARY] : servers;
        const k = (rep - 1 + si) % group.length; // rotate who goes first
        await runGroup([...group.slice(k), ...group.slice(0, k)], scn, dirs, rep);
      }
    }
    if (opt.cli) cliRep(rep, dirs);
  }
  if (opt.soak && opt.http) for (const scn of scenarios) await soakOne(scn, dirs);
  results.elapsed_s = Math.round((Date.now() - t0) / 1000);
  results.machine.loadavg_end = os.loadavg().map((x) => +x.toFixed(2));

  for (const r of results.runs) if (r.check === 'ok' && !r.error) delete r.log_head; // keep server output only where something went wrong
  const jsonOut = opt.json ?? path.join(BENCH, 'out', `results-${stamp}.json`);
  fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
  fs.writeFileSync(jsonOut, JSON.stringify(results, null, 2));
  const md = renderResults(results);
  fs.mkdirSync(path.dirname(opt.out), { recursive: true });
  fs.writeFileSync(opt.out, md);
  console.log(`\n${md}\nwrote ${path.relative(process.cwd(), opt.out)} and ${path.relative(process.cwd(), jsonOut)}`);
  if (opt.peers) await peers();
}

main()
  .catch(async (e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    cleanup();
  });
