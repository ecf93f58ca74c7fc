// `mock get`: text and JSON output, every stage, request flags, exit codes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, writeTree } from '../helpers/mock-cli.js';

let ws: string;
let zero: string;

const RULE_SET = `
[[rules]]
when.request.url_path = "/text"
respond.text = "hello"

[[rules]]
when.request.url_path = { value = "/api", op = "starts_with" }
when.request.headers.authorization = { value = "Bearer ", op = "starts_with" }
respond.json = '{"auth":true}'

[[rules]]
when.request.method = "POST"
when.request.url_path = "/orders"
when.request.body.json."customer.tier" = { value = "gold" }
respond.status = 201
respond.json = '{"tier":"gold"}'

[[rules]]
when.request.url_path = "/a b"
respond.text = "space"
`;

const PREFIXED = `
prefix.url_path = "/pre"

[[rules]]
when.request.url_path = "/known"
respond.text = "known"
`;

const MIDDLEWARE = `
if url_path == "/hello" {
    return #{ "text": "Hello from middleware!" };
}
return;
`;

before(async () => {
  ws = makeTempDir();
  zero = makeTempDir();
  await writeTree(ws, {
    'mock.toml': '[service]\nrule_sets = ["mock-rule-set.toml", "pre.toml"]\n',
    'mock-rule-set.toml': RULE_SET,
    'pre.toml': PREFIXED,
    'api/users.json': '{ "id": 42,\n  "name": "x" }\n',
    'bin.txt': new Uint8Array([0x61, 0xff, 0x62]),
    'order.json': '{"customer":{"tier":"gold"}}',
    'cfg/mock.toml': '[service]\nrule_sets = ["rs/rules.toml"]\n',
    'cfg/rs/rules.toml': '[[rules]]\nwhen.request.url_path = "/c"\nrespond.text = "c"\n',
    'mw/mock.toml': '[service]\nmiddlewares = ["mock-middleware.rhai"]\nrule_sets = ["rs.toml"]\n',
    'mw/mock-middleware.rhai': MIDDLEWARE,
    'mw/rs.toml': '[[rules]]\nwhen.request.url_path = "/hello"\nrespond.text = "from the rule"\n',
    'bad/mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
    'bad/rs.toml': '[[rules]]\nwhen.request.url_pth = "/x"\nrespond.text = "x"\n',
  });
});
after(async () => {
  await removeDir(ws);
  await removeDir(zero);
});

interface Envelope {
  schema: number;
  mock: string;
  result: GetResult;
  error?: {
    kind: string;
    message: string;
    diagnostics?: { file?: string; line?: number; column?: number; code: string }[];
  };
}
interface GetResult {
  matched: { rule_index: number; rule_set_file: string; rule_set_index: number } | null;
  request: { method: string; path: string };
  response: { body: string; headers: { name: string; value: string }[]; status: number };
  source: { config: string; rule_sets: string[] };
  stage: string;
  why: {
    note: string;
    rule_sets: {
      rule_set_index: number;
      rule_set_file: string;
      rules: {
        rule_index: number;
        matched: boolean;
        conditions: { name: string; expectation: string; actual: string | null; matched: boolean }[];
      }[];
    }[];
  };
}

