// `mock --init --from` at size: a generated document (test/fixtures/openapi-big.ts) is imported by the real
// program, which reports its peak RSS (a preloaded exit hook), its progress on stderr and a one-screen summary;
// the workspace it wrote is split into rule sets, loads, and answers. The long form (npm run test:reliability)
// imports 20,000 operations and a 5 MB document; the short form inside `npm test` 2,000 and a 0.5 MB one.
// Memory is checked (under 1 GB); times are printed as figures, not asserted (docs/speed.md has them).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bigOpenApi } from '../fixtures/openapi-big.js';
import { runMock, spawnMock } from '../helpers/mock-cli.js';
import { header, send } from '../e2e/server-harness.js';
import { LONG, MAIN_JS, makeTempDir, removeDir, scale } from './harness.js';

interface Imported {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  readonly peakRssMb: number;
}

/** Run the import in `cwd`, with a preload that prints the process's peak RSS when it exits. */
function importTimed(cwd: string, from: string): Promise<Imported> {
  const preload = join(cwd, '..', 'peak-rss.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => require('fs').writeSync(2, '\\npeak-rss-kb=' + process.resourceUsage().maxRSS + '\\n'));\n",
  );
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--require', preload, MAIN_JS, '--init', '--from', from, '--yes'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const kb = /peak-rss-kb=(\d+)/.exec(stderr);
      resolvePromise({
        code,
        stdout,
        stderr: stderr.replace(/\npeak-rss-kb=\d+\n/, ''),
        ms: performance.now() - t0,
        peakRssMb: kb === null ? NaN : Number(kb[1]) / 1024,
      });
    });
  });
}

describe('mock --init --from: a generated document at size', () => {
  const operations = scale(2_000, 20_000);
  it(`${operations} operations: under 1 GB, progress on stderr, a one-screen summary, split rule sets that load and answer`, async () => {
    const root = makeTempDir('mock-openapi-size-');
    let server: Awaited<ReturnType<typeof spawnMock>> | undefined;
    try {
      writeFileSync(join(root, 'big.json'), bigOpenApi(operations));
      const mb = statSync(join(root, 'big.json')).size / 2 ** 20;
      const ws = join(root, 'ws');
      mkdirSync(ws);
      const r = await importTimed(ws, '../big.json');
      assert.equal(r.code, 0, r.stderr);
      console.log(
        `# figure: ${operations} operations (${mb.toFixed(1)} MB): import ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB`,
      );
      assert.ok(r.peakRssMb < 1024, `peak RSS ${r.peakRssMb.toFixed(0)} MB`);
      // progress: operations done of total, on stderr only, a line per tenth
      const progress = r.stderr.split('\n').filter((l) => /^mock --init: \d+ of \d+ operations$/.test(l));
      assert.ok(progress.length >= 2 && progress.length <= 11, r.stderr);
      assert.match(progress.at(-1)!, new RegExp(`${operations} of ${operations} operations`));
      assert.ok(!/ of \d+ operations/.test(r.stdout));
      // one screen, not one line per operation
      assert.ok(r.stdout.split('\n').length <= 25, r.stdout);
      assert.match(
        r.stdout,
        new RegExp(
          `${operations} operations answered, 0 skipped; ${operations * 3} rules, .* response files, 100 rule sets\\.`,
        ),
      );
      assert.equal(readdirSync(join(ws, 'big')).length, 100);

      const t1 = performance.now();
      // a loaded machine takes its time over 60,000 rules: the ready time is a figure, not a limit
      server = await spawnMock([], { cwd: ws, readyTimeoutMs: 300_000, env: { MOCK_LOAD_CACHE: 'on' } });
      console.log(
        `# figure: ${operations * 3} rules in 100 rule sets: ready after ${((performance.now() - t1) / 1000).toFixed(1)} s`,
      );
      const last = operations / 4 - 1;
      const one = await send(server.port, { path: `/api/things${last}/ab-12345678` });
      assert.equal(one.status, 200);
      assert.match(String((JSON.parse(one.body.toString('utf8')) as { id: string }).id), /^[a-z]{2}-[0-9a-f]{8}$/);
      assert.equal(
        (await send(server.port, { path: `/api/things${last}/x`, headers: { prefer: 'code=404' } })).status,
        404,
      );
      const made = await send(server.port, { method: 'POST', path: '/api/things0' });
      assert.equal(made.status, 201);
      assert.equal(header(made, 'content-type')?.split(';')[0], 'application/json');

      // with the load cache on (MOCK_LOAD_CACHE=on), the second start finds every rule set in it (docs/load-cache.md): its ready time is a figure
      await server.stop();
      const t2 = performance.now();
      server = await spawnMock([], { cwd: ws, readyTimeoutMs: 300_000, env: { MOCK_LOAD_CACHE: 'on' } });
      const warm = await send(server.port, { path: `/api/things${last}/ab-12345678` });
      console.log(
        `# figure: ${operations * 3} rules in 100 rule sets, the load cache warm: ready and answered after ${((performance.now() - t2) / 1000).toFixed(2)} s`,
      );
      assert.equal(warm.status, 200);
      assert.deepEqual(warm.body, one.body);
    } finally {
      await server?.stop();
      await removeDir(root);
    }
  });

  // 13,000 generated operations make a document of just over 5 MB (5.3 million bytes)
  const fiveMb = scale(1_300, 13_000);
  it(`a ${LONG ? '5' : '0.5'} MB document imports (its time is a figure)`, async () => {
    const root = makeTempDir('mock-openapi-size-');
    try {
      writeFileSync(join(root, 'doc.json'), bigOpenApi(fiveMb));
      const bytes = statSync(join(root, 'doc.json')).size;
      if (LONG) assert.ok(bytes >= 5_000_000, `the document is ${bytes} bytes`);
      const mb = bytes / 1e6;
      const ws = join(root, 'ws');
      mkdirSync(ws);
      const r = await importTimed(ws, '../doc.json');
      assert.equal(r.code, 0, r.stderr);
      console.log(
        `# figure: ${mb.toFixed(1)} MB document (${fiveMb} operations): import ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB`,
      );
      assert.ok(r.peakRssMb < 1024, `peak RSS ${r.peakRssMb.toFixed(0)} MB`);
    } finally {
      await removeDir(root);
    }
  });

  it('a heap too small for the document: a message naming the limit, exit 1, nothing written', async () => {
    const root = makeTempDir('mock-openapi-size-');
    try {
      writeFileSync(join(root, 'big.json'), bigOpenApi(20_000));
      const ws = join(root, 'ws');
      mkdirSync(ws);
      const r = await runMock(['--init', '--from', '../big.json', '--yes'], {
        cwd: ws,
        env: { NODE_OPTIONS: '--max-old-space-size=80' },
        timeoutMs: 300_000,
      });
      assert.equal(r.code, 1, r.stderr.slice(-2000));
      assert.match(
        r.stderr,
        /^mock --init: the document is too large for the memory Node\.js allows \(80 MB\): stopped .*; nothing was written\. Run it again with more, for example `NODE_OPTIONS=--max-old-space-size=4096/m,
      );
      assert.deepEqual(readdirSync(ws), []);
    } finally {
      await removeDir(root);
    }
  });
});
