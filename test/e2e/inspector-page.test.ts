// The inspector page in a real browser (Debian's chromium, driven by playwright-core), against a real management
// router with a fake journal (entries in the journal's wire shape whose `why` comes from the real `mock get
// --format json`), the real event hub, file tree and rules POST. Without /usr/bin/chromium every test here reports
// itself skipped. A failing step saves a screenshot and prints its path. INSPECTOR_SCREENSHOTS=<dir> also saves
// the main states there (docs/img/ for the README).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createInspector, result, type EventHub, type Route } from '../../src/inspector/index.js';
import { DEFAULTS } from '../../src/model/config.js';
import type {
  MatchedWire,
  WhyWire,
  WireAnsweredBy,
  WireBody,
  WireEntry,
  WireStage,
} from '../../src/journal/wire-types.js';
import { fakeJournal, type FakeJournal } from '../helpers/fake-journal.js';
import { startHandlerServer, type InspectorServer } from '../helpers/inspector-server.js';
import { runMock } from '../helpers/mock-cli.js';

/** MOCK_TEST_CHROMIUM overrides the path, to check that a missing browser reports the tests skipped */
const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); browser tests skipped`;
const XSS = '<img src=x onerror=alert(1)>';

let ws: string;
let shots: string;
let browser: Browser;
let page: Page;
let srv: InspectorServer;
let hub: EventHub;
let journal: FakeJournal;
const dialogs: string[] = [];
const cliWhy = new Map<string, string>();
const entries = new Map<string, Omit<WireEntry, 'id'>>();

type GetResult = {
  stage: WireStage;
  matched: MatchedWire | null;
  why: WhyWire;
  response: { status: number; body: string; headers: { name: string; value: string }[] };
};

/** `mock get` in the workspace: its --format json result and its --why text (from `-- Why --` on). */
async function get(path: string, headers: string[] = []): Promise<GetResult> {
  const h = headers.flatMap((x) => ['-H', x]);
  const json = await runMock(['get', path, ...h, '--format', 'json'], { cwd: ws });
  assert.equal(json.code, 0, json.stderr);
  const text = await runMock(['get', path, ...h, '--why'], { cwd: ws });
  // the `edit with:` command line is the CLI's own (it names a shell command), not part of the why
  cliWhy.set(
    path,
    text.stdout
      .slice(text.stdout.indexOf('-- Why --'))
      .replace(/\n+edit with: .*\n$/, '\n')
      .trimEnd(),
  );
  return (JSON.parse(json.stdout) as { result: GetResult }).result;
}

function entryOf(
  method: string,
  path: string,
  r: GetResult,
  answeredBy: WireAnsweredBy,
  reqHeaders: { name: string; value: string }[],
): Omit<WireEntry, 'id'> {
  let body: WireBody = {
    kind: 'text',
    text: r.response.body,
    byte_length: Buffer.byteLength(r.response.body),
    truncated: false,
  };
  try {
    body = { kind: 'json', value: JSON.parse(r.response.body), byte_length: Buffer.byteLength(r.response.body) };
  } catch {
    // text
  }
  return {
    received_at: new Date().toISOString(),
    latency_ms: 1.25,
    generation: 1,
    request: { method, path, target: path, query: '', headers: reqHeaders, body: { kind: 'none' } },
    response: {
      status: r.response.status,
      headers: r.response.headers.filter((x) => !x.name.startsWith('access-control-')),
      body,
    },
    stage: r.stage,
    answered_by: answeredBy,
    matched: r.matched,
    why: r.why,
  };
}

async function shot(name: string, keep = false): Promise<string> {
  const file = join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  const docs = process.env['INSPECTOR_SCREENSHOTS'];
  if (keep && docs !== undefined && docs !== '') {
    mkdirSync(resolve(docs), { recursive: true });
    await page.screenshot({ path: join(resolve(docs), `${name}.png`) });
  }
  return file;
}

/** Run a step; on failure save a screenshot and say where. */
async function step(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    const file = await shot(`FAILED-${name.replace(/\W+/g, '-')}`).catch(() => '(no screenshot)');
    console.log(`inspector page test '${name}' failed; screenshot: ${file}`);
    throw e;
  }
}

const rowsText = (): Promise<string[][]> =>
  page.$$eval('#rows tr:not([hidden])', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
  );

before(async () => {
  if (skip !== false) return;
  ws = mkdtempSync(join(tmpdir(), 'mock-page-'));
  shots = mkdtempSync(join(tmpdir(), 'mock-page-shots-'));
  writeFileSync(join(ws, 'mock.toml'), '[service]\nrule_sets = ["rules.toml", "admin.toml"]\n');
  writeFileSync(
    join(ws, 'admin.toml'),
    '[prefix]\nurl_path = "/admin"\n\n[[rules]]\nwhen.request.url_path = "/users"\nrespond.text = "admins"\n',
  );
  writeFileSync(
    join(ws, 'rules.toml'),
    '# the users API\n[[rules]]\nwhen.request.url_path = "/api/users"\nwhen.request.method = "POST"\nrespond.text = "made"\n\n' +
      '[[rules]]\nwhen.request.url_path = "/api/users"\nwhen.request.headers.authorization = { value = "Bearer", op = "starts_with" }\nrespond.json = \'{"users":[{"id":1,"name":"Ada","password":"[redacted]"}]}\'\n',
  );
  writeFileSync(join(ws, 'users.json'), '[{"id":1,"name":"Ada"}]\n');
  mkdirSync(join(ws, 'api'));
  writeFileSync(join(ws, 'api', 'orders.json'), '[]\n');

  // the journal redacts at capture, the why's actual values included: as `mock get` would show them redacted
  const redact = <T>(v: T): T => JSON.parse(JSON.stringify(v).replaceAll('Bearer s3cr3t', '[redacted]')) as T;
  const rule = redact(await get('/api/users', ['Authorization: Bearer s3cr3t']));
  cliWhy.set('/api/users', redact(cliWhy.get('/api/users')!));
  entries.set(
    'rule',
    entryOf('GET', '/api/users', rule, { kind: 'rule_set', rule_set_index: 0, rule_index: 1 }, [
      { name: 'host', value: 'localhost:3001' },
      { name: 'authorization', value: '[redacted]' },
      { name: 'accept', value: 'application/json' },
    ]),
  );
  const fallback = await get('/users');
  entries.set(
    'fallback',
    entryOf('GET', '/users', fallback, { kind: 'fallback', file: 'users.json' }, [
      { name: 'host', value: 'localhost:3001' },
    ]),
  );
  const miss = await get('/nothing');
  entries.set('miss', entryOf('GET', '/nothing', miss, { kind: 'miss' }, [{ name: 'host', value: 'localhost:3001' }]));

  journal = fakeJournal(() => hub);
  // what the live workspace's route is expected to give (its shape is the integrator's; the page reads prefixes)
  const workspaceRoute: Route = {
    method: 'GET',
    path: '/__mock/api/workspace',
    handle: () =>
      result({
        generation: 1,
        rule_sets: [
          { index: 0, file: './rules.toml' },
          { index: 1, file: './admin.toml', prefix: '/admin' },
        ],
        last_reload: { ok: true, diagnostics: [] },
      }),
  };
  const inspector = createInspector({
    version: '9.9.9',
    routes: [...journal.routes, workspaceRoute],
    files: { fallbackDir: () => ws, view: () => DEFAULTS.fileTreeView, mockUrl: () => 'http://127.0.0.1:3001' },
    rules: { cwd: () => ws, configPath: () => 'mock.toml' },
    events: { pingMs: 1000 },
  });
  hub = inspector.events;
  srv = await startHandlerServer(inspector.handler);
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1360, height: 760 } });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(srv.url + '/');
  await page.waitForSelector('#conn[data-state="live"]', { timeout: 10_000 });
});

after(async () => {
  await browser?.close();
  hub?.close();
  await srv?.close();
  if (ws !== undefined) rmSync(ws, { recursive: true, force: true });
});

test('rows appear live, newest first, saying what answered', { skip }, () =>
  step('rows', async () => {
    journal.add(entries.get('miss')!);
    journal.add(entries.get('fallback')!);
    journal.add(entries.get('rule')!);
    await page.waitForSelector('#rows tr[data-id="3"]', { timeout: 5000 });
    assert.deepEqual(
      (await rowsText()).map((r) => [r[0], r[1], r[2], r[3], r[4], r[6]]),
      [
        ['3', 'GET', '/api/users', '200', 'rule set #1, rule #2', '1'],
        ['2', 'GET', '/users', '200', 'fallback: users.json', '1'],
        ['1', 'GET', '/nothing', '404', 'miss', '1'],
      ],
    );
    await shot('inspector-table', true);
  }),
);

test('a click shows the why as mock get --why prints it, and [redacted] values as such', { skip }, () =>
  step('detail', async () => {
    await page.click('#rows tr[data-id="3"]');
    await page.waitForSelector('#detail pre.why', { timeout: 5000 });
    const lines = await page.$$eval('#detail pre.why > div', (ds) =>
      ds.map((d) => (d.textContent === '\u00a0' ? '' : (d.textContent ?? ''))),
    );
    assert.equal(lines.join('\n'), cliWhy.get('/api/users'));
    assert.ok(
      lines.some((l) => l.startsWith('    \u2717  method POST (actual: GET)')),
      lines.join('\n'),
    );
    assert.ok(lines.some((l) => l.startsWith('    \u2713  url_path')));
    const redacted = await page.$$eval('#detail .redacted', (xs) => xs.map((x) => x.textContent));
    assert.ok(redacted.length >= 2 && redacted.every((t) => t === '[redacted]'), JSON.stringify(redacted));
    assert.ok(!(await page.content()).includes('s3cr3t'));
    // the open exchange's row is marked, and only it
    assert.deepEqual(await page.$$eval('#rows tr.selected', (trs) => trs.map((t) => t.dataset['id'])), ['3']);
    await shot('inspector-detail', true);
    await page.click('#rows tr[data-id="1"]');
    await page.waitForSelector('#detail h2.title:text-is("GET /nothing")', { timeout: 5000 });
    assert.deepEqual(await page.$$eval('#rows tr.selected', (trs) => trs.map((t) => t.dataset['id'])), ['1']);
    const missWhy = await page.$$eval('#detail pre.why > div', (ds) =>
      ds.map((d) => (d.textContent === '\u00a0' ? '' : (d.textContent ?? ''))),
    );
    assert.equal(missWhy.join('\n'), cliWhy.get('/nothing'));
    assert.ok(
      missWhy.includes('  (prefix /admin does not claim this path; its rules were not consulted)'),
      missWhy.join('\n'),
    );
    await page.click('#rows tr[data-id="2"]');
    await page.waitForSelector('#detail h2.title:text-is("GET /users")', { timeout: 5000 });
    const fallbackWhy = await page.$$eval('#detail pre.why > div', (ds) =>
      ds.map((d) => (d.textContent === '\u00a0' ? '' : (d.textContent ?? ''))),
    );
    assert.equal(fallbackWhy.join('\n'), cliWhy.get('/users'));
  }),
);

test('a path, header and body carrying <img onerror> render as text: no dialog, no img', { skip }, () =>
  step('xss', async () => {
    const base = entries.get('miss')!;
    const id = journal.add({
      ...base,
      request: {
        method: 'GET',
        path: `/${XSS}`,
        target: `/${XSS}?q=${XSS}`,
        query: `q=${XSS}`,
        headers: [{ name: 'x-evil', value: XSS }],
        body: { kind: 'text', text: XSS, byte_length: 28, truncated: false },
      },
      answered_by: { kind: 'middleware', index: 0, file: XSS },
    });
    await page.waitForSelector(`#rows tr[data-id="${id}"]`, { timeout: 5000 });
    await page.click(`#rows tr[data-id="${id}"]`);
    await page.waitForSelector('#detail table.kv', { timeout: 5000 });
    const text = await page.textContent('#detail');
    assert.ok(text?.includes(XSS));
    assert.equal(await page.$$eval('img', (x) => x.length), 0);
    assert.deepEqual(dialogs, []);
  }),
);

