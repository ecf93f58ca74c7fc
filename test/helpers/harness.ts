// The test harness, one module (test/e2e/server-harness.ts, test/reliability/harness.ts and
// test/helpers/mock-cli.ts re-export their parts of it under their old names). Not a test file itself.
//   the real program   runMock (to completion), spawnMock / spawnServer (a server on an ephemeral port, its output
//                      drained), runProgram (timed), throw-away workspaces (makeTempDir, writeTree, tempDir)
//   in process         makeWorkspace and startTestServer: the server over a hand-built workspace
//   on the wire        send, rawExchange and parseResponses, RawConnection (a raw keep-alive HTTP/1.1 client),
//                      fetchOnce, keepAliveClient; sendText
//   TLS                selfSignedPair, writePair
//   timing and stats   delay, mockClock, channelEvents, pool, rssOf / sampleRss, percentile and friends, prng
//   reliability        LONG / scale: RELIABILITY=long selects the full counts (npm run test:reliability); anything
//                      else is the short form that runs inside `npm test` (docs/reliability.md)
// The program is found relative to this compiled file, so the tests work from dist/ and any other out dir.
import { type ChildProcess, spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/model/config.js';
import { DEFAULTS } from '../../src/model/config.js';
import { DEFAULT_STRATEGY } from '../../src/model/strategy.js';
import type { Workspace } from '../../src/model/workspace.js';
import { startServer, type ServerHandle, type ServerOptions } from '../../src/server/start.js';

// ---- the real program, run to completion or as a server -----------------------------------------------

/** <out>/test/helpers/mock-cli.js → <out>/bin/main.cjs: the bundled program, as `bin.mock` runs it (scripts/bundle.mjs) */
export const MAIN_JS = fileURLToPath(new URL('../../bin/main.cjs', import.meta.url));

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  /** written to stdin, which is then closed (stdin is closed at once without it) */
  readonly input?: string;
  /** added to the inherited environment */
  readonly env?: Readonly<Record<string, string>>;
  /** default 20 s; the child is killed after it */
  readonly timeoutMs?: number;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export function runMock(args: readonly string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [MAIN_JS, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      children.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

export interface RunningMock {
  readonly port: number;
  /** http://127.0.0.1:<port> (the first `Listening on` line) */
  readonly url: string;
  /** every stdout line so far (grows while the server runs) */
  readonly stdoutLines: string[];
  readonly pid: number;
  stderr(): string;
  /** sends a signal (the server is still stopped by stop()) */
  signal(sig: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after 5 s; resolves with the exit code */
  stop(): Promise<number | null>;
}

const LISTENING = /^Listening on (https?):\/\/(\[[^\]]+\]|[^:\s]+):(\d+) \.\.\.$/;

/** Starts `mock <args> -p 0` (unless args name a port, or autoPort is false) and waits for its `Listening on` line. */
export function spawnMock(
  args: readonly string[],
  opts: {
    readonly cwd: string;
    readonly env?: Readonly<Record<string, string>>;
    /** false: no `-p 0` added (the config's port) */
    readonly autoPort?: boolean;
    /** how long to wait for the `Listening on` line (15 s) */
    readonly readyTimeoutMs?: number;
  },
): Promise<RunningMock> {
  const hasPort =
    opts.autoPort === false ||
    args.some((a) => a === '-p' || a === '--port' || a.startsWith('--port=') || a.startsWith('-p='));
  const child = spawn(process.execPath, [MAIN_JS, ...args, ...(hasPort ? [] : ['-p', '0'])], {
    cwd: opts.cwd,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const stdoutLines: string[] = [];
  let stderr = '';
  let partial = '';
  const exited = new Promise<number | null>((res) =>
    child.on('close', (code) => {
      children.delete(child);
      res(code);
    }),
  );
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null && !child.killed) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const code = await exited;
    clearTimeout(killer);
    return code;
  };
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `mock did not print a Listening line within ${(opts.readyTimeoutMs ?? 15_000) / 1000} s\nstdout:\n${stdoutLines.join('\n')}\nstderr:\n${stderr}`,
        ),
      );
    }, opts.readyTimeoutMs ?? 15_000);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      partial += d;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        stdoutLines.push(line);
        const m = LISTENING.exec(line);
        if (m) {
          clearTimeout(timer);
          const port = Number(m[3]);
          resolvePromise({
            port,
            url: `${m[1]}://${m[2]}:${port}`,
            stdoutLines,
            pid: child.pid!,
            stderr: () => stderr,
            signal: (sig) => void child.kill(sig),
            stop,
          });
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `mock exited (${code}) before listening\nstdout:\n${stdoutLines.join('\n')}${partial}\nstderr:\n${stderr}`,
        ),
      );
    });
  });
}

