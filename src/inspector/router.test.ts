import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { post, raw, startInspectorServer, type InspectorServer } from '../../test/helpers/inspector-server.js';
import { failure, result } from './envelope.js';
import type { Route } from './router.js';

let srv: InspectorServer;
let ui: string;
const seen: unknown[] = [];

const routes: Route[] = [
  { method: 'GET', path: '/__mock/api/hello', handle: (ctx) => result({ hello: ctx.url.searchParams.get('who') }) },
  { method: 'POST', path: '/__mock/api/echo', handle: async (ctx) => result({ got: (await ctx.body()) as never }) },
  { method: 'DELETE', path: '/__mock/api/echo', handle: () => ({ kind: 'empty' }) },
  { method: 'GET', path: /^\/__mock\/api\/items\/([^/]+)$/, handle: (ctx) => result({ id: ctx.params[0]! }) },
  {
    method: 'GET',
    path: '/__mock/api/boom',
    handle: () => {
      throw new Error('kaput');
    },
  },
  { method: 'GET', path: '/__mock/api/conflict', handle: () => failure('conflict', 'changed meanwhile') },
  { method: 'POST', path: '/__mock/api/count', handle: (ctx) => (seen.push(ctx.method), { kind: 'empty' }) },
];

before(async () => {
  ui = mkdtempSync(join(tmpdir(), 'mock-ui-'));
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(ui, 'app.css'), 'body{}');
  writeFileSync(join(ui, 'app.js'), 'export {};');
  srv = await startInspectorServer(routes, { uiDir: ui });
});
after(async () => {
  await srv.close();
  rmSync(ui, { recursive: true, force: true });
});

test('GET / serves the page with CSP, nosniff and no-store', async () => {
  const r = await raw(srv.port, 'GET', '/');
  assert.equal(r.status, 200);
  assert.equal(r.text, '<!doctype html><title>t</title>');
  assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(r.headers['content-security-policy'], "default-src 'self'; frame-ancestors 'none'");
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['cache-control'], 'no-store');
});

test('the assets: app.js and app.css with their types; nothing else from the folder', async () => {
  const js = await raw(srv.port, 'GET', '/assets/app.js');
  assert.equal(js.status, 200);
  assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal((await raw(srv.port, 'GET', '/assets/app.css')).headers['content-type'], 'text/css; charset=utf-8');
  for (const p of ['/assets/index.html', '/assets/', '/index.html']) {
    assert.equal((await raw(srv.port, 'GET', p)).status, 404, p);
  }
  // a path not in normal form is refused before any file or route is looked for
  for (const p of ['/assets/../index.html', '/assets/%2e%2e/router.js']) {
    assert.equal((await raw(srv.port, 'GET', p)).status, 400, p);
  }
  const head = await raw(srv.port, 'HEAD', '/assets/app.js');
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  const postPage = await raw(srv.port, 'POST', '/', { 'x-mock-client': '1' });
  assert.equal(postPage.status, 405);
  assert.equal(postPage.headers['allow'], 'GET, HEAD');
});

test('JSON routes answer in the envelope', async () => {
  const r = await raw(srv.port, 'GET', '/__mock/api/hello?who=%3Cyou%3E');
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual(r.json, { schema: 1, mock: '9.9.9', result: { hello: '<you>' } });
  assert.deepEqual((await raw(srv.port, 'GET', '/__mock/api/items/a%20b')).json, {
    schema: 1,
    mock: '9.9.9',
    result: { id: 'a b' },
  });
  const head = await raw(srv.port, 'HEAD', '/__mock/api/hello');
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  assert.ok(Number(head.headers['content-length']) > 0);
  const c = await raw(srv.port, 'GET', '/__mock/api/conflict');
  assert.equal(c.status, 409);
  assert.deepEqual(c.json, { schema: 1, mock: '9.9.9', error: { kind: 'conflict', message: 'changed meanwhile' } });
});

