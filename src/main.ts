#!/usr/bin/env node
// The process boundary: argv → cli run(argv, io) → process.exitCode. The only file that reads
// process.argv or sets the exit code. Unexpected failures print one line (no stack trace unless
// MOCK_DEBUG is set) and exit 1.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './cli/run.js';
import type { Io } from './cli/io.js';

/** The nearest package.json above this file that names this program (works from dist/ and any out dir). */
function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'folder-mock' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here; keep walking up
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return '0.0.0';
}

let version: string | undefined;

/** How often a program started by npx / npm looks whether its launcher is still there. */
const LAUNCHER_CHECK_MS = 250;

/**
 * Started by `npx mock` or an npm script, the program runs under `npm exec` → `sh -c mock` → node, and npm hands a
 * SIGTERM only to that `sh`, which dies without passing it on: `npx mock &` then `kill $!` would leave the server
 * listening (docs/development.md#starting-and-stopping). So under npm the program stops, as on SIGTERM, once its
 * parent process is gone. Outside npm (a shell, nohup, a test harness) nothing is watched. Returns the stopper.
 */
function watchLauncher(gone: () => void): (() => void) | undefined {
  const by = process.env['npm_command'];
  if (by !== 'exec' && by !== 'run-script') return undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) gone();
  }, LAUNCHER_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

const io: Io = {
  cwd: process.cwd(),
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  version: () => (version ??= readVersion()),
  // a getter: touching process.stdin costs start-up time that only --init needs
  get interactive() {
    return process.stdin.isTTY === true && process.stdout.isTTY === true;
  },
  readFile: async (path) => readFile(path),
  onShutdown(handler) {
    const launcherGone = watchLauncher(() => once());
    const once = (): void => {
      process.off('SIGINT', once);
      process.off('SIGTERM', once);
      launcherGone?.();
      handler();
    };
    process.on('SIGINT', once);
    process.on('SIGTERM', once);
    return () => {
      process.off('SIGINT', once);
      process.off('SIGTERM', once);
      launcherGone?.();
    };
  },
};

// A closed pipe (`mock get /x | head -1`) is not an error worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

// No top-level await: the shipped program is this module bundled as CommonJS (scripts/bundle.mjs).
run(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`mock: internal error: ${message}\n`);
    if (process.env['MOCK_DEBUG'] && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = 1;
  },
);
