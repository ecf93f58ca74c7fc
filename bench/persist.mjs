// The `--persist` workload (docs/state.md, "Where the data lives"): `POST /notes` to a `--db` collection, each 201
// sent only once its change is on disk (written, fsynced, renamed), with `--conns` concurrent keep-alive clients,
// beside the same server without `--persist` for reference. Concurrent writes share one file write (group commit),
// so the throughput with --persist grows with the clients until the disk's fsync rate is the limit.
//
//   npm run build && node bench/persist.mjs [--duration 5] [--conns 16] [--items 1000]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const MAIN = path.join(ROOT, 'dist', 'bin', 'main.cjs');
if (!fs.existsSync(MAIN)) throw new Error('build first: npm run build');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(args[i + 1]);
};
const DURATION = opt('duration', 5);
const CONNS = opt('conns', 16);
const ITEMS = opt('items', 1000);

function start(dir, extra) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, '--db', 'db.json', '--no-watch', '-p', '0', ...extra], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /Listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`mock exited ${code}`)));
  });
}

function post(agent, port, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/notes',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function measure(persist) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-persist-'));
  const notes = Array.from({ length: ITEMS }, (_, i) => ({ id: i + 1, text: `note ${i}`, pad: 'x'.repeat(100) }));
  fs.writeFileSync(path.join(dir, 'db.json'), JSON.stringify({ notes }, null, 2));
  const { child, port } = await start(dir, persist ? ['--persist'] : []);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNS });
  const body = JSON.stringify({ text: 'a new note', pad: 'y'.repeat(100) });
  let done = 0;
  const latencies = [];
  const until = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNS }, async () => {
      while (Date.now() < until) {
        const t = performance.now();
        await post(agent, port, body);
        latencies.push(performance.now() - t);
        done++;
      }
    }),
  );
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const stored = JSON.parse(fs.readFileSync(path.join(dir, 'db.json'), 'utf8')).notes.length - ITEMS;
  fs.rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return { persist, reqPerSec: Math.round(done / DURATION), p50ms: p(0.5), p99ms: p(0.99), acknowledged: done, stored };
}

const rows = [await measure(false), await measure(true)];
console.log(`POST /notes to a ${ITEMS}-item --db collection, ${CONNS} clients, ${DURATION} s each`);
console.table(rows);
const [plain, persisted] = rows;
if (persisted.stored < persisted.acknowledged) {
  console.error(`--persist: ${persisted.acknowledged} acknowledged, ${persisted.stored} in the file`);
  process.exitCode = 1;
}
console.log(`--persist / in memory: ${(persisted.reqPerSec / plain.reqPerSec).toFixed(2)}`);