/** A fresh temporary directory (real path, so it compares equal to what the program prints). */
export function makeTempDir(prefix = 'mock-test-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Writes files (parents created): {'mock.toml': '...', 'api/users.json': '...'} */
export async function writeTree(dir: string, files: Readonly<Record<string, string | Uint8Array>>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
}

/** What `sendText` got back: the status, the headers as node:http parsed them, the body as UTF-8 text. */
export interface TextAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One request to 127.0.0.1:`port` on a fresh connection, its body (if any) sent with its content-length. */
export function sendText(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const len = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...len, ...headers } }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (text += d))
        .on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---- an in-process server, raw exchanges, TLS material ---------------------------------------------------

export interface WorkspaceOverrides {
  readonly fallbackDir?: string;
  readonly maxRequestBodyBytes?: number;
  readonly corsAllowCredentialsOrigins?: readonly string[];
  readonly verbose?: { readonly header: boolean; readonly body: boolean };
  readonly listener?: Partial<Config['listener']>;
}

let emptyDir: string | undefined;
/** An empty folder of this test process's own, removed at exit: what answers must not depend on what is in /tmp. */
function emptyFallback(): string {
  if (emptyDir === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'mock-empty-'));
    process.on('exit', () => rmSync(made, { recursive: true, force: true }));
    emptyDir = made;
  }
  return emptyDir;
}

/** A zero-config workspace (127.0.0.1, port 0) with the given changes; without fallbackDir, an empty folder. */
export function makeWorkspace(o: WorkspaceOverrides = {}): Workspace {
  const fallback = o.fallbackDir ?? emptyFallback();
  const origins = o.corsAllowCredentialsOrigins ?? [];
  const config: Config = {
    listener: { ipAddress: '127.0.0.1', port: 0, ...o.listener },
    service: {
      ruleSets: [],
      ruleSetEntries: [],
      middlewares: [],
      middlewareEntries: [],
      fallbackRespondDir: fallback,
      strategy: DEFAULT_STRATEGY,
      corsAllowCredentialsOrigins: origins,
      maxRequestBodyBytes: o.maxRequestBodyBytes ?? DEFAULTS.maxRequestBodyBytes,
      middlewareMaxOperations: DEFAULTS.middlewareMaxOperations,
    },
    log: { verbose: o.verbose ?? { header: false, body: false } },
    fileTreeView: { ...DEFAULTS.fileTreeView },
  };
  return {
    baseDir: fallback,
    config,
    middlewares: [],
    ruleSets: [],
    fallbackDir: fallback,
    cors: { allowedOrigins: origins },
    warnings: [],
  };
}

export interface TestServer {
  readonly handle: ServerHandle;
  readonly port: number;
  readonly logs: string[];
  close(): Promise<void>;
}

export async function startTestServer(ws: Workspace, opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const logs: string[] = [];
  const handle = await startServer(ws, { log: (text) => logs.push(...text.split('\n')), ...opts });
  return { handle, port: handle.addresses[0]!.port, logs, close: () => handle.close() };
}

