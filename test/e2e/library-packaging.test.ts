// The library as shipped: `npm pack` lists its compiled ESM and .d.ts (and the CLI's bundle apart), and the three
// examples pass under their real runners (node:test, Vitest, Jest in ESM mode), exit codes and pass counts checked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function run(args: readonly string[], timeoutMs = 120_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    // a child of a node:test file is told so by NODE_TEST_CONTEXT, and would not run its own tests
    const { NODE_TEST_CONTEXT: _ignored, ...env } = process.env;
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

test('npm pack ships the library (ESM and .d.ts), the CLI bundle and the inspector page; no sources or tests', async () => {
  const npmCli = join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  assert.ok(existsSync(npmCli), npmCli);
  const r = await run([npmCli, 'pack', '--dry-run', '--json', '--ignore-scripts']);
  assert.equal(r.code, 0, r.out);
  const files = (JSON.parse(r.out.slice(r.out.indexOf('['))) as { files: { path: string }[] }[])[0]!.files.map(
    (f) => f.path,
  );
  for (const f of [
    'dist/lib/library/index.d.ts',
    'dist/lib/library/index.js',
    'dist/lib/library/start-mock.d.ts',
    'dist/lib/journal/entry.d.ts',
    'dist/bin/main.cjs',
    'dist/bin/mock.cjs',
    'dist/lib/inspector/ui/index.html',
    'package.json',
  ]) {
    assert.ok(files.includes(f), `${f} is packed`);
  }
  assert.ok(
    !files.some(
      (f) =>
        f.startsWith('src/') || f.startsWith('dist/test/') || f.startsWith('dist/src/') || f.startsWith('examples/'),
    ),
    'no sources, tests or examples',
  );
});

const EXAMPLES = [
  { name: 'library-node-test', args: ['--test', 'examples/library-node-test/'], passed: /^# pass 5$/m },
  {
    name: 'library-vitest',
    args: ['node_modules/vitest/vitest.mjs', 'run', '--root', 'examples/library-vitest'],
    passed: /Tests\s+5 passed \(5\)/,
  },
  {
    name: 'library-jest',
    args: ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--rootDir', 'examples/library-jest'],
    passed: /Tests:\s+5 passed, 5 total/,
  },
] as const;

for (const ex of EXAMPLES) {
  test(`examples/${ex.name} passes under its runner`, async () => {
    const r = await run(ex.args);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, ex.passed);
  });
}
