// The sessions workload (docs/speed.md#sessions-and-overrides): one mock with `service.sessions = true` and 100
// sessions, each with one override of its own, loaded by requests interleaved over the 100 session ids (each
// request carries the next id in `x-mock-session`), next to the bare server sending the same bytes, in interleaved
// slices of the same run (the load client's `targets`), so each rep gives a paired ratio. A second group loads the
// same mock without a session header (the shared state, no override) for reference.
//
//   npm run build && node bench/sessions.mjs [--reps 3] [--duration 5] [--sessions 100] [--conns 50]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(args[i + 1]);
};
const REPS = opt('reps', 3);
const DURATION = opt('duration', 5);
const SESSIONS = opt('sessions', 100);
const CONNS = opt('conns', 50);
const LIBRARY = path.join(ROOT, 'dist', 'lib', 'library', 'index.js');
if (!fs.existsSync(LIBRARY)) throw new Error('build first: npm run build');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-sessions-'));
fs.writeFileSync(path.join(dir, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\nsessions = true\n');
fs.writeFileSync(
  path.join(dir, 'rules.toml'),
  '[[rules]]\nwhen.request.url_path = "/api/cart"\nrespond = { json = \'{"s":"shared"}\' }\n',
);
fs.writeFileSync(path.join(dir, 'body.json'), '{"s":0}');
fs.writeFileSync(
  path.join(dir, 'bare.json'),
  JSON.stringify({
    status: 200,
    headers: [['content-type', 'application/json']],
    bodyFile: path.join(dir, 'body.json'),
    parseBody: false,
  }),
);

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function start(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('Listening on')) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code}`)));
  });
}

function load(settings) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH, 'lib', 'load-client.mjs'), JSON.stringify(settings)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('close', () => {
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        reject(e);
      }
    });
  });
}

const mockPort = await freePort();
const barePort = await freePort();
const mock = await start([
  path.join(BENCH, 'lib', 'sessions-server.mjs'),
  LIBRARY,
  dir,
  String(mockPort),
  String(SESSIONS),
]);
const bare = await start([path.join(BENCH, 'lib', 'bare-server.mjs'), String(barePort), path.join(dir, 'bare.json')]);

// the answers are the sessions' own
for (const i of [0, 7, SESSIONS - 1]) {
  const r = await fetch(`http://127.0.0.1:${mockPort}/api/cart`, { headers: { 'x-mock-session': `s${i}` } });
  const body = await r.text();
  if (body !== `{"s":${i}}`) throw new Error(`session s${i} answered ${body}`);
}
if ((await (await fetch(`http://127.0.0.1:${mockPort}/api/cart`)).text()) !== '{"s":"shared"}')
  throw new Error('the shared answer is wrong');

const ids = Array.from({ length: SESSIONS }, (_, i) => `s${i}`);
const groups = [
  { name: `${SESSIONS} sessions interleaved, one override each`, rotate: { name: 'x-mock-session', values: ids } },
  { name: 'no session header (shared state, no override)', rotate: null },
];
const results = [];
for (const g of groups) {
  const ratios = [];
  for (let rep = 0; rep < REPS; rep++) {
    const order = rep % 2 === 0 ? [mock, bare] : [bare, mock];
    const r = await load({
      method: 'GET',
      path: '/api/cart',
      conns: CONNS,
      warmupS: 1,
      durationS: DURATION,
      slices: 5,
      expectStatus: 200,
      rotate: g.rotate,
      targets: order.map((c) => ({ port: c === mock ? mockPort : barePort, pid: c.pid })),
    });
    if (r.error) throw new Error(r.error);
    const [m, b] = order[0] === mock ? r.targets : [...r.targets].reverse();
    ratios.push({ mock: m.rps, bare: b.rps, ratio: m.rps / b.rps, errors: m.errors, unexpected: m.unexpected_status });
    process.stdout.write(
      `${g.name}, rep ${rep + 1}: mock ${m.rps.toFixed(0)} req/s, bare ${b.rps.toFixed(0)} req/s, ratio ${(m.rps / b.rps).toFixed(3)}\n`,
    );
  }
  const sorted = ratios.map((x) => x.ratio).sort((a, b) => a - b);
  results.push({ group: g.name, reps: ratios, median_ratio: sorted[Math.floor(sorted.length / 2)] });
}
for (const r of results) process.stdout.write(`${r.group}: median mock ÷ bare ${r.median_ratio.toFixed(3)}\n`);
mock.removeAllListeners('exit');
bare.removeAllListeners('exit');
mock.kill('SIGTERM');
bare.kill('SIGTERM');
fs.rmSync(dir, { recursive: true, force: true });
