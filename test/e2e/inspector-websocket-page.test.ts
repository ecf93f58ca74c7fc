// A WebSocket connection in the inspector's page, with the real program (`dist/bin/main.cjs --inspect`) in Debian's
// chromium (playwright-core): the upgrade is a row while the connection is open, its detail shows the frames so far
// (`> ` in, `< ` out) and then each new one as it goes, and the row closes when the client leaves. Without
// /usr/bin/chromium every test here reports itself skipped.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { makeTempDir, removeDir, spawnMock, type RunningMock } from '../helpers/mock-cli.js';

const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); browser tests skipped`;

let dir: string;
let mock: RunningMock;
let browser: Browser | undefined;
let page: Page;

before(async () => {
  if (skip !== false) return;
  dir = makeTempDir('mock-inspect-ws-');
  writeFileSync(join(dir, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\n');
  writeFileSync(
    join(dir, 'rules.toml'),
    '[[rules]]\nwhen.request.url_path = "/ws/echo"\nrespond.websocket = { echo = true }\n',
  );
  mock = await spawnMock(['--inspect', '--no-watch'], { cwd: dir });
  const inspectUrl = /^Inspector: (\S+)/.exec(mock.stdoutLines.find((l) => l.startsWith('Inspector: ')) ?? '')![1]!;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1360, height: 760 } });
  await page.goto(inspectUrl);
  await page.waitForSelector('#conn[data-state="live"]', { timeout: 10_000 });
});

after(async () => {
  await browser?.close();
  await mock?.stop();
  if (dir !== undefined) await removeDir(dir);
});

test('a WebSocket connection shows its frames live under its upgrade; its row closes with it', { skip }, async () => {
  const client = new WebSocket(mock.url.replace(/^http/, 'ws') + '/ws/echo');
  await new Promise((resolve, reject) => {
    client.once('open', resolve);
    client.once('error', reject);
  });
  const echoed = new Promise((resolve) => client.once('message', resolve));
  client.send('first-frame');
  await echoed;
  await page.waitForSelector('#rows tr[data-id="1"][data-stream="open"]', { timeout: 10_000 });
  const cells = await page.$$eval('#rows tr[data-id="1"] td', (tds) => tds.map((td) => td.textContent ?? ''));
  assert.deepEqual([cells[1], cells[2], cells[3]], ['GET', '/ws/echo', '101']);
  await page.click('#rows tr[data-id="1"]');
  await page.locator('#detail pre.stream', { hasText: '< first-frame' }).waitFor({ timeout: 10_000 });
  // a frame sent while the detail is open reaches it as it goes
  client.send('second-frame');
  await page.locator('#detail pre.stream', { hasText: '< second-frame' }).waitFor({ timeout: 10_000 });
  const shown = (await page.textContent('#detail pre.stream')) ?? '';
  assert.ok(shown.indexOf('> first-frame') < shown.indexOf('> second-frame'), shown);
  client.close();
  await page.waitForSelector('#rows tr[data-id="1"]:not([data-stream])', { timeout: 10_000 });
});