async function getJson(args: string[], cwd = ws): Promise<Envelope> {
  const r = await runMock(['get', ...args, '--format', 'json'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Envelope;
}

describe('mock get, text', () => {
  test('a rule answer: request line, status, headers, raw body, then who answered', async () => {
    const r = await runMock(['get', '/text'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith('GET /text\n\nStatus: 200\nHeaders:\n'), r.stdout);
    assert.match(r.stdout, /\n {2}content-type: text\/plain; charset=utf-8\n/);
    assert.match(r.stdout, /\n {2}content-length: 5\n/);
    assert.doesNotMatch(r.stdout, /\n {2}date:/);
    assert.ok(r.stdout.endsWith('Body:\nhello\n\nAnswered: rule set #1, rule #1\n'), r.stdout);
  });

  test('a fallback file is shown byte for byte', async () => {
    const r = await runMock(['get', '/api/users'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.ok(
      r.stdout.endsWith(
        'Body:\n{ "id": 42,\n  "name": "x" }\n\n\nAnswered: fallback directory (no rule set matched)\n',
      ),
      r.stdout,
    );
  });

  test('--why names the file that answered, relative to the fallback directory; the JSON carries it as why.file', async () => {
    const r = await runMock(['get', '/API/Users', '--why'], { cwd: ws });
    assert.match(
      r.stdout,
      /\n-- Why --\nNo rule set matched; answered from the fallback directory by the file api\/users\.json\.\n/,
    );
    assert.doesNotMatch(r.stdout, /dyn_route/);
    const j = await runMock(['get', '/api/users', '--format', 'json'], { cwd: ws });
    const result = (JSON.parse(j.stdout) as { result: { stage: string; why: Record<string, unknown> } }).result;
    assert.equal(result.why['file'], 'api/users.json');
    assert.equal(result.stage, 'dyn_route', 'the wire stage value stays as apimock-rs reports it');
    const miss = await runMock(['get', '/nothing', '--format', 'json'], { cwd: ws });
    const note = (JSON.parse(miss.stdout) as { result: { why: { note: string } } }).result.why.note;
    assert.match(note, /tried nothing, nothing\.json, nothing\.json5, nothing\.csv, nothing\/index\.\*/);
  });

  test('a 404 is a normal answer: exit 0, empty body', async () => {
    const r = await runMock(['get', '/no/such/thing'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.ok(r.stdout.startsWith('GET /no/such/thing\n\nStatus: 404\n'));
    assert.ok(r.stdout.endsWith('Body:\n\n\nAnswered: fallback directory (no rule set matched)\n'), r.stdout);
  });

  test('OPTIONS is handled directly', async () => {
    const r = await runMock(['get', '/anything', '-m', 'options'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.ok(r.stdout.startsWith('OPTIONS /anything\n\nStatus: 204\n'));
    assert.ok(r.stdout.endsWith('Answered: OPTIONS (handled directly)\n'));
  });

  test('a prefix that claims the path answers 404 when no rule matches', async () => {
    const r = await runMock(['get', '/pre/unknown'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Status: 404$/m);
    assert.ok(r.stdout.endsWith('Answered: rule set #2 prefix (no rule matched; 404)\n'), r.stdout);
  });

  test('a non-UTF-8 body is shown with replacement characters', async () => {
    const r = await runMock(['get', '/bin.txt'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Body:\na\uFFFDb\n/);
  });

  test('the path is percent-decoded and the query left out, as the server does', async () => {
    const space = await runMock(['get', '/a%20b'], { cwd: ws });
    assert.match(space.stdout, /Answered: rule set #1, rule #4\n$/);
    const query = await runMock(['get', '/text?x=1'], { cwd: ws });
    assert.match(query.stdout, /^GET \/text\?x=1\n/);
    assert.match(query.stdout, /Answered: rule set #1, rule #1\n$/);
  });

  test('-m, -H, -b and --body-file build the request', async () => {
    const withHeader = await runMock(['get', '/api/x', '-H', 'Authorization: Bearer abc'], { cwd: ws });
    assert.match(withHeader.stdout, /Body:\n\{"auth":true\}\n\nAnswered: rule set #1, rule #2\n$/);
    const inline = await runMock(['get', '/orders', '-m', 'post', '-b', '{"customer":{"tier":"gold"}}'], { cwd: ws });
    assert.match(inline.stdout, /^POST \/orders\n\nStatus: 201\n/);
    const fromFile = await runMock(['get', '/orders', '--method=POST', '--body-file', 'order.json'], { cwd: ws });
    assert.match(fromFile.stdout, /Answered: rule set #1, rule #3\n$/);
  });

  test('--why lists every rule of every consulted rule set with marks from the matcher', async () => {
    const r = await runMock(['get', '/api/x', '--why'], { cwd: ws });
    assert.equal(r.code, 0);
    const why = r.stdout.slice(r.stdout.indexOf('\n-- Why --\n'));
    assert.ok(
      why.startsWith(
        '\n-- Why --\nNo rule set matched and no file in the fallback directory answers: tried api/x, api/x.json, api/x.json5, api/x.csv, api/x/index.* (case-insensitively) \u2014 answered 404.\n\nRule set #1 (./mock-rule-set.toml):\n',
      ),
      why,
    );
    assert.match(
      why,
      /\n {2}Rule #2: NO MATCH\n {4}\u2713 {2}url_path {2}starts with {2}"\/api" \(actual: \/api\/x\)\n {4}\u2717 {2}header:authorization {2}starts with {2}"Bearer " \(actual: \(absent\)\)\n/,
    );
    assert.match(why, /\n {2}Rule #4: NO MATCH\n/);
    assert.match(
      why,
      /\nRule set #2 \(\.\/pre\.toml\):\n {2}\(prefix \/pre does not claim this path; its rules were not consulted\)\n/,
    );
  });

  test('--why for OPTIONS has the note only', async () => {
    const r = await runMock(['get', '/x', '-m', 'OPTIONS', '--why'], { cwd: ws });
    assert.ok(
      r.stdout.endsWith('\n-- Why --\nOPTIONS request \u2014 handled directly, no rule-set matching involved.\n'),
      r.stdout,
    );
  });
});

describe('mock get --format json', () => {
  test('the envelope: schema, mock, result, with result fields in spec order', async () => {
    const r = await runMock(['get', '/text', '--format', 'json'], { cwd: ws });
    const env = JSON.parse(r.stdout) as Envelope;
    assert.deepEqual(Object.keys(env), ['schema', 'mock', 'result']);
    assert.equal(env.schema, 1);
    assert.deepEqual(Object.keys(env.result), ['matched', 'request', 'response', 'source', 'stage', 'why']);
    assert.deepEqual(env.result.matched, { rule_index: 0, rule_set_file: './mock-rule-set.toml', rule_set_index: 0 });
    assert.deepEqual(Object.keys(env.result.matched), ['rule_index', 'rule_set_file', 'rule_set_index']);
    assert.deepEqual(env.result.request, { method: 'GET', path: '/text' });
    assert.deepEqual(Object.keys(env.result.response), ['body', 'headers', 'status']);
    assert.equal(env.result.response.body, 'hello');
    assert.equal(env.result.response.status, 200);
    assert.ok(
      env.result.response.headers.some((h) => h.name === 'content-type' && h.value === 'text/plain; charset=utf-8'),
    );
    assert.ok(!env.result.response.headers.some((h) => h.name === 'date'));
    assert.deepEqual(env.result.source, {
      config: join(ws, 'mock.toml'),
      rule_sets: [join(ws, 'mock-rule-set.toml'), join(ws, 'pre.toml')],
    });
    assert.equal(env.result.stage, 'rule_set');
    assert.equal(env.result.why.note, 'Answered from a rule set.');
    const cond = env.result.why.rule_sets[0]!.rules[0]!.conditions[0]!;
    assert.deepEqual(cond, { name: 'url_path', expectation: 'equal "/text"', actual: '/text', matched: true });
  });

  const stages: readonly { args: string[]; stage: string; status: number }[] = [
    { args: ['/api/users'], stage: 'dyn_route', status: 200 },
    { args: ['/nothing'], stage: 'dyn_route', status: 404 },
    { args: ['/x', '-m', 'OPTIONS'], stage: 'options', status: 204 },
    { args: ['/pre/nothing'], stage: 'prefix_miss', status: 404 },
    { args: ['/pre/known'], stage: 'rule_set', status: 200 },
  ];
  for (const s of stages) {
    test(`stage ${s.stage} for get ${s.args.join(' ')}`, async () => {
      const env = await getJson(s.args);
      assert.equal(env.result.stage, s.stage);
      assert.equal(env.result.response.status, s.status);
      if (s.stage !== 'rule_set') assert.equal(env.result.matched, null);
    });
  }

  test('rule_set_file is relative to the current directory, whichever way -c is spelled', async () => {
    for (const c of ['cfg/mock.toml', './cfg/mock.toml']) {
      const env = await getJson(['/c', '-c', c]);
      assert.deepEqual(env.result.matched, { rule_index: 0, rule_set_file: './cfg/rs/rules.toml', rule_set_index: 0 });
      assert.equal(env.result.source.config, join(ws, 'cfg/mock.toml'));
    }
  });

  test('matched.rule_set_file and rule_index address the rule for `mock set rule` as they are', async () => {
    for (const [config, path] of [
      ['cfg/mock.toml', '/c'],
      ['./mock.toml', '/text'],
    ] as const) {
      const env = await getJson([path, '-c', config]);
      const m = env.result.matched!;
      const r = await runMock(
        [
          'set',
          'rule',
          '-c',
          config,
          '--rule-set',
          m.rule_set_file,
          '--rule',
          String(m.rule_index),
          '--status',
          '202',
          '--dry-run',
        ],
        { cwd: ws },
      );
      assert.equal(r.code, 0, `set rule --rule-set ${m.rule_set_file}: ${r.stderr}`);
    }
  });

  test('zero-config: no file, no rule sets, 404 with an empty body', async () => {
    const env = await getJson(['/anything'], zero);
    assert.deepEqual(env.result.source, { config: '(zero-config, no file)', rule_sets: [] });
    assert.equal(env.result.response.status, 404);
    assert.equal(env.result.response.body, '');
  });
});

describe('mock get with an unloadable config', () => {
  test('text: exit 2, every diagnostic with file:line:column and a did-you-mean, no stack', async () => {
    const r = await runMock(['get', '/x', '-c', 'bad/mock.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mock get: failed to load config: /);
    assert.match(r.stderr, /bad\/rs\.toml:2:14: error: .*url_pth.*did you mean `url_path`\?/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  test('json: an error envelope with kind config_invalid and the diagnostics', async () => {
    const r = await runMock(['get', '/x', '-c', 'bad/mock.toml', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 2);
    const env = JSON.parse(r.stdout) as Envelope;
    assert.deepEqual(Object.keys(env), ['schema', 'mock', 'error']);
    assert.equal(env.error!.kind, 'config_invalid');
    const d = env.error!.diagnostics![0]!;
    assert.equal(d.file, join(ws, 'bad/rs.toml'));
    assert.equal(d.line, 2);
    assert.equal(d.code, 'unknown_key');
  });

  test('a missing -c file: config_unreadable, exit 2', async () => {
    const r = await runMock(['get', '/x', '-c', 'nope.toml', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.equal((JSON.parse(r.stdout) as Envelope).error!.kind, 'config_unreadable');
  });
});

describe('mock get runs middleware like the server', () => {
  test('a script answer', async () => {
    const r = await runMock(['get', '/hello', '--why'], { cwd: join(ws, 'mw') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Body:\nHello from middleware!\n\nAnswered: middleware #1 \(\.\/mock-middleware\.rhai\)\n/);
    const env = await getJson(['/hello'], join(ws, 'mw'));
    assert.equal(env.result.stage, 'middleware');
    assert.equal(env.result.matched, null);
  });

  test('a script that declines falls through to the rule sets', async () => {
    const env = await getJson(['/other'], join(ws, 'mw'));
    assert.equal(env.result.stage, 'dyn_route');
  });
});