test('a failing reload shows the banner with file:line:col; the next ok one clears it', { skip }, () =>
  step('banner', async () => {
    hub.reload({
      generation: 1,
      ok: false,
      diagnostics: [
        {
          severity: 'error',
          code: 'unknown_key',
          message: 'unknown key `url_pth` in `when.request` (did you mean `url_path`?)',
          file: './rules.toml',
          line: 3,
          column: 14,
          key_path: ['rules', '0', 'when', 'request', 'url_pth'],
        },
      ],
    });
    await page.waitForSelector('#banner:not([hidden])', { timeout: 2000 });
    const t = await page.textContent('#banner');
    assert.match(t ?? '', /\.\/rules\.toml:3:14: unknown key `url_pth`/);
    assert.match(t ?? '', /generation 1 keeps serving/);
    await page.click('#rows tr[data-id="3"]');
    await page.waitForSelector('#detail pre.why', { timeout: 5000 });
    await shot('inspector-reload-failed', true);
    hub.reload({ generation: 2, ok: true, diagnostics: [] });
    await page.waitForSelector('#banner', { state: 'hidden', timeout: 2000 });
  }),
);

test('filter, pause and clear', { skip }, () =>
  step('filter', async () => {
    await page.fill('#filter', 'fallback');
    assert.deepEqual(
      (await rowsText()).map((r) => r[0]),
      ['2'],
    );
    await page.fill('#filter', 'get 404');
    assert.deepEqual(
      (await rowsText()).map((r) => r[0]),
      ['4', '1'],
    );
    await page.fill('#filter', '');
    await page.click('#pause');
    const held = journal.add(entries.get('fallback')!);
    await page.waitForSelector('#pause:text-is("Resume (1 new)")', { timeout: 5000 });
    assert.equal(await page.$(`#rows tr[data-id="${held}"]`), null);
    await page.click('#pause');
    await page.waitForSelector(`#rows tr[data-id="${held}"]`, { timeout: 5000 });
    await page.click('#clear');
    await page.waitForSelector('#empty:not([hidden])', { timeout: 5000 });
    assert.equal(journal.entries.length, 0);
    assert.deepEqual(await rowsText(), []);
    journal.add(entries.get('rule')!);
    await page.waitForSelector('#rows tr', { timeout: 5000 });
  }),
);

