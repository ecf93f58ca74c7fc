// The test runner behind `npm test` and `npm run test:unit` (run after `npm run build`).
//
//   node scripts/test.mjs unit   the unit set: every test file that spawns no process and opens no browser, with
//                                property tests at a fraction of their cases (MOCK_TEST_LOOP=unit)
//   node scripts/test.mjs all    the unit set, then the spawning set: the full suite, every property case
//
// Property tests take their case counts from test/helpers/test-loop.ts, which reads MOCK_TEST_LOOP: the unit loop
// runs the first cases of the same seeded sequence the full run runs. After each set this prints the slowest
// files (the runner's own time per file) and flags those over the set's budget.
//
// The unit set is every compiled *.test.js under dist/ except the files listed in SPAWNING. It runs with
// test/helpers/unit-guard.ts preloaded, which makes child_process throw: a test that starts the real program, a
// browser or any other process fails there, naming this list, until it is added to SPAWNING. So a new spawning test
// cannot slip into the unit set, and `npm test` (which runs the unit set first, under the same guard) catches it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Test files (source paths) that spawn a process: the real program, a browser, npm, taplo, or node itself. */
export const SPAWNING = [
  'src/start-up/start-up-work.test.ts',
  'test/e2e/callbacks-import.test.ts',
  'test/e2e/callbacks.test.ts',
  'test/e2e/cli-basics.test.ts',
  'test/state/store-contract.test.ts',
  'test/e2e/cli-get.test.ts',
  'test/e2e/cli-init.test.ts',
  'test/e2e/cli-match-test.test.ts',
  'test/e2e/cli-serve.test.ts',
  'test/e2e/cli-validate.test.ts',
  'test/e2e/collections-hostile.test.ts',
  'test/e2e/db-json-server.test.ts',
  'test/e2e/first-hour.test.ts',
  'test/e2e/mcp.test.ts',
  'test/e2e/collections-json-server.test.ts',
  'test/e2e/collections-sessions.test.ts',
  'test/e2e/collections.test.ts',
  'test/e2e/commit-point.test.ts',
  'test/e2e/contract-serve.test.ts',
  'test/e2e/contract-validate.test.ts',
  'test/e2e/deny.test.ts',
  'test/e2e/faults.test.ts',
  'test/e2e/fidelity.test.ts',
  'test/e2e/http2.test.ts',
  'test/e2e/http2-browser.test.ts',
  'test/e2e/inspect-paths.test.ts',
  'test/e2e/redact-why.test.ts',
  'test/e2e/inspect-token.test.ts',
  'test/e2e/inspector-burst.test.ts',
  'test/e2e/inspector-page.test.ts',
  'test/e2e/inspector-program-page.test.ts',
  'test/e2e/inspector-program.test.ts',
  'test/e2e/inspector-stream-page.test.ts',
  'test/e2e/inspector-websocket-page.test.ts',
  'test/e2e/launcher.test.ts',
  'test/e2e/library-packaging.test.ts',
  'test/e2e/library-sessions.test.ts',
  'test/e2e/library.test.ts',
  'test/e2e/websocket.test.ts',
  'test/e2e/live-reload-fixed.test.ts',
  'test/e2e/live-reload-resources.test.ts',
  'test/e2e/live-reload.test.ts',
  'test/e2e/load-cache.test.ts',
  'test/e2e/import-har.test.ts',
  'test/e2e/import-hostile.test.ts',
  'test/e2e/mockoon-import.test.ts',
  'test/e2e/import.test.ts',
  'test/e2e/openapi-giant.test.ts',
  'test/e2e/openapi-import.test.ts',
  'test/e2e/openapi-stop.test.ts',
  'test/e2e/openapi-update.test.ts',
  'test/e2e/overrides-sessions.test.ts',
  'test/e2e/playwright-example.test.ts',
  'test/e2e/private-checkout.test.ts',
  'test/e2e/rhai-language.test.ts',
  'test/e2e/scenarios.test.ts',
  'test/e2e/set-rule.test.ts',
  'test/e2e/templates-wiremock.test.ts',
  'test/e2e/templates.test.ts',
  'test/e2e/toml-mistakes.test.ts',
  'test/e2e/unit-as-user.test.ts',
  'test/e2e/whole-request.test.ts',
  'test/e2e/wiremock-matching.test.ts',
  'test/e2e/wiremock-admin.test.ts',
  'test/examples.test.ts',
  'test/generated.test.ts',
  'test/parity.test.ts',
  'test/record/drift.test.ts',
  'test/record/proxy.test.ts',
  'test/record/recorder.test.ts',
  'test/record/serve-guards.test.ts',
  'test/record/serve-replay.test.ts',
  'test/record/stream-record.test.ts',
  'test/record/ws-record.test.ts',
  'test/reliability/backpressure.test.ts',
  'test/reliability/bad-config.test.ts',
  'test/reliability/body-cap.test.ts',
  'test/reliability/confinement.test.ts',
  'test/reliability/held-connections.test.ts',
  'test/reliability/hostile-work.test.ts',
  'test/reliability/idle-cpu.test.ts',
  'test/reliability/inspector-events.test.ts',
  'test/reliability/malformed-http.test.ts',
  'test/reliability/no-lost-edits.test.ts',
  'test/reliability/openapi-size.test.ts',
  'test/reliability/runaway-script.test.ts',
  'test/reliability/slow-clients.test.ts',
  'test/reliability/soak.test.ts',
  'test/reliability/sse-soak.test.ts',
];

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const compiled = (source) => join(dist, source.replace(/\.ts$/, '.js'));

