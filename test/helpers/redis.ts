// A Redis server of the test's own (Debian's redis-server, which .ci/run installs), on a free loopback port, with
// its data in a temp folder: stopped and started again on the same port and folder, it keeps what it acknowledged
// when `durable` (append-only file, fsync on every write).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** stops the server (SIGTERM) and waits for it to exit */
  stop(): Promise<void>;
  /** starts it again on the same port and data folder */
  start(): Promise<void>;
  /** stops it and removes its folder */
  dispose(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

export async function startRedis(options: { durable?: boolean } = {}): Promise<TestRedis> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'mock-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push(...(options.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const c = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      let out = '';
      c.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      c.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      const c = child;
      if (c === undefined || c.exitCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    start,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
