// The whole request through the real program (`dist/bin/main.cjs`, port 0): query, named path parameters,
// cookies, urlencoded and multipart forms and text bodies in rules; the new script variables and answer keys;
// `get --why`, `match-test`, the inspector's journal, `set rule`, `validate` and the JSON Schema on them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { raw } from '../helpers/inspector-server.js';
import {
  makeTempDir,
  removeDir,
  runMock,
  sendText as send,
  spawnMock,
  type TextAnswer,
  writeTree,
  type RunningMock,
} from '../helpers/mock-cli.js';

const RULES = `
[[rules]]
when.request.url_path = "/items"
when.request.query.page = "2"
respond.text = "page 2"

[[rules]]
when.request.url_path = "/items"
when.request.query.page = "1"
respond.text = "page 1"

[[rules]]
when.request.url_path = "/items"
when.request.query.debug = { op = "exists" }
respond.text = "debug"

[[rules]]
when.request.url_path = "/items"
when.request.query.page = { op = "absent" }
respond.text = "no page"

[[rules]]
when.request.url_path = "/tags"
when.request.query.tag = { value = "b", op = "equal" }
when.request.query.kind = { value = "x", op = "not_equal" }
respond.text = "has tag b, no kind x"

[[rules]]
when.request.url_path = "/find"
when.request.query.q = "a b"
respond.text = "found a b"

[[rules]]
when.request.url_path = { value = "/users/{id}/files/{rest*}", op = "path_template" }
when.request.params.id = { value = "^[0-9]+$", op = "regex" }
when.request.params.rest = { value = ".pdf", op = "ends_with" }
respond.text = "a user's pdf"

[[rules]]
when.request.url_path = { value = "/users/{id}", op = "path_template" }
when.request.params.id = "me"
respond.text = "myself"

[[rules]]
when.request.url_path = { value = "/users/{id}", op = "path_template" }
respond.text = "some user"

[[rules]]
when.request.url_path = "/me"
when.request.cookies.session = "abc"
respond.text = "session abc"

[[rules]]
when.request.url_path = "/login"
when.request.method = "POST"
when.request.body.form.user = "ann lee"
when.request.body.form.pass = { value = "s", op = "starts_with" }
respond.text = "form login"

[[rules]]
when.request.url_path = "/upload"
when.request.body.form.title = "cat"
when.request.body.form.photo = { op = "exists" }
respond.text = "upload with a file"

[[rules]]
when.request.url_path = "/upload"
when.request.body.form.title = "cat"
when.request.body.form.photo = { op = "absent" }
respond.text = "upload without a file"

[[rules]]
when.request.url_path = "/soap"
when.request.body.text = { value = "<GetQuote>", op = "contains" }
respond.text = "quote"
`;

const SCRIPT = `
if url_path == "/mw/order" {
  let tags = query.tag;
  return #{
    status: 201,
    headers: #{ location: "/orders/7", "x-method": method, "x-first": headers["x-a"], "x-all": headers_all["x-a"].len().to_string(),
                "x-tag": tags[1], "x-page": query.page, "x-cookie": cookies.sid },
    json: "{ id: 7 }"
  };
}
if url_path == "/mw/text" { return #{ status: 202, text: body_text }; }
if url_path == "/mw/empty" { return #{ status: 204 }; }
if url_path == "/mw/headers" { return #{ status: 201, headers: #{ "x-k": "v" } }; }
if url_path == "/mw/delay" { return #{ delay: 5, text: "late" }; }
if url_path == "/mw/none" { return #{ other: 1, stat: 2 }; }
if url_path == "/mw/loop" { let n = 0; loop { n += query.len(); } }
`;

const FILES: Record<string, string> = {
  'mock.toml': '[service]\nrule_sets = ["rules.toml"]\nmiddlewares = ["mw.rhai"]\nmiddleware_max_operations = 10000\n',
  'rules.toml': RULES,
  'mw.rhai': SCRIPT,
};

