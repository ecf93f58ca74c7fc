// Shared pieces of the reliability suite (docs/reliability.md): the short/long switch, spawning the real program with its
// output drained (load tests print hundreds of thousands of request-log lines), the server's memory, a raw
// keep-alive HTTP/1.1 client over net sockets, and small statistics. Not a test file itself.
//
// RELIABILITY=long selects the full counts (npm run test:reliability); anything else is the short form that runs
// inside `npm test`. Every loop here is bounded in count and in time; every spawned server is killed by stop().
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

export const LONG = process.env['RELIABILITY'] === 'long';

/** Pick the short-form or the long-form figure. */
export function scale<T>(short: T, long: T): T {
  return LONG ? long : short;
}

/** <out>/test/reliability/harness.js → <out>/bin/main.cjs (the bundled program) */
export const MAIN_JS = fileURLToPath(new URL('../../bin/main.cjs', import.meta.url));

// Temp folders and workspace files: the same helpers as the end-to-end tests.
export { makeTempDir, removeDir, writeTree } from '../helpers/mock-cli.js';

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// ---- the real program ------------------------------------------------------------------------------------

export interface Server {
  readonly pid: number;
  readonly scheme: 'http' | 'https';
  readonly port: number;
  /** stdout lines seen (every one, counted) */
  lineCount(): number;
  /** stdout lines matching `re` so far (counted as they arrive; the lines themselves are not kept) */
  count(re: RegExp): number;
  /** the last few hundred stdout lines */
  tail(): readonly string[];
  stderr(): string;
  /** still running? */
  alive(): boolean;
  /** VmRSS of the server process, in bytes (0 once it has gone) */
  rss(): number;
  /** SIGTERM, SIGKILL after 5 s; resolves with the exit code (null when killed) */
  stop(): Promise<number | null>;
}

const LISTENING = /^Listening on (https?):\/\/(\[[^\]]+\]|[^:\s]+):(\d+) \.\.\.$/;
const TAIL = 300;
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/**
 * `node main.js <args> -p 0` in `cwd`; resolves once the `Listening on` line is printed. Patterns to count
 * (for example handler failures) are passed up front, because lines are not kept beyond a short tail.
 */