test('the file tree links files to the mock port and opens folders', { skip }, () =>
  step('tree', async () => {
    await page.waitForSelector('#tree a', { timeout: 5000 });
    const links = await page.$$eval('#tree a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.ok(
      links.some(([t, h]) => t === 'users.json' && h === 'http://127.0.0.1:3001/users.json'),
      JSON.stringify(links),
    );
    await page.click('#tree button:text("api/")');
    await page.waitForSelector('#tree a[href="http://127.0.0.1:3001/api/orders.json"]', { timeout: 5000 });
    await page.click('#crumbs button:text("root")');
    await page.waitForSelector('#tree a:text("users.json")', { timeout: 5000 });
  }),
);

test('make rule prefills the rules POST and saves through set rule', { skip }, () =>
  step('make-rule', async () => {
    const id = Math.max(...journal.entries.map((e) => e['id']));
    await page.click(`#rows tr[data-id="${id}"]`);
    await page.waitForSelector('#detail button.primary', { timeout: 5000 });
    await page.click('#detail button.primary');
    await page.waitForSelector('#detail form.rule-form', { timeout: 5000 });
    assert.equal(await page.inputValue('form.rule-form input[name="path"]'), '/api/users');
    assert.equal(await page.inputValue('form.rule-form input[name="rule_set"]'), './rules.toml');
    assert.equal(await page.inputValue('form.rule-form select[name="kind"]'), 'json');
    await page.fill('form.rule-form input[name="path"]', '/api/users/1');
    await page.fill('form.rule-form textarea', '{"id": 1, "name": "Ada"}');
    await page.click('form.rule-form button:text("Preview")');
    await page.waitForSelector('form.rule-form .result p.ok', { timeout: 5000 });
    assert.ok(!readFileSync(join(ws, 'rules.toml'), 'utf8').includes('/api/users/1'));
    await page.click('form.rule-form button[type="submit"]');
    await page.waitForSelector('form.rule-form .result p.ok:text-matches("^Saved to")', { timeout: 5000 });
    const text = readFileSync(join(ws, 'rules.toml'), 'utf8');
    assert.ok(text.startsWith('# the users API\n'), text);
    assert.match(text, /url_path = "\/api\/users\/1"/);
    await shot('inspector-make-rule', true);
    await page.fill('form.rule-form input[name="status"]', '1234');
    await page.click('form.rule-form button[type="submit"]');
    await page.waitForSelector('form.rule-form .result p.error', { timeout: 5000 });
    assert.match((await page.textContent('form.rule-form .result')) ?? '', /--status must be a valid HTTP status code/);
  }),
);

