// `mock --init --from` for the formats beside OpenAPI, end to end through the real program, on third-party
// files (test/fixtures/README.md): each source imported twice into empty folders (byte-identical), `mock validate`
// passes, and the running server answers every request the source documents with its status, content type and
// body, except the parts the summary lists as left out. Broken inputs exit 2 naming the place and write nothing.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { header, send } from './server-harness.js';
import { fileTree } from '../helpers/file-tree.js';

type Obj = Record<string, unknown>;

/** the fixtures, from the compiled test (dist/test/e2e) up to the repository */
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

interface Imported {
  readonly ws: string;
  readonly result: Obj;
}

/** imports `source` into two fresh folders; asserts they are byte-identical and returns the first */
async function importTwice(root: string, source: string, extra: readonly string[] = []): Promise<Imported> {
  const trees: Map<string, Buffer>[] = [];
  let result: Obj = {};
  for (const name of ['a', 'b']) {
    const ws = join(root, name);
    mkdirSync(ws, { recursive: true });
    const r = await runMock(['--init', '--from', source, '--yes', '--format', 'json', ...extra], { cwd: ws });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    result = (JSON.parse(r.stdout) as { result: Obj }).result;
    trees.push(fileTree(ws));
  }
  assert.deepEqual([...trees[0]!.keys()].sort(), [...trees[1]!.keys()].sort());
  for (const [k, v] of trees[0]!) assert.ok(v.equals(trees[1]!.get(k)!), `${k} differs between two imports`);
  return { ws: join(root, 'a'), result };
}

function essence(t: string | undefined): string | undefined {
  return t?.split(';')[0]!.trim().toLowerCase();
}

/**
 * One imported workspace, served, for a describe block: before it, `source` (given the temp folder) is imported
 * twice, byte-identically, and the first copy is served; after it, the server stops and the folder goes.
 */
function servedImport(
  prefix: string,
  source: (root: string) => string | Promise<string>,
): { readonly root: string; readonly imported: Imported; readonly server: RunningMock } {
  let root = '';
  let imported: Imported | undefined;
  let server: RunningMock | undefined;
  before(async () => {
    root = makeTempDir(prefix);
    imported = await importTwice(root, await source(root));
    server = await spawnMock([], { cwd: imported.ws });
  });
  after(async () => {
    await server?.stop();
    await removeDir(root);
  });
  return {
    get root() {
      return root;
    },
    get imported() {
      return imported!;
    },
    get server() {
      return server!;
    },
  };
}

async function assertValidates(ws: string): Promise<void> {
  const v = await runMock(['validate'], { cwd: ws });
  assert.equal(v.code, 0, v.stderr + v.stdout);
}