export function spawnServer(args: readonly string[], cwd: string, watch: readonly RegExp[] = []): Promise<Server> {
  const child = spawn(process.execPath, [MAIN_JS, ...args, '-p', '0'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const counts = new Map<RegExp, number>(watch.map((re) => [re, 0]));
  const tail: string[] = [];
  let lines = 0;
  let partial = '';
  let stderr = '';
  const exited = new Promise<number | null>((res) =>
    child.on('close', (code) => {
      live.delete(child);
      res(code);
    }),
  );
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const code = await exited;
    clearTimeout(killer);
    return code;
  };
  return new Promise((resolve, reject) => {
    let listening = false;
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(`mock did not print a Listening line within 20 s\nstdout:\n${tail.join('\n')}\nstderr:\n${stderr}`),
      );
    }, 20_000);
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 100_000) stderr += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      partial += d;
      const parts = partial.split('\n');
      partial = parts.pop()!;
      for (const line of parts) {
        lines++;
        tail.push(line);
        if (tail.length > TAIL) tail.shift();
        for (const [re, n] of counts) if (re.test(line)) counts.set(re, n + 1);
        const m = listening ? null : LISTENING.exec(line);
        if (m) {
          listening = true;
          clearTimeout(timer);
          resolve({
            pid: child.pid!,
            scheme: m[1] as 'http' | 'https',
            port: Number(m[3]),
            lineCount: () => lines,
            count: (re) => counts.get(re) ?? 0,
            tail: () => tail,
            stderr: () => stderr,
            alive: () => child.exitCode === null && child.signalCode === null,
            rss: () => rssOf(child.pid!),
            stop,
          });
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (!listening)
        reject(
          new Error(
            `mock exited (${code}) before listening\nstdout:\n${tail.join('\n')}${partial}\nstderr:\n${stderr}`,
          ),
        );
    });
  });
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `node main.js <args>` to completion (killed after `timeoutMs`). */
export function runProgram(args: readonly string[], cwd: string, timeoutMs = 20_000): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN_JS, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      live.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** VmRSS from /proc/<pid>/status, in bytes; 0 when the process is gone. */
export function rssOf(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples `pid`'s RSS every `everyMs` until stopped; `peak` and `samples` so far. */
export function sampleRss(pid: number, everyMs = 50): { readonly samples: number[]; peak(): number; stop(): number[] } {
  const samples: number[] = [rssOf(pid)];
  const timer = setInterval(() => samples.push(rssOf(pid)), everyMs);
  return {
    samples,
    peak: () => maxOf(samples),
    stop: () => {
      clearInterval(timer);
      samples.push(rssOf(pid));
      return samples;
    },
  };
}

export const MiB = 1024 * 1024;

export function mib(bytes: number): string {
  return `${(bytes / MiB).toFixed(1)} MiB`;
}

// ---- a raw HTTP/1.1 client ---------------------------------------------------------------------------------

export interface RawResponse {
  readonly status: number;
  /** lower-cased names */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

/** One complete response at the start of `buf` (Content-Length framing; none means an empty body), or undefined. */
export function parseOneResponse(
  buf: Buffer,
  headRequest = false,
): { response: RawResponse; used: number } | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const lines = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
  const headers = new Map<string, string>();
  for (const l of lines.slice(1)) {
    const c = l.indexOf(':');
    if (c > 0) headers.set(l.slice(0, c).trim().toLowerCase(), l.slice(c + 1).trim());
  }
  const status = Number(m[1]);
  const cl = headers.get('content-length');
  const len = headRequest || status < 200 || status === 204 || status === 304 || cl === undefined ? 0 : Number(cl);
  if (buf.length < headEnd + 4 + len) return undefined;
  return {
    response: { status, headers, body: Buffer.from(buf.subarray(headEnd + 4, headEnd + 4 + len)) },
    used: headEnd + 4 + len,
  };
}

export type Exchange =
  | { readonly kind: 'response'; readonly response: RawResponse; readonly ms: number }
  /** the server closed (or reset) the connection without a complete response */
  | { readonly kind: 'closed'; readonly partial: string; readonly ms: number }
  | { readonly kind: 'timeout'; readonly partial: string; readonly ms: number };

/**
 * A keep-alive connection that sends one request at a time and reads one response. After the server closes the
 * connection (Connection: close, a refusal) the next send opens a fresh one.
 */
export class RawConnection {
  private socket: Socket | undefined;
  private buf: Buffer = Buffer.alloc(0);
  private waiter: ((why: 'data' | 'closed') => void) | undefined;
  private closed = true;
  /** connections opened so far */
  opened = 0;

  constructor(
    private readonly port: number,
    private readonly host = '127.0.0.1',
  ) {}

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const s = connect(this.port, this.host);
      this.opened++;
      this.buf = Buffer.alloc(0);
      this.closed = false;
      const onConnectError = (e: Error): void => reject(e);
      s.once('error', onConnectError);
      s.once('connect', () => {
        s.off('error', onConnectError);
        s.on('error', () => undefined);
        resolve();
      });
      s.on('data', (d: Buffer) => {
        this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
        this.waiter?.('data');
      });
      s.on('close', () => {
        if (this.socket === s) this.closed = true;
        this.waiter?.('closed');
      });
      this.socket = s;
    });
  }

  /** Send `bytes` and wait for one response (at most `timeoutMs`). */
  async request(bytes: Buffer | string, timeoutMs = 10_000, headRequest = false): Promise<Exchange> {
    if (this.closed || this.socket === undefined || this.socket.destroyed) await this.open();
    const socket = this.socket!;
    const started = performance.now();
    socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
    const deadline = started + timeoutMs;
    for (;;) {
      const parsed = parseOneResponse(this.buf, headRequest);
      if (parsed !== undefined) {
        this.buf = this.buf.subarray(parsed.used);
        if (parsed.response.headers.get('connection')?.toLowerCase() === 'close') this.close();
        return { kind: 'response', response: parsed.response, ms: performance.now() - started };
      }
      if (this.closed) {
        const partial = this.buf.toString('latin1');
        this.buf = Buffer.alloc(0);
        return { kind: 'closed', partial, ms: performance.now() - started };
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        const partial = this.buf.toString('latin1');
        this.close();
        return { kind: 'timeout', partial, ms: performance.now() - started };
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.waiter = undefined;
          resolve();
        }, left);
        this.waiter = () => {
          clearTimeout(t);
          this.waiter = undefined;
          resolve();
        };
      });
    }
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.socket = undefined;
  }
}