test('what answered, for every kind of answer', { skip }, () =>
  step('labels', async () => {
    const base = entries.get('miss')!;
    const kinds: [WireAnsweredBy, string][] = [
      [{ kind: 'middleware', index: 0, file: '/w/auth.rhai' }, 'middleware #1 (auth.rhai)'],
      [{ kind: 'prefix_miss', rule_set_index: 1 }, 'prefix miss: rule set #2'],
      [{ kind: 'options' }, 'OPTIONS'],
      [{ kind: 'bad_request' }, 'bad JSON body'],
      [{ kind: 'refused' }, 'refused (body too large)'],
      [{ kind: 'contract' }, 'breaks the contract (400)'],
      [{ kind: 'proxied', target: 'http://127.0.0.1:9', saved: null }, 'proxied'],
      [{ kind: 'fallback', file: 'api/orders.json' }, 'fallback: api/orders.json'],
      [{ kind: 'fallback', file: '/w/data/users.json' }, 'fallback: users.json'],
    ];
    const ids = kinds.map(([answeredBy]) => journal.add({ ...base, answered_by: answeredBy }));
    await page.waitForSelector(`#rows tr[data-id="${ids.at(-1)}"]`, { timeout: 5000 });
    for (const [i, id] of ids.entries()) {
      assert.equal(await page.textContent(`#rows tr[data-id="${id}"] td.answered`), kinds[i]![1]);
    }
    // --contract in warn mode: the row says how the request broke the document
    const marked = journal.add({
      ...base,
      contract: { operation: 'GET /pets', request: ['query.limit: must be <= 100'], answer: [], enforced: false },
    });
    await page.waitForSelector(`#rows tr[data-id="${marked}"]`, { timeout: 5000 });
    assert.equal(
      await page.textContent(`#rows tr[data-id="${marked}"] td.answered`),
      '\u26a0 request breaks GET /pets: query.limit: must be <= 100 (miss)',
    );
    const refused = ids[4]!;
    await page.click(`#rows tr[data-id="${refused}"]`);
    await page.waitForSelector('#detail pre.why', { timeout: 5000 });
    await page.click('#detail button.small');
    await page.waitForSelector('#detail', { state: 'hidden', timeout: 5000 });
  }),
);