describe('mock --init --from: WireMock mappings (wiremock/wiremock test resources)', () => {
  const src = join(FIXTURES, 'wiremock');
  const s = servedImport('mock-import-wm-', () => src);

  it('mock validate exits 0', () => assertValidates(s.imported.ws));

  it('the summary leaves nothing out (its scenario is imported as a scenario)', () => {
    assert.deepEqual(s.imported.result['left_out'], []);
  });

  it('answers every documented request as WireMock would (status, content type, body)', async () => {
    let checked = 0;
    for (const name of readdirSync(join(src, 'mappings')).sort()) {
      const data = JSON.parse(readFileSync(join(src, 'mappings', name), 'utf8')) as Obj;
      const list = Array.isArray(data['mappings']) ? (data['mappings'] as Obj[]) : [data];
      for (const [i, m] of list.entries()) {
        const place = list.length === 1 ? `mappings/${name}` : `mappings/${name}: mappings[${i}]`;
        // a scenario's mappings answer in sequence (the next test); these move no state
        if (m['scenarioName'] !== undefined) continue;
        const req = m['request'] as Obj;
        const res = m['response'] as Obj;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries((req['headers'] as Obj | undefined) ?? {}))
          headers[k] = String((v as Obj)['contains'] ?? (v as Obj)['equalTo']);
        const pattern = (req['bodyPatterns'] as Obj[] | undefined)?.[0];
        const got = await send(s.server.port, {
          method: (req['method'] as string | undefined) ?? 'GET',
          path: (req['url'] ?? req['urlPath'] ?? req['urlPattern']) as string,
          headers,
          ...(pattern === undefined ? {} : { body: String(pattern['contains']) }),
        });
        assert.equal(got.status, (res['status'] as number | undefined) ?? 200, place);
        const declared = Object.entries((res['headers'] as Record<string, string> | undefined) ?? {}).find(
          ([k]) => k.toLowerCase() === 'content-type',
        )?.[1];
        if (declared !== undefined) assert.equal(essence(header(got, 'content-type')), essence(declared), place);
        if (typeof res['body'] === 'string') assert.equal(got.body.toString('utf8'), res['body'], place);
        else if (res['jsonBody'] !== undefined)
          assert.deepEqual(JSON.parse(got.body.toString('utf8')), res['jsonBody'], place);
        else if (typeof res['bodyFileName'] === 'string')
          assert.ok(got.body.equals(readFileSync(join(src, '__files', res['bodyFileName']))), place);
        else assert.equal(got.body.length, 0, place);
        checked++;
      }
    }
    assert.equal(checked, 8);
  });

  it("a scenario answers in sequence: Started's list, the POST that moves it, then the next state's list", async () => {
    // mappings/with-several-mappings-in-one-file.json, the "To do list" scenario
    const list = (): Promise<{ status: number; body: Buffer }> => send(s.server.port, { path: '/todo/items' });
    const first = await list();
    assert.equal(first.status, 200);
    assert.equal(first.body.toString('utf8'), '<items><item>Buy milk</item></items>');
    assert.equal((await list()).body.toString('utf8'), '<items><item>Buy milk</item></items>', 'a GET moves nothing');
    const other = await send(s.server.port, { method: 'POST', path: '/todo/items', body: 'something else' });
    assert.equal(other.status, 404, 'a POST without the expected body matches no mapping');
    const added = await send(s.server.port, {
      method: 'POST',
      path: '/todo/items',
      body: 'Cancel newspaper subscription',
    });
    assert.equal(added.status, 201);
    assert.equal(added.body.length, 0);
    const next = await list();
    assert.equal(next.status, 200);
    assert.ok(next.body.equals(readFileSync(join(src, '__files', 'body.xml'))));
    const again = await send(s.server.port, {
      method: 'POST',
      path: '/todo/items',
      body: 'Cancel newspaper subscription',
    });
    assert.equal(again.status, 404, 'the POST needs the Started state, which has moved on');
  });

  it('one mapping file is read with the __files folder beside its mappings folder', async () => {
    const ws = join(s.root, 'one');
    mkdirSync(ws, { recursive: true });
    const r = await runMock(['--init', '--from', join(src, 'mappings', 'with-text-body-file.json'), '--yes'], {
      cwd: ws,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Imported 1 mapping \(WireMock\)/);
    assert.deepEqual(readdirSync(join(ws, 'responses')), ['with-text-body-file-200.txt']);
  });
});

describe('mock --init --from: Swagger 2.0 (OAI petstore-simple)', () => {
  const s = servedImport('mock-import-sw-', () => join(FIXTURES, 'swagger', 'petstore-simple.json'));

  it('is converted and imported as OpenAPI 3.0, and validates', async () => {
    const doc = s.imported.result['document'] as Obj;
    assert.equal(doc['swagger'], '2.0');
    assert.match(String(doc['openapi']), /^3\.0\./);
    await assertValidates(s.imported.ws);
  });

  it('answers each operation with its documented success (status and content type), under basePath', async () => {
    const cases: [string, string, number, string | undefined][] = [
      ['GET', '/api/pets', 200, 'application/json'],
      ['POST', '/api/pets', 200, 'application/json'],
      ['GET', '/api/pets/7', 200, 'application/json'],
      ['DELETE', '/api/pets/7', 204, undefined],
    ];
    for (const [method, path, status, type] of cases) {
      const got = await send(s.server.port, {
        method,
        path,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{"name":"Rex"}' } : {}),
      });
      assert.equal(got.status, status, `${method} ${path}`);
      if (type !== undefined) {
        assert.equal(essence(header(got, 'content-type')), type, `${method} ${path}`);
        JSON.parse(got.body.toString('utf8'));
      }
    }
  });
});

