#!/usr/bin/env node
// HTTP/2 and WebSocket workloads (docs/speed.md, docs/http2.md, docs/websocket.md), each against its bare
// reference, alternating rep by rep:
//
//   h2     h2load (Debian's nghttp2-client) over TLS, h2 by ALPN, one rule's JSON answer: mock vs a bare
//          node:http2 server sending the same status, headers and body
//   echo   WebSocket echo, 100 connections each sending its next message when the last one came back: mock's
//          `respond.websocket = { echo = true }` vs a bare `ws` echo server
//   idle   10,000 idle WebSocket connections held by mock: its RSS, and a neighbour's HTTP latency before and
//          while they are held
//
//   node bench/h2ws.mjs [h2,echo,idle] [reps]       (npm run build first)
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, httpRequest, rssKb, sleep, startServer, stopAll, stopServer } from './lib/proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(BENCH, '..', 'dist', 'bin', 'main.cjs');
const which = (process.argv[2] ?? 'h2,echo,idle').split(',');
const reps = Number(process.argv[3] ?? 3);
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-h2ws-'));

const RULES = `[[rules]]
when.request.url_path = "/api/prices"
respond = { json = '{"eur":1.08,"usd":1.0,"gbp":0.86,"updated":"2026-12-02T10:00:00Z"}' }

[[rules]]
when.request.url_path = "/ws/echo"
respond.websocket = { echo = true }
`;

function certPair() {
  const cert = path.join(TMP, 'cert.pem');
  const key = path.join(TMP, 'key.pem');
  return new Promise((resolve, reject) =>
    execFile(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      (err) => (err ? reject(err) : resolve({ cert, key })),
    ),
  );
}

async function startMock(tlsPort) {
  const port = await freePort();
  const ws = path.join(TMP, `ws-${port}`);
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'rules.toml'), RULES);
  const tls =
    tlsPort === undefined
      ? ''
      : `\n[listener.tls]\ncert = "${path.join(TMP, 'cert.pem')}"\nkey = "${path.join(TMP, 'key.pem')}"\nport = ${tlsPort}\n`;
  fs.writeFileSync(
    path.join(ws, 'mock.toml'),
    `[listener]\nport = ${port}\nmax_connections = 20000\nmax_held_connections = 20000\n${tls}\n[service]\nrule_sets = ["rules.toml"]\n`,
  );
  const srv = await startServer({
    argv: [process.execPath, MAIN, '--no-watch'],
    cwd: ws,
    port,
    logFile: path.join(ws, 'log'),
  });
  if (srv.error) throw new Error(`mock did not start: ${srv.error}\n${srv.log}`);
  return srv;
}

function h2load(url) {
  return new Promise((resolve) =>
    execFile(
      'h2load',
      ['-n', '40000', '-c', '8', '-m', '16', '-t', '1', url],
      { maxBuffer: 1 << 20 },
      (err, stdout) => {
        const m = /finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(stdout);
        const ok = /(\d+) succeeded/.exec(stdout);
        resolve({ rps: m ? Number(m[1]) : NaN, succeeded: ok ? Number(ok[1]) : 0, error: err?.message });
      },
    ),
  );
}