test('dark mode', { skip }, () =>
  step('dark', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.click('#clear');
    await page.waitForSelector('#empty:not([hidden])', { timeout: 5000 });
    for (const k of ['miss', 'fallback', 'rule']) journal.add(entries.get(k)!);
    await page.waitForSelector('#rows tr:nth-child(3)', { timeout: 5000 });
    await page.click('#rows tr');
    await page.waitForSelector('#detail pre.why', { timeout: 5000 });
    type Styled = { ownerDocument: { defaultView: { getComputedStyle(e: unknown): { backgroundColor: string } } } };
    const bg = await page.$eval(
      'body',
      (b) => (b as unknown as Styled).ownerDocument.defaultView.getComputedStyle(b).backgroundColor,
    );
    assert.equal(bg, 'rgb(22, 24, 29)');
    await shot('inspector-dark', true);
    await page.emulateMedia({ colorScheme: 'light' });
    console.log(`inspector page screenshots: ${shots}`);
  }),
);

test('the page is under 60 KB in total', { skip: false }, async () => {
  const { defaultUiDir } = await import('../../src/inspector/router.js');
  const dir = defaultUiDir();
  const total = ['index.html', 'app.css', 'app.js'].reduce((n, f) => n + readFileSync(join(dir, f)).length, 0);
  assert.ok(total < 60 * 1024, `${total} bytes`);
  assert.ok(existsSync(join(dir, '..', '..', '..', 'bin', 'ui', 'app.js')), 'the bundle carries the page too');
  const pkg = JSON.parse(readFileSync(join(dir, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
    files: string[];
  };
  assert.ok(
    pkg.files.some((f) => 'dist/bin/ui/app.js'.startsWith(f.replace(/\/?$/, '/'))),
    'the package ships dist/bin/ui',
  );
});
