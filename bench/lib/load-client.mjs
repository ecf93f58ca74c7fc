// HTTP/1.1 keep-alive load generator, run as its own process:
//
//   node bench/lib/load-client.mjs '<json settings>'
//
// settings: { host, port, method, path, headers: {name: value}, bodyFile?,
//             conns, warmupS, durationS, timeoutMs, expectStatus?, then? }
//
// `then` = { method, path, headers?, bodyFile? }: a second request each connection sends after the first, in turn
// (a write then a read); `expectStatus` may then be an array of the statuses accepted.
//
// Opens `conns` connections on plain `net` sockets; each sends one request,
// waits for the whole response (no pipelining), sends the next.  The
// warm-up runs on the same connections and is then discarded.  Latency is
// measured per request from the write to the last body byte.  When the
// measured window ends no new request is sent; requests still in flight are
// given up to 2 s, then every socket is destroyed.  Prints one JSON line on
// stdout and exits.  Every phase is bounded in time (hard stop at
// warm-up + duration + 15 s).
//
// Interleaved mode, for comparing servers on a machine whose speed drifts:
//
//   settings: { targets: [{ port, pid? }, ...], slices, sliceWarmupS, ...as above }
//
// Every target is warmed up for `warmupS` first (connections opened, used,
// closed), then the measured `durationS` of each target is cut into `slices`
// windows taken in turn: target 1, 2, 3, 1, 2, 3, ... (the order rotating one
// place per slice), each on fresh connections after `sliceWarmupS` of
// unmeasured traffic.  A slow spell of the machine then falls on every target
// alike instead of on whichever ran in it.  Latencies are pooled per target
// over its slices; with `pid`, the server's CPU time (user + system, clock
// ticks from /proc/<pid>/stat) is summed over its measured windows.  Prints
// { targets: [summary, ...] } in the order given.
//
// settings.sse (or targets[].sse) = { port }: one event-stream client of
// mock's inspector on that port reads every event (sse-client.mjs) from
// before the first request; after the load it is given up to 10 s to have
// heard one `request` event per answer the target gave (warm-ups included);
// the summary's `sse` says how many arrived, were lost, repeated or out of
// order.

import net from 'node:net';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ResponseParser } from './response-parser.mjs';
import { percentile } from './stats.mjs';
import { openSse } from './sse-client.mjs';

const settings = JSON.parse(process.argv[2] ?? '{}');
const {
  host = '127.0.0.1',
  port,
  method = 'GET',
  path = '/',
  headers = {},
  bodyFile = null,
  conns = 50,
  warmupS = 1,
  durationS = 5,
  timeoutMs = 5000,
  expectStatus = null,
  targets = null,
  slices = 1,
  sliceWarmupS = 0.25,
  then = null,
  // { name, values: [...] }: each request carries the next value of this header in turn (sessions interleaved)
  rotate = null,
} = settings;

function fail(msg) {
  process.stdout.write(JSON.stringify({ error: msg }) + '\n');
  process.exit(2);
}

if (host !== '127.0.0.1' && host !== '::1' && host !== 'localhost') fail('loopback only');
if (
  targets === null
    ? !Number.isInteger(port) || port <= 0
    : !Array.isArray(targets) || targets.length === 0 || targets.some((t) => !Number.isInteger(t.port) || t.port <= 0)
) {
  fail('settings.port (or settings.targets[].port) is required');
}
if (!Number.isInteger(slices) || slices < 1) fail('settings.slices must be a whole number ≥ 1');

