// Reliability figure 7 (docs/reliability.md): bad configuration. Every case of test/fixtures/bad-configs.ts plus the TLS cases of
// tls-bad-configs.ts: `mock validate` exits 2 and the server refuses to start (exit 2, never a Listening line),
// each message naming the file (and line and column where the case has one), never a stack trace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BAD_CONFIGS, materialize, type BadConfig } from '../fixtures/bad-configs.js';
import { maxOf, pool, runProgram, scale, type RunResult } from './harness.js';
import { tlsBadConfigs } from './tls-bad-configs.js';

const WIDTH = scale(4, 6);
/** the short form starts the server on every SERVE_EVERY-th case (and every TLS case); the long form on all */
const SERVE_EVERY = scale(3, 1);
const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/** Why `r` is not a clean refusal of `c`, or undefined. */
function refusalProblem(c: BadConfig, what: string, r: RunResult): string | undefined {
  const out = r.stderr + r.stdout;
  if (r.code !== 2)
    return `${what}: exit ${r.code}${r.signal !== null ? ` (${r.signal}, it kept running)` : ''}, expected 2\n${out.slice(0, 400)}`;
  if (/Listening on/.test(r.stdout)) return `${what}: printed a Listening line`;
  if (!c.expect.test(out)) return `${what}: output does not match ${c.expect}\n${out.slice(0, 400)}`;
  if (STACK_TRACE.test(out) || /internal error/i.test(out))
    return `${what}: stack trace or internal error\n${out.slice(0, 400)}`;
  return undefined;
}

describe('bad configuration: validate exits 2 and the server refuses to start, naming the file', () => {
  let cases: readonly BadConfig[] = [];
  before(async () => {
    cases = [...BAD_CONFIGS, ...(await tlsBadConfigs())];
  });
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanups) await c();
  });

  it('every case', { timeout: 300_000 }, async (t) => {
    const problems: string[] = [];
    const failedCases = new Set<string>();
    let served = 0;
    const timings: number[] = [];
    await pool(cases.length, WIDTH, async (i) => {
      const c = cases[i]!;
      const { dir, cleanup } = await materialize(c.files);
      cleanups.push(cleanup);
      const validate = await runProgram(['validate'], dir, 15_000);
      timings.push(validate.ms);
      const found = [refusalProblem(c, 'validate', validate)];
      if (i % SERVE_EVERY === 0 || c.name.startsWith('TLS')) {
        const serve = await runProgram(['-p', '0'], dir, 8_000);
        timings.push(serve.ms);
        served++;
        found.push(refusalProblem(c, 'serve', serve));
      }
      for (const p of found) {
        if (p === undefined) continue;
        problems.push(`${c.name}: ${p}`);
        failedCases.add(c.name);
      }
      await cleanup();
    });
    const kinds = {
      root: cases.filter((c) => c.name.startsWith('root:')).length,
      ruleSet: cases.filter((c) => c.name.startsWith('rule set:')).length,
      tls: cases.filter((c) => c.name.startsWith('TLS')).length,
    };
    t.diagnostic(
      `figure 7: ${cases.length} bad configurations (${kinds.root} root config, ${kinds.ruleSet} rule set, ${kinds.tls} TLS material): ` +
        `${cases.length - failedCases.size} refused cleanly by validate (exit 2) and, for the ${served} started, by serve (exit 2, no listener); ` +
        `problems ${problems.length}; slowest refusal ${Math.round(maxOf(timings))} ms`,
    );
    assert.ok(cases.length >= 40, 'at least 40 kinds');
    assert.deepEqual(problems, []);
  });
});
