// A Mockoon environment imported and served by the real `mock`, asked over HTTP as a Mockoon user's client asks:
// routes whose parameters are not whole segments, Mockoon's optional characters, statuses older files hold,
// and what the summary names. The expected answers are what Mockoon CLI 9.9 gives for the same environment
// (compare/mockoon/ checks them against the real one).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, type RunningMock } from '../helpers/mock-cli.js';
import { environment, importEnv, response, route, serveEnv } from '../helpers/mockoon-env.js';

const root = makeTempDir('mock-mockoon-');
after(() => removeDir(root));

const text = async (url: string, init?: RequestInit): Promise<{ status: number; body: string; type: string }> => {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.text(), type: r.headers.get('content-type') ?? '' };
};

describe('Mockoon paths and statuses: every route imports', () => {
  let server: RunningMock;
  let url: string;
  let summary: string;
  before(async () => {
    const env = environment([
      route('get', 'compare/:baseId...:headId', [response({ body: "{{urlParam 'baseId'}}|{{urlParam 'headId'}}" })]),
      route('get', 'docket.:fmt', [response({ body: "{{urlParam 'fmt'}}", statusCode: 99 })]),
      route('get', 'f/:name.:ext', [response({ body: "{{urlParam 'name'}}|{{urlParam 'ext'}}" })]),
      route('get', 'ab+c', [response({ body: 'plus' })]),
      route('get', 'colou?r', [response({ body: 'optional' })]),
    ]);
    const s = await serveEnv(root, 'paths', env);
    server = s.server;
    url = s.url;
    summary = s.summary;
  });
  after(() => server?.stop());

  it('a parameter with literal text around it in one segment captures as Mockoon does', async () => {
    assert.deepEqual(await text(`${url}/compare/main...feature`), {
      status: 200,
      body: 'main|feature',
      type: 'application/json',
    });
    assert.equal((await text(`${url}/compare/a.b...c.d`)).body, 'a.b|c.d');
    assert.equal((await text(`${url}/f/a.b.json`)).body, 'a.b|json');
    assert.equal((await text(`${url}/compare/main..feature`)).status, 404);
  });

  it('status 99 (older files) is served as 200, as Mockoon serves it, and the summary says so', async () => {
    assert.deepEqual(await text(`${url}/docket.json`), { status: 200, body: 'json', type: 'application/json' });
    assert.match(summary, /statusCode: 99 is not a status from 100 to 999: served as 200/);
  });

  it("Mockoon 9's `c+` (c once or twice) and `c?` (c or nothing) in a path", async () => {
    assert.equal((await text(`${url}/abc`)).body, 'plus');
    assert.equal((await text(`${url}/abbc`)).body, 'plus');
    assert.equal((await text(`${url}/ab+c`)).status, 404);
    assert.equal((await text(`${url}/color`)).body, 'optional');
    assert.equal((await text(`${url}/colour`)).body, 'optional');
  });
});

describe('an import whose own output would not load leaves that route out and names it', () => {
  it('a route the loader refuses is left out, the others imported', async () => {
    // two parameters with no text between them: no path template can read them apart (nor can Mockoon 9)
    const env = environment([
      route('get', 'ok', [response({ body: 'fine' })]),
      route('get', 'x/:a:b', [response({ body: 'never' })]),
    ]);
    const r = await importEnv(root, 'refused', env);
    assert.equal(r.code, 0, r.summary);
    assert.doesNotMatch(r.summary, /a bug in mock/);
    assert.match(r.summary, /routes\[1\].*two parameters need literal text between them/);
  });

  it('a rule the loader refuses once written (a latency past the timer ceiling) is left out and named', async () => {
    const env = environment([
      route('get', 'ok', [response({ body: 'fine' })]),
      route('get', 'slow', [response({ body: 'never', latency: 3_000_000_000 })]),
    ]);
    const r = await importEnv(root, 'too-slow', env);
    assert.equal(r.code, 0, r.summary);
    assert.doesNotMatch(r.summary, /a bug in mock/);
    assert.match(r.summary, /routes\[1\] responses\[0\]: the rule made from it does not load: .*delay/);
    assert.match(r.summary, /1 rule,/);
  });
});

