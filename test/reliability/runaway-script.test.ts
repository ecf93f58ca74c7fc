// Reliability figure 6 (docs/reliability.md): runaway scripts. A middleware that runs `loop {}` on one path, under load on other paths:
// every request to it answers within the script budget by falling through to the next stage, and the latency of
// the other requests meanwhile is measured (their p99 goes in docs/reliability.md). Scripts run on the server's one
// thread, so while a script spins, everything else waits: the budget bounds that wait.
//
// Two budgets are exercised: the default operation budget (service.middleware_max_operations, 10,000,000), and
// the wall-clock budget (per script run, DEFAULT_SCRIPT_TIME_LIMIT_MS in src/dispatch/dispatch.ts) with the
// operation budget lifted out of the way.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DEFAULT_SCRIPT_TIME_LIMIT_MS } from '../../src/dispatch/dispatch.js';
import {
  delay,
  keepAliveClient,
  makeTempDir,
  maxOf,
  median,
  ms,
  percentile,
  removeDir,
  scale,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';

const SECONDS = scale(3, 30);
const CONNECTIONS = 20;
/** the wall-clock budget of one script run */
const TIME_BUDGET_MS = DEFAULT_SCRIPT_TIME_LIMIT_MS;
/**
 * Allowance over the budget for queueing behind requests already in progress. The short form runs inside
 * `npm test` next to other test files on a shared machine, so it allows for CPU contention; the long form runs alone.
 */
const SLACK_MS = scale(2000, 500);

const SCRIPT = `
fn deeper(n) { deeper(n + 1) }
if url_path == "/spin" { loop {} }
if url_path == "/spin-while" { while true { } }
if url_path == "/spin-recurse" { deeper(0); }
if url_path == "/spin-grow" { let a = []; loop { a.push(1); } }
if url_path == "/spin-double" { let s = "x"; loop { s = s + s; } }
`;
const SPIN_PATHS = ['/spin', '/spin-while', '/spin-recurse', '/spin-grow', '/spin-double'] as const;
const FELL_THROUGH = '{"fell": "through"}\n';

interface Budget {
  readonly name: string;
  readonly config: string;
  readonly paths: readonly string[];
}

const BUDGETS: readonly Budget[] = [
  { name: 'operation budget (default 10,000,000)', config: '', paths: SPIN_PATHS },
  // only `loop {}` here: the growth scripts would hit their size limits first anyway
  {
    name: `wall-clock budget (${TIME_BUDGET_MS} ms; operations unlimited)`,
    config: 'middleware_max_operations = 9007199254740991\n',
    paths: ['/spin'],
  },
];

describe(`runaway scripts under load (${SECONDS} s per budget, ${CONNECTIONS} connections)`, () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) await removeDir(d);
  });

  for (const budget of BUDGETS) {
    it(budget.name, { timeout: (SECONDS + 60) * 1000 }, async (t) => {
      const dir = makeTempDir('mock-rel-runaway-');
      dirs.push(dir);
      const files: Record<string, string> = {
        'mock.toml': `[service]\nmiddlewares = ["spin.rhai"]\n${budget.config}`,
        'spin.rhai': SCRIPT,
        'ok.json': '{"ok": true}\n',
      };
      for (const p of SPIN_PATHS) files[`${p.slice(1)}.json`] = FELL_THROUGH;
      await writeTree(dir, files);
      const failed = /script evaluation failed/;
      const server = await spawnServer([], dir, [failed]);
      servers.push(server);

      const load = keepAliveClient(server.port, CONNECTIONS);
      const spinner = keepAliveClient(server.port, 1, 30_000);
      const stopAt = performance.now() + SECONDS * 1000;
      const other = { latencies: [] as number[], bad: [] as string[] };
      const spin = { latencies: [] as number[], bad: [] as string[] };
      const loadLane = async (): Promise<void> => {
        for (let i = 0; performance.now() < stopAt && i < 10_000_000; i++) {
          const t0 = performance.now();
          const r = await load.request('GET', '/ok.json');
          other.latencies.push(performance.now() - t0);
          if ((r.status !== 200 || r.error !== undefined) && other.bad.length < 10)
            other.bad.push(`${r.status} ${r.error ?? ''}`);
        }
      };
      const spinLane = async (): Promise<void> => {
        for (let i = 0; performance.now() < stopAt && i < 100_000; i++) {
          const path = budget.paths[i % budget.paths.length]!;
          const t0 = performance.now();
          const r = await spinner.request('GET', path);
          spin.latencies.push(performance.now() - t0);
          if ((r.status !== 200 || r.body !== FELL_THROUGH) && spin.bad.length < 10)
            spin.bad.push(`${path}: ${r.status} ${r.error ?? JSON.stringify(r.body.slice(0, 80))}`);
          await delay(50);
        }
      };
      try {
        await Promise.all([spinLane(), ...Array.from({ length: CONNECTIONS }, loadLane)]);
      } finally {
        load.close();
        spinner.close();
      }
      await delay(100);
      t.diagnostic(
        `figure 6 (${budget.name}): ${spin.latencies.length} runaway requests (${budget.paths.join(', ')}) all fell through: ${spin.bad.length === 0 ? 'yes' : 'NO'}; ` +
          `their latency p50 ${ms(median(spin.latencies))} max ${ms(maxOf(spin.latencies))}; ` +
          `${other.latencies.length} other requests at ${CONNECTIONS} connections meanwhile: p50 ${ms(median(other.latencies))} ` +
          `p99 ${ms(percentile(other.latencies, 99))} max ${ms(maxOf(other.latencies))}; script failures logged ${server.count(failed)}`,
      );
      assert.deepEqual(spin.bad, [], 'every runaway request falls through to the fallback file');
      assert.deepEqual(other.bad, [], 'every other request is answered 200');
      assert.ok(spin.latencies.length >= 3, `enough runaway requests ran (${spin.latencies.length})`);
      assert.ok(
        maxOf(spin.latencies) <= TIME_BUDGET_MS + SLACK_MS,
        `slowest runaway request took ${ms(maxOf(spin.latencies))}`,
      );
      assert.equal(server.count(failed), spin.latencies.length, 'each runaway run is logged once');
      assert.ok(server.alive());
    });
  }
});
