// A streamed answer in the inspector's page, with the real program (`dist/bin/main.cjs --inspect`) in Debian's
// chromium (playwright-core): the entry is in the table while the stream is still being sent, its detail shows the
// events sent so far and then each new one as it leaves, and the row closes when the client leaves. The stream's
// last event is never due (a ten-minute pause), so everything the page shows here it shows before the end.
// Without /usr/bin/chromium every test here reports itself skipped. A failing step saves a screenshot.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeTempDir, removeDir, spawnMock, type RunningMock } from '../helpers/mock-cli.js';

const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); browser tests skipped`;
const RULES = '[[rules]]\nwhen.request.url_path = "/chat"\nrespond.stream = { file_path = "chat.sse" }\n';
// the second event leaves once the client has read the first and asked the page for it (see below)
const SSE =
  'data: {"token":"first-event"}\n\n: delay 1500\ndata: {"token":"second-event"}\n\n: delay 600000\ndata: never\n\n';

let dir: string;
let shots: string;
let mock: RunningMock;
let browser: Browser;
let page: Page;

async function step(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    const file = join(shots, `FAILED-${name}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    console.log(`inspector stream page test '${name}' failed; screenshot: ${file}`);
    throw e;
  }
}

/** Opens the stream; resolves once the client has read `text` (the request stays open). */
function openStream(text: string): Promise<{ req: ClientRequest; res: IncomingMessage; received: () => string }> {
  return new Promise((resolve, reject) => {
    let got = '';
    const req = request({ host: '127.0.0.1', port: mock.port, path: '/chat' }, (res) => {
      res.setEncoding('utf8');
      let done = false;
      res.on('data', (chunk: string) => {
        got += chunk;
        if (!done && got.includes(text)) {
          done = true;
          resolve({ req, res, received: () => got });
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject).end();
  });
}

before(async () => {
  if (skip !== false) return;
  dir = makeTempDir('mock-inspect-stream-');
  shots = mkdtempSync(join(tmpdir(), 'mock-inspect-stream-shots-'));
  writeFileSync(join(dir, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\n');
  writeFileSync(join(dir, 'rules.toml'), RULES);
  writeFileSync(join(dir, 'chat.sse'), SSE);
  mock = await spawnMock(['--inspect'], { cwd: dir });
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

test('a stream is shown event by event while it is sent; its row closes when the client leaves', { skip }, () =>
  step('stream', async () => {
    const client = await openStream('first-event');
    // the row is there, open, while the client still waits for the rest
    await page.waitForSelector('#rows tr[data-id="1"][data-stream="open"]', { timeout: 10_000 });
    const cells = await page.$$eval('#rows tr[data-id="1"] td', (tds) => tds.map((td) => td.textContent ?? ''));
    assert.deepEqual([cells[1], cells[2], cells[3], cells[5]], ['GET', '/chat', '200', 'streaming\u2026']);
    await page.click('#rows tr[data-id="1"]');
    await page.waitForSelector('#detail pre.stream', { timeout: 10_000 });
    await page.locator('#detail pre.stream', { hasText: 'first-event' }).waitFor({ timeout: 10_000 });
    // the second event reaches the open detail as it is sent (or was in the body it loaded): either way, shown
    // while the stream is still open, since its last event is ten minutes away
    await page.locator('#detail pre.stream', { hasText: 'second-event' }).waitFor({ timeout: 15_000 });
    const shown = (await page.textContent('#detail pre.stream')) ?? '';
    assert.ok(shown.indexOf('first-event') < shown.indexOf('second-event'), shown);
    assert.ok(!shown.includes('never'), shown);
    assert.match((await page.textContent('#detail .stream-count')) ?? '', /streaming: 2 events so far/);
    assert.ok(!client.res.complete, 'the stream is still open');
    // the client leaves: the entry closes, the row shows its time, the detail its body
    client.req.destroy();
    await page.waitForSelector('#rows tr[data-id="1"]:not([data-stream])', { timeout: 10_000 });
    await page.waitForSelector('#detail pre.code:not(.stream)', { timeout: 10_000 });
    const body = (await page.textContent('#detail')) ?? '';
    assert.ok(body.includes('first-event') && body.includes('second-event') && !body.includes('never'), body);
    const latency = await page.$$eval('#rows tr[data-id="1"] td', (tds) => tds[5]?.textContent ?? '');
    assert.match(latency, /^\d+(\.\d)? ms$/);
  }),
);