describe("Mockoon's helpers in an imported environment, over a sequence of requests", () => {
  let server: RunningMock;
  let url: string;
  let summary: string;
  before(async () => {
    const env = environment([
      route('post', 'login', [
        response({ body: '{{setGlobalVar \'user\' (body \'name\')}}{"ok": true, "name": "{{body \'name\'}}"}' }),
      ]),
      route('get', 'me', [response({ body: '{"user": "{{getGlobalVar \'user\'}}"}' })]),
      route('get', 'mixed', [
        response({ body: '{"id": "{{faker \'string.uuid\'}}", "x": "{{notAHelper \'a\'}}", "n": {{add 1 2}}}' }),
      ]),
      route('get', 'list', [
        response({ body: '[{{#repeat 3}}{"i": {{@index}}, "q": "{{queryParam \'obj.prop\'}}"}{{/repeat}}]' }),
      ]),
    ]);
    const s = await serveEnv(root, 'helpers', env);
    server = s.server;
    url = s.url;
    summary = s.summary;
  });
  after(() => server?.stop());

  it('setGlobalVar in one answer, getGlobalVar in the next; a form body is read by `body`', async () => {
    const form = new URLSearchParams({ name: 'Ada' });
    const a = await text(`${url}/login`, { method: 'POST', body: form });
    assert.deepEqual(JSON.parse(a.body), { ok: true, name: 'Ada' });
    assert.deepEqual(JSON.parse((await text(`${url}/me`)).body), { user: 'Ada' });
  });

  it('an unknown helper renders empty and is named; every other helper in the body still renders', async () => {
    assert.match(summary, /helper `notAHelper`: not a helper mock knows: rendered empty/);
    const r = JSON.parse((await text(`${url}/mixed`)).body) as { id: string; x: string; n: number };
    assert.match(r.id, /^[0-9a-f-]{36}$/);
    assert.equal(r.x, '');
    assert.equal(r.n, 3);
  });

  it('repeat with commas makes a JSON array; a qs-style query is read as an object', async () => {
    const r = await text(`${url}/list?obj[prop]=v`);
    assert.deepEqual(JSON.parse(r.body), [
      { i: 0, q: 'v' },
      { i: 1, q: 'v' },
      { i: 2, q: 'v' },
    ]);
  });
});

describe("the environment's settings", () => {
  it('the port goes to the new mock.toml; TLS, proxy mode and an undefined callback are named, not dropped silently', async () => {
    const env = environment([route('get', 'a', [response({ body: 'a', callbacks: [{ uuid: 'c1', latency: 0 }] })])], {
      port: 3456,
      proxyMode: true,
      proxyHost: 'https://upstream.example.test',
      tlsOptions: {
        enabled: true,
        type: 'CERT',
        pfxPath: '',
        certPath: 'cert.pem',
        keyPath: 'key.pem',
        caPath: '',
        passphrase: '',
      },
    });
    const r = await importEnv(root, 'settings', env);
    assert.equal(r.code, 0, r.summary);
    assert.match(readFileSync(join(r.ws, 'mock.toml'), 'utf8'), /^port = 3456$/m);
    assert.match(r.summary, /tlsOptions: TLS is not imported yet/);
    assert.match(r.summary, /proxyMode: proxy mode to https:\/\/upstream\.example\.test/);
    // a callback the environment does not define is named (defined ones are imported: callbacks-import.test.ts)
    assert.match(r.summary, /callbacks.*it names no callback of the environment/);
  });
});

describe('a CRUD route over a data bucket', () => {
  it("answers with the environment's headers, as Mockoon's CRUD answers do", async () => {
    const bucket = { uuid: 'b-uuid', id: 'b1', name: 'users', documentation: '', value: '[{"id":1,"name":"Ada"}]' };
    const env = environment(
      [route('all', 'users', [response({ bodyType: 'DATABUCKET', databucketID: 'b1' })], { type: 'crud' })],
      {
        data: [bucket],
        headers: [
          { key: 'Content-Type', value: 'application/json' },
          { key: 'X-Env', value: 'env' },
        ],
      },
    );
    const s = await serveEnv(root, 'crud', env);
    try {
      const r = await fetch(`${s.url}/users/1`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-env'), 'env');
      assert.deepEqual(await r.json(), { id: 1, name: 'Ada' });
    } finally {
      await s.server.stop();
    }
  });
});