export interface SimpleResponse {
  readonly status: number;
  /** lower-cased names, wire order */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/** The headers every answer carries, in the order the server writes them (docs/output.md#options-and-cors). */
export const EXPECTED_DEFAULT_HEADERS: readonly [string, string][] = [
  ['access-control-allow-headers', '*'],
  ['access-control-allow-methods', 'GET, POST, PUT, DELETE, PATCH, OPTIONS'],
  ['access-control-max-age', '86400'],
  ['cache-control', 'no-store'],
  ['x-content-type-options', 'nosniff'],
];
/** The origin rows of an answer to a request without credentials. */
export const EXPECTED_STAR_HEADERS: readonly [string, string][] = [
  ['access-control-allow-origin', '*'],
  ['vary', '*'],
];

export function header(
  r: { readonly headers: readonly (readonly [string, string])[] },
  name: string,
): string | undefined {
  return r.headers.find(([k]) => k === name)?.[1];
}

export interface RequestSpec {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string | number>;
  readonly body?: string | Buffer;
  /** HTTPS with this CA */
  readonly ca?: string;
}

/** One request with Node's client (fresh connection each time). */
export function send(port: number, spec: RequestSpec = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const base = {
      host: '127.0.0.1',
      port,
      method: spec.method ?? 'GET',
      path: spec.path ?? '/',
      headers: spec.headers ?? {},
      agent: false as const,
    };
    const onResponse = (res: import('node:http').IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    };
    const req =
      spec.ca !== undefined ? httpsRequest({ ...base, ca: spec.ca }, onResponse) : httpRequest(base, onResponse);
    req.on('error', reject);
    req.end(spec.body);
  });
}

export interface RawOptions {
  /** give up (and destroy) after this long */
  readonly timeoutMs?: number;
  /** half-close our side after writing */
  readonly end?: boolean;
  /** stop once this many complete responses arrived */
  readonly responses?: number;
  /** TLS with this CA */
  readonly ca?: string;
}

export interface RawResult {
  readonly text: string;
  /** how the exchange ended */
  readonly ended: 'closed' | 'timeout' | 'enough';
}

/** Write raw bytes and collect what comes back (latin1) until the server closes, enough responses came, or time runs out. */
export function rawExchange(port: number, data: string | Buffer, o: RawOptions = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const socket: Socket =
      o.ca !== undefined
        ? tlsConnect({ host: '127.0.0.1', port, ca: o.ca, servername: 'localhost' }, () => write())
        : netConnect(port, '127.0.0.1', () => write());
    const write = (): void => {
      socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
      if (o.end === true) socket.end();
    };
    const finish = (ended: RawResult['ended']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, ended });
    };
    const timer = setTimeout(() => finish('timeout'), o.timeoutMs ?? 3000);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (o.responses !== undefined && parseResponses(text).length >= o.responses) finish('enough');
    });
    socket.on('error', () => finish('closed'));
    socket.on('close', () => finish('closed'));
  });
}

export interface ParsedResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

/** Complete HTTP/1.1 responses in `text` (Content-Length framing or none); bodyless for 1xx/204/304 and `noBody`. */
export function parseResponses(text: string, noBody = false): ParsedResponse[] {
  const out: ParsedResponse[] = [];
  let at = 0;
  for (let guard = 0; guard < 100; guard++) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const lines = text.slice(at, headEnd).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!m) break;
    const status = Number(m[1]);
    const headers = lines.slice(1).map((l) => {
      const c = l.indexOf(':');
      return [l.slice(0, c).toLowerCase(), l.slice(c + 1).trim()] as const;
    });
    const cl = headers.find(([k]) => k === 'content-length');
    const len = noBody || status < 200 || status === 204 || status === 304 || cl === undefined ? 0 : Number(cl[1]);
    if (text.length < headEnd + 4 + len) break;
    out.push({ status, headers, body: text.slice(headEnd + 4, headEnd + 4 + len) });
    at = headEnd + 4 + len;
  }
  return out;
}