const MULTIPART = (withFile: boolean): Buffer =>
  Buffer.from(
    '--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\ncat\r\n' +
      (withFile
        ? '--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="cat.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG...\r\n'
        : '') +
      '--XyZ--\r\n',
    'latin1',
  );

describe('the whole request, through the real program', () => {
  let dir: string;
  let m: RunningMock;
  let inspector: number;
  before(async () => {
    dir = makeTempDir('mock-whole-request-');
    await writeTree(dir, FILES);
    m = await spawnMock(['--inspect'], { cwd: dir });
    const line = m.stdoutLines.find((l) => l.startsWith('Inspector: '));
    inspector = Number(/:(\d+)\//.exec(line ?? '')?.[1]);
    assert.ok(inspector > 0, m.stdoutLines.join('\n'));
  });
  after(async () => {
    await m.stop();
    await removeDir(dir);
  });

  it('1: query values, exists / absent, repeated names, + and %20', async () => {
    const cases: [string, string][] = [
      ['/items?page=2', 'page 2'],
      ['/items?page=1', 'page 1'],
      ['/items?page=3&debug', 'debug'],
      ['/items', 'no page'],
      ['/tags?tag=a&tag=b&kind=y', 'has tag b, no kind x'],
      ['/tags?tag=a&tag=b&kind=y&kind=z', 'has tag b, no kind x'],
      ['/find?q=a+b', 'found a b'],
      ['/find?q=a%20b', 'found a b'],
    ];
    for (const [path, want] of cases) {
      const got = await send(m.port, 'GET', path);
      assert.deepEqual([got.status, got.text], [200, want], path);
    }
    // a negated operator holds only when no value holds its positive form; a repeated name matches by any value
    assert.equal((await send(m.port, 'GET', '/tags?tag=b&kind=y&kind=x')).status, 404);
    assert.equal((await send(m.port, 'GET', '/tags?tag=a&kind=y')).status, 404);
    // a value operator on a missing name is false, negations included (as for headers)
    assert.equal((await send(m.port, 'GET', '/tags?tag=b')).status, 404);
    assert.equal((await send(m.port, 'GET', '/find?q=a%2Bb')).status, 404);
  });

  it('1: templates with {id} and {rest*}, params conditions, cookies', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/users/42/files/2024/report.pdf', {}, 200, "a user's pdf"],
      ['/users/42/files/report.txt', {}, 404, ''],
      ['/users/me', {}, 200, 'myself'],
      ['/users/7/', {}, 200, 'some user'],
      ['/users/a%20b', {}, 200, 'some user'],
      ['/users//x', {}, 404, ''],
      ['/me', { cookie: 'theme=dark; session=abc' }, 200, 'session abc'],
      ['/me', { cookie: 'session=abc; session=zzz' }, 200, 'session abc'],
      ['/me', { cookie: 'session=zzz; session=abc' }, 404, ''],
    ];
    for (const [path, headers, status, text] of cases) {
      const got = await send(m.port, 'GET', path, headers);
      assert.deepEqual([got.status, got.text], [status, text], `${path} ${JSON.stringify(headers)}`);
    }
  });

  it('1: a urlencoded form, a multipart form with and without a file part, an XML body', async () => {
    const form = await send(
      m.port,
      'POST',
      '/login',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'user=ann+lee&pass=secret',
    );
    assert.deepEqual([form.status, form.text], [200, 'form login']);
    const wrong = await send(m.port, 'POST', '/login', { 'content-type': 'text/plain' }, 'user=ann+lee&pass=secret');
    assert.equal(wrong.status, 404);
    const mp = { 'content-type': 'multipart/form-data; boundary=XyZ' };
    const withFile = await send(m.port, 'POST', '/upload', mp, MULTIPART(true));
    assert.deepEqual([withFile.status, withFile.text], [200, 'upload with a file']);
    const without = await send(m.port, 'POST', '/upload', mp, MULTIPART(false));
    assert.deepEqual([without.status, without.text], [200, 'upload without a file']);
    const xml =
      '<?xml version="1.0"?><soap:Envelope><soap:Body><GetQuote><sym>X</sym></GetQuote></soap:Body></soap:Envelope>';
    const soap = await send(m.port, 'POST', '/soap', { 'content-type': 'text/xml' }, xml);
    assert.deepEqual([soap.status, soap.text], [200, 'quote']);
    assert.equal((await send(m.port, 'POST', '/soap', { 'content-type': 'text/xml' }, '<Other/>')).status, 404);
  });

  it('2: a script reads each new variable and answers with status, headers and json', async () => {
    const got = await send(m.port, 'POST', '/mw/order?tag=a&tag=b&page=2', { cookie: 'sid=s1', 'x-a': '1' });
    assert.equal(got.status, 201);
    assert.equal(got.text, '{"id":7}');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['location'], '/orders/7');
    assert.equal(got.headers['x-method'], 'POST');
    assert.equal(got.headers['x-tag'], 'b');
    assert.equal(got.headers['x-page'], '2');
    assert.equal(got.headers['x-cookie'], 's1');
    assert.equal(got.headers['x-first'], '1');
    const text = await send(m.port, 'PUT', '/mw/text', { 'content-type': 'application/xml' }, '<a>é</a>');
    assert.deepEqual([text.status, text.text], [202, '<a>é</a>']);
    const empty = await send(m.port, 'GET', '/mw/empty');
    assert.deepEqual([empty.status, empty.text], [204, '']);
    const headersOnly = await send(m.port, 'GET', '/mw/headers');
    assert.deepEqual([headersOnly.status, headersOnly.text, headersOnly.headers['x-k']], [201, '', 'v']);
    const late = await send(m.port, 'GET', '/mw/delay');
    assert.deepEqual([late.status, late.text], [200, 'late']);
  });

  it('2: a repeated header: `headers` has the first value, `headers_all` every one', async () => {
    const got = await new Promise<TextAnswer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: m.port,
          method: 'GET',
          path: '/mw/order?tag=a&tag=b&page=1',
          headers: { 'x-a': ['1', '2'], cookie: 'sid=s' },
        },
        (res) => {
          res.resume().on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(got.headers['x-first'], '1');
    assert.equal(got.headers['x-all'], '2');
  });

  it('2: a map without answer keys falls through; the sandbox limits apply unchanged', async () => {
    assert.equal((await send(m.port, 'GET', '/mw/none')).status, 404);
    const loop = await send(m.port, 'GET', '/mw/loop?a=1');
    assert.equal(loop.status, 404);
    assert.ok(
      m.stdoutLines.some((l) => /mw\.rhai.*script evaluation failed: Too many operations/.test(l)),
      m.stdoutLines.join('\n'),
    );
  });

  it('3: the inspector shows every new condition with its actual value', async () => {
    await send(m.port, 'GET', '/users/x?page=9', { cookie: 'session=nope' });
    const r = await raw(inspector, 'GET', '/__mock/api/requests?path=/users/x');
    const entry = ((r.json as any).result.entries as any[]).at(-1);
    const conditions = JSON.stringify(entry.why);
    for (const want of ['query:page', 'param:id', 'cookie:session', 'body.form:user', 'body.text'])
      assert.ok(conditions.includes(want), `${want} in ${conditions}`);
    assert.match(conditions, /"name":"query:page"[^}]*"actual":"9"|"actual":"9"[^}]*"name":"query:page"/);
    assert.match(conditions, /"name":"param:id"[^}]*"actual":"x"|"actual":"x"[^}]*"name":"param:id"/);
  });
});

