// `npm run compare:wiremock`: the real WireMock and `mock --init --from <the same mappings>` side by side, every
// request of the corpus sent to both, every difference reported (status, body, the headers the stub sets).
// Exits 1 on a difference not listed in known-differences.json (each listed one has its reason, mirrored in
// docs/import.md), 0 otherwise; exits 0 with a note when Java is not on PATH and --require-java is not given.
//
//   npm run compare:wiremock                      # build first (npm run build): it runs dist/bin/main.cjs
//   node compare/wiremock/run.mjs --json out.json # also write every exchange and difference
//   node compare/wiremock/run.mjs --mock <main.cjs>   # another build of mock (a before/after figure)
//   node compare/wiremock/run.mjs --only matching     # one corpus part (matching, templates: the template cases
//                                                     # are posted over both servers' /__admin, see templates.mjs)
//   node compare/wiremock/run.mjs --drop-refused      # a mapping file mock's import refuses is left out of its
//                                                     # copy (and its requests count as differences), not fatal
//
// WireMock is the npm package `wiremock` (it ships the standalone jar), installed by exact version into a cache
// folder outside the project as the peers bench does (bench/lib/peers.mjs), never a dependency of the project.
// Loopback only; both servers are children started here and stopped by their PID, on error too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, PEERS, resolvePeer } from '../../bench/lib/peers.mjs';
import { diffExchanges } from './diff.mjs';
import { runTemplateCases, send } from './templates.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const CORPUS = path.join(here, 'corpus');
/** the corpus parts: each a folder with mappings/, optional __files/ and requests.json */
const PARTS = ['matching', 'templates'];

function args(argv) {
  const o = { json: undefined, mock: path.join(repo, 'dist/bin/main.cjs'), only: undefined, requireJava: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') o.json = argv[++i];
    else if (a === '--mock') o.mock = path.resolve(argv[++i]);
    else if (a === '--only') o.only = argv[++i];
    else if (a === '--require-java') o.requireJava = true;
    else if (a === '--drop-refused') o.dropRefused = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const children = new Set();
function stopAll() {
  for (const c of children) {
    try {
      c.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
process.on('exit', stopAll);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/** Starts a child and resolves with the port its output names (`re` captures it), within `ms`. */
function startServer(cmd, argv, cwd, re, ms) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start within ${ms / 1000} s:\n${out}`)), ms);
    const onData = (d) => {
      out += d;
      const m = re.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]), out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited ${code} before it listened:\n${out}`));
    });
  });
}

/** One exchange: status, lower-cased headers and the body as text, or the error a fault gives. */
function exchange(port, r) {
  const headers = { ...(r.headers ?? {}) };
  let body;
  if (r.json !== undefined) {
    body = JSON.stringify(r.json);
    headers['content-type'] ??= 'application/json';
  } else if (r.body !== undefined) body = r.body;
  else if (r.base64 !== undefined) body = Buffer.from(r.base64, 'base64');
  return send(port, { method: r.method ?? 'GET', url: r.path, headers, body });
}

/** The requests of every part, each with its part; a `sequence` keeps its requests in order. */
function readRequests(parts) {
  const out = [];
  for (const part of parts) {
    const file = path.join(CORPUS, part, 'requests.json');
    if (!fs.existsSync(file)) continue;
    for (const r of JSON.parse(fs.readFileSync(file, 'utf8'))) out.push({ ...r, part });
  }
  return out;
}

/** Sends every request to both servers: sequences one by one, the rest a few at a time. */
async function sendAll(requests, ports) {
  const results = new Map();
  const one = async (r) => {
    const wm = await exchange(ports.wiremock, r);
    const mk = await exchange(ports.mock, r);
    results.set(r, { wiremock: wm, mock: mk });
  };
  const sequences = new Map();
  const free = [];
  for (const r of requests) {
    if (r.sequence === undefined) free.push(r);
    else {
      const key = `${r.part}/${r.sequence}`;
      if (!sequences.has(key)) sequences.set(key, []);
      sequences.get(key).push(r);
    }
  }
  const lanes = [...sequences.values()];
  const WIDTH = 8;
  for (let i = 0; i < WIDTH; i++) lanes.push(free.filter((_, k) => k % WIDTH === i));
  await Promise.all(
    lanes.map(async (lane) => {
      for (const r of lane) await one(r);
    }),
  );
  return requests.map((r) => ({ request: r, ...results.get(r) }));
}

