// Ctrl-C during a large `mock --init --from`, by signal: the first SIGINT while it plans stops it at the next
// operation; two while it writes stop it at once. Either way it exits 130, says nothing was written, and the folder
// is as it was: no response file, no folder, no rule set, no mock.toml (docs/openapi.md#large-documents).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { giantOpenApi } from '../fixtures/openapi-giant.js';
import { MAIN_JS, makeTempDir, removeDir } from '../helpers/mock-cli.js';

/** every wait is bounded: a loaded machine takes its time, a hung import fails the test */
const STEP_TIMEOUT_MS = 240_000;

interface Watched {
  readonly child: ChildProcess;
  stderr(): string;
  /** resolves when a stderr line matches (rejects at the timeout, or when the import ends first) */
  line(re: RegExp): Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startImport(cwd: string, from: string): Watched {
  const child = spawn(process.execPath, [MAIN_JS, '--init', '--from', from, '--yes'], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const waiting: { re: RegExp; ok: (l: string) => void; fail: (e: Error) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiting]) {
      const found = stderr.split('\n').find((l) => w.re.test(l));
      if (found === undefined) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.ok(found);
    }
  };
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    check();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS * 2);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const w of waiting.splice(0)) w.fail(new Error(`the import ended before ${w.re}:\n${stderr}`));
      res({ code, signal });
    }),
  );
  return {
    child,
    stderr: () => stderr,
    exited,
    line: (re) =>
      new Promise((ok, fail) => {
        const t = setTimeout(
          () => fail(new Error(`no ${re} within ${STEP_TIMEOUT_MS} ms:\n${stderr}`)),
          STEP_TIMEOUT_MS,
        );
        waiting.push({
          re,
          ok: (l) => {
            clearTimeout(t);
            ok(l);
          },
          fail: (e) => {
            clearTimeout(t);
            fail(e);
          },
        });
        check();
      }),
  };
}

describe('mock --init --from: Ctrl-C stops cleanly and leaves nothing written', () => {
  let root: string;
  before(() => {
    root = makeTempDir('mock-openapi-stop-');
    // a response file per operation: the writing takes a while (each file is created and synced)
    writeFileSync(
      join(root, 'giant.json'),
      giantOpenApi({ operations: 6_000, entities: 200, depth: 12, uniqueExamples: true }),
    );
  });
  after(async () => {
    await removeDir(root);
  });

  it('the first Ctrl-C while it plans: stops at the next operation, exit 130, nothing written', async () => {
    const ws = join(root, 'plan');
    mkdirSync(ws);
    const run = startImport(ws, '../giant.json');
    // a tenth of the operations planned: it is planning, and has most of them to go
    await run.line(/^mock --init: [1-9]\d* of 6000 operations$/);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    assert.equal(code, 130, run.stderr());
    assert.match(run.stderr(), /mock --init: stopping: nothing will be written \(Ctrl-C again to stop at once\)/);
    assert.match(run.stderr(), /mock --init: stopped; nothing was written\n$/);
    assert.ok(!/writing \d+ response files/.test(run.stderr()), run.stderr());
    assert.deepEqual(readdirSync(ws), []);
  });

  it('two Ctrl-C while it writes: stops at once, exit 130, the files it wrote removed', async () => {
    const ws = join(root, 'write');
    mkdirSync(ws);
    const run = startImport(ws, '../giant.json');
    await run.line(/^mock --init: writing \d+ response files and \d+ rule sets$/);
    // back to back, as a user presses it twice: whichever stop ends it, nothing is left
    run.child.kill('SIGINT');
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    assert.equal(code, 130, run.stderr());
    assert.match(run.stderr(), /mock --init: stopped; nothing was written\n$/);
    assert.deepEqual(readdirSync(ws), []);
  });
});
