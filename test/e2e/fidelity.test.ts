// Behaviour that rule sets and scripts written for apimock-rs meet on their first day, through the real program
// (`mock get`, `mock match-test` and the live server): dot segments at the root are clamped, url_path values
// without their leading slash, integer and float number lexemes in body.json and scripts, and a chunk size
// larger than the body cap.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, startMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

let ws: string;
let server: RunningMock;

const RULES = `
[[rules]]
when.request.url_path = { value = "wild-card/???/*", op = "wild_card" }
respond.text = "wild"

[[rules]]
when.request.url_path = { value = ".xml", op = "ends_with" }
respond.text = "xml"
`;

const PAGES = `
prefix.url_path = "/pages"

[[rules]]
when.request.url_path = { value = ".html", op = "not_ends_with" }
respond.text = "page, not html"
`;

const PREFIXED = `
prefix.url_path = "/api"

[[rules]]
when.request.url_path = { value = ".json", op = "ends_with" }
respond.text = "api json"

[[rules]]
when.request.url_path = { value = "/create", op = "ends_with" }
respond.text = "api create"
`;

before(async () => {
  ws = makeTempDir('mock-fidelity-');
  await writeTree(ws, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml", "api.toml", "pages.toml"]\nfallback_respond_dir = "root"\n',
    'rules.toml': RULES,
    'api.toml': PREFIXED,
    'pages.toml': PAGES,
    'root/data.json': '{"data": 1}\n',
    'root/sub/inner.json': '{"inner": 1}\n',
    'secret.json': '{"secret": "outside"}\n',
  });
  server = await startMock([], { cwd: ws });
});

after(async () => {
  await server?.stop();
  await removeDir(ws);
});

/** A GET with the request target sent exactly as given (fetch would remove the dot segments itself). */
function rawGet(target: string, m: RunningMock = server): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: m.port, path: target, method: 'GET', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface GetEnvelope {
  result: { response: { status: number; body: string }; stage: string };
}

async function get(target: string, extra: readonly string[] = []): Promise<{ status: number; body: string; stage: string }> {
  const r = await runMock(['get', target, ...extra, '--format', 'json'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  const env = JSON.parse(r.stdout) as GetEnvelope;
  return { status: env.result.response.status, body: env.result.response.body, stage: env.result.stage };
}

/** Ask `mock get` and the running server the same request; both must give `status` and `body`. */
async function both(target: string, status: number, body: string): Promise<void> {
  const g = await get(target);
  assert.deepEqual([g.status, g.body], [status, body], `mock get ${target}`);
  const s = await rawGet(target);
  assert.deepEqual([s.status, s.body], [status, body], `server ${target}`);
}

describe('dot segments at the root are dropped, as remove_dot_segments does', () => {
  test('/../data and /%2e%2e/data serve data.json; climbing never leaves the fallback directory', async () => {
    const data = '{"data": 1}\n';
    for (const target of ['/../data', '/%2e%2e/data', '/%2E%2E/data.json', '/../../../data', '/sub/../../data', '/./../sub/%2e%2e/data']) {
      await both(target, 200, data);
    }
    await both('/../sub/inner', 200, '{"inner": 1}\n');
    for (const target of ['/../secret.json', '/%2e%2e/secret', '/sub/../../secret.json', '/..%2fsecret.json', '/%2e%2e%2fsecret.json']) {
      await both(target, 404, '');
    }
  });
});

describe('url_path values as written', () => {
  test('a wild card without its leading slash loads and matches from the root', async () => {
    await both('/wild-card/abc/anything/else', 200, 'wild');
    await both('/wild-card/ab/x', 404, '');
    await both('/x/wild-card/abc/y', 404, '');
  });

  test('ends_with and not_ends_with compare the value as written, under a prefix too', async () => {
    await both('/a/b.xml', 200, 'xml');
    await both('/api/v1/users.json', 200, 'api json');
    await both('/api/widgets/create', 200, 'api create');
    await both('/api/widgets/created', 404, '');
    await both('/pages/about', 200, 'page, not html');
    await both('/pages/about.html', 404, '');
  });

  test('--why and match-test show each value as written', async () => {
    const why = await runMock(['get', '/wild-card/abc/x', '--why'], { cwd: ws });
    assert.equal(why.code, 0, why.stderr);
    assert.match(why.stdout, /url_path {2}wild card matches {2}"wild-card\/\?\?\?\/\*"/);
    assert.match(why.stdout, /url_path {2}ends with {2}"\.xml"/);
    const api = await runMock(['get', '/api/x/create', '--why'], { cwd: ws });
    assert.match(api.stdout, /url_path {2}ends with {2}"\.json"/);
    assert.match(api.stdout, /url_path {2}ends with {2}"\/create"/);

    const mt = await runMock(['match-test', '-r', 'api.toml', '-p', '/api/v2/list.json'], { cwd: ws });
    assert.equal(mt.code, 0, mt.stdout + mt.stderr);
    assert.match(mt.stdout, /url_path {2}ends with {2}"\.json"/);
    assert.match(mt.stdout, /Result: MATCH \(rule #1\)/);
    const wild = await runMock(['match-test', '-r', 'rules.toml', '-p', '/wild-card/xyz/1'], { cwd: ws });
    assert.equal(wild.code, 0, wild.stdout + wild.stderr);
    assert.match(wild.stdout, /url_path {2}wild card matches {2}"wild-card\/\?\?\?\/\*"/);
  });

  test('validate accepts the slash-less wild card', async () => {
    const r = await runMock(['validate'], { cwd: ws });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