test('a JSON body is parsed; empty is undefined; bad JSON 400; over 1 MiB 413; DELETE 204', async () => {
  assert.deepEqual((await post(srv.port, '/__mock/api/echo', { a: [1, '<b>'] })).json, {
    schema: 1,
    mock: '9.9.9',
    result: { got: { a: [1, '<b>'] } },
  });
  const bad = await raw(
    srv.port,
    'POST',
    '/__mock/api/echo',
    { 'x-mock-client': '1', 'content-type': 'application/json' },
    '{nope',
  );
  assert.equal(bad.status, 400);
  assert.equal((bad.json as { error: { kind: string } }).error.kind, 'usage');
  const big = await raw(
    srv.port,
    'POST',
    '/__mock/api/echo',
    { 'x-mock-client': '1', 'content-type': 'application/json' },
    JSON.stringify('x'.repeat(1024 * 1024 + 10)),
  );
  assert.equal(big.status, 413);
  const del = await raw(srv.port, 'DELETE', '/__mock/api/echo', { 'x-mock-client': '1' });
  assert.equal(del.status, 204);
  assert.equal(del.text, '');
});

test('a target like //host/path is never read as a host (refused: an empty segment); an absolute-form target is parsed', async () => {
  assert.equal((await raw(srv.port, 'GET', '//__mock/api/hello')).status, 400);
  assert.equal((await raw(srv.port, 'GET', '//evil.test/__mock/api/hello')).status, 400);
  const abs = await raw(srv.port, 'GET', `http://127.0.0.1:${srv.port}/__mock/api/hello?who=x`);
  assert.deepEqual(abs.json, { schema: 1, mock: '9.9.9', result: { hello: 'x' } });
});

test('unknown path 404, wrong method 405 with Allow, a throwing route 500 and the server lives on', async () => {
  const nf = await raw(srv.port, 'GET', '/__mock/api/nothing');
  assert.equal(nf.status, 404);
  assert.equal((nf.json as { error: { kind: string } }).error.kind, 'usage');
  const wm = await raw(srv.port, 'GET', '/__mock/api/echo');
  assert.equal(wm.status, 405);
  assert.equal(wm.headers['allow'], 'POST, DELETE');
  const boom = await raw(srv.port, 'GET', '/__mock/api/boom');
  assert.equal(boom.status, 500);
  assert.match((boom.json as { error: { message: string } }).error.message, /kaput/);
  assert.equal((await raw(srv.port, 'GET', '/__mock/api/hello')).status, 200);
});

test('security: foreign Host 403, OPTIONS 405, cross-origin POST 403 (route not run), text/plain 415', async () => {
  assert.equal((await raw(srv.port, 'GET', '/', { host: 'evil.test' })).status, 403);
  assert.equal((await raw(srv.port, 'GET', '/__mock/api/hello', { host: `evil.test:${srv.port}` })).status, 403);
  assert.equal((await raw(srv.port, 'GET', '/', { host: `localhost:${srv.port}` })).status, 200);
  const opt = await raw(srv.port, 'OPTIONS', '/__mock/api/echo', {
    origin: 'http://evil.test',
    'access-control-request-method': 'POST',
  });
  assert.equal(opt.status, 405);
  const before = seen.length;
  const cross = await raw(srv.port, 'POST', '/__mock/api/count', { 'x-mock-client': '1', origin: 'http://evil.test' });
  assert.equal(cross.status, 403);
  const noHeader = await raw(srv.port, 'POST', '/__mock/api/count', {});
  assert.equal(noHeader.status, 403);
  const plain = await raw(
    srv.port,
    'POST',
    '/__mock/api/count',
    { 'x-mock-client': '1', 'content-type': 'text/plain' },
    'hi',
  );
  assert.equal(plain.status, 415);
  assert.equal(seen.length, before);
  assert.equal((await raw(srv.port, 'POST', '/__mock/api/count', { 'x-mock-client': '1' })).status, 204);
  assert.equal(seen.length, before + 1);
});

test('no answer carries an access-control-* header, even to a request with an Origin', async () => {
  for (const [m, p] of [
    ['GET', '/'],
    ['GET', '/assets/app.js'],
    ['GET', '/__mock/api/hello'],
    ['OPTIONS', '/'],
    ['GET', '/nope'],
    ['DELETE', '/__mock/api/echo'],
  ] as const) {
    const r = await raw(srv.port, m, p, { origin: 'http://evil.test', 'x-mock-client': '1' });
    assert.deepEqual(
      Object.keys(r.headers).filter((h) => h.startsWith('access-control-')),
      [],
      `${m} ${p}`,
    );
  }
});
