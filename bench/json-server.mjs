// json-server's relations under load (docs/coming-from-json-server.md): `GET /posts?_embed=comments` on 1,000
// posts × 10 comments, and a nested-route `POST /posts/1/comments`, from `mock --db`, next to a bare node:http
// server sending mock's own answer bytes from memory (the ceiling), with `--conns` keep-alive clients, windows
// taken in turn. Prints req/s and mock / bare per workload.
//
//   npm run build && node bench/json-server.mjs [--duration 3] [--conns 8] [--reps 2]

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
const DURATION = opt('duration', 3);
const CONNS = opt('conns', 8);
const REPS = opt('reps', 2);

function startMock(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, '--db', 'db.json', '--no-watch', '-p', '0'], {
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
  });
}

/** a node:http server answering every request with these status, headers and body */
function startBare(answer) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })),
  );
}

function once(agent, port, w) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: w.method, path: w.path, agent, headers: w.headers },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(w.body);
  });
}

async function load(port, w) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNS });
  let done = 0;
  const until = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNS }, async () => {
      while (Date.now() < until) {
        const r = await once(agent, port, w);
        if (r.status !== w.status) throw new Error(`${w.name}: status ${r.status}`);
        done++;
      }
    }),
  );
  agent.destroy();
  return done / DURATION;
}

const posts = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, title: `post ${i + 1}`, views: i }));
const comments = Array.from({ length: 10_000 }, (_, i) => ({
  id: i + 1,
  body: `comment ${i + 1}`,
  postId: (i % 1000) + 1,
}));
const body = JSON.stringify({ body: 'a new comment' });
const WORKLOADS = [
  { name: 'GET /posts?_embed=comments (1,000 × 10)', method: 'GET', path: '/posts?_embed=comments', status: 200 },
  { name: 'GET /posts (1,000, no relation)', method: 'GET', path: '/posts', status: 200 },
  {
    name: 'POST /posts/1/comments',
    method: 'POST',
    path: '/posts/1/comments',
    status: 201,
    body,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  },
];

const rows = [];
for (const w of WORKLOADS) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-json-server-'));
  fs.writeFileSync(path.join(dir, 'db.json'), JSON.stringify({ posts, comments }));
  const mock = await startMock(dir);
  const agent = new http.Agent({ keepAlive: false });
  const sample = await once(agent, mock.port, w);
  const headers = { ...sample.headers };
  delete headers['transfer-encoding'];
  const bare = await startBare({ status: sample.status, headers, body: sample.body });
  let m = 0;
  let b = 0;
  for (let rep = 0; rep < REPS; rep++) {
    m += await load(mock.port, w);
    b += await load(bare.port, w);
  }
  mock.child.kill('SIGTERM');
  bare.server.close();
  await new Promise((r) => mock.child.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
  rows.push({
    workload: w.name,
    bytes: sample.body.length,
    mockReqPerSec: Math.round(m / REPS),
    bareReqPerSec: Math.round(b / REPS),
    ratio: (m / b).toFixed(2),
  });
}
console.log(`${CONNS} keep-alive clients, ${REPS} × ${DURATION} s windows each, mock and bare in turn`);
console.table(rows);
