// HTTP/1.1 keep-alive load generator, run as its own process:
//
//   node bench/lib/load-client.mjs '<json settings>'
//
// settings: { host, port, method, path, headers: {name: value}, bodyFile?,
//             conns, warmupS, durationS, timeoutMs, expectStatus? }
//
// Opens `conns` connections on plain `net` sockets; each sends one request,
// waits for the whole response (no pipelining), sends the next.  The
// warm-up runs on the same connections and is then discarded.  Latency is
// measured per request from the write to the last body byte.  When the
// measured window ends no new request is sent; requests still in flight are
// given up to 2 s, then every socket is destroyed.  Prints one JSON line on
// stdout and exits.  Every phase is bounded in time (hard stop at
// warm-up + duration + 15 s).

import net from 'node:net';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ResponseParser } from './response-parser.mjs';
import { percentile } from './stats.mjs';

const settings = JSON.parse(process.argv[2] ?? '{}');
const {
  host = '127.0.0.1', port, method = 'GET', path = '/', headers = {}, bodyFile = null,
  conns = 50, warmupS = 1, durationS = 5, timeoutMs = 5000, expectStatus = null,
} = settings;

if (!Number.isInteger(port) || port <= 0) fail('settings.port is required');
if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') fail('loopback only');

function fail(msg) {
  process.stdout.write(JSON.stringify({ error: msg }) + '\n');
  process.exit(2);
}

// ---- the request bytes, built once
const body = bodyFile ? fs.readFileSync(bodyFile) : null;
let head = `${method} ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\n`;
for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
if (body) head += `Content-Length: ${body.length}\r\n`;
head += '\r\n';
const request = body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');

// ---- stats
let measuring = false;
let latencies = new Float64Array(1 << 16);
let count = 0;
let bytes = 0;
const statuses = Object.create(null);
const errors = { connect: 0, reset: 0, timeout: 0, parse: 0 };
let reconnects = 0;
let unexpectedStatus = 0;
let perSecond = []; // completed requests per second of the measured window

function record(t, ms, status, nBytes) {
  if (!measuring) return;
  if (count === latencies.length) {
    const next = new Float64Array(latencies.length * 2);
    next.set(latencies);
    latencies = next;
  }
  latencies[count++] = ms;
  const sec = Math.floor((t - tStart) / 1000);
  perSecond[sec] = (perSecond[sec] ?? 0) + 1;
  bytes += nBytes;
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (expectStatus !== null && status !== expectStatus) unexpectedStatus++;
}

// ---- connections
let running = true; // send new requests while true
const all = new Set();
const MAX_ERRORS = 100000;

function totalErrors() { return errors.connect + errors.reset + errors.timeout + errors.parse; }

function openConn() {
  const c = { sock: null, sentAt: 0, inFlight: false, connected: false, parser: null };
  c.parser = new ResponseParser((status, nBytes, closeAfter) => {
    const t = performance.now();
    c.inFlight = false;
    record(t, t - c.sentAt, status, nBytes);
    if (closeAfter) { c.sock.destroy(); return; } // 'close' reconnects
    if (running) send(c);
    else maybeFinish();
  });
  c.sock = net.connect({ host, port });
  c.sock.setNoDelay(true);
  all.add(c);
  c.sock.on('connect', () => { c.connected = true; if (running) send(c); });
  c.sock.on('data', (chunk) => {
    if (!c.parser.push(chunk)) {
      errors.parse++;
      c.sock.destroy();
    }
  });
  c.sock.on('end', () => { c.parser.end(); });
  c.sock.on('error', (e) => {
    if (!c.connected) errors.connect++;
    else errors.reset++;
    c.inFlight = false;
  });
  c.sock.on('close', () => {
    all.delete(c);
    if (c.inFlight) { c.inFlight = false; errors.reset++; }
    if (running && totalErrors() < MAX_ERRORS) {
      reconnects++;
      // back off a little after errors so a dead server doesn't spin
      setTimeout(openConn, totalErrors() > 0 ? 10 : 0);
    } else maybeFinish();
  });
}

function send(c) {
  c.inFlight = true;
  c.sentAt = performance.now();
  c.sock.write(request);
}

// one timer checks every connection for a request older than timeoutMs
const watchdog = setInterval(() => {
  const now = performance.now();
  for (const c of all) {
    if (c.inFlight && now - c.sentAt > timeoutMs) {
      errors.timeout++;
      c.inFlight = false;
      c.sock.destroy();
    }
  }
}, 200);

// ---- phases
const t0 = performance.now();
let tStart = 0;
let tEnd = 0;
let cpuStart = null;
let finished = false;

for (let i = 0; i < conns; i++) openConn();

setTimeout(() => {
  // warm-up over: reset and measure
  measuring = true;
  count = 0; bytes = 0; unexpectedStatus = 0;
  for (const k of Object.keys(statuses)) delete statuses[k];
  for (const k of Object.keys(errors)) errors[k] = 0;
  reconnects = 0;
  perSecond = [];
  tStart = performance.now();
  cpuStart = process.cpuUsage();
  setTimeout(stopSending, durationS * 1000);
}, warmupS * 1000);

let drainTimer = null;
function stopSending() {
  tEnd = performance.now();
  measuring = false; // responses completing after the window are not counted
  running = false;
  drainTimer = setTimeout(finish, 2000);
  maybeFinish();
}

function maybeFinish() {
  if (running || finished) return;
  for (const c of all) if (c.inFlight) return;
  finish();
}

function finish() {
  if (finished) return;
  finished = true;
  clearInterval(watchdog);
  clearTimeout(drainTimer);
  const cpu = cpuStart ? process.cpuUsage(cpuStart) : { user: 0, system: 0 };
  for (const c of all) c.sock.destroy();
  const seconds = Math.max(1e-9, (tEnd - tStart) / 1000);
  const lat = latencies.subarray(0, count).sort();
  let sum = 0;
  for (let i = 0; i < lat.length; i++) sum += lat[i];
  const out = {
    requests: count,
    seconds,
    rps: count / seconds,
    bytes,
    latency_ms: {
      mean: count ? sum / count : null,
      p50: percentile(lat, 50),
      p90: percentile(lat, 90),
      p99: percentile(lat, 99),
      max: count ? lat[lat.length - 1] : null,
    },
    statuses,
    unexpected_status: unexpectedStatus,
    errors,
    reconnects,
    per_second: Array.from(perSecond, (n) => n ?? 0),
    conns,
    client_cpu: (cpu.user + cpu.system) / 1e6 / seconds, // 1.0 = one core busy
    elapsed_s: (performance.now() - t0) / 1000,
  };
  process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(0));
}

// hard stop, whatever happens
setTimeout(() => {
  if (!tEnd) { tEnd = performance.now(); if (!tStart) tStart = tEnd; }
  running = false;
  measuring = false;
  finish();
}, (warmupS + durationS + 15) * 1000).unref();
