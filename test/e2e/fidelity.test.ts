// Behaviour that rule sets and scripts written for apimock-rs meet on their first day, through the real program
// (`mock get`, `mock match-test` and the live server): dot segments at the root are clamped, url_path values
// without their leading slash, integer and float number lexemes in body.json and scripts, and a chunk size
// larger than the body cap.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

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

const TYPED = `
prefix.url_path = "/typed"

[[rules]]
when.request.url_path = "/int"
when.request.body.json.n = { value = "42", op = "equal_typed" }
respond.text = "typed int"

[[rules]]
when.request.url_path = "/int"
when.request.body.json.n = { value = "42.0", op = "equal_typed" }
respond.text = "typed float"

[[rules]]
when.request.url_path = "/integer"
when.request.body.json.n = { value = "42", op = "equal_integer" }
respond.text = "integer"

[[rules]]
when.request.url_path = "/list"
when.request.body.json.items = { value = "2.0", op = "array_contains" }
respond.text = "has 2.0"
`;

const SCRIPT = `
if url_path == "/script/types" {
    return #{ text: \`\${type_of(body.x)} \${body.x} \${type_of(body.y)} \${body.y} \${type_of(body.z[0])}\` };
}
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

// apimock-rs's own rule_op example: a slash-less wild card under a prefix is joined to it
const RULE_OP = `
prefix.url_path = "/rule-op/"

