// WireMock's admin API (docs/coming-from-wiremock.md) driven by WireMock's own JS clients from npm, written the
// way their READMEs show, against the real `mock --inspect`: `wiremock-captain` (register, requests, unmatched,
// scenarios, metadata, clearAll) and `wiremock-rest-client` (mappings, requests, scenarios, global reset). The
// clients point at the management listener; the stubs answer on the mock port.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { WireMock } from 'wiremock-captain';
import { WireMockRestClient } from 'wiremock-rest-client';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

let dir: string;
let mock: RunningMock;
let admin: string;

before(async () => {
  dir = makeTempDir('mock-wm-admin-');
  // a workspace rule of its own: a WireMock reset leaves the workspace alone, as WireMock's keeps its files
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
    'rules.toml': '[[rules]]\nwhen.request.url_path = "/from-workspace"\nrespond.text = "workspace"\n',
  });
  mock = await spawnMock(['--inspect'], { cwd: dir });
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
  const m = /^Inspector: (http:\/\/127\.0\.0\.1:\d+)\//.exec(line ?? '');
  assert.ok(m, mock.stdoutLines.join('\n'));
  admin = m[1]!;
});
after(async () => {
  await mock?.stop();
  if (dir !== undefined) await removeDir(dir);
});

test('wiremock-captain: register a stub, call it, read the requests, clear everything', async () => {
  const wm = new WireMock(admin);
  await wm.clearAll();
  const stub = await wm.register(
    { method: 'POST', endpoint: '/test-endpoint', body: { hello: 'world' } },
    { status: 200, body: { goodbye: 'world' } },
  );
  assert.match(String((stub as { id?: string }).id), /^[0-9a-f-]{36}$/);

  const hit = await fetch(`${mock.url}/test-endpoint`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hello: 'world' }),
  });
  assert.equal(hit.status, 200);
  assert.deepEqual(await hit.json(), { goodbye: 'world' });
  assert.match(hit.headers.get('content-type') ?? '', /^application\/json/);
  const miss = await fetch(`${mock.url}/not-stubbed`);
  assert.equal(miss.status, 404);

  const calls = (await wm.getRequestsForAPI('POST', '/test-endpoint')) as { request: { body: string } }[];
  assert.equal(calls.length, 1);
  assert.deepEqual(JSON.parse(calls[0]!.request.body), { hello: 'world' });
  const unmatched = (await wm.getUnmatchedRequests()) as { url: string }[];
  assert.deepEqual(
    unmatched.map((r: { url: string }) => r.url),
    ['/not-stubbed'],
  );
  const mappings = (await wm.getAllMappings()) as { id: string }[];
  assert.equal(mappings.length, 1);
  assert.equal(mappings[0]!.id, (stub as { id: string }).id);
  assert.deepEqual(await wm.getMapping((stub as { id: string }).id), mappings[0]);

  await wm.clearAll();
  assert.deepEqual(await wm.getAllMappings(), []);
  assert.deepEqual(await wm.getAllRequests(), []);
  const gone = await fetch(`${mock.url}/test-endpoint`, { method: 'POST', body: '{"hello":"world"}' });
  assert.equal(gone.status, 404, 'the stub went with clearAll');
  const workspace = await fetch(`${mock.url}/from-workspace`);
  assert.equal(await workspace.text(), 'workspace', "the workspace's own rules stay");
});

test('wiremock-captain: stubPriority lets a test override a default stub; deleteMapping removes it', async () => {
  const wm = new WireMock(admin);
  await wm.clearAll();
  await wm.register(
    { method: 'GET', endpoint: '/users/1' },
    { status: 200, body: { name: 'default' } },
    { stubPriority: 10 },
  );
  const specific = await wm.register(
    { method: 'GET', endpoint: '/users/1' },
    { status: 503, body: { error: 'down' } },
    { stubPriority: 1 },
  );
  // a later stub with a worse priority does not shadow the better one
  await wm.register({ method: 'GET', endpoint: '/users/1' }, { status: 418 }, { stubPriority: 20 });
  assert.equal((await fetch(`${mock.url}/users/1`)).status, 503);
  await wm.deleteMapping((specific as { id: string }).id);
  const r = await fetch(`${mock.url}/users/1`);
  assert.equal(r.status, 200);
  assert.deepEqual(await r.json(), { name: 'default' });
  await wm.clearAll();
});

