// How the README starts and stops the program, through npm itself: the packed package.json has no `prepare` (so
// installing the tarball into another project prints no install-script warning, and the installed `mock` runs);
// `npx mock` in a built checkout starts without building; and `npx mock &` then `kill $!` (a SIGTERM to
// `npm exec`, whose `sh -c mock` does not pass it on) stops the server and frees its port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeDir } from '../helpers/mock-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NPM_CLI = join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
const NPX_CLI = join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js');
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => removeDir(d))));

/** The environment of a command a user types: no npm_* variables from an enclosing `npm test`, no test context. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_') && k !== 'NODE_TEST_CONTEXT') env[k] = v;
  return { ...env, NO_COLOR: '1', CI: '1' };
}

function run(args: readonly string[], cwd: string, timeoutMs = 180_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
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

test('the packed package.json has no prepare; installing the tarball elsewhere warns about no install script', async (t) => {
  assert.ok(existsSync(NPM_CLI), NPM_CLI);
  const before = readFileSync(join(ROOT, 'package.json'));
  const packs = makeTempDir('mock-pack-');
  dirs.push(packs);
  const packed = await run([NPM_CLI, 'pack', '--json', '--pack-destination', packs], ROOT);
  assert.equal(packed.code, 0, packed.out);
  assert.deepEqual(readFileSync(join(ROOT, 'package.json')), before, 'postpack put package.json back byte for byte');
  const tgz = join(
    packs,
    (JSON.parse(packed.out.slice(packed.out.indexOf('['))) as { filename: string }[])[0]!.filename,
  );

  const project = makeTempDir('mock-install-');
  dirs.push(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "elsewhere", "version": "1.0.0", "private": true }\n');
  const installed = await run([NPM_CLI, 'install', '--prefer-offline', '--no-audit', '--no-fund', tgz], project);
  // the dependencies come from npm's cache or the npm registry; without either there is nothing to check
  if (installed.code !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(installed.out)) {
    t.skip("the dependencies are neither in npm's cache nor reachable");
    return;
  }
  assert.equal(installed.code, 0, installed.out);
  assert.doesNotMatch(installed.out, /install-scripts|install script/i);
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'folder-mock', 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  assert.equal(manifest.scripts?.['prepare'], undefined);
  const version = await run(
    [join(project, 'node_modules', 'folder-mock', 'dist', 'bin', 'main.cjs'), '--version'],
    project,
  );
  assert.equal(version.code, 0, version.out);
  assert.match(version.out, /^mock \d+\.\d+\.\d+/);
});

test('prepare in a built checkout builds nothing and says nothing', async () => {
  const r = await run([join(ROOT, 'scripts', 'prepare.mjs')], ROOT);
  assert.equal(r.code, 0, r.out);
  assert.equal(r.out, '');
});

/** Resolves once nothing accepts connections on 127.0.0.1:port (polled, at most `tries` times). */
async function portFreed(port: number, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (!open) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test('npx mock in the checkout starts without building; a SIGTERM to npx (kill $!) frees the port', async () => {
  assert.ok(existsSync(NPX_CLI), NPX_CLI);
  const child = spawn(process.execPath, [NPX_CLI, 'mock', '-p', '0', '--no-watch'], {
    cwd: ROOT,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no Listening line within 60 s:\n${out}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^Listening on http:\/\/127\.0\.0\.1:(\d+) \.\.\.$/m.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', () => reject(new Error(`npx ended first:\n${out}`)));
  });
  assert.doesNotMatch(out, /building dist|> folder-mock@/, 'a built checkout is not built again');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  assert.ok(await portFreed(port), `port ${port} still accepts connections after npx was stopped:\n${out}`);
});