export function tempDir(prefix = 'mock-server-'): { readonly path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Write a cert/key pair into `dir`; returns absolute paths. */
export function writePair(
  dir: string,
  pair: { cert: string; key: string },
  names = { cert: 'cert.pem', key: 'key.pem' },
): { cert: string; key: string } {
  const cert = join(dir, names.cert);
  const key = join(dir, names.key);
  writeFileSync(cert, pair.cert);
  writeFileSync(key, pair.key);
  return { cert, key };
}

export interface MockClock {
  /** resolves once `count` timers of `ms` have been scheduled since the clock was made (e.g. a handshake deadline armed) */
  scheduled(ms: number, count?: number): Promise<void>;
  /** advance the mocked time: due timers run, synchronously */
  tick(ms: number): void;
  /** real timers again (before closing a server, whose close may wait on one) */
  reset(): void;
}

/**
 * node:test's mock setTimeout for this test, plus an event for "the code under test scheduled a timer of ms": a
 * test waits for the server to arm a deadline, then moves time on by hand, and never waits on the wall clock.
 * Node's own socket timeouts (header, keep-alive) use internal timers and are not affected.
 */
export function mockClock(t: TestContext): MockClock {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const mocked = globalThis.setTimeout;
  const seen = new Map<number, number>();
  const waiters: { ms: number; count: number; resolve(): void }[] = [];
  const wrapped = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = mocked(fn, ms, ...args);
    const n = (seen.get(ms ?? 0) ?? 0) + 1;
    seen.set(ms ?? 0, n);
    for (const w of waiters.filter((w) => w.ms === ms && w.count <= n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    return timer;
  }) as typeof setTimeout;
  // restored by the mock itself on reset: it puts back the real setTimeout it saved on enable
  globalThis.setTimeout = wrapped;
  return {
    scheduled: (ms, count = 1) =>
      (seen.get(ms) ?? 0) >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ ms, count, resolve })),
    tick: (ms) => t.mock.timers.tick(ms),
    reset: () => t.mock.timers.reset(),
  };
}

/**
 * Counts the messages on one of Node's diagnostics channels (`net.server.socket`: a server accepted a connection;
 * `http.server.request.start`: a server has a request), so a test waits for what the server did, not for time.
 */
export function channelEvents(name: string): { reached(count: number): Promise<void>; stop(): void } {
  let seen = 0;
  const waiters: { count: number; resolve(): void }[] = [];
  const on = (): void => {
    seen++;
    for (const w of waiters.filter((w) => w.count <= seen)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  subscribe(name, on);
  return {
    reached: (count) =>
      seen >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    stop: () => unsubscribe(name, on),
  };
}

// ---- the reliability suite: spawned servers, memory, raw keep-alive clients, statistics -----------------

export const LONG = process.env['RELIABILITY'] === 'long';

/** Pick the short-form or the long-form figure. */
export function scale<T>(short: T, long: T): T {
  return LONG ? long : short;
}

/** <out>/test/reliability/harness.js → <out>/bin/main.cjs (the bundled program) */

// Temp folders and workspace files: the same helpers as the end-to-end tests.

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

const TAIL = 300;

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
  children.add(child);
  const counts = new Map<RegExp, number>(watch.map((re) => [re, 0]));
  const tail: string[] = [];
  let lines = 0;
  let partial = '';
  let stderr = '';
  const exited = new Promise<number | null>((res) =>
    child.on('close', (code) => {
      children.delete(child);
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

/** runMock's result and how long the run took */
export interface TimedRunResult extends RunResult {
  readonly ms: number;
}

/** Runs `node main.js <args>` to completion (killed after `timeoutMs`). */
export async function runProgram(args: readonly string[], cwd: string, timeoutMs = 20_000): Promise<TimedRunResult> {
  const started = Date.now();
  const r = await runMock(args, { cwd, timeoutMs });
  return { ...r, ms: Date.now() - started };
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
      const s = netConnect(this.port, this.host);
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
