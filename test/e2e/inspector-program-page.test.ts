// The inspector's page (docs/inspector.md) with the real program: `dist/bin/main.cjs --inspect` and its page in Debian's chromium
// (playwright-core). Rows appear live from real requests; a click shows `mock get --why`'s lines and `[redacted]`
// secrets; markup in a path and a header stays text; a broken edit shows the banner, the fix clears it. Without
// /usr/bin/chromium every test here reports itself skipped. A failing step saves a screenshot and prints its path.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeTempDir, removeDir, runMock, spawnMock, type RunningMock } from '../helpers/mock-cli.js';

const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); browser tests skipped`;
const XSS = '<img src=x onerror=alert(1)>';
const RULES =
  '# the users API\n[[rules]]\nwhen.request.url_path = "/api/users"\nwhen.request.method = "POST"\nrespond.text = "made"\n\n' +
  '[[rules]]\nwhen.request.url_path = "/api/users"\nrespond.json = \'{"users":[{"id":1,"password":"hunter2"}]}\'\n';

let dir: string;
let shots: string;
let mock: RunningMock;
let inspectUrl: string;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];

async function step(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    const file = join(shots, `FAILED-${name}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    console.log(`inspector program page test '${name}' failed; screenshot: ${file}`);
    throw e;
  }
}

function send(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: mock.port, path, headers }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

const whyLines = (): Promise<string[]> =>
  page.$$eval('#detail pre.why > div', (ds) =>
    ds.map((d) => (d.textContent === '\u00a0' ? '' : (d.textContent ?? ''))),
  );

before(async () => {
  if (skip !== false) return;
  dir = makeTempDir('mock-inspect-page-');
  shots = mkdtempSync(join(tmpdir(), 'mock-inspect-page-shots-'));
  writeFileSync(join(dir, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\n');
  writeFileSync(join(dir, 'rules.toml'), RULES);
  mock = await spawnMock(['--inspect'], { cwd: dir });
  inspectUrl = /^Inspector: (\S+)/.exec(mock.stdoutLines.find((l) => l.startsWith('Inspector: ')) ?? '')![1]!;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1360, height: 760 } });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(inspectUrl);
  await page.waitForSelector('#conn[data-state="live"]', { timeout: 10_000 });
});

after(async () => {
  await browser?.close();
  await mock?.stop();
  if (dir !== undefined) await removeDir(dir);
});

test('a real request appears live; a click shows mock get --why and [redacted] secrets', { skip }, () =>
  step('detail', async () => {
    await send('/api/users', { authorization: 'Bearer s3cr3t-token' });
    await page.waitForSelector('#rows tr[data-id="1"]', { timeout: 10_000 });
    const row = await page.$$eval('#rows tr[data-id="1"] td', (tds) => tds.map((td) => td.textContent ?? ''));
    assert.deepEqual([row[1], row[2], row[3], row[4]], ['GET', '/api/users', '200', 'rule set #1, rule #2']);
    await page.click('#rows tr[data-id="1"]');
    await page.waitForSelector('#detail pre.why', { timeout: 10_000 });
    const cli = await runMock(['get', '/api/users', '-H', 'authorization: Bearer s3cr3t-token', '--why'], { cwd: dir });
    assert.equal(
      (await whyLines()).join('\n'),
      cli.stdout
        .slice(cli.stdout.indexOf('-- Why --'))
        .replace(/\n+edit with: .*\n$/, '\n')
        .trimEnd(),
    );
    assert.ok((await whyLines()).some((l) => l.startsWith('    \u2717  method POST (actual: GET)')));
    const redacted = await page.$$eval('#detail .redacted', (xs) => xs.map((x) => x.textContent));
    assert.ok(redacted.length >= 2 && redacted.every((t) => t === '[redacted]'), JSON.stringify(redacted));
    const html = await page.content();
    assert.ok(!html.includes('s3cr3t') && !html.includes('hunter2'));
  }),
);

test('markup in a path and a header renders as text: no dialog, no img', { skip }, () =>
  step('xss', async () => {
    await send(`/${encodeURIComponent(XSS)}`, { 'x-evil': XSS });
    await page.waitForSelector('#rows tr[data-id="2"]', { timeout: 10_000 });
    await page.click('#rows tr[data-id="2"]');
    await page.waitForSelector('#detail table.kv', { timeout: 10_000 });
    assert.ok((await page.textContent('#detail'))?.includes(XSS));
    assert.equal(await page.$$eval('img', (x) => x.length), 0);
    assert.deepEqual(dialogs, []);
  }),
);

test('a broken edit shows the banner with file:line:col; the fix clears it', { skip }, () =>
  step('banner', async () => {
    const t0 = Date.now();
    writeFileSync(
      join(dir, 'rules.toml'),
      RULES.replace(
        'when.request.url_path = "/api/users"\nrespond.json',
        'when.request.url_pth = "/api/users"\nrespond.json',
      ),
    );
    await page.waitForSelector('#banner:not([hidden])', { timeout: 10_000 });
    const shown = Date.now() - t0;
    assert.match((await page.textContent('#banner')) ?? '', /rules\.toml:\d+:\d+/);
    console.log(`banner shown ${shown} ms after the broken write`);
    writeFileSync(join(dir, 'rules.toml'), RULES);
    await page.waitForSelector('#banner', { state: 'hidden', timeout: 10_000 });
  }),
);