// the server's load cache (docs/load-cache.md) goes to a folder of this run's own, not the user's ~/.cache
const cacheHome = mkdtempSync(join(tmpdir(), 'mock-test-cache-'));
process.on('exit', () => rmSync(cacheHome, { recursive: true, force: true }));

/** A file over this is flagged in the time report: the unit set is the loop run on every edit; a spawning file runs the real program. */
const BUDGET_MS = { unit: 10_000, spawning: 60_000 };
/** How many of the slowest files the report lists (every file over budget is listed as well). */
const SLOWEST = 8;

function run(set, files, extraArgs, loop) {
  const times = join(cacheHome, `times-${set}.jsonl`);
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome, MOCK_TEST_LOOP: loop };
  const args = [
    ...extraArgs,
    '--test',
    '--test-concurrency=4',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'scripts', 'file-times.mjs')}`,
    `--test-reporter-destination=${times}`,
    ...files,
  ];
  const started = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  report(set, times, Date.now() - started);
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function report(set, timesFile, wallMs) {
  let rows;
  try {
    rows = readFileSync(timesFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
  } catch {
    return;
  }
  rows.sort((a, b) => b.ms - a.ms);
  const budget = BUDGET_MS[set];
  const shown = rows.filter((r, i) => i < SLOWEST || r.ms > budget);
  const over = rows.filter((r) => r.ms > budget).length;
  const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\n${set} set: ${rows.length} files in ${secs(wallMs)} wall; the slowest (budget ${secs(budget)} a file):`,
  );
  for (const r of shown)
    console.log(
      `  ${secs(r.ms).padStart(8)}  ${relative(dist, r.file).split(sep).join('/')}${r.ms > budget ? '  OVER BUDGET' : ''}`,
    );
  if (over > 0) console.log(`  ${over} file(s) over the ${set} budget of ${secs(budget)}`);
}

const mode = process.argv[2] ?? 'all';
if (mode !== 'unit' && mode !== 'all') {
  console.error(`usage: node scripts/test.mjs unit|all (got ${mode})`);
  process.exit(2);
}
const spawning = new Set(SPAWNING.map(compiled));
// only the compiled tests whose source still exists: an incremental build leaves a moved or deleted test's old
// output in dist/, which would otherwise run (and fail) as if it were still part of the suite
const hasSource = (file) => existsSync(join(root, relative(dist, file)).replace(/\.js$/, '.ts'));
const all = testFiles(join(dist, 'src'))
  .concat(testFiles(join(dist, 'test')))
  .filter(hasSource)
  .sort();
const missing = [...spawning].filter((f) => !all.includes(f));
if (missing.length > 0) {
  console.error(
    `scripts/test.mjs: SPAWNING names files that are not built: ${missing.map((f) => relative(dist, f).split(sep).join('/')).join(', ')}`,
  );
  process.exit(1);
}
const unit = all.filter((f) => !spawning.has(f));
const guard = join(dist, 'test', 'helpers', 'unit-guard.js');
run('unit', unit, ['--import', guard], mode === 'unit' ? 'unit' : 'full');
if (mode === 'all')
  run(
    'spawning',
    all.filter((f) => spawning.has(f)),
    [],
    'full',
  );