describe("mock --init --from: a Postman collection v2.0 (newman's Postman Echo collection)", () => {
  const src = join(FIXTURES, 'postman', 'echo-v2.postman_collection.json');
  const s = servedImport('mock-import-pm-', () => src);

  it('mock validate exits 0', () => assertValidates(s.imported.ws));

  it('answers every saved example (the others by x-mock-response-name), with its status, content type and body', async () => {
    interface Ex {
      name: string;
      code: number;
      body: string;
      header: { key: string; value: string }[] | null;
    }
    interface Item {
      name: string;
      item?: Item[];
      request: { method?: string; url: string | { raw: string } };
      response?: Ex[];
    }
    const data = JSON.parse(readFileSync(src, 'utf8')) as { item: Item[] };
    let checked = 0;
    const walk = async (items: Item[]): Promise<void> => {
      for (const it of items) {
        if (it.item !== undefined) {
          await walk(it.item);
          continue;
        }
        const examples = it.response ?? [];
        const main = examples.find((e) => e.code >= 200 && e.code < 300) ?? examples[0];
        const raw = typeof it.request.url === 'string' ? it.request.url : it.request.url.raw;
        const url = new URL(raw);
        for (const e of examples) {
          const got = await send(s.server.port, {
            method: it.request.method ?? 'GET',
            path: url.pathname + url.search,
            headers: e === main ? {} : { 'x-mock-response-name': e.name },
          });
          const place = `${it.name}: ${e.name}`;
          assert.equal(got.status, e.code, place);
          const type = (e.header ?? []).find((h) => h.key.toLowerCase() === 'content-type')?.value;
          if (type !== undefined) assert.equal(header(got, 'content-type'), type, place);
          assert.equal(got.body.toString('utf8'), e.body, place);
          checked++;
        }
      }
    };
    await walk(data.item);
    assert.equal(checked, 10);
  });
});

describe('mock --init --from: a Mockoon environment (mockoon/mock-samples)', () => {
  const src = join(FIXTURES, 'mockoon', 'amazonawscom-dlm.json');
  const s = servedImport('mock-import-mk-', () => src);

  it('mock validate exits 0', () => assertValidates(s.imported.ws));

  it("answers each route's default response (status, content type, body) except the routes listed as left out", async () => {
    interface Response {
      body: string;
      statusCode: number;
      default?: boolean;
      headers: { key: string; value: string }[];
    }
    const data = JSON.parse(readFileSync(src, 'utf8')) as {
      routes: { method: string; endpoint: string; responses: Response[] }[];
    };
    const leftOut = new Set(
      (s.imported.result['left_out'] as { place: string; part: string }[])
        .filter((l) => l.part === 'endpoint')
        .map((l) => l.place),
    );
    let checked = 0;
    for (const [i, route] of data.routes.entries()) {
      if (leftOut.has(`routes[${i}]`)) continue;
      const main = route.responses.find((r) => r.default === true) ?? route.responses[0]!;
      const got = await send(s.server.port, {
        method: route.method.toUpperCase(),
        path: '/' + route.endpoint.replace(/:(\w+)/g, 'x-$1'),
        headers: { 'content-type': 'application/json' },
        ...(route.method === 'get' || route.method === 'delete' ? {} : { body: '{}' }),
      });
      const place = `routes[${i}] ${route.method} ${route.endpoint}`;
      assert.equal(got.status, main.statusCode, place);
      const type = main.headers.find((h) => h.key.toLowerCase() === 'content-type')?.value;
      if (type !== undefined) assert.equal(essence(header(got, 'content-type')), essence(type), place);
      // a body with Mockoon template tags renders differently here; the others are served as written
      if (!main.body.includes('{{')) assert.equal(got.body.toString('utf8'), main.body, place);
      checked++;
    }
    assert.equal(checked, 7);
  });
});

