// The neighbour-latency harness (docs/reliability.md): how long a small, ordinary request waits while a hostile
// one runs. The rule it checks: no single request within the configured limits delays a small request on another
// connection by more than NEIGHBOUR_BUDGET_MS.
//
//   const r = await neighbourDelay(server.port, '/small.txt', async () => { ...start the hostile requests... });
//   assertNeighbourFast(r, 'ten clients that never read a stream');
//
// neighbourDelay sends GET `path` on a fresh connection (Node's client, no agent), one after the other with a short
// gap, from just before `hostile` is called until it has settled and at least `minProbes` probes were made; it
// returns the worst latency seen, the probes' failures and what `hostile` resolved with. A probe that fails or
// answers other than 200 counts as a failure and as `timeoutMs` of latency. Not a test file itself.
import assert from 'node:assert/strict';
import { fetchOnce, maxOf, median } from './harness.js';

/** the rule's own figure */
export const NEIGHBOUR_BUDGET_MS = 250;
/**
 * What the assertion allows: the budget times a margin for a loaded 2-core machine. At a load average of 12–20
 * (six builds and test runs on the two cores), a probe beside ten idle-but-blocked connections now and then waited
 * 1.5–2 s with nothing of the server's own in the way (its CPU profile idle throughout). The stalls this guards
 * against were 5 s to minutes, or probes that were never answered.
 */
export const LOADED_NEIGHBOUR_MS = NEIGHBOUR_BUDGET_MS * 10;

export interface NeighbourOptions {
  /** HTTPS: the certificate to trust */
  readonly ca?: string;
  /** the pause between one probe's answer and the next probe (default 20 ms) */
  readonly gapMs?: number;
  /** probes to make at least, hostile action settled or not (default 5) */
  readonly minProbes?: number;
  /** a probe not answered by then fails (default 10 s) */
  readonly timeoutMs?: number;
}

export interface NeighbourResult<T> {
  /** the worst probe latency (ms), a failed probe counting as its timeout */
  readonly worstMs: number;
  readonly medianMs: number;
  readonly probes: number;
  /** failed probes, as `status <n>` or the client's error */
  readonly failures: readonly string[];
  /** what the hostile action resolved with */
  readonly hostile: T;
}

/** Probes `path` on `port` while `hostile()` runs (see the top of this file). `hostile` rejecting rejects this. */
export async function neighbourDelay<T>(
  port: number,
  path: string,
  hostile: () => Promise<T>,
  opts: NeighbourOptions = {},
): Promise<NeighbourResult<T>> {
  const gapMs = opts.gapMs ?? 20;
  const minProbes = opts.minProbes ?? 5;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const latencies: number[] = [];
  const failures: string[] = [];
  let settled = false;
  const probing = (async () => {
    while (!settled || latencies.length < minProbes) {
      const r = await fetchOnce(port, path, { timeoutMs, ...(opts.ca !== undefined ? { ca: opts.ca } : {}) });
      if (r.status === 200) latencies.push(r.ms);
      else {
        failures.push(r.error ?? `status ${r.status}`);
        latencies.push(Math.max(r.ms, timeoutMs));
      }
      await new Promise((res) => setTimeout(res, gapMs));
    }
  })();
  let value: T;
  try {
    value = await hostile();
  } finally {
    settled = true;
    await probing;
  }
  return { worstMs: maxOf(latencies), medianMs: median(latencies), probes: latencies.length, failures, hostile: value };
}

/** Fails, naming `what`, when a probe failed or the worst latency is over `limitMs` (LOADED_NEIGHBOUR_MS). */
export function assertNeighbourFast(
  r: NeighbourResult<unknown>,
  what: string,
  limitMs: number = LOADED_NEIGHBOUR_MS,
): void {
  assert.deepEqual(r.failures, [], `${what}: the neighbour's requests failed`);
  assert.ok(
    r.worstMs <= limitMs,
    `${what}: a neighbour waited ${Math.round(r.worstMs)} ms (median ${Math.round(r.medianMs)} ms over ` +
      `${r.probes} probes); the limit is ${limitMs} ms`,
  );
}
