// The management listener reads one path for its token check and its routes: a request target not in normal form
// (dot segments, percent-encoded dots, slashes or backslashes, doubled slashes, backslashes, an absolute form
// hiding any of these) is refused with a 400 naming why, before the token is checked and before any route runs,
// with the token or without it. Sent on raw sockets, so that no client library normalises the path first (as
// `curl --path-as-is` does). The mock port has no management routes, whatever the spelling.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const TOKEN = 's3cret';
let dir = '';
let mock: RunningMock;
let port = 0;

before(async () => {
  dir = makeTempDir('mock-inspect-paths-');
  await writeTree(dir, { 'hello.json': '{"hi":1}' });
  mock = await spawnMock(['--inspect', '--inspect-host', '127.0.0.1', '--inspect-token', TOKEN], { cwd: dir });
  const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
  const m = /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\//.exec(line ?? '');
  assert.ok(m, mock.stdoutLines.join('\n'));
  port = Number(m[1]);
  await fetch(`${mock.url}/hello`);
});
after(async () => {
  await mock.stop();
  await removeDir(dir);
});

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** One request written byte for byte on its own connection (`Connection: close`), its answer read to the end. */
function rawRequest(
  toPort: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(toPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    const lines = [
      `${method} ${target} HTTP/1.1`,
      `host: 127.0.0.1:${toPort}`,
      'connection: close',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ...(body === '' ? [] : [`content-length: ${Buffer.byteLength(body)}`]),
    ];
    socket.on('connect', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // the event stream never ends on its own: its head is all this test needs
      if (Buffer.concat(chunks).toString('latin1').includes('text/event-stream')) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m === null ? 0 : Number(m[1]), text });
    });
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
  });
}

const WRITE = { 'x-mock-client': 't', 'content-type': 'application/json' };
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** every management route, with a body that the route would take */
const ROUTES: readonly { method: string; path: string; body?: string }[] = [
  { method: 'GET', path: '/__mock/api/requests' },
  { method: 'GET', path: '/__mock/api/requests/1' },
  { method: 'DELETE', path: '/__mock/api/requests' },
  { method: 'POST', path: '/__mock/api/reset', body: '{}' },
  { method: 'GET', path: '/__mock/api/state' },
  { method: 'PUT', path: '/__mock/api/state', body: '{"scenario":"s","state":"x"}' },
  { method: 'GET', path: '/__mock/api/overrides' },
  {
    method: 'POST',
    path: '/__mock/api/overrides',
    body: '{"rules":[{"when":{"path":"/hello"},"respond":{"status":299,"text":"pwned"}}]}',
  },
  { method: 'DELETE', path: '/__mock/api/overrides' },
  { method: 'DELETE', path: '/__mock/api/overrides/1' },
  { method: 'GET', path: '/__mock/api/sessions' },
  { method: 'GET', path: '/__mock/api/events' },
  { method: 'POST', path: '/__mock/api/rules', body: '{"path":"/pwned","text":"pwned"}' },
  { method: 'GET', path: '/__mock/api/workspace' },
  { method: 'GET', path: '/__mock/api/files' },
];

/** Spellings of `path` that a lax reader resolves to it: each starts where the token check lets the page through. */
function spellings(path: string): readonly string[] {
  const rest = path.slice(1);
  const segs = rest.split('/');
  const mid = `${segs[0]}/${segs[1]}`;
  const tail = segs.slice(2).join('/');
  return [
    `/assets/../${rest}`,
    `/assets/%2e%2e/${rest}`,
    `/assets/%2E%2E/${rest}`,
    `/assets/.%2e/${rest}`,
    `/assets/%2e./${rest}`,
    `/assets%2f..%2f${rest}`,
    `/assets%2F..%2F${rest}`,
    `/assets/..%2f${rest}`,
    `/assets/..%5c${rest}`,
    `/assets\\..\\${rest}`,
    `/assets/..\\${rest}`,
    `/./${rest}`,
    `//${rest}`,
    `/${mid}//${tail}`,
    `/${mid}/./${tail}`,
    `/${mid}/x/../${tail}`,
    `/assets/%2e%2e\\${mid}//${tail}`,
    `/assets/./../${rest}`,
    `/assets/app.js/../../${rest}`,
    `http://127.0.0.1:${port}/assets/../${rest}`,
  ];
}