// ---- the request bytes, built once per port
function requestBytes(p, r) {
  const body = r.bodyFile ? fs.readFileSync(r.bodyFile) : null;
  let head = `${r.method ?? 'GET'} ${r.path} HTTP/1.1\r\nHost: ${host}:${p}\r\n`;
  for (const [k, v] of Object.entries(r.headers ?? {})) head += `${k}: ${v}\r\n`;
  if (body) head += `Content-Length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}
/** the requests a connection sends in turn: one, or two with `then` */
function requestsFor(p) {
  if (rotate !== null)
    return rotate.values.map((v) =>
      requestBytes(p, { method, path, headers: { ...headers, [rotate.name]: v }, bodyFile }),
    );
  const first = requestBytes(p, { method, path, headers, bodyFile });
  return then === null ? [first] : [first, requestBytes(p, then)];
}
const expected = expectStatus === null ? null : new Set([expectStatus].flat());

const MAX_ERRORS = 100000;
/** every answer per port, warm-ups included (what an event-stream client should hear of) */
const answered = new Map();

/** user + system clock ticks of a process, or NaN (no /proc, or it is gone) */
function cpuTicks(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return NaN;
  }
}

/**
 * One phase against one port: `conns` connections, `warmS` unmeasured, then `measureS` measured (0: warm-up
 * only), then in-flight requests are given up to 2 s and every socket is closed. Resolves with the raw figures.
 */
function phase({ port: p, pid, warmS, measureS }) {
  return new Promise((resolve) => {
    const requests = requestsFor(p);
    let measuring = false;
    let latencies = new Float64Array(1 << 14);
    let count = 0;
    let bytes = 0;
    const statuses = Object.create(null);
    const errors = { connect: 0, reset: 0, timeout: 0, parse: 0 };
    let reconnects = 0;
    let unexpectedStatus = 0;
    let perSecond = []; // completed requests per second of the measured window
    let running = true; // send new requests while true
    const all = new Set();
    let tStart = 0;
    let tEnd = 0;
    let cpuStart = null;
    let ticksStart = NaN;
    let ticksEnd = NaN;
    let finished = false;
    let drainTimer = null;

    const totalErrors = () => errors.connect + errors.reset + errors.timeout + errors.parse;

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
      if (expected !== null && !expected.has(status)) unexpectedStatus++;
    }

    function openConn() {
      const c = { sock: null, sentAt: 0, inFlight: false, connected: false, parser: null, turn: 0 };
      c.parser = new ResponseParser((status, nBytes, closeAfter) => {
        const t = performance.now();
        c.inFlight = false;
        answered.set(p, (answered.get(p) ?? 0) + 1);
        record(t, t - c.sentAt, status, nBytes);
        if (closeAfter) {
          c.sock.destroy();
          return;
        } // 'close' reconnects
        if (running) send(c);
        else maybeFinish();
      });
      c.sock = net.connect({ host, port: p });
      c.sock.setNoDelay(true);
      all.add(c);
      c.sock.on('connect', () => {
        c.connected = true;
        if (running) send(c);
      });
      c.sock.on('data', (chunk) => {
        if (!c.parser.push(chunk)) {
          errors.parse++;
          c.sock.destroy();
        }
      });
      c.sock.on('end', () => {
        c.parser.end();
      });
      c.sock.on('error', () => {
        if (!c.connected) errors.connect++;
        else errors.reset++;
        c.inFlight = false;
      });
      c.sock.on('close', () => {
        all.delete(c);
        if (c.inFlight) {
          c.inFlight = false;
          errors.reset++;
        }
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
      c.sock.write(requests[c.turn++ % requests.length]);
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

    const t0 = performance.now();
    for (let i = 0; i < conns; i++) openConn();

    const startTimer = setTimeout(() => {
      if (measureS <= 0) {
        stopSending();
        return;
      }
      // warm-up over: reset and measure
      measuring = true;
      count = 0;
      bytes = 0;
      unexpectedStatus = 0;
      for (const k of Object.keys(statuses)) delete statuses[k];
      for (const k of Object.keys(errors)) errors[k] = 0;
      reconnects = 0;
      perSecond = [];
      tStart = performance.now();
      cpuStart = process.cpuUsage();
      if (pid !== undefined) ticksStart = cpuTicks(pid);
      setTimeout(stopSending, measureS * 1000);
    }, warmS * 1000);

    function stopSending() {
      tEnd = performance.now();
      if (measuring && pid !== undefined) ticksEnd = cpuTicks(pid);
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
      clearTimeout(startTimer);
      clearTimeout(hardStop);
      const cpu = cpuStart ? process.cpuUsage(cpuStart) : { user: 0, system: 0 };
      for (const c of all) c.sock.destroy();
      resolve({
        latencies: latencies.subarray(0, count),
        count,
        bytes,
        statuses,
        errors,
        reconnects,
        unexpectedStatus,
        perSecond: Array.from(perSecond, (n) => n ?? 0),
        seconds: Math.max(0, (tEnd - tStart) / 1000),
        clientCpuS: (cpu.user + cpu.system) / 1e6,
        serverTicks: ticksEnd - ticksStart,
        elapsedS: (performance.now() - t0) / 1000,
      });
    }

    // hard stop, whatever happens
    const hardStop = setTimeout(
      () => {
        if (!tEnd) {
          tEnd = performance.now();
          if (!tStart) tStart = tEnd;
        }
        running = false;
        measuring = false;
        finish();
      },
      (warmS + measureS + 15) * 1000,
    );
  });
}

/** The JSON summary of one target's measured phases, pooled. */
function summary(parts, elapsedS) {
  const count = parts.reduce((n, x) => n + x.count, 0);
  const lat = new Float64Array(count);
  let at = 0;
  for (const x of parts) {
    lat.set(x.latencies, at);
    at += x.count;
  }
  lat.sort();
  let sum = 0;
  for (let i = 0; i < lat.length; i++) sum += lat[i];
  const seconds = Math.max(
    1e-9,
    parts.reduce((s, x) => s + x.seconds, 0),
  );
  const statuses = Object.create(null);
  const errors = { connect: 0, reset: 0, timeout: 0, parse: 0 };
  for (const x of parts) {
    for (const [k, n] of Object.entries(x.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
    for (const [k, n] of Object.entries(x.errors)) errors[k] += n;
  }
  return {
    requests: count,
    seconds,
    rps: count / seconds,
    bytes: parts.reduce((n, x) => n + x.bytes, 0),
    latency_ms: {
      mean: count ? sum / count : null,
      p50: percentile(lat, 50),
      p90: percentile(lat, 90),
      p99: percentile(lat, 99),
      max: count ? lat[lat.length - 1] : null,
    },
    statuses,
    unexpected_status: parts.reduce((n, x) => n + x.unexpectedStatus, 0),
    errors,
    reconnects: parts.reduce((n, x) => n + x.reconnects, 0),
    per_second: parts.length === 1 ? parts[0].perSecond : [],
    conns,
    client_cpu: parts.reduce((s, x) => s + x.clientCpuS, 0) / seconds, // 1.0 = one core busy
    elapsed_s: elapsedS,
    ...(parts.length > 1 ? { slices: parts.length } : {}),
  };
}

/** The event-stream clients' figures, once they have heard of every answer (or 10 s passed). */
async function sseSummary(client, p) {
  const requests = answered.get(p) ?? 0;
  await client.until(requests, 10_000);
  client.close();
  const s = client.stats;
  return {
    requests,
    events: s.events,
    lost: Math.max(0, requests - s.events),
    duplicates: s.duplicates,
    out_of_order: s.outOfOrder,
    reconnects: s.reconnects,
    resets: s.resets,
    chunks: s.chunks,
  };
}

async function main() {
  const t0 = performance.now();
  if (targets === null) {
    const sse = settings.sse ? await openSse(settings.sse.port) : null;
    const one = await phase({ port, warmS: warmupS, measureS: durationS });
    const out = { ...summary([one], (performance.now() - t0) / 1000), answered_total: answered.get(port) ?? 0 };
    return sse ? { ...out, sse: await sseSummary(sse, port) } : out;
  }
  const sses = await Promise.all(targets.map((t) => (t.sse ? openSse(t.sse.port) : null)));
  for (const t of targets) await phase({ port: t.port, warmS: warmupS, measureS: 0 });
  const measured = targets.map(() => []);
  for (let s = 0; s < slices; s++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (s + k) % targets.length;
      measured[i].push(
        await phase({ port: targets[i].port, pid: targets[i].pid, warmS: sliceWarmupS, measureS: durationS / slices }),
      );
    }
  }
  const elapsedS = (performance.now() - t0) / 1000;
  const sseOut = await Promise.all(sses.map((c, i) => (c ? sseSummary(c, targets[i].port) : null)));
  return {
    targets: targets.map((t, i) => {
      const ticks = measured[i].reduce((n, x) => n + x.serverTicks, 0);
      return {
        port: t.port,
        ...summary(measured[i], elapsedS),
        ...(t.pid !== undefined ? { server_ticks: ticks } : {}),
        ...(sseOut[i] ? { sse: sseOut[i] } : {}),
      };
    }),
  };
}

main().then(
  (out) => process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(0)),
  (e) => fail(String(e?.stack ?? e)),
);
