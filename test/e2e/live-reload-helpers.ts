// Helpers for the live-reload end-to-end tests: waiting on the program's own output (never on a bare sleep),
// plain GETs on fresh connections, and the ways editors save a file. Not a test file itself.
import { readdirSync, readFileSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningMock } from '../helpers/mock-cli.js';
import { send } from './server-harness.js';

/** Polls `probe` every 20 ms until it gives a value; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function reloadLines(m: RunningMock): string[] {
  return m.stdoutLines.filter((l) => l.startsWith('reloaded generation '));
}

/** Waits for `reloaded generation <n> …` on stdout and returns the line. */
export function waitReloaded(m: RunningMock, generation: number): Promise<string> {
  return waitFor(
    `reloaded generation ${generation}\nstdout:\n${m.stdoutLines.join('\n')}\nstderr:\n${m.stderr()}`,
    () => m.stdoutLines.find((l) => l.startsWith(`reloaded generation ${generation} `)),
  );
}

export function rejections(m: RunningMock): number {
  return m
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('reload rejected; ')).length;
}

/** Waits until stderr holds `count` rejection headers; returns stderr. */
export function waitRejected(m: RunningMock, count: number): Promise<string> {
  return waitFor(`rejection #${count}\nstderr:\n${m.stderr()}`, () =>
    rejections(m) >= count ? m.stderr() : undefined,
  );
}

export async function get(port: number, path: string): Promise<string> {
  return (await send(port, { path })).body.toString('utf8');
}

/** Polls until GET `path` answers `text`; returns how long it took (ms). */
export async function waitServed(port: number, path: string, text: string, timeoutMs = 10_000): Promise<number> {
  const start = Date.now();
  await waitFor(
    `GET ${path} answering ${JSON.stringify(text)}`,
    async () => ((await get(port, path)) === text ? true : undefined),
    timeoutMs,
  );
  return Date.now() - start;
}

/** A JetBrains-style save: write a temporary file beside it, then rename it over the original. */
export async function saveByRename(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp~${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** A vim-style save with a backup: the original moves to `file~`, a new file is written, the backup goes. */
export async function saveLikeVim(file: string, text: string): Promise<void> {
  await rename(file, `${file}~`);
  await writeFile(file, text);
  await unlink(`${file}~`);
}

export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN) * 1024;
}

/** user + system CPU time of the process, in clock ticks (USER_HZ, 100 a second on Linux) */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields after the name start at state (field 3): utime is field 14, stime 15
  return Number(fields[11]) + Number(fields[12]);
}

export const rulesToml = (rules: readonly (readonly [path: string, text: string])[], head = ''): string =>
  head + rules.map(([p, t]) => `[[rules]]\nwhen.request.url_path = "${p}"\nrespond.text = "${t}"\n`).join('\n');

export function path(dir: string, name: string): string {
  return join(dir, name);
}