describe('mock --init --from: Mockoon CRUD routes, and sequential and random routes', () => {
  // a small environment in Mockoon's current format (a CRUD route and the bucket it serves, one bucket no route
  // serves, a sequential and a random route between plain ones); the third-party fixture above has none of these
  const users = '[\n  { "id": 1, "name": "Ada" },\n  { "id": 2, "name": "Grace" }\n]';
  const text = (body: string, label = ''): Obj => ({
    uuid: body,
    label,
    body,
    statusCode: 200,
    headers: [{ key: 'Content-Type', value: 'text/plain' }],
    bodyType: 'INLINE',
    rules: [],
    rulesOperator: 'OR',
  });
  const route = (endpoint: string, responses: Obj[], responseMode: string | null = null): Obj => ({
    uuid: endpoint,
    type: 'http',
    method: 'get',
    endpoint,
    responses,
    responseMode,
  });
  const env = {
    uuid: 'e',
    lastMigration: 32,
    name: 'Crud',
    endpointPrefix: 'api',
    data: [
      { uuid: 'd1', id: 'b1', name: 'users', documentation: '', value: users },
      { uuid: 'd2', id: 'b2', name: 'settings', documentation: '', value: '{"theme": "dark"}' },
    ],
    routes: [
      {
        uuid: 'r1',
        type: 'crud',
        method: '',
        endpoint: 'users',
        responses: [
          {
            uuid: 'p1',
            body: '',
            statusCode: 200,
            headers: [],
            bodyType: 'DATABUCKET',
            databucketID: 'b1',
            rules: [],
            rulesOperator: 'OR',
            default: true,
            crudKey: 'id',
          },
        ],
      },
      route('seq/first', [text('first')]),
      route('seq/:step', [text('one'), text('two'), text('three')], 'SEQUENTIAL'),
      route('seq/:step', [text('never')]),
      route('coin', [text('heads'), text('tails')], 'RANDOM'),
      route('after', [text('after')]),
    ],
  };
  const s = servedImport('mock-import-mkc-', async (root) => {
    await writeTree(root, { 'env.json': JSON.stringify(env, null, 2) });
    return join(s.root, 'env.json');
  });

  it('writes the bucket as a data file, passes mock validate, and lists the bucket no route serves', async () => {
    assert.equal(readFileSync(join(s.imported.ws, 'users.json'), 'utf8'), users);
    await assertValidates(s.imported.ws);
    assert.deepEqual(s.imported.result['left_out'], [
      {
        place: 'data[1]',
        part: '',
        reason: 'data bucket "settings": only a data bucket holding a JSON array of objects becomes a collection',
      },
    ]);
  });

  it('answers list, item, create and delete as the CRUD route does', async () => {
    const json = (b: Buffer): unknown => JSON.parse(b.toString('utf8'));
    const list = await send(s.server.port, { path: '/api/users' });
    assert.equal(list.status, 200);
    assert.deepEqual(json(list.body), JSON.parse(users));
    const one = await send(s.server.port, { path: '/api/users/2' });
    assert.deepEqual(json(one.body), { id: 2, name: 'Grace' });
    const created = await send(s.server.port, {
      method: 'POST',
      path: '/api/users',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Edsger"}',
    });
    assert.equal(created.status, 201);
    assert.deepEqual(json(created.body), { name: 'Edsger', id: 3 });
    assert.equal((await send(s.server.port, { method: 'DELETE', path: '/api/users/1' })).status, 200);
    const after = await send(s.server.port, { path: '/api/users' });
    assert.deepEqual(
      (json(after.body) as { name: string }[]).map((u) => u.name),
      ['Grace', 'Edsger'],
    );
    assert.equal((await send(s.server.port, { path: '/api/users/1' })).status, 404);
  });

  it('writes a rule set per sequential or random route, listed between the routes before and after it', () => {
    assert.equal(s.imported.result['rules'], 8);
    assert.deepEqual(s.imported.result['rule_sets'], [
      'crud.toml',
      'crud-GET-seq-step.toml',
      'crud-2.toml',
      'crud-GET-coin.toml',
      'crud-3.toml',
    ]);
    // the CRUD route comes first in the environment: its collection is in the first rule set
    assert.match(readFileSync(join(s.imported.ws, 'crud.toml'), 'utf8'), /\[\[collections\]\]\npath = "\/api\/users"/);
    assert.match(
      readFileSync(join(s.imported.ws, 'mock.toml'), 'utf8'),
      /rule_sets = \["crud.toml", "crud-GET-seq-step.toml", "crud-2.toml", "crud-GET-coin.toml", "crud-3.toml"\]/,
    );
    assert.match(readFileSync(join(s.imported.ws, 'crud-GET-seq-step.toml'), 'utf8'), /^strategy = "round_robin"$/m);
    assert.match(
      readFileSync(join(s.imported.ws, 'crud-GET-coin.toml'), 'utf8'),
      /^strategy = \{ uniform_random = \{\} \}$/m,
    );
  });

  it('a sequential route answers its responses in turn; the route before it still answers first', async () => {
    const get = async (path: string): Promise<string> => {
      const r = await send(s.server.port, { path });
      assert.equal(r.status, 200, path);
      return r.body.toString('utf8');
    };
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push(await get('/api/seq/x'), await get('/api/seq/first'));
    assert.deepEqual(seen, ['one', 'first', 'two', 'first', 'three', 'first', 'one', 'first']);
    const coins = new Set<string>();
    for (let i = 0; i < 40; i++) coins.add(await get('/api/coin'));
    assert.deepEqual([...coins].sort(), ['heads', 'tails'], 'forty random picks of two answers give both');
    assert.equal(await get('/api/after'), 'after');
  });
});

