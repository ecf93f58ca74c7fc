// The test runner behind `npm test` and `npm run test:unit` (run after `npm run build`).
//
//   node scripts/test.mjs unit   the unit set: every test file that spawns no process and opens no browser
//   node scripts/test.mjs all    the unit set, then the spawning set: the full suite
//
// The unit set is every compiled *.test.js under dist/ except the files listed in SPAWNING. It runs with
// test/helpers/unit-guard.ts preloaded, which makes child_process throw: a test that starts the real program, a
// browser or any other process fails there, naming this list, until it is added to SPAWNING. So a new spawning test
// cannot slip into the unit set, and `npm test` (which runs the unit set first, under the same guard) catches it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Test files (source paths) that spawn a process: the real program, a browser, npm, taplo, or node itself. */
export const SPAWNING = [
  'src/node/start-up-work.test.ts',
  'test/e2e/cli-basics.test.ts',
  'test/e2e/cli-get.test.ts',
  'test/e2e/cli-init.test.ts',
  'test/e2e/cli-match-test.test.ts',
  'test/e2e/cli-serve.test.ts',
  'test/e2e/cli-validate.test.ts',
  'test/e2e/collections-json-server.test.ts',
  'test/e2e/collections.test.ts',
  'test/e2e/contract-serve.test.ts',
  'test/e2e/contract-validate.test.ts',
  'test/e2e/deny.test.ts',
  'test/e2e/faults.test.ts',
  'test/e2e/fidelity.test.ts',
  'test/e2e/inspect-token.test.ts',
  'test/e2e/inspector-burst.test.ts',
  'test/e2e/inspector-page.test.ts',
  'test/e2e/inspector-program-page.test.ts',
  'test/e2e/inspector-program.test.ts',
  'test/e2e/inspector-stream-page.test.ts',
  'test/e2e/launcher.test.ts',
  'test/e2e/library-packaging.test.ts',
  'test/e2e/library-sessions.test.ts',
  'test/e2e/library.test.ts',
  'test/e2e/live-reload-fixed.test.ts',
  'test/e2e/live-reload-resources.test.ts',
  'test/e2e/live-reload.test.ts',
  'test/e2e/load-cache.test.ts',
  'test/e2e/import-har.test.ts',
  'test/e2e/import.test.ts',
  'test/e2e/openapi-import.test.ts',
  'test/e2e/openapi-update.test.ts',
  'test/e2e/overrides-sessions.test.ts',
  'test/e2e/playwright-example.test.ts',
  'test/e2e/private-checkout.test.ts',
  'test/e2e/rhai-language.test.ts',
  'test/e2e/scenarios.test.ts',
  'test/e2e/set-rule.test.ts',
  'test/e2e/templates.test.ts',
  'test/e2e/toml-mistakes.test.ts',
  'test/e2e/unit-as-user.test.ts',
  'test/e2e/whole-request.test.ts',
  'test/examples.test.ts',
  'test/generated.test.ts',
  'test/parity.test.ts',
  'test/record/drift.test.ts',
  'test/record/proxy.test.ts',
  'test/record/recorder.test.ts',
  'test/record/serve-guards.test.ts',
  'test/record/serve-replay.test.ts',
  'test/record/stream-record.test.ts',
  'test/reliability/bad-config.test.ts',
  'test/reliability/body-cap.test.ts',
  'test/reliability/confinement.test.ts',
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

function run(args) {
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const mode = process.argv[2] ?? 'all';
if (mode !== 'unit' && mode !== 'all') {
  console.error(`usage: node scripts/test.mjs unit|all (got ${mode})`);
  process.exit(2);
}
const spawning = new Set(SPAWNING.map(compiled));
const all = testFiles(join(dist, 'src'))
  .concat(testFiles(join(dist, 'test')))
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
run(['--import', guard, '--test', '--test-concurrency=4', ...unit]);
if (mode === 'all') run(['--test', '--test-concurrency=4', ...all.filter((f) => spawning.has(f))]);
