// examples/playwright (docs/library.md#sessions): a real @playwright/test suite, four workers at once against one
// mock, run twice. With `service.sessions = true` every test passes; with the same suite against the same mock
// without sessions, the tests trample each other's overrides and counts, and fail on those assertions (not on
// their setup). Debian's chromium (no browser download); without /usr/bin/chromium both runs are skipped.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); skipped`;

function playwright(sessions: 'on' | 'off'): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    // a child of a node:test file is told so by NODE_TEST_CONTEXT; Playwright has its own runner
    const { NODE_TEST_CONTEXT: _ignored, ...env } = process.env;
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', 'examples/playwright'],
      {
        cwd: ROOT,
        env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', CHROMIUM, MOCK_SESSIONS: sessions },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

test('examples/playwright: four parallel workers pass with sessions', { skip }, async () => {
  const r = await playwright('on');
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Running 4 tests using 4 workers/);
  assert.match(r.out, /^\s*4 passed/m);
});

test('examples/playwright: the same suite fails without sessions, on what it asserts', { skip }, async () => {
  const r = await playwright('off');
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /Running 4 tests using 4 workers/);
  const failed = /^\s*(\d) failed/m.exec(r.out);
  assert.ok(failed !== null && Number(failed[1]) >= 2, r.out);
  // the failures are the isolation ones: another test's answer, or another test's requests counted
  assert.match(r.out, /Expected: "[^"]+"\s+Received: "[^"]+"|Expected: \d+\s+Received: \d+/);
  assert.doesNotMatch(r.out, /POST \/overrides: \d{3}/, 'no setup failed');
});