describe('the offline commands on the new conditions', () => {
  let dir: string;
  before(async () => {
    dir = makeTempDir('mock-whole-request-cli-');
    await writeTree(dir, FILES);
  });
  after(() => removeDir(dir));

  it('3: get --why shows each condition with a mark and its actual value; --body-text sends a text body', async () => {
    const why = await runMock(['get', '/users/x/files/a.txt?page=3', '--why', '-H', 'cookie: session=zzz'], {
      cwd: dir,
    });
    assert.equal(why.code, 0, why.stderr);
    assert.match(
      why.stdout,
      /✓ {2}url_path {2}matches template {2}"\/users\/\{id\}\/files\/\{rest\*\}" \(actual: \/users\/x\/files\/a\.txt\)/,
    );
    assert.match(why.stdout, /✗ {2}param:id {2}matches regex {2}"\^\[0-9\]\+\$" \(actual: x\)/);
    assert.match(why.stdout, /✗ {2}param:rest {2}ends with {2}"\.pdf" \(actual: a\.txt\)/);
    const cookie = await runMock(['get', '/me', '--why', '-H', 'cookie: session=zzz'], { cwd: dir });
    assert.match(cookie.stdout, /✗ {2}cookie:session {2}== {2}"abc" \(actual: zzz\)/);
    const q = await runMock(['get', '/items?page=3', '--why'], { cwd: dir });
    assert.match(q.stdout, /✗ {2}query:page {2}== {2}"2" \(actual: 3\)/);
    assert.match(q.stdout, /✗ {2}query:debug {2}exists "" \(actual: \(absent\)\)/);
    const soap = await runMock(
      ['get', '/soap', '-m', 'POST', '--body-text', '<GetQuote/>', '-H', 'content-type: text/xml', '--why'],
      { cwd: dir },
    );
    assert.match(soap.stdout, /✗ {2}body\.text {2}contains {2}"<GetQuote>" \(actual: <GetQuote\/>\)/);
    const form = await runMock(
      [
        'get',
        '/login',
        '-m',
        'POST',
        '--body-text',
        'user=ann+lee&pass=s1',
        '-H',
        'content-type: application/x-www-form-urlencoded',
        '--why',
      ],
      { cwd: dir },
    );
    assert.match(form.stdout, /Body:\nform login\n/);
    assert.match(form.stdout, /✓ {2}body\.form:user {2}== {2}"ann lee" \(actual: ann lee\)/);
    const both = await runMock(['get', '/x', '-b', '{}', '--body-text', 'x'], { cwd: dir });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--body and --body-text are mutually exclusive/);
  });

  it('3: match-test shows them too', async () => {
    const r = await runMock(
      ['match-test', '-r', 'rules.toml', '--path', '/users/7/files/a.pdf?page=2', '-H', 'cookie: session=abc'],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /✓ {2}param "id" {2}matches regex {2}"\^\[0-9\]\+\$" {2}\(actual: 7\)/);
    assert.match(r.stdout, /✓ {2}query "page" {2}== {2}"2" {2}\(actual: 2\)/);
    const form = await runMock(
      [
        'match-test',
        '-r',
        'rules.toml',
        '--path',
        '/login',
        '-m',
        'POST',
        '--body-text',
        'user=bob',
        '-H',
        'content-type: application/x-www-form-urlencoded',
      ],
      { cwd: dir },
    );
    assert.match(form.stdout, /✗ {2}body\.form "user" {2}== {2}"ann lee" {2}\(actual: bob\)/);
  });

  it('3: set rule writes each kind, validate accepts it, and the server answers by it', async () => {
    const ws = makeTempDir('mock-whole-request-set-');
    try {
      const add = (args: string[]): Promise<unknown> =>
        runMock(['set', 'rule', ...args], { cwd: ws }).then((r) =>
          assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`),
        );
      await add([
        '--path-template',
        '/users/{id}',
        '--param',
        'id=7',
        '--query',
        'page=2',
        '--query',
        'q=a b',
        '--cookie',
        'sid=s1',
        '--text',
        'seven',
      ]);
      await add(['--path', '/login', '--form', 'user=ann', '--status', '204']);
      await add(['--path', '/soap', '--body-contains', '<GetQuote>', '--text', 'quote']);
      const text = readFileSync(join(ws, 'mock-rule-set.toml'), 'utf8');
      assert.match(text, /when\.request\.url_path = \{ value = "\/users\/\{id\}", op = "path_template" \}\n/);
      assert.match(
        text,
        /when\.request\.query\.page = "2"\nwhen\.request\.query\.q = "a b"\nwhen\.request\.cookies\.sid = "s1"\nwhen\.request\.params\.id = "7"\n/,
      );
      assert.match(text, /when\.request\.body\.form\.user = "ann"\n/);
      assert.match(text, /when\.request\.body\.text = \{ value = "<GetQuote>", op = "contains" \}\n/);
      const v = await runMock(['validate'], { cwd: ws });
      assert.equal(v.code, 0, v.stdout + v.stderr);
      const got = await runMock(['get', '/users/7?q=a+b&page=2', '-H', 'cookie: sid=s1'], { cwd: ws });
      assert.match(got.stdout, /Body:\nseven\n/);
      const bad = await runMock(['set', 'rule', '--path', '/x', '--query', 'novalue', '--text', 'x'], { cwd: ws });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--query expects name=value, got 'novalue'/);
    } finally {
      await removeDir(ws);
    }
  });

  it('3: the loader refuses a misspelt key with a did-you-mean, and templates and params it cannot use', async () => {
    const cases: [string, RegExp][] = [
      [
        '[[rules]]\nwhen.request.url_path = "/a"\nwhen.request.querry.page = "1"\nrespond.text = "x"\n',
        /rules\.toml:3:14: error: .*unknown key `querry`.*did you mean `query`/,
      ],
      [
        '[[rules]]\nwhen.request.url_path = "/a"\nwhen.request.body.txt = { value = "x" }\nrespond.text = "x"\n',
        /unknown key `txt`.*did you mean `text`/,
      ],
      [
        '[[rules]]\nwhen.request.url_path = { value = "/a/{id", op = "path_template" }\nrespond.text = "x"\n',
        /rules\.toml:2:35: error: .*invalid path template "\/a\/\{id": unbalanced braces/,
      ],
      [
        '[[rules]]\nwhen.request.url_path = { value = "/a/{id}/{id}", op = "path_template" }\nrespond.text = "x"\n',
        /the parameter `id` is used twice/,
      ],
      [
        '[[rules]]\nwhen.request.url_path = { value = "/a/{rest*}/b", op = "path_template" }\nrespond.text = "x"\n',
        /`\{rest\*\}` must be the last segment/,
      ],
      [
        '[[rules]]\nwhen.request.url_path = "/a"\nwhen.request.params.id = "1"\nrespond.text = "x"\n',
        /`params` tests the captures of a `url_path` with `op = "path_template"`/,
      ],
      [
        '[[rules]]\nwhen.request.url_path = { value = "/a/{id}", op = "path_template" }\nwhen.request.params.ix = "1"\nrespond.text = "x"\n',
        /unknown key `ix`.*did you mean `id`/,
      ],
    ];
    for (const [rules, want] of cases) {
      const ws = makeTempDir('mock-whole-request-bad-');
      try {
        await writeTree(ws, { 'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n', 'rules.toml': rules });
        const r = await runMock(['validate'], { cwd: ws });
        assert.notEqual(r.code, 0);
        assert.match(r.stdout + r.stderr, want);
      } finally {
        await removeDir(ws);
      }
    }
  });

  it('3: the JSON Schema accepts the new keys and refuses misspelt ones', () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../../schema/mock-rule-set.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    const ok = {
      rules: [
        {
          when: {
            request: {
              url_path: { value: '/users/{id}', op: 'path_template' },
              params: { id: { value: '^[0-9]+$', op: 'regex' } },
              query: { page: '2', debug: { op: 'absent' } },
              cookies: { session: { op: 'exists' } },
              body: { form: { user: 'ann', photo: { op: 'exists' } }, text: { value: '<x>', op: 'contains' } },
            },
          },
          respond: { text: 'x' },
        },
      ],
    };
    assert.ok(validate(ok), JSON.stringify(validate.errors));
    const misspelt = {
      rules: [{ when: { request: { url_path: '/a', querry: { page: '1' } } }, respond: { text: 'x' } }],
    };
    assert.equal(validate(misspelt), false);
    const badOp = {
      rules: [
        { when: { request: { url_path: '/a', body: { text: { value: 'x', op: 'exists' } } } }, respond: { text: 'x' } },
      ],
    };
    assert.equal(validate(badOp), false);
  });
});