function copyPart(part, root) {
  const from = path.join(CORPUS, part);
  for (const sub of ['mappings', '__files']) {
    const src = path.join(from, sub);
    if (fs.existsSync(src)) fs.cpSync(src, path.join(root, sub, sub === 'mappings' ? part : ''), { recursive: true });
  }
}

/** `mock --init --from <source>` in `ws` (emptied first) */
function initMock(bin, source, ws) {
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws);
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, '--init', '--from', source, '--no-load-cache'], { cwd: ws });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (out += d));
    c.on('exit', (code) => resolve({ code, out }));
  });
}

async function main() {
  const o = args(process.argv.slice(2));
  const peer = PEERS.find((p) => p.id === 'wiremock');
  const resolved = resolvePeer(peer, { root: cacheRoot(), log: (l) => console.error(l) });
  if (resolved.skip !== undefined) {
    console.log(`compare:wiremock skipped: ${resolved.skip}`);
    process.exit(o.requireJava ? 1 : 0);
  }
  if (!fs.existsSync(o.mock)) throw new Error(`${o.mock} is missing: run \`npm run build\` first`);
  const parts = o.only === undefined ? PARTS : [o.only];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-compare-wiremock-'));
  try {
    const root = path.join(tmp, 'wiremock');
    fs.mkdirSync(path.join(root, '__files'), { recursive: true });
    for (const part of parts) copyPart(part, root);
    const ws = path.join(tmp, 'mock');
    fs.mkdirSync(ws);
    const started = Date.now();
    const wmP = startServer(
      'java',
      ['-jar', resolved.run.jar, '--port', '0', '--bind-address', '127.0.0.1', '--root-dir', root],
      root,
      /^port:\s+(\d+)/m,
      120_000,
    );
    wmP.catch(() => {});
    // mock imports a copy: with --drop-refused a file its import refuses is taken out of the copy only
    const source = path.join(tmp, 'source');
    fs.cpSync(root, source, { recursive: true });
    const dropped = [];
    let init;
    for (let tries = 0; ; tries++) {
      init = await initMock(o.mock, source, ws);
      const refused = /(mappings\/[^:\s]+\.json)/.exec(init.out)?.[1];
      if (init.code === 0 || !o.dropRefused || refused === undefined || tries >= 50) break;
      dropped.push(refused);
      fs.rmSync(path.join(source, refused));
    }
    if (init.code !== 0) throw new Error(`mock --init --from exited ${init.code}:\n${init.out}`);
    if (dropped.length > 0) console.log(`mock's import refused (left out of its copy): ${dropped.join(', ')}`);
    const mkP = startServer(
      process.execPath,
      [o.mock, '-p', '0', '--inspect=0'],
      ws,
      /Listening on https?:\/\/[^\s]+:(\d+)/,
      60_000,
    );
    const [wm, mk] = await Promise.all([wmP, mkP]);
    const requests = readRequests(parts);
    const exchanges = await sendAll(requests, { wiremock: wm.port, mock: mk.port });
    if (parts.includes('templates')) {
      const admin = /Inspector: https?:\/\/[^\s]+:(\d+)/.exec(mk.out)?.[1];
      if (admin === undefined) throw new Error(`mock did not name its inspector's port:\n${mk.out}`);
      const ports = { wiremock: wm.port, mock: mk.port, wiremockAdmin: wm.port, mockAdmin: Number(admin) };
      exchanges.push(...(await runTemplateCases(path.join(CORPUS, 'templates'), ports)));
    }
    const known = JSON.parse(fs.readFileSync(path.join(here, 'known-differences.json'), 'utf8'));
    const report = diffExchanges(exchanges, known);
    console.log(
      init.out
        .trim()
        .split('\n')
        .filter((l) => /left out|Imported/.test(l))
        .join('\n'),
    );
    for (const line of report.lines) console.log(line);
    console.log(
      `\n${report.total} requests: ${report.agree} answered alike (${((100 * report.agree) / Math.max(1, report.total)).toFixed(1)}%), ` +
        `${report.known} with a known difference, ${report.unlisted} with an unlisted one; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (o.json !== undefined) fs.writeFileSync(o.json, JSON.stringify({ exchanges, report }, null, 2));
    process.exitCode = report.unlisted > 0 ? 1 : 0;
  } finally {
    stopAll();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 2;
  stopAll();
});