/** mock's answer as an HTTP/2 client gets it, for the bare server to send the same */
function answerOf(url) {
  return new Promise((resolve, reject) => {
    const s = http2.connect(url, { rejectUnauthorized: false });
    const req = s.request({ ':path': new URL(url).pathname });
    let status = 0;
    const headers = [];
    let body = '';
    req.on('response', (h) => {
      status = Number(h[':status']);
      for (const [k, v] of Object.entries(h))
        if (!k.startsWith(':') && k !== 'date' && k !== 'content-length') headers.push([k, String(v)]);
    });
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      s.close();
      resolve({ status, headers, body });
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function benchH2() {
  const mockRps = [];
  const bareRps = [];
  let spec;
  for (let rep = 0; rep < reps; rep++) {
    const tlsPort = await freePort();
    const m = await startMock(tlsPort);
    const url = `https://127.0.0.1:${tlsPort}/api/prices`;
    spec ??= await answerOf(url);
    await h2load(url); // warm-up
    const a = await h2load(url);
    await stopServer(m);
    const specFile = path.join(TMP, 'answer.json');
    fs.writeFileSync(specFile, JSON.stringify(spec));
    const bareTls = await freePort();
    const ready = await freePort();
    const bare = await startServer({
      argv: [
        process.execPath,
        path.join(BENCH, 'lib', 'bare-h2.mjs'),
        String(bareTls),
        String(ready),
        path.join(TMP, 'cert.pem'),
        path.join(TMP, 'key.pem'),
        specFile,
      ],
      cwd: TMP,
      port: ready,
      logFile: path.join(TMP, 'bare-h2.log'),
    });
    const bareUrl = `https://127.0.0.1:${bareTls}/api/prices`;
    await h2load(bareUrl);
    const b = await h2load(bareUrl);
    await stopServer(bare);
    mockRps.push(a.rps);
    bareRps.push(b.rps);
    console.log(
      `h2 rep ${rep + 1}: mock ${a.rps} req/s (${a.succeeded} ok), bare node:http2 ${b.rps} req/s (${b.succeeded} ok)`,
    );
  }
  const ratio = median(mockRps) / median(bareRps);
  console.log(`h2: mock ${median(mockRps)} req/s, bare ${median(bareRps)} req/s: ${ratio.toFixed(2)}x`);
}

function clients(args) {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [path.join(BENCH, 'lib', 'ws-clients.mjs'), ...args],
      { maxBuffer: 1 << 20 },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout.trim().split('\n').pop()))),
    ),
  );
}

async function benchEcho() {
  const mockRate = [];
  const bareRate = [];
  for (let rep = 0; rep < reps; rep++) {
    const m = await startMock();
    const a = await clients(['echo', `ws://127.0.0.1:${m.port}/ws/echo`, '100', '5']);
    await stopServer(m);
    const port = await freePort();
    const bare = await startServer({
      argv: [process.execPath, path.join(BENCH, 'lib', 'bare-ws.mjs'), String(port)],
      cwd: TMP,
      port,
      logFile: path.join(TMP, 'bare-ws.log'),
    });
    const b = await clients(['echo', `ws://127.0.0.1:${port}/`, '100', '5']);
    await stopServer(bare);
    mockRate.push(a.perSec);
    bareRate.push(b.perSec);
    console.log(`echo rep ${rep + 1}: mock ${a.perSec} msg/s, bare ws ${b.perSec} msg/s`);
  }
  const ratio = median(mockRate) / median(bareRate);
  console.log(`echo: mock ${median(mockRate)} msg/s, bare ${median(bareRate)} msg/s: ${ratio.toFixed(2)}x`);
}

async function latencies(port, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await httpRequest(port, { path: '/api/prices' });
    if (r.error) throw new Error(`neighbour request failed: ${r.error}`);
    out.push(performance.now() - t);
  }
  out.sort((a, b) => a - b);
  return { p50: out[Math.floor(n / 2)].toFixed(2), p99: out[Math.floor(n * 0.99)].toFixed(2) };
}

async function benchIdle() {
  const m = await startMock();
  const before = { rssMb: (rssKb(m.pid) / 1024).toFixed(0), ...(await latencies(m.port, 300)) };
  const holder = spawn(
    process.execPath,
    [path.join(BENCH, 'lib', 'ws-clients.mjs'), 'idle', `ws://127.0.0.1:${m.port}/ws/echo`, '10000'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const opened = await new Promise((resolve, reject) => {
    let out = '';
    holder.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.trim()));
    });
    holder.once('exit', (code) => reject(new Error(`the idle clients exited (${code})`)));
  });
  await sleep(2000);
  const held = { rssMb: (rssKb(m.pid) / 1024).toFixed(0), ...(await latencies(m.port, 300)) };
  console.log(`idle: ${opened.open} connections held; mock RSS ${before.rssMb} MB before, ${held.rssMb} MB while held`);
  console.log(
    `idle: a neighbour's GET p50/p99 ${before.p50}/${before.p99} ms before, ${held.p50}/${held.p99} ms while held`,
  );
  holder.stdin.end();
  await new Promise((r) => holder.once('exit', r));
  await stopServer(m);
}

try {
  await certPair();
  if (which.includes('h2')) await benchH2();
  if (which.includes('echo')) await benchEcho();
  if (which.includes('idle')) await benchIdle();
} finally {
  await stopAll();
  fs.rmSync(TMP, { recursive: true, force: true });
}
