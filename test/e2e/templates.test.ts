// Response templates through the real program (`dist/bin/main.cjs`, port 0): each data root and helper, escaping
// by kind (JSON strings, text, headers), templated and template files (per-id files, `..` refused, re-rendered
// after an edit), the seeded generator (same sequence on two runs, different without a seed), load errors at the
// template's line and column, and rule sets without `template` answering `{{x}}` byte for byte.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  makeTempDir,
  removeDir,
  runMock,
  sendText as send,
  spawnMock,
  writeTree,
  type RunningMock,
} from '../helpers/mock-cli.js';
import { waitFor } from './live-reload-helpers.js';

const RULES = `
template = true

[[rules]]
when.request.url_path = { value = "/broken/{word}", op = "path_template" }
respond.text = "{{request.params.word}}"
respond.fault = "empty_response"

[[rules]]
when.request.url_path = { value = "/users/{id}", op = "path_template" }
respond.status = 201
respond.json = '''
{
  "id": "{{request.params.id}}",
  "method": "{{request.method}}",
  "path": "{{request.path}}",
  "page": {{default request.query.page 1}},
  "agent": "{{request.headers.X-Agent}}",
  "session": "{{request.cookies.session}}",
  "note": "{{request.query.note}}"
}'''
respond.headers = { location = "/users/{{request.params.id}}", x-echo = "{{request.query.echo}}" }

[[rules]]
when.request.url_path = "/echo"
respond.json = "{{toJson request.body}}"

[[rules]]
when.request.url_path = "/customer"
respond.json = '{"customer": "{{request.body.customer.id}}", "first": {{toJson (jsonPath request.body "$.items[0]")}}, "count": {{size request.body.items}} }'

[[rules]]
when.request.url_path = "/form"
respond.text = "user={{request.form.user}} text={{request.text}}"

[[rules]]
when.request.url_path = "/helpers"
respond.text = """
{{base64 "hi"}}|{{base64 "aGk=" decode=true}}|{{urlEncode "a b&c"}}|{{size "abcd"}}|{{default request.query.none "dflt"}}|\
{{#if (eq request.query.n 2)}}two{{else}}not two{{/if}}|{{#if (gt request.query.n 1)}}gt{{/if}}|{{#if (lt request.query.n 1)}}lt{{else}}not lt{{/if}}|\
{{now format="yyyy"}}|{{now offset="7 days" format="epoch"}}|{{stringify request.query.n}}|{{pickRandom "x" "x"}}|{{oneOf "y"}}|\
{{int 5 5}}|{{float 2 2}}|{{randomDecimal lower=3 upper=3}}|{{randomValue length=8 type="NUMERIC"}}|{{uuid}}|{{faker "string.numeric" 3}}"""

[[rules]]
when.request.url_path = { value = "/files/{id}", op = "path_template" }
respond.file_path = "users/{{request.params.id}}.json"

[[rules]]
when.request.url_path = { value = "/say/{word}", op = "path_template" }
respond.json = '{"said": "{{request.params.word}}", "n": {{request.query.n}} }'

[[rules]]
when.request.url_path = { value = "/shout/{word}", op = "path_template" }
respond.text = "{{request.params.word}}!"

[[rules]]
when.request.url_path = "/greeting"
respond.file_path = "greeting.txt"
respond.template_file = true

[[rules]]
when.request.url_path = "/random"
respond.json = '{"n": {{randomInt lower=1 upper=1000000}}, "u": "{{uuid}}", "name": "{{faker "person.fullName"}}"}'
`;

const LITERAL = `
[[rules]]
when.request.url_path = "/literal"
respond.json = '{"x": "{{x}}"}'
respond.headers = { x-t = "{{x}}" }

[[rules]]
when.request.url_path = "/literal-text"
respond.text = "{{request.path}}"

[[rules]]
when.request.url_path = "/literal-stream"
respond.stream = { file_path = "chat.sse" }
`;

const STREAMS = `
template = true

[[rules]]
when.request.url_path = { value = "/chat/{id}", op = "path_template" }
respond.stream = { file_path = "chat.sse" }
respond.headers = { x-chat = "{{request.params.id}}" }

[[rules]]
when.request.url_path = "/rows"
respond.stream = { file_path = "rows.ndjson", interval_ms = 5 }
`;

const CHAT_SSE =
  'event: start\ndata: hello {{request.query.name}}\n\n: delay 20\n' +
  'data: {"id":"{{request.params.id}}","content":"{{request.query.q}}"}\n\ndata: [DONE]\n\n';

