#!/usr/bin/env node
// Callbacks at a steady rate (docs/callbacks.md): the real `mock serve` answers `POST /hook-me` with a 202 whose
// rule makes one callback to a local receiver this script starts; requests go out at `rate` a second for
// `seconds`, and the receiver counts what arrives. Reports sent, answered, received, lost and the callback's lateness
// (from its request's answer to its arrival) at p50 / p99.
//
//   node bench/callbacks.mjs [rate=1000] [seconds=10]

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startServer, stopServer } from './lib/proc.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const rate = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 10);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-bench-callbacks-'));

const answeredAt = new Map();
const lateness = [];
let received = 0;
const receiver = http.createServer({ keepAlive: true }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received++;
    const n = JSON.parse(Buffer.concat(chunks).toString('utf8')).n;
    const at = answeredAt.get(n);
    if (at !== undefined) lateness.push(performance.now() - at);
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const rport = receiver.address().port;

fs.writeFileSync(path.join(TMP, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\n');
fs.writeFileSync(
  path.join(TMP, 'rules.toml'),
  `[[rules]]
when.request = { url_path = "/hook-me", method = "POST" }
respond.status = 202
respond.template = true
respond.callbacks = [{ url = "http://127.0.0.1:${rport}/hooks", json = '{ "n": {{request.body.n}} }', retries = 3, retry_delay_ms = 100 }]
`,
);
const port = await freePort();
const srv = await startServer({
  argv: [process.execPath, path.join(ROOT, 'dist/bin/main.cjs'), '-p', String(port)],
  cwd: TMP,
  port,
  logFile: path.join(TMP, 'mock.log'),
  env: process.env,
});
if (srv.error) throw new Error(srv.error);

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
let sent = 0;
let answered = 0;
let failed = 0;
const total = rate * seconds;
const start = performance.now();
await new Promise((resolve) => {
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    while (sent < due) {
      const n = sent++;
      const body = JSON.stringify({ n });
      const req = http.request(
        {
          port,
          path: '/hook-me',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            answeredAt.set(n, performance.now());
            if (res.statusCode === 202) answered++;
          });
        },
      );
      req.on('error', () => failed++);
      req.end(body);
    }
    if (sent < total) setTimeout(tick, 5);
    else resolve();
  };
  tick();
});
const sentFor = (performance.now() - start) / 1000;
// the last answers, then their callbacks: wait (bounded) until every request is answered and every callback in
const deadline = performance.now() + 30_000;
while ((answered + failed < sent || received < answered) && performance.now() < deadline)
  await new Promise((r) => setTimeout(r, 50));
const elapsed = (performance.now() - start) / 1000;
lateness.sort((a, b) => a - b);
const pct = (p) =>
  lateness.length === 0 ? NaN : lateness[Math.min(lateness.length - 1, Math.floor((p / 100) * lateness.length))];
console.log(
  JSON.stringify({
    rate,
    seconds,
    sent,
    sent_in_s: Number(sentFor.toFixed(2)),
    answered,
    failed,
    received,
    lost: answered - received,
    elapsed_s: Number(elapsed.toFixed(2)),
    lateness_ms: { p50: Number(pct(50).toFixed(1)), p99: Number(pct(99).toFixed(1)) },
  }),
);
await stopServer(srv);
agent.destroy();
receiver.close();
receiver.closeAllConnections();
fs.rmSync(TMP, { recursive: true, force: true });
