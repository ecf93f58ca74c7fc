// Test helpers for the server end-to-end tests: an in-process server over a hand-built workspace, raw socket
// exchanges, a small HTTP/1.1 response parser, and throwaway TLS material. Not a test file itself.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import type { Config } from '../../src/model/config.js';
import { DEFAULTS } from '../../src/model/config.js';
import { DEFAULT_STRATEGY } from '../../src/model/strategy.js';
import type { Workspace } from '../../src/model/workspace.js';
import { startServer, type ServerHandle, type ServerOptions } from '../../src/server/start.js';

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

type Generate = (
  attrs: { name: string; value: string }[],
  opts: Record<string, unknown>,
) => Promise<{ private: string; cert: string }>;

/** A fresh self-signed certificate for 127.0.0.1 / localhost. */
export async function selfSignedPair(): Promise<{ cert: string; key: string }> {
  const mod = (await import('selfsigned')) as unknown as { generate?: Generate; default?: { generate?: Generate } };
  const generate = mod.generate ?? mod.default?.generate;
  if (generate === undefined) throw new Error('selfsigned.generate not found');
  const r = await generate([{ name: 'commonName', value: 'localhost' }], {
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

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
