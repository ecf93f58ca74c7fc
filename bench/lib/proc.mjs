// Process helpers: free loopback ports, starting a server and timing it to
// its first answer, VmRSS, stopping exactly the PIDs we spawned.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Ports are picked below the kernel's ephemeral range: a connect() to a
// not-yet-listening port inside that range can, rarely, connect the socket
// to itself and take the port from the server about to bind it.
function portWindow() {
  let low = 32768;
  try {
    low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    /* default */
  }
  const hi = Math.min(low - 1, 29999);
  return { lo: Math.min(20000, hi - 1000), hi };
}
const WINDOW = portWindow();
const used = new Set();

function portFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 that is free right now (bounded search). */
export async function freePort() {
  for (let n = 0; n < 500; n++) {
    const p = WINDOW.lo + Math.floor(Math.random() * (WINDOW.hi - WINDOW.lo));
    if (used.has(p)) continue;
    if (await portFree(p)) {
      used.add(p);
      if (used.size > 2000) used.clear();
      return p;
    }
  }
  throw new Error(`no free port in ${WINDOW.lo}-${WINDOW.hi}`);
}

/** One HTTP request on a fresh connection; never rejects. */
export function httpRequest(port, { method = 'GET', path = '/', headers = {}, body = null } = {}, timeoutMs = 5000) {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers, agent: false, timeout: timeoutMs },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', (e) => resolve({ error: String(e) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ error: e.code ?? String(e) }));
    if (body) req.write(body);
    req.end();
  });
}

export function rssKb(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(s.match(/VmRSS:\s+(\d+)/)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** CPU ticks (user + system) of a process, for CPU-per-request figures. */
export function cpuTicks(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return NaN;
  }
}

const live = new Set(); // servers started and not yet stopped

/**
 * Spawns argv[0] with argv.slice(1) (no shell, so the PID is the server's),
 * output to logFile, then polls GET /__bench_ready__ every 5 ms until any
 * HTTP answer comes back.  Returns { child, pid, port, readyMs } or { error }.
 */
export async function startServer({ argv, cwd, port, logFile, readyTimeoutMs = 20000, env }) {
  const fd = fs.openSync(logFile, 'w');
  const t0 = performance.now();
  const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['ignore', fd, fd], env: env ?? process.env });
  fs.closeSync(fd);
  const srv = { child, pid: child.pid, port, logFile, exited: null };
  child.on('exit', (code, signal) => {
    srv.exited = { code, signal };
    live.delete(srv);
  });
  child.on('error', (e) => {
    srv.exited = { error: String(e) };
    live.delete(srv);
  });
  live.add(srv);
  const deadline = t0 + readyTimeoutMs;
  while (performance.now() < deadline && !srv.exited) {
    const r = await httpRequest(port, { path: '/__bench_ready__' }, 1000);
    if (!r.error) {
      srv.readyMs = performance.now() - t0;
      return srv;
    }
    await sleep(5);
  }
  const why = srv.exited
    ? `exited ${JSON.stringify(srv.exited)} before answering`
    : `no answer within ${readyTimeoutMs / 1000} s`;
  await stopServer(srv);
  return { error: why, log: readLog(logFile) };
}

export function readLog(file, max = 2000) {
  try {
    const s = fs.readFileSync(file, 'utf8');
    return s.length > max ? s.slice(0, max) + '\n[...]' : s;
  } catch {
    return '';
  }
}

/** SIGTERM the one PID we spawned; SIGKILL after 3 s; wait (bounded) for exit. */
export async function stopServer(srv) {
  if (!srv || !srv.child) return;
  if (!srv.exited) {
    try {
      srv.child.kill('SIGTERM');
    } catch {
      /* gone */
    }
    const t = performance.now();
    while (!srv.exited && performance.now() - t < 3000) await sleep(10);
    if (!srv.exited) {
      try {
        srv.child.kill('SIGKILL');
      } catch {
        /* gone */
      }
      const t2 = performance.now();
      while (!srv.exited && performance.now() - t2 < 2000) await sleep(10);
    }
  }
  live.delete(srv);
}

export async function stopAll() {
  for (const srv of [...live]) await stopServer(srv);
}

/** Runs the load client as its own process; resolves with its JSON summary. */
export function runLoad(clientPath, settings, { onTick, tickMs = 1000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [clientPath, JSON.stringify(settings)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      if (err.length < 4000) err += c;
    });
    const tick = onTick ? setInterval(onTick, tickMs) : null;
    // interleaved (settings.targets): a warm-up per target, then each slice's warm-up, window and drain
    const n = settings.targets?.length ?? 1;
    const perSlice = (settings.sliceWarmupS ?? 0) + 2.5;
    const limit =
      (n * (settings.warmupS + 2.5 + settings.durationS + (settings.targets ? (settings.slices ?? 1) * perSlice : 0)) +
        30) *
      1000;
    const killer = setTimeout(() => {
      try {
        child.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }, limit);
    child.on('close', (code) => {
      clearTimeout(killer);
      if (tick) clearInterval(tick);
      const line = out.trim().split('\n').pop();
      try {
        const j = JSON.parse(line);
        resolve(j.error ? { error: j.error } : j);
      } catch {
        resolve({ error: `load client exited ${code}: ${(err || out).slice(0, 300)}` });
      }
    });
  });
}
