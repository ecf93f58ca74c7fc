// A small harness for end-to-end tests: run the compiled program, start a server on an ephemeral port,
// write throw-away workspaces. The program is found relative to this compiled file, so the tests work
// from dist/ and from any other out dir.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

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
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...len, ...headers } }, (res) => {
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
