// HTTP/2 and WebSocket in a real browser (Debian's chromium through playwright-core) against the real program over
// HTTPS: the page, a rule's JSON and an event stream come over h2 (ALPN), and a WebSocket from the same page talks
// to a WebSocket rule. Without /usr/bin/chromium every test here reports itself skipped.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { selfSignedPair } from './server-harness.js';

const CHROMIUM = process.env['MOCK_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); browser tests skipped`;

const RULES = `
[[rules]]
when.request.url_path = "/api/prices"
respond = { json = '{"eur": 1.08}' }

[[rules]]
when.request.url_path = "/api/live"
respond = { stream = { file_path = "live.sse", interval_ms = 50 } }

[[rules]]
when.request.url_path = "/ws/echo"
respond.websocket = { echo = true, on_open = [{ send = "hello browser" }] }
`;

/** runs in the page (browser code, kept as text: the tests compile without the DOM's types) */
const IN_PAGE = `(async () => {
      const nav = performance.getEntriesByType('navigation')[0];
      const prices = (await (await fetch('/api/prices')).json());
      const apiEntry = performance.getEntriesByName(new URL('/api/prices', location.href).href)[0];
      const events = await new Promise((resolve, reject) => {
        const got = [];
        const es = new EventSource('/api/live');
        es.onmessage = (e) => {
          got.push(String(e.data));
          if (got.length === 3) {
            es.close();
            resolve(got);
          }
        };
        es.onerror = () => reject(new Error('EventSource failed'));
      });
      const ws = await new Promise((resolve, reject) => {
        const got = [];
        const socket = new WebSocket(\`wss://\${location.host}/ws/echo\`);
        socket.onmessage = (e) => {
          got.push(String(e.data));
          if (got.length === 1) socket.send('from the page');
          if (got.length === 2) {
            socket.close();
            resolve(got);
          }
        };
        socket.onerror = () => reject(new Error('WebSocket failed'));
      });
      return { page: nav.nextHopProtocol, api: apiEntry.nextHopProtocol, prices, events, ws };
    })()`;

let dir: string;
let server: RunningMock;
let browser: Browser | undefined;

before(async () => {
  if (skip !== false) return;
  dir = makeTempDir('mock-h2-browser-');
  const pair = await selfSignedPair();
  await writeTree(dir, {
    'mock.toml': '[listener.tls]\ncert = "cert.pem"\nkey = "key.pem"\n\n[service]\nrule_sets = ["rules.toml"]\n',
    'rules.toml': RULES,
    'live.sse': 'data: a\n\ndata: b\n\ndata: c\n\n',
    'index.html': '<!doctype html><title>shop</title><p>hello</p>\n',
    'cert.pem': pair.cert,
    'key.pem': pair.key,
  });
  server = await spawnMock(['--no-watch'], { cwd: dir });
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--ignore-certificate-errors',
      '--disable-background-networking',
    ],
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir !== undefined) await removeDir(dir);
});

test('Chromium loads a page, a rule and an event stream over HTTP/2, and talks WebSocket to a rule', {
  skip,
}, async () => {
  const context = await browser!.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const url = `${server.url}/index.html`;
    assert.match(url, /^https:/);
    const response = await page.goto(url);
    assert.equal(response?.status(), 200);
    const seen = await page.evaluate(IN_PAGE);
    assert.deepEqual(seen, {
      page: 'h2',
      api: 'h2',
      prices: { eur: 1.08 },
      events: ['a', 'b', 'c'],
      ws: ['hello browser', 'from the page'],
    });
    assert.ok(
      server.stdoutLines.some((l) => /\[GET\].*\[HTTP\/2\] request received/.test(l)),
      'the log names HTTP/2',
    );
  } finally {
    await context.close();
  }
});