describe('response templates through the real program', () => {
  let dir: string;
  let m: RunningMock;
  before(async () => {
    dir = makeTempDir('mock-templates-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml", "literal.toml", "streams.toml"]\n',
      'rules.toml': RULES,
      'streams.toml': STREAMS,
      'literal.toml': LITERAL,
      'users/1.json': '{"id": 1}\n',
      'users/2.json': '{"id": 2}\n',
      'secret.json': '{"secret": true}\n',
      'greeting.txt': 'hello {{request.query.name}}',
      'chat.sse': CHAT_SSE,
      'rows.ndjson': '{"n":1,"who":"{{request.query.name}}"}\n{"n":2}\n',
    });
    m = await spawnMock([], { cwd: dir });
  });
  after(async () => {
    await m.stop();
    await removeDir(dir);
  });

  it('each data root renders from the request', async () => {
    const r = await send(m.port, 'GET', '/users/7?page=3&note=n', { 'x-agent': 'curl', cookie: 'session=abc' });
    assert.equal(r.status, 201);
    assert.deepEqual(JSON.parse(r.text), {
      id: '7',
      method: 'GET',
      path: '/users/7',
      page: 3,
      agent: 'curl',
      session: 'abc',
      note: 'n',
    });
    assert.equal(r.headers['location'], '/users/7');
    const form = await send(
      m.port,
      'POST',
      '/form',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'user=alice&x=1',
    );
    assert.equal(form.text, 'user=alice text=user=alice&x=1');
  });

  it('a value with quotes and newlines inside a JSON string renders valid JSON', async () => {
    const r = await send(m.port, 'GET', '/users/a%22b?note=' + encodeURIComponent('say "hi"\nand \\ go'));
    assert.equal(r.status, 201);
    const doc = JSON.parse(r.text) as Record<string, unknown>;
    assert.equal(doc['id'], 'a"b');
    assert.equal(doc['note'], 'say "hi"\nand \\ go');
  });

  it('an echo answers the same bytes and length, ASCII or not, request after request', async () => {
    for (const [word, n] of [
      ['plain', '1'],
      ['Zo%C3%AB%20%E6%97%A5%F0%9F%99%82', '2'],
      ['x', '3'],
    ] as const) {
      const said = decodeURIComponent(word);
      const json = await send(m.port, 'GET', `/say/${word}?n=${n}`);
      assert.equal(json.text, `{"said": "${said}", "n": ${n} }`);
      assert.equal(json.headers['content-type'], 'application/json');
      assert.equal(json.headers['content-length'], String(Buffer.byteLength(json.text)));
      const text = await send(m.port, 'GET', `/shout/${word}`);
      assert.equal(text.text, `${said}!`);
      assert.equal(text.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(text.headers['content-length'], String(Buffer.byteLength(text.text)));
    }
  });

  it("a rendered answer keeps its rule's fault: an empty response, not the rendered text", async () => {
    await assert.rejects(send(m.port, 'GET', '/broken/word'), /socket hang up|ECONNRESET/);
    // and the server still answers
    assert.equal((await send(m.port, 'GET', '/shout/ok')).text, 'ok!');
  });

  it('{{toJson request.body}} round-trips the body; request.body and jsonPath read into it', async () => {
    const body = { a: [1, 2.5, { b: 'x"y\n' }], c: null, d: true };
    const r = await send(m.port, 'POST', '/echo', { 'content-type': 'application/json' }, JSON.stringify(body));
    assert.deepEqual(JSON.parse(r.text), body);
    const c = await send(
      m.port,
      'POST',
      '/customer',
      { 'content-type': 'application/json' },
      JSON.stringify({ customer: { id: 'c-9' }, items: [{ sku: 'A' }, { sku: 'B' }] }),
    );
    assert.deepEqual(JSON.parse(c.text), { customer: 'c-9', first: { sku: 'A' }, count: 2 });
  });

  it('a header value with CR LF cannot add a header', async () => {
    const r = await send(m.port, 'GET', '/users/1?echo=' + encodeURIComponent('v\r\nx-injected: 1'));
    assert.equal(r.status, 201);
    assert.equal(r.headers['x-echo'], 'vx-injected: 1');
    assert.equal(r.headers['x-injected'], undefined);
  });

  it('the helpers, under both names', async () => {
    const r = await send(m.port, 'GET', '/helpers?n=2');
    const parts = r.text.split('|');
    const year = new Date().getUTCFullYear();
    assert.equal(parts.length, 19, r.text);
    assert.deepEqual(parts.slice(0, 8), ['aGk=', 'hi', 'a%20b%26c', '4', 'dflt', 'two', 'gt', 'not lt']);
    assert.ok([String(year), String(year + 1)].includes(parts[8]!), parts[8]);
    const week = Number(parts[9]) - Date.now();
    assert.ok(week > 6.9 * 86_400_000 && week < 7.1 * 86_400_000, `now offset: ${week}`);
    assert.deepEqual(parts.slice(10, 16), ['"2"', 'x', 'y', '5', '2', '3']);
    assert.match(parts[16]!, /^[0-9]{8}$/);
    assert.match(parts[17]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(parts[18]!, /^[0-9]{3}$/);
  });

  it('a templated file_path serves per-id files and refuses ../ values', async () => {
    assert.deepEqual(JSON.parse((await send(m.port, 'GET', '/files/1')).text), { id: 1 });
    assert.deepEqual(JSON.parse((await send(m.port, 'GET', '/files/2')).text), { id: 2 });
    assert.equal((await send(m.port, 'GET', '/files/3')).status, 404);
    const up = await send(m.port, 'GET', '/files/..%2Fsecret');
    assert.equal(up.status, 404);
    assert.equal(up.text, '');
    await waitFor('the refusal in the log', () =>
      /refused \(a `\.\.` segment\)/.test(m.stdoutLines.join('\n') + m.stderr()) ? true : undefined,
    );
  });

  it('a template file is rendered, and rendered anew after an edit', async () => {
    assert.equal((await send(m.port, 'GET', '/greeting?name=ann')).text, 'hello ann');
    await writeFile(join(dir, 'greeting.txt'), 'goodbye {{request.query.name}}');
    await waitFor('the edited template', async () =>
      (await send(m.port, 'GET', '/greeting?name=bob')).text === 'goodbye bob' ? true : undefined,
    );
  });

  it('a templated stream renders each event for the request; JSON data is escaped as JSON', async () => {
    const q = 'say "hi"\nnow';
    const r = await send(m.port, 'GET', `/chat/42?name=Ann&q=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/event-stream/);
    assert.equal(r.headers['x-chat'], '42');
    assert.equal(r.headers['content-length'], undefined);
    const events = r.text.split('\n\n').filter((e) => e !== '');
    assert.deepEqual(events.slice(0, 1), ['event: start\ndata: hello Ann']);
    assert.deepEqual(JSON.parse(events[1]!.slice('data: '.length)), { id: '42', content: q });
    assert.equal(events[2], 'data: [DONE]');
    assert.equal(events.length, 3);
    // another request, its own values (nothing of the first is kept)
    const again = await send(m.port, 'GET', '/chat/7?name=Bo');
    assert.match(again.text, /^event: start\ndata: hello Bo\n\ndata: \{"id":"7","content":""\}\n\n/);
    const rows = await send(m.port, 'GET', '/rows?name=Cy');
    assert.deepEqual(
      rows.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
      [{ n: 1, who: 'Cy' }, { n: 2 }],
    );
    // without template = true, the stream file is sent as written
    const literal = await send(m.port, 'GET', '/literal-stream?name=Ann');
    assert.equal(literal.text, CHAT_SSE.replace(': delay 20\n', ''));
  });

  it('a rule set without template = true answers {{x}} byte for byte', async () => {
    const r = await send(m.port, 'GET', '/literal');
    assert.equal(r.text, '{"x":"{{x}}"}');
    assert.equal(r.headers['x-t'], '{{x}}');
    assert.equal((await send(m.port, 'GET', '/literal-text')).text, '{{request.path}}');
  });
});

describe('the seeded generator', () => {
  let dir: string;
  before(async () => {
    dir = makeTempDir('mock-templates-seed-');
    await writeTree(dir, { 'rules.toml': RULES, 'users/1.json': '{}', 'greeting.txt': '' });
  });
  after(() => removeDir(dir));

  async function run(seed: number | undefined): Promise<string[]> {
    await writeFile(
      join(dir, 'mock.toml'),
      `[service]\nrule_sets = ["rules.toml"]\n${seed === undefined ? '' : `seed = ${seed}\n`}`,
    );
    const m = await spawnMock(['--no-watch'], { cwd: dir });
    try {
      const out: string[] = [];
      for (let i = 0; i < 3; i++) out.push((await send(m.port, 'GET', '/random')).text);
      return out;
    } finally {
      await m.stop();
    }
  }

  it('seeded randomInt, uuid and faker give the same sequence on two runs; unseeded they differ', async () => {
    const a = await run(42);
    const b = await run(42);
    assert.deepEqual(a, b);
    assert.equal(new Set(a).size, 3, 'the generator advances with each request');
    const c = await run(undefined);
    const d = await run(undefined);
    assert.notDeepEqual(c, d);
    for (const text of [...a, ...c]) assert.ok(typeof (JSON.parse(text) as { name: unknown }).name === 'string');
  });
});

describe('template load errors', () => {
  let dir: string;
  before(() => (dir = makeTempDir('mock-templates-bad-')));
  after(() => removeDir(dir));

  it('a broken template is a load error at its line and column in the file', async () => {
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml': [
        'template = true',
        '',
        '[[rules]]',
        'when.request.url_path = "/a"',
        'respond.json = """',
        '{',
        '  "id": "{{request.params.id}",',
        '  "x": 1',
        '}"""',
        '',
        '[[rules]]',
        'when.request.url_path = "/b"',
        'respond.text = "a \\t {{randmInt 1 2}}"',
        '',
      ].join('\n'),
    });
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /rules\.toml:7:29: error: rule 1: the template does not compile: expected `}}`/);
    // `\t` is one character of the template but two of the file
    assert.match(
      r.stderr,
      /rules\.toml:13:22: error: rule 2: the template does not compile: unknown helper `randmInt` \(did you mean `randomInt`\?\)/,
    );
  });

  it('an unknown data root is a validate warning with a did-you-mean', async () => {
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml': 'template = true\n[[rules]]\nwhen.request.url_path = "/c"\nrespond.text = "{{reqest.path}}"\n',
    });
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout + r.stderr,
      /rules\.toml:4:19: warning: the template names `reqest\.path`.*did you mean `request\.path`/,
    );
  });
});