test('every management route, spelled out of normal form, is a 400 naming why, with the token and without', async () => {
  let tried = 0;
  for (const route of ROUTES) {
    for (const target of spellings(route.path)) {
      for (const auth of [{}, AUTH]) {
        const headers = { ...(route.method === 'GET' ? {} : WRITE), ...auth };
        const r = await rawRequest(port, route.method, target, headers, route.body ?? '');
        tried++;
        const what = `${route.method} ${target} (${Object.keys(auth).length > 0 ? 'with' : 'without'} the token)`;
        assert.equal(r.status, 400, `${what}: ${r.text.slice(0, 400)}`);
        assert.match(r.text, /not in normal form/, what);
      }
    }
  }
  assert.ok(tried > 500);

  // nothing any of them asked for happened: the journal keeps its entry, no override answers, no rule was written
  const journal = await rawRequest(port, 'GET', '/__mock/api/requests', AUTH);
  assert.equal(journal.status, 200);
  assert.match(journal.text, /"path":"\/hello"/);
  const overrides = await rawRequest(port, 'GET', '/__mock/api/overrides', AUTH);
  assert.equal(overrides.status, 200);
  assert.doesNotMatch(overrides.text, /pwned/);
  const hello = await fetch(`${mock.url}/hello`);
  assert.equal(hello.status, 200);
  assert.deepEqual(await hello.json(), { hi: 1 });
  assert.deepEqual(readdirSync(dir).sort(), ['hello.json']);
});

test('the page and its assets, spelled out of normal form, are refused too; spelled normally they load without the token', async () => {
  for (const path of ['/assets/app.js', '/assets/app.css']) {
    assert.equal((await rawRequest(port, 'GET', path)).status, 200, path);
    for (const target of [`/x/..${path}`, `/assets/./${path.slice(8)}`, `/assets//${path.slice(8)}`, `/%2e${path}`])
      assert.equal((await rawRequest(port, 'GET', target)).status, 400, target);
  }
  assert.equal((await rawRequest(port, 'GET', '/')).status, 200);
  assert.equal((await rawRequest(port, 'GET', '/./')).status, 400);
});

test('spelled normally, each route still answers: 401 without the token, its answer with it', async () => {
  for (const route of ROUTES) {
    const headers = route.method === 'GET' ? {} : WRITE;
    const without = await rawRequest(port, route.method, route.path, headers, route.body ?? '');
    assert.equal(without.status, 401, `${route.method} ${route.path}: ${without.text.slice(0, 300)}`);
  }
  for (const path of ['/__mock/api/requests', '/__mock/api/state', '/__mock/api/workspace', '/__mock/api/events']) {
    const r = await rawRequest(port, 'GET', path, AUTH);
    assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
  }
});

test('the mock port opens no route into management, whatever the spelling', async () => {
  for (const target of [
    '/__mock/api/requests',
    '/assets/../__mock/api/requests',
    '/assets/%2e%2e/__mock/api/requests',
    '//__mock/api/requests',
    '/assets\\..\\__mock/api/requests',
  ]) {
    const r = await rawRequest(mock.port, 'GET', target, AUTH);
    assert.notEqual(r.status, 200, `${target}: ${r.text.slice(0, 300)}`);
    assert.doesNotMatch(r.text, /"entries"/, target);
    const w = await rawRequest(mock.port, 'POST', target.replace('requests', 'overrides'), { ...AUTH, ...WRITE }, '{}');
    assert.doesNotMatch(w.text, /"override/, target);
  }
});