describe('mock --init --from: broken inputs exit 2 with the place, and write nothing', () => {
  let root: string;
  before(() => {
    root = makeTempDir('mock-import-bad-');
  });
  after(async () => {
    await removeDir(root);
  });

  const cases: { name: string; files: Record<string, string>; from: string; expect: RegExp }[] = [
    {
      name: 'truncated JSON',
      files: { 'wm.json': '{\n  "request": { "url": "/a" },\n  "response": { "status": 2' },
      from: 'wm.json',
      expect: /wm\.json:3:\d+: not valid JSON: the input ends early \(truncated\?\)/,
    },
    {
      name: 'a WireMock mapping with an unknown matcher',
      files: {
        'stubs/mappings/orders.json': JSON.stringify({
          request: { urlPath: '/orders', headers: { Accept: { equalsTo: 'json' } } },
          response: { status: 200 },
        }),
      },
      from: 'stubs',
      expect: /mappings\/orders\.json: request\.headers\.Accept\.equalsTo: unknown matcher `equalsTo`/,
    },
    {
      name: "a Postman v1 collection (newman's example)",
      files: { 'v1.json': readFileSync(join(FIXTURES, 'postman', 'v1.postman_collection.json'), 'utf8') },
      from: 'v1.json',
      expect:
        /v1\.json: this is a Postman v1 collection; mock reads v2\.0 and v2\.1\. Export it again from Postman as Collection v2\.1, or convert it with `npx postman-collection-transformer convert/,
    },
    {
      name: 'an unknown JSON document',
      files: { 'package.json': '{ "name": "x" }' },
      from: 'package.json',
      expect: /package\.json: the format is not recognised/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const dir = join(root, c.name.replace(/\W+/g, '-'));
      const ws = join(dir, 'ws');
      await writeTree(dir, c.files);
      mkdirSync(ws, { recursive: true });
      const r = await runMock(['--init', '--from', join('..', c.from), '--yes'], { cwd: ws });
      assert.equal(r.code, 2, r.stderr + r.stdout);
      assert.match(r.stderr, c.expect);
      assert.deepEqual(readdirSync(ws), []);
    });
  }

  it('--dry-run writes nothing and says what it would write', async () => {
    const ws = join(root, 'dry');
    mkdirSync(ws, { recursive: true });
    const r = await runMock(['--init', '--from', join(FIXTURES, 'wiremock'), '--dry-run'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Would import 11 mappings \(WireMock\)/);
    assert.match(r.stdout, /Would write \(--dry-run, nothing written\)/);
    assert.deepEqual(readdirSync(ws), []);
  });

  it('response templates: one that compiles answers from the request, one that does not is served as written', async () => {
    const dir = join(root, 'templates');
    await writeTree(dir, {
      'wm/mappings/hello.json': JSON.stringify({
        request: { urlPath: '/hello' },
        response: { body: 'Hi {{request.query.name}}', transformers: ['response-template'] },
      }),
      'wm/mappings/broken.json': JSON.stringify({
        request: { urlPath: '/broken' },
        response: { body: 'x {{#each}}', transformers: ['response-template'] },
      }),
    });
    const ws = join(dir, 'ws');
    mkdirSync(ws);
    const r = await runMock(['--init', '--from', '../wm', '--yes'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /mappings\/broken\.json: response\.transformers: the template does not compile here/);
    const hello = await runMock(['get', '/hello?name=Ann'], { cwd: ws });
    assert.match(hello.stdout, /^Hi Ann$/m);
    const broken = await runMock(['get', '/broken'], { cwd: ws });
    assert.match(broken.stdout, /^x \{\{#each\}\}$/m);
  });

  it('into a folder with mock.toml, the import adds a rule set', async () => {
    const ws = join(root, 'beside');
    mkdirSync(ws, { recursive: true });
    const first = await runMock(['--init', '--from', join(FIXTURES, 'wiremock'), '--yes'], { cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const second = await runMock(['--init', '--from', join(FIXTURES, 'wiremock'), '--yes'], { cwd: ws });
    assert.equal(second.code, 0, second.stderr);
    assert.ok(existsSync(join(ws, 'wiremock-2.toml')));
    assert.match(readFileSync(join(ws, 'mock.toml'), 'utf8'), /rule_sets = \["wiremock\.toml", "wiremock-2\.toml"\]/);
    const v = await runMock(['validate'], { cwd: ws });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });
});