test('wiremock-captain: scenarios move and reset; metadata finds and removes stubs', async () => {
  const wm = new WireMock(admin);
  await wm.clearAll();
  const scenario = (required: string, next?: string) => ({
    scenario: {
      scenarioName: 'To do list',
      requiredScenarioState: required,
      ...(next ? { newScenarioState: next } : {}),
    },
  });
  await wm.register({ method: 'GET', endpoint: '/todo' }, { status: 200, body: { items: [] } }, scenario('Started'));
  await wm.register({ method: 'POST', endpoint: '/todo' }, { status: 201 }, scenario('Started', 'Item added'));
  await wm.register(
    { method: 'GET', endpoint: '/todo' },
    { status: 200, body: { items: ['milk'] } },
    scenario('Item added'),
  );

  assert.deepEqual(await (await fetch(`${mock.url}/todo`)).json(), { items: [] });
  assert.equal((await fetch(`${mock.url}/todo`, { method: 'POST' })).status, 201);
  assert.deepEqual(await (await fetch(`${mock.url}/todo`)).json(), { items: ['milk'] });
  const [s] = (await wm.getAllScenarios()) as { name: string; state: string; possibleStates: string[] }[];
  assert.equal(s!.name, 'To do list');
  assert.equal(s!.state, 'Item added');
  assert.deepEqual(s!.possibleStates, ['Item added', 'Started']);
  await wm.resetAllScenarios();
  assert.deepEqual(await (await fetch(`${mock.url}/todo`)).json(), { items: [] });

  await wm.register({ method: 'GET', endpoint: '/tagged', metadata: { team: 'payments' } }, { status: 204 });
  const found = (await wm.findMappingByMetadata(
    { expression: '$.team', equalTo: 'payments' },
    'matchesJsonPath' as never,
  )) as {
    metadata: unknown;
  }[];
  assert.equal(found.length, 1);
  assert.deepEqual(found[0]!.metadata, { team: 'payments' });
  await wm.removeMappingByMetadata({ expression: '$.team', equalTo: 'payments' }, 'matchesJsonPath' as never);
  assert.equal((await fetch(`${mock.url}/tagged`)).status, 404);
  await wm.clearAll();
});

test('wiremock-rest-client: mappings create, get, update, delete, count and find requests, reset all', async () => {
  const wireMock = new WireMockRestClient(admin, { logLevel: 'silent' });
  await wireMock.global.resetAll();
  const stubMapping = {
    request: { method: 'GET', urlPathPattern: '/api/helloworld' },
    response: { status: 200, jsonBody: { hello: 'world' }, headers: { 'Content-Type': 'application/json' } },
  };
  const created = (await wireMock.mappings.createMapping(stubMapping)) as { id: string };
  const r = await fetch(`${mock.url}/api/helloworld?lang=en`);
  assert.equal(r.status, 200);
  assert.deepEqual(await r.json(), { hello: 'world' });

  const all = (await wireMock.mappings.getAllMappings()) as { mappings: { id: string }[]; meta: { total: number } };
  assert.equal(all.meta.total, 1);
  assert.equal(((await wireMock.mappings.getMapping(created.id)) as { id: string }).id, created.id);

  await wireMock.mappings.updateMapping(created.id, {
    ...stubMapping,
    response: { status: 200, body: 'updated' },
  });
  assert.equal(await (await fetch(`${mock.url}/api/helloworld`)).text(), 'updated');

  const count = (await wireMock.requests.getCount({ method: 'GET', urlPath: '/api/helloworld' })) as { count: number };
  assert.equal(count.count, 2);
  const found = (await wireMock.requests.findRequests({
    method: 'GET',
    urlPath: '/api/helloworld',
    queryParameters: { lang: { equalTo: 'en' } },
  })) as { requests: { url: string }[] };
  assert.deepEqual(
    found.requests.map((x) => x.url),
    ['/api/helloworld?lang=en'],
  );
  await wireMock.requests.removeRequests({ urlPath: '/api/helloworld', queryParameters: { lang: { absent: true } } });
  const left = (await wireMock.requests.getAllRequests()) as { requests: { request: { url: string } }[] };
  assert.deepEqual(
    left.requests.map((x) => x.request.url),
    ['/api/helloworld?lang=en'],
  );

  await wireMock.mappings.deleteMapping(created.id);
  assert.equal((await fetch(`${mock.url}/api/helloworld`)).status, 404);
  await wireMock.mappings.createMapping(stubMapping);
  await wireMock.global.resetAll();
  assert.equal((await fetch(`${mock.url}/api/helloworld`)).status, 404);
  assert.deepEqual(((await wireMock.requests.getAllRequests()) as { requests: unknown[] }).requests.length, 1);
});

