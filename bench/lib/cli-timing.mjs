// Cold-start timing of short-lived commands: each command is spawned
// `runs` times (after `warmup` discarded rounds), the commands interleaved
// round by round in a rotating order; wall time from spawn to exit.

import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { median } from './stats.mjs';

/** Runs a command once with pipes: exit code and first output line. */
export function probe(cmd, cwd) {
  const r = spawnSync(cmd.argv[0], cmd.argv.slice(1), {
    cwd: cmd.cwd ?? cwd,
    encoding: 'utf8',
    timeout: 30000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  return {
    exit: r.status,
    signal: r.signal,
    first_line: text.split('\n')[0]?.slice(0, 160) ?? '',
    output: text.slice(0, 2000),
    error: r.error ? String(r.error) : null,
  };
}

/**
 * @param {{name: string, argv: string[], cwd?: string}[]} cmds (a command's own `cwd` wins over the shared one)
 * @returns {Record<string, {median_ms: number, min_ms: number, max_ms: number, runs: number}>}
 */
export function timeCommands(cmds, { cwd, runs = 20, warmup = 3 }) {
  const times = Object.fromEntries(cmds.map((c) => [c.name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    const k = round % cmds.length;
    const order = [...cmds.slice(k), ...cmds.slice(0, k)];
    for (const c of order) {
      const t0 = performance.now();
      spawnSync(c.argv[0], c.argv.slice(1), { cwd: c.cwd ?? cwd, stdio: 'ignore', timeout: 30000 });
      const dt = performance.now() - t0;
      if (round >= warmup) times[c.name].push(dt);
    }
  }
  const out = {};
  for (const [name, ts] of Object.entries(times)) {
    out[name] = { median_ms: median(ts), min_ms: Math.min(...ts), max_ms: Math.max(...ts), runs: ts.length };
  }
  return out;
}