[[rules]]
when.request.url_path = { value = "wild-card/???/*", op = "wild_card" }
respond.text = "rule-op wild"
`;

before(async () => {
  ws = makeTempDir('mock-fidelity-');
  await writeTree(ws, {
    'mock.toml':
      '[service]\nrule_sets = ["rules.toml", "api.toml", "pages.toml", "typed.toml", "rule-op.toml"]\nmiddlewares = ["mw.rhai"]\nfallback_respond_dir = "root"\n',
    'rules.toml': RULES,
    'api.toml': PREFIXED,
    'pages.toml': PAGES,
    'typed.toml': TYPED,
    'rule-op.toml': RULE_OP,
    'mw.rhai': SCRIPT,
    'root/data.json': '{"data": 1}\n',
    'root/sub/inner.json': '{"inner": 1}\n',
    'secret.json': '{"secret": "outside"}\n',
  });
  server = await spawnMock([], { cwd: ws });
});

after(async () => {
  await server?.stop();
  await removeDir(ws);
});

/** A request with the target sent exactly as given (fetch would remove the dot segments itself); a JSON body POSTs. */
function rawGet(target: string, json?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = json === undefined ? {} : { 'content-type': 'application/json' };
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: target,
        method: json === undefined ? 'GET' : 'POST',
        headers,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(json);
  });
}

interface GetEnvelope {
  result: { response: { status: number; body: string }; stage: string };
}

async function get(
  target: string,
  extra: readonly string[] = [],
): Promise<{ status: number; body: string; stage: string }> {
  const r = await runMock(['get', target, ...extra, '--format', 'json'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  const env = JSON.parse(r.stdout) as GetEnvelope;
  return { status: env.result.response.status, body: env.result.response.body, stage: env.result.stage };
}

/** Ask `mock get` and the running server the same request (a POST when `json` is given); both must give `status` and `body`. */
async function both(target: string, status: number, body: string, json?: string): Promise<void> {
  const g = await get(target, json === undefined ? [] : ['-m', 'POST', '-b', json]);
  assert.deepEqual([g.status, g.body], [status, body], `mock get ${target} ${json ?? ''}`);
  const s = await rawGet(target, json);
  assert.deepEqual([s.status, s.body], [status, body], `server ${target} ${json ?? ''}`);
}

describe('dot segments at the root are dropped, as remove_dot_segments does', () => {
  test('/../data and /%2e%2e/data serve data.json; climbing never leaves the fallback directory', async () => {
    const data = '{"data": 1}\n';
    for (const target of [
      '/../data',
      '/%2e%2e/data',
      '/%2E%2E/data.json',
      '/../../../data',
      '/sub/../../data',
      '/./../sub/%2e%2e/data',
    ]) {
      await both(target, 200, data);
    }
    await both('/../sub/inner', 200, '{"inner": 1}\n');
    for (const target of [
      '/../secret.json',
      '/%2e%2e/secret',
      '/sub/../../secret.json',
      '/..%2fsecret.json',
      '/%2e%2e%2fsecret.json',
    ]) {
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

  test('under a prefix, a wild card without its leading slash is joined to the prefix', async () => {
    await both('/rule-op/wild-card/aaa/x', 200, 'rule-op wild');
    await both('/rule-op/wild-card/aa/x', 404, '');
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

describe('integers and floats stay apart, by their lexemes', () => {
  test('equal_typed tells 42 from 42.0 on both sides: the body number and the rule value', async () => {
    await both('/typed/int', 200, 'typed int', '{"n":42}');
    await both('/typed/int', 200, 'typed float', '{"n":42.0}');
    await both('/typed/int', 200, 'typed float', '{"n":4.2e1}');
    await both('/typed/int', 404, '', '{"n":"42"}');
  });

  test('equal_integer refuses a number written as a float; array_contains finds 2.0, not 2', async () => {
    await both('/typed/integer', 200, 'integer', '{"n":42}');
    await both('/typed/integer', 404, '', '{"n":42.0}');
    await both('/typed/integer', 404, '', '{"n":4.2e1}');
    await both('/typed/list', 200, 'has 2.0', '{"items":[1,2.0]}');
    await both('/typed/list', 404, '', '{"items":[1,2]}');
  });

  test('--why shows the body number as it was written', async () => {
    const r = await runMock(['get', '/typed/integer', '-m', 'POST', '-b', '{"n":42.0}', '--why'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /42\.0/);
  });

  test('a script sees 5.0 and 1e3 as f64 and 5 as i64', async () => {
    await both('/script/types', 200, 'f64 5.0 i64 5 f64', '{"x":5.0,"y":5,"z":[1e3]}');
    await both('/script/types', 200, 'i64 5 i64 5 f64', '{"x":5,"y":5,"z":[1.5]}');
  });
});

/**
 * Write `parts` on a raw socket one after another (each waits for the previous to be flushed, plus `gapMs`),
 * then wait up to `deadlineMs` for the server to close the connection. The text received, and whether it came
 * before the deadline.
 */
function rawSocket(
  port: number,
  parts: readonly string[],
  deadlineMs: number,
  gapMs = 50,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    let settled = false;
    const socket = connect(port, '127.0.0.1');
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => finish(false), deadlineMs);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      const next = (i: number): void => {
        if (i >= parts.length || settled) return;
        socket.write(parts[i]!, () => setTimeout(() => next(i + 1), gapMs));
      };
      next(0);
    });
  });
}

describe('a chunk size over the body cap is refused when its line is read', () => {
  let capped: RunningMock;
  let dir: string;
  const TOO_LARGE = 'request body exceeds the configured limit (16 bytes)';
  const HEAD = 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';

  before(async () => {
    dir = makeTempDir('mock-fidelity-chunk-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rs.toml"]\nmax_request_body_bytes = 16\n',
      'rs.toml':
        '[[rules]]\nwhen.request.url_path = "/echo"\nwhen.request.body.json.a = { value = "1" }\nrespond.text = "a is 1"\n',
    });
    capped = await spawnMock([], { cwd: dir });
  });

  after(async () => {
    await capped?.stop();
    await removeDir(dir);
  });

  /** The first response's status line and body; the server must answer and close within 5 s (its own timeout is 120 s). */
  async function refusedAtOnce(parts: readonly string[]): Promise<void> {
    const r = await rawSocket(capped.port, parts, 5000);
    assert.ok(r.closed, `no answer within 5 s to ${JSON.stringify(parts)}: ${JSON.stringify(r.text)}`);
    assert.match(r.text, /^HTTP\/1\.1 413 Payload Too Large\r\n/, JSON.stringify(parts));
    assert.ok(r.text.endsWith('\r\n\r\n' + TOO_LARGE), r.text);
  }

  test('2^63 declared with the head, after it, or after a first chunk, never sending the data', async () => {
    await refusedAtOnce([HEAD + '8000000000000000\r\n']);
    await refusedAtOnce([HEAD, '8000000000000000\r\n']);
    await refusedAtOnce([HEAD, '80000000', '00000000;ext=1\r\n']);
    await refusedAtOnce([HEAD + '5\r\n{"a":\r\n', '8000000000000000\r\n']);
    // one byte more than is left of the cap
    await refusedAtOnce([HEAD + '8\r\n{"a":1, \r\n9\r\n']);
  });

  test('a chunked body within the cap is read and answered, and the connection goes on', async () => {
    const body = HEAD + '4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n';
    const next = 'GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    for (const parts of [[body + next], [body, next], [HEAD, '4\r\n{"a"\r\n', '3\r\n:1}\r\n0\r\n\r\n' + next]]) {
      const r = await rawSocket(capped.port, parts, 10_000);
      assert.ok(r.closed, JSON.stringify(r.text));
      const statuses = [...r.text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
      assert.deepEqual(statuses, ['200', '404'], r.text);
      assert.match(r.text, /\r\n\r\na is 1HTTP\/1\.1 404/);
    }
    // exactly the cap in one chunk
    const exact = await rawSocket(
      capped.port,
      [HEAD.replace('Host: x', 'Host: x\r\nConnection: close') + '10\r\n{"a":1,"b":"xx"}\r\n0\r\n\r\n'],
      10_000,
    );
    assert.match(exact.text, /^HTTP\/1\.1 200 OK\r\n[\s\S]*a is 1$/);
  });
});