test('wiremock-rest-client: scenarios set and reset, import, save, settings, health', async () => {
  const wireMock = new WireMockRestClient(admin, { logLevel: 'silent' });
  await wireMock.global.resetAll();
  await wireMock.mappings.createMapping({
    scenarioName: 'checkout',
    requiredScenarioState: 'paid',
    request: { method: 'GET', url: '/order' },
    response: { status: 200, body: 'paid' },
  });
  await wireMock.mappings.createMapping({
    scenarioName: 'checkout',
    requiredScenarioState: 'Started',
    request: { method: 'GET', url: '/order' },
    response: { status: 200, body: 'open' },
  });
  assert.equal(await (await fetch(`${mock.url}/order`)).text(), 'open');
  await wireMock.scenarios.setScenarioState('checkout', 'paid');
  assert.equal(await (await fetch(`${mock.url}/order`)).text(), 'paid');
  await wireMock.scenarios.resetAllScenarios();
  assert.equal(await (await fetch(`${mock.url}/order`)).text(), 'open');

  const imported = await fetch(`${admin}/__admin/mappings/import`, {
    method: 'POST',
    body: JSON.stringify({ mappings: [{ request: { url: '/imported' }, response: { status: 202 } }] }),
  });
  assert.equal(imported.status, 200);
  assert.equal((await fetch(`${mock.url}/imported`)).status, 202);
  await wireMock.mappings.saveAllMappings();
  await wireMock.global.updateGlobalSettings({ fixedDelay: 0 });
  const health = (await (await fetch(`${admin}/__admin/health`)).json()) as { status: string };
  assert.equal(health.status, 'healthy');
  await wireMock.global.resetAll();
});

test("a stub mock cannot express yet is refused with WireMock's 422, naming the part; nothing is added", async () => {
  const r = await fetch(`${admin}/__admin/mappings`, {
    method: 'POST',
    body: JSON.stringify({
      request: { url: '/xml', bodyPatterns: [{ matchesXPath: '/a/b' }] },
      response: { status: 200 },
    }),
  });
  assert.equal(r.status, 422);
  const body = (await r.json()) as { errors: { code: number; title: string }[] };
  assert.equal(body.errors[0]!.code, 10);
  assert.match(body.errors[0]!.title, /matchesXPath/);
  const list = (await (await fetch(`${admin}/__admin/mappings`)).json()) as { mappings: unknown[] };
  assert.deepEqual(list.mappings, []);
  const bad = await fetch(`${admin}/__admin/mappings`, { method: 'POST', body: '{"request": ' });
  assert.equal(bad.status, 422);
});

test("the admin API keeps the listener's cross-origin guard: a write a browser page sends from elsewhere is refused", async () => {
  const write = await fetch(`${admin}/__admin/reset`, { method: 'POST', headers: { origin: 'http://evil.example' } });
  assert.equal(write.status, 403);
  const site = await fetch(`${admin}/__admin/mappings`, {
    method: 'DELETE',
    headers: { 'sec-fetch-site': 'cross-site' },
  });
  assert.equal(site.status, 403);
});

test("a stub with WireMock's MALFORMED_RESPONSE_CHUNK sends WireMock's bytes, then closes", async () => {
  const r = await fetch(`${admin}/__admin/mappings`, {
    method: 'POST',
    body: JSON.stringify({ request: { url: '/bad-chunk' }, response: { fault: 'MALFORMED_RESPONSE_CHUNK' } }),
  });
  assert.equal(r.status, 201);
  const port = Number(new URL(mock.url).port);
  const bytes = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /bad-chunk HTTP/1.1\r\nHost: x\r\n\r\n'));
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
  // what WireMock 3.13.2 wrote for the same stub
  assert.equal(bytes, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlskdu018973t09sylgasjkfg1][]'./.sdlv");
  await fetch(`${admin}/__admin/reset`, { method: 'POST' });
});