/** `GET <target> HTTP/1.1` with a Host header, raw bytes. */
export function getRequest(target: string | Buffer, extraHeaders = ''): Buffer {
  const t = typeof target === 'string' ? Buffer.from(target, 'latin1') : target;
  return Buffer.concat([
    Buffer.from('GET ', 'latin1'),
    t,
    Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\n${extraHeaders}\r\n`, 'latin1'),
  ]);
}

/** Runs `work(i)` for i in [0, count) with at most `width` in flight. */
export async function pool(count: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, count) }, async () => {
    while (next < count) {
      const i = next++;
      await work(i);
    }
  });
  await Promise.all(lanes);
}

/** One request on a fresh connection with Node's client; `ca` makes it HTTPS. Never rejects. */
export function fetchOnce(
  port: number,
  path: string,
  opts: {
    readonly ca?: string;
    readonly method?: string;
    readonly body?: string;
    readonly headers?: Record<string, string>;
    readonly timeoutMs?: number;
  } = {},
): Promise<{ readonly status: number; readonly body: string; readonly ms: number; readonly error?: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (status: number, body: string, error?: string): void => {
      if (done) return;
      done = true;
      resolve({ status, body, ms: performance.now() - started, ...(error !== undefined ? { error } : {}) });
    };
    const base = {
      host: '127.0.0.1',
      port,
      path,
      method: opts.method ?? 'GET',
      headers: opts.headers ?? {},
      agent: false as const,
    };
    const onResponse = (res: import('node:http').IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
      res.on('error', (e) => finish(0, '', e.message));
    };
    const req =
      opts.ca !== undefined
        ? httpsRequest({ ...base, ca: opts.ca, servername: 'localhost' }, onResponse)
        : httpRequest(base, onResponse);
    req.setTimeout(opts.timeoutMs ?? 10_000, () => {
      req.destroy(new Error('timeout'));
    });
    req.on('error', (e) => finish(0, '', e.message));
    req.end(opts.body);
  });
}

export interface KeepAliveClient {
  /** one request over the pool; never rejects (a socket error comes back as `error`) */
  request(
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ): Promise<{ readonly status: number; readonly body: string; readonly error?: string }>;
  close(): void;
}

/** Node's client over a keep-alive pool of at most `connections` sockets. */
export function keepAliveClient(port: number, connections: number, timeoutMs = 10_000): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  return {
    request: (method, path, body, headers = {}) =>
      new Promise((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', (e) => resolve({ status: 0, body: text, error: e.message }));
        });
        req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
        req.on('error', (e) => resolve({ status: 0, body: '', error: e.message }));
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

// ---- statistics --------------------------------------------------------------------------------------------

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Math.max without spreading (large arrays overflow the call stack). */
export function maxOf(values: readonly number[]): number {
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

export function minOf(values: readonly number[]): number {
  let m = Infinity;
  for (const v of values) if (v < m) m = v;
  return m;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function ms(n: number): string {
  return `${Math.round(n)} ms`;
}

/** A small deterministic PRNG (xorshift32) so a failing fuzz case can be replayed from its seed. */
export function prng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

// ---- TLS material ------------------------------------------------------------------------------------------

type Generate = (
  attrs: { name: string; value: string }[],
  opts: Record<string, unknown>,
) => Promise<{ private: string; cert: string }>;

/** A fresh self-signed certificate for 127.0.0.1 / localhost (EC P-256: quick to make). */
export async function selfSignedPair(commonName = 'localhost'): Promise<{ cert: string; key: string }> {
  const mod = (await import('selfsigned')) as unknown as { generate?: Generate; default?: { generate?: Generate } };
  const generate = mod.generate ?? mod.default?.generate;
  if (generate === undefined) throw new Error('selfsigned.generate not found');
  const r = await generate([{ name: 'commonName', value: commonName }], {
    days: 1,
    keyType: 'ec',
    curve: 'P-256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { cert: r.cert, key: r.private };
}
