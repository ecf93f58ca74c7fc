// The suite must pass wherever a user may clone it: here, from a checkout inside a private (0700) folder, as whoever
// runs the suite (root in CI). The test that runs the program as another user (set rule's read-only folder) is run
// from such a checkout: the compiled tests and program are copied under a fresh 0700 folder (with the package.json
// and a link to node_modules), and that test file must pass there — or, where the other user cannot run the
// program at all, be skipped with the reason printed, never fail.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, it } from 'node:test';
import { MAIN_JS, makeTempDir, removeDir } from '../helpers/mock-cli.js';

const dist = join(dirname(MAIN_JS), '..'); // <out>/bin/main.cjs → <out>
const checkout = join(dist, '..');
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
});

function runNodeTest(file: string, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((res) => {
    // a test run of its own, not a subtest of this one (node:test marks its children through NODE_TEST_CONTEXT)
    const env = { ...process.env };
    delete env['NODE_TEST_CONTEXT'];
    const child = spawn(
      process.execPath,
      ['--test', '--test-reporter=tap', '--test-name-pattern=a read-only folder', file],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, out });
    });
  });
}

it('set rule’s permission tests pass from a checkout inside a 0700 folder', { timeout: 150_000 }, async () => {
  const priv = makeTempDir('mock-private-');
  dirs.push(priv);
  chmodSync(priv, 0o700);
  const clone = join(priv, 'clone');
  mkdirSync(join(clone, 'dist', 'test'), { recursive: true });
  cpSync(join(checkout, 'package.json'), join(clone, 'package.json'));
  symlinkSync(join(checkout, 'node_modules'), join(clone, 'node_modules'));
  cpSync(join(dist, 'bin'), join(clone, 'dist', 'bin'), { recursive: true });
  cpSync(join(dist, 'test', 'helpers'), join(clone, 'dist', 'test', 'helpers'), { recursive: true });
  // the helpers name some of the program's own modules (its config defaults, its messages)
  cpSync(join(dist, 'src'), join(clone, 'dist', 'src'), { recursive: true });
  mkdirSync(join(clone, 'dist', 'test', 'e2e'));
  cpSync(join(dist, 'test', 'e2e', 'set-rule.test.js'), join(clone, 'dist', 'test', 'e2e', 'set-rule.test.js'));

  const r = await runNodeTest(join(clone, 'dist', 'test', 'e2e', 'set-rule.test.js'), clone);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /^# fail 0$/m, r.out);
  const line = /^\s*ok \d+ - a read-only folder: exit 1, kind io, the old file whole(.*)$/m.exec(r.out);
  assert.ok(line, `the read-only folder test did not pass:\n${r.out}`);
  // ran, or skipped saying why (a skip with no reason would hide a broken environment)
  const skip = /# SKIP(.*)$/.exec(line[1] ?? '');
  // the one acceptable skip is the environment's: `nobody` cannot run the program here at all
  if (skip)
    assert.match(
      skip[1]!,
      /user nobody \(uid \d+\) cannot run the program/,
      `skipped for a reason that is not the environment's: ${line[0]}`,
    );
});
