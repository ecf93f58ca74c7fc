// Unit tests that need file permissions to apply skip themselves as root, which is how CI runs. Here they run as an
// ordinary user all the same: each test file is bundled with esbuild into one self-contained file in a fresh folder
// opened to everyone (so `nobody` needs neither the checkout nor node_modules), then run with node:test as `nobody`
// (see test/helpers/as-other-user.ts), and the named tests must pass there, not skip. As an ordinary user they
// already ran, unskipped, in the unit set.
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, it } from 'node:test';
import { build } from 'esbuild';
import { otherUser, runNodeAsNobody, runningAsRoot } from '../helpers/as-other-user.js';
import { MAIN_JS, makeTempDir, removeDir } from '../helpers/mock-cli.js';

const dist = join(dirname(MAIN_JS), '..'); // <out>/bin/main.cjs → <out>

/** compiled test file (under dist/) → the names of its tests that skip as root */
const ROOT_SKIPPING: readonly { readonly file: string; readonly tests: readonly string[] }[] = [
  {
    file: 'src/node/file-cache/fs-source.test.js',
    tests: ['an unreadable file throws (answered 500), unlike a missing one'],
  },
];

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
});

for (const { file, tests } of ROOT_SKIPPING) {
  it(`${file}: the tests that skip as root pass as user nobody`, { timeout: 60_000 }, async (t) => {
    if (!runningAsRoot()) return t.skip('not root: these tests ran unskipped with the rest of the unit set');
    const user = await otherUser();
    if (!user.ok) return t.skip(user.reason);
    const home = makeTempDir('mock-unit-as-nobody-');
    dirs.push(home);
    chmodSync(home, 0o755);
    const bundle = join(home, 'test.mjs');
    await build({
      entryPoints: [join(dist, file)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'silent',
    });
    chmodSync(bundle, 0o644);
    // a run of its own, not a subtest of this one (node:test marks its children through NODE_TEST_CONTEXT)
    const env = { ...process.env };
    delete env['NODE_TEST_CONTEXT'];
    const pattern = tests.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const r = await runNodeAsNobody(
      ['--test', '--test-reporter=tap', `--test-name-pattern=^(${pattern})$`, bundle],
      home,
      env,
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const name of tests) {
      const line = new RegExp(`^\\s*ok \\d+ - ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(.*)$`, 'm').exec(r.stdout);
      assert.ok(line, `${name} did not pass as nobody:\n${r.stdout}`);
      assert.doesNotMatch(line[1] ?? '', /# SKIP/, `${name} skipped as nobody: ${line[0]}`);
    }
  });
}
