// WireMock's admin API stub creation rate (docs/coming-from-wiremock.md, target ≥ 1,000 stubs/s): one
// `mock --inspect` of this build, N stubs posted to `POST /__admin/mappings` by C concurrent keep-alive clients
// (each a distinct URL, with a header matcher and a JSON body, as a test suite's set-up posts them), then one
// request to the last stub to check it answers. Prints stubs/s per rep and the median.
//
//   npm run build && node bench/wiremock-admin.mjs [--stubs 2000] [--conns 4] [--reps 3]

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
const STUBS = opt('stubs', 2000);
const CONNS = opt('conns', 4);
const REPS = opt('reps', 3);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNS });

function post(port, p, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: p, method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function start(dir) {
  const child = spawn(process.execPath, [MAIN, '-p', '0', '--inspect', '--no-watch'], { cwd: dir });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  for (let i = 0; i < 600 && !/Listening on http:\/\/127\.0\.0\.1:\d+/.test(out); i++)
    await new Promise((r) => setTimeout(r, 50));
  const admin = Number(/Inspector: http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1]);
  const port = Number(/Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
  if (!admin || !port) throw new Error(`mock did not start:\n${out}`);
  return { child, admin, port };
}

const mapping = (i) =>
  JSON.stringify({
    request: { method: 'GET', urlPath: `/api/items/${i}`, headers: { 'X-Tenant': { equalTo: `t${i}` } } },
    response: { status: 200, jsonBody: { id: i, name: `item ${i}` }, headers: { 'Content-Type': 'application/json' } },
  });

const rates = [];
for (let rep = 0; rep < REPS; rep++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-wm-admin-'));
  const { child, admin, port } = await start(dir);
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNS }, async () => {
      for (let i = next++; i < STUBS; i = next++) {
        const r = await post(admin, '/__admin/mappings', mapping(i));
        if (r.status !== 201) throw new Error(`stub ${i}: ${r.status} ${r.text}`);
      }
    }),
  );
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const check = await fetch(`http://127.0.0.1:${port}/api/items/${STUBS - 1}`, {
    headers: { 'x-tenant': `t${STUBS - 1}` },
  });
  const body = await check.json();
  if (body.id !== STUBS - 1) throw new Error(`the last stub answered ${JSON.stringify(body)}`);
  rates.push(STUBS / s);
  console.log(`rep ${rep + 1}: ${STUBS} stubs in ${s.toFixed(2)} s = ${Math.round(STUBS / s)} stubs/s`);
  child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
rates.sort((a, b) => a - b);
console.log(`median: ${Math.round(rates[Math.floor(rates.length / 2)])} stubs/s (target ≥ 1,000)`);
agent.destroy();
