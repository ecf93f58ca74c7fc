// `mock set rule` end to end: the real program, spawned, in throw-away directories.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseTOML } from 'toml-eslint-parser';
import { spawn } from 'node:child_process';
import { otherUser } from '../helpers/as-other-user.js';
import { MAIN_JS, makeTempDir, removeDir, runMock, writeTree, type RunResult } from '../helpers/mock-cli.js';

const PAUSE_ENV = 'MOCK_TEST_PAUSE_BEFORE_COMMIT_MS';
const dirs: string[] = [];
function tempDir(): string {
  const d = makeTempDir('mock-set-rule-');
  dirs.push(d);
  return d;
}
after(async () => {
  for (const d of dirs) await removeDir(d);
});

function set(args: readonly string[], cwd: string, env?: Record<string, string>): Promise<RunResult> {
  return runMock(['set', 'rule', ...args], { cwd, ...(env === undefined ? {} : { env }) });
}

function read(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8');
}

function envelope(r: RunResult): { result?: Record<string, unknown>; error?: { kind: string; message: string } } {
  return JSON.parse(r.stdout) as { result?: Record<string, unknown>; error?: { kind: string; message: string } };
}

async function getJson(dir: string, path: string, extra: readonly string[] = []): Promise<Record<string, unknown>> {
  const r = await runMock(['get', path, '--format', 'json', ...extra], { cwd: dir });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  return (JSON.parse(r.stdout) as { result: Record<string, unknown> }).result;
}

function listDir(dir: string): string[] {
  return readdirSync(dir).sort();
}

describe('set rule: bootstrap in an empty directory', () => {
  let dir: string;
  let r: RunResult;
  before(async () => {
    dir = tempDir();
    r = await set(['--path', '/a', '--status', '200', '--json', '{"b":2,"a":1}'], dir);
  });

  it('exits 0 and says what it did', () => {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      'Applied:\n' +
        '  rule set: ./mock-rule-set.toml (new rule)\n' +
        '  Added: rule set `./mock-rule-set.toml`, rule #1 \u2014 added rule #1 in rule set #1 (any method /a)\n' +
        '  Added: rule set `./mock-rule-set.toml` \u2014 new file, rule set #1 (mock-rule-set.toml)\n' +
        '  Added: root config `./mock.toml` \u2014 new file listing rule set #1 (mock-rule-set.toml)\n',
    );
  });

  it('writes the minimal starting pair, and nothing else', () => {
    assert.deepEqual(listDir(dir), ['mock-rule-set.toml', 'mock.toml']);
    assert.equal(
      read(dir, 'mock.toml'),
      '[listener]\nip_address = "127.0.0.1"\n# port = 3001 (the default; `mock -p <port>` overrides it)\n\n[service]\nfallback_respond_dir = "."\nrule_sets = ["mock-rule-set.toml"]\n',
    );
    assert.equal(
      read(dir, 'mock-rule-set.toml'),
      `[[rules]]\nwhen.request.url_path = "/a"\nrespond.status = 200\nrespond.json = '{"b":2,"a":1}'\n`,
    );
  });

  it('creates the files with mode 0644 (less the umask), never wider', () => {
    const umask = process.umask();
    for (const f of ['mock.toml', 'mock-rule-set.toml'])
      assert.equal(statSync(join(dir, f)).mode & 0o777, 0o644 & ~umask);
  });

  it('the result loads and answers', async () => {
    const res = await getJson(dir, '/a');
    assert.deepEqual(res['matched'], { rule_index: 0, rule_set_file: './mock-rule-set.toml', rule_set_index: 0 });
    assert.equal((res['response'] as { body: string }).body, '{"b":2,"a":1}');
    const v = await runMock(['validate'], { cwd: dir });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });
});

describe('set rule: append and edit each field', () => {
  let dir: string;
  before(async () => {
    dir = tempDir();
    await writeTree(dir, { 'data.json': '{"from":"file"}\n', 'other.txt': 'plain\n' });
    const r = await set(['--path', '/one', '--text', 'first'], dir);
    assert.equal(r.code, 0, r.stderr);
  });

  it('appends: a second rule gets index 1 and the first keeps index 0', async () => {
    const r = await set(
      [
        '--path',
        '/two',
        '--method',
        'post',
        '-H',
        'X-Api-Key: k1',
        '--status',
        '201',
        '--json',
        '{"id":2}',
        '--format',
        'json',
      ],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(envelope(r).result, {
      changed_files: ['./mock-rule-set.toml'],
      changes: [
        {
          kind: 'Added',
          summary: 'added rule #2 in rule set #1 (POST /two and 1 more condition)',
          target: 'rule set `./mock-rule-set.toml`, rule #2',
        },
      ],
      dry_run: false,
      requires_reload: true,
      rule_set: './mock-rule-set.toml',
    });
    assert.match(
      read(dir, 'mock-rule-set.toml'),
      /\n\n\[\[rules\]\]\nwhen\.request\.url_path = "\/two"\nwhen\.request\.method = "POST"\nwhen\.request\.headers\.x-api-key = \{ value = "k1", op = "equal" \}\nrespond\.status = 201\nrespond\.json = '\{"id":2\}'\n$/,
    );
    const one = await getJson(dir, '/one');
    assert.equal((one['matched'] as { rule_index: number }).rule_index, 0);
    const two = await getJson(dir, '/two', ['-m', 'POST', '-H', 'x-api-key: k1']);
    assert.deepEqual(
      [(two['matched'] as { rule_index: number }).rule_index, (two['response'] as { status: number }).status],
      [1, 201],
    );
  });

  const edits: readonly { flags: string[]; check: (text: string) => void }[] = [
    {
      flags: ['--status', '404'],
      check: (t) => assert.match(t, /"\/one"\nrespond\.text = "first"\nrespond\.status = 404\n/),
    },
    { flags: ['--json', '[1,2]'], check: (t) => assert.match(t, /respond\.json = '\[1,2\]'\nrespond\.status = 404\n/) },
    {
      flags: ['--text', 'back to text'],
      check: (t) => assert.match(t, /respond\.text = "back to text"\nrespond\.status = 404\n/),
    },
    { flags: ['--delay', '25'], check: (t) => assert.match(t, /respond\.delay_response_milliseconds = 25\n/) },
    { flags: ['--method', 'delete'], check: (t) => assert.match(t, /when\.request\.method = "DELETE"\n/) },
    {
      flags: ['-H', 'X-Trace: 1'],
      check: (t) => assert.match(t, /when\.request\.headers\.x-trace = \{ value = "1", op = "equal" \}\n/),
    },
    {
      flags: ['--header=x-trace: 2'],
      check: (t) => assert.match(t, /when\.request\.headers\.x-trace = \{ value = "2", op = "equal" \}\n/),
    },
    { flags: ['--path', '/uno'], check: (t) => assert.match(t, /^\[\[rules\]\]\nwhen\.request\.url_path = "\/uno"\n/) },
  ];
  for (const e of edits) {
    it(`--rule 0 ${e.flags.join(' ')} changes only that`, async () => {
      const beforeText = read(dir, 'mock-rule-set.toml');
      const secondRule = beforeText.slice(beforeText.indexOf('\n\n[[rules]]'));
      const r = await set(['--rule', '0', ...e.flags], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^Applied:\n  rule set: \.\/mock-rule-set\.toml, rule #1\n  Updated: rule set `\.\/mock-rule-set\.toml`, rule #1 \u2014 rule #1 in rule set #1 \((?:[A-Z]+|any method) \/[a-z]+(?: and \d+ more conditions?)?\): /,
      );
      const text = read(dir, 'mock-rule-set.toml');
      e.check(text);
      assert.ok(text.endsWith(secondRule), 'rule #1 is untouched');
      const v = await runMock(['validate'], { cwd: dir });
      assert.equal(v.code, 0, v.stderr + v.stdout);
    });
  }

  it('--file (relative to the current directory) goes with --status: the file is answered with that status', async () => {
    const r = await set(['--path', '/f', '--status', '202', '--file', 'data.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(read(dir, 'mock-rule-set.toml'), /respond\.status = 202\nrespond\.file_path = "data\.json"\n$/);
    const res = await getJson(dir, '/f');
    assert.equal((res['response'] as { status: number }).status, 202);
    assert.equal((res['response'] as { body: string }).body, '{"from":"file"}\n');
    const v = await runMock(['validate'], { cwd: dir });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });

  it('running from a sub-folder: --file is taken relative to the current directory', async () => {
    await mkdir(join(dir, 'sub'), { recursive: true });
    const r = await set(
      ['-c', '../mock.toml', '--rule-set', '../mock-rule-set.toml', '--rule', '2', '--file', '../other.txt'],
      join(dir, 'sub'),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(read(dir, 'mock-rule-set.toml'), /respond\.file_path = "other\.txt"\n$/);
  });

  it('setting what is already there writes nothing', async () => {
    const beforeText = read(dir, 'mock-rule-set.toml');
    const mtime = statSync(join(dir, 'mock-rule-set.toml')).mtimeMs;
    const r = await set(['--rule', '1', '--status', '201', '--format', 'json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(envelope(r).result?.['changed_files'], []);
    assert.deepEqual(envelope(r).result?.['changes'], []);
    assert.equal(envelope(r).result?.['requires_reload'], false);
    assert.equal(read(dir, 'mock-rule-set.toml'), beforeText);
    assert.equal(statSync(join(dir, 'mock-rule-set.toml')).mtimeMs, mtime);
  });
});

describe('set rule: PATCH and HEAD', () => {
  it('--method patch / head write the method; get -m answers from those rules only', async () => {
    const dir = tempDir();
    for (const [m, text] of [
      ['patch', 'patched'],
      ['head', 'headed'],
    ] as const) {
      const r = await set(['--path', '/p', '--method', m, '--text', text], dir);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.match(
      read(dir, 'mock-rule-set.toml'),
      /when\.request\.method = "PATCH"\n[\s\S]*when\.request\.method = "HEAD"\n/,
    );
    const patch = await getJson(dir, '/p', ['-m', 'PATCH']);
    assert.equal((patch['response'] as { body: string }).body, 'patched');
    const head = await getJson(dir, '/p', ['-m', 'HEAD']);
    assert.equal((head['response'] as { status: number }).status, 200);
    assert.equal((head['matched'] as { rule_index: number }).rule_index, 1);
    const get = await getJson(dir, '/p');
    assert.equal((get['response'] as { status: number }).status, 404);
  });
});

describe('set rule: comments and formatting are kept byte for byte', () => {
  const RULE_SET = `# Demo rules - hand written
strategy = { weighted_random = { seed = 7 } }

[default]
delay_response_milliseconds = 5   # no effect, kept anyway

# --- rule 0: dotted keys
[[rules]]   # users
when.request.url_path = "/users"  # exact
respond.text = "users"            # body
weight = 3

# --- rule 1: inline tables
[[rules]]
when = { request = { url_path = "/inline", method = "GET" } }
respond = { json = '{"ok":true}', status = 201 }   # inline!
priority = 9

# --- rule 2: sub-tables
[[rules]]
weight = 1
[rules.when.request]
url_path = "/sub"     # sub-table
[rules.when.request.headers.X-Key]
value = "a"
op = "exists"
[rules.respond]
text = "sub"   # the body
# trailing comment
`;
  const CONFIG = `# my config
[listener]
port = 3001 # default

[service]
rule_sets = ["mock-rule-set.toml"]  # one
cors_allow_credentials_origins = ["http://example.test"]
max_request_body_bytes = 1024
`;
  let dir: string;
  before(async () => {
    dir = tempDir();
    await writeTree(dir, { 'mock.toml': CONFIG, 'mock-rule-set.toml': RULE_SET });
  });

  const steps: readonly { flags: string[]; from: string; to: string }[] = [
    {
      flags: ['--rule', '0', '--json', '{"users":[]}'],
      from: 'respond.text = "users"            # body',
      to: `respond.json = '{"users":[]}'            # body`,
    },
    { flags: ['--rule', '0', '--method', 'GET'], from: '# exact\n', to: '# exact\nwhen.request.method = "GET"\n' },
    {
      flags: ['--rule', '1', '--text', 'plain'],
      from: `json = '{"ok":true}', status = 201 }`,
      to: 'text = "plain", status = 201 }',
    },
    {
      flags: ['--rule', '1', '--delay', '10'],
      from: 'status = 201 }',
      to: 'status = 201, delay_response_milliseconds = 10 }',
    },
    { flags: ['--rule', '2', '-H', 'x-key: b'], from: 'value = "a"\nop = "exists"', to: 'value = "b"\nop = "equal"' },
    {
      flags: ['--rule', '2', '--status', '202'],
      from: 'text = "sub"   # the body\n',
      to: 'text = "sub"   # the body\nstatus = 202\n',
    },
    {
      flags: ['--rule', '2', '--path', '/sub2'],
      from: 'url_path = "/sub"     # sub-table',
      to: 'url_path = "/sub2"     # sub-table',
    },
  ];
  let expected = RULE_SET;
  for (const s of steps) {
    it(s.flags.join(' '), async () => {
      const r = await set(s.flags, dir);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(expected.includes(s.from));
      expected = expected.replace(s.from, s.to);
      assert.equal(read(dir, 'mock-rule-set.toml'), expected);
      assert.equal(read(dir, 'mock.toml'), CONFIG, 'the root config is not touched');
    });
  }

  it('an added rule lands after the trailing comment; everything above stays', async () => {
    const r = await set(['--path', '/new', '--status', '204'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      read(dir, 'mock-rule-set.toml'),
      expected + '\n[[rules]]\nwhen.request.url_path = "/new"\nrespond.status = 204\n',
    );
    const v = await runMock(['validate'], { cwd: dir });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });

  it('a rule set not yet listed is added to service.rule_sets, the rest of the config kept', async () => {
    const r = await set(['--rule-set', 'more.toml', '--path', '/more', '--text', 'm'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      read(dir, 'mock.toml'),
      CONFIG.replace('rule_sets = ["mock-rule-set.toml"]', 'rule_sets = ["mock-rule-set.toml", "more.toml"]'),
    );
    assert.match(
      r.stdout,
      /Updated: root config `\.\/mock\.toml` \u2014 service\.rule_sets lists rule set #2 \(more\.toml\)/,
    );
    const res = await getJson(dir, '/more');
    assert.deepEqual(res['matched'], { rule_index: 0, rule_set_file: './more.toml', rule_set_index: 1 });
  });
});

describe('set rule: --dry-run writes nothing', () => {
  it('not even the bootstrap; it shows the files it would create', async () => {
    const dir = tempDir();
    const r = await set(['--path', '/a', '--text', 'x', '--dry-run'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(listDir(dir), []);
    assert.match(
      r.stdout,
      /^Would apply \(--dry-run, nothing written\):\n  rule set: \.\/mock-rule-set\.toml \(new rule\)\n/,
    );
    assert.match(
      r.stdout,
      /\n--- \/dev\/null\n\+\+\+ \.\/mock-rule-set\.toml\n@@ -0,0 \+1,3 @@\n\+\[\[rules\]\]\n\+when\.request\.url_path = "\/a"\n\+respond\.text = "x"\n/,
    );
    assert.match(r.stdout, /\n--- \/dev\/null\n\+\+\+ \.\/mock\.toml\n/);
  });

  it('an edit: the diff, the same envelope fields, and the file untouched', async () => {
    const dir = tempDir();
    assert.equal((await set(['--path', '/a', '--text', 'x'], dir)).code, 0);
    const beforeText = read(dir, 'mock-rule-set.toml');
    const t = await set(['--rule', '0', '--status', '500', '--dry-run'], dir);
    assert.equal(t.code, 0, t.stderr);
    assert.match(
      t.stdout,
      /^Would apply \(--dry-run, nothing written\):\n  rule set: \.\/mock-rule-set\.toml, rule #1\n  Updated: /,
    );
    assert.match(t.stdout, /\n respond\.text = "x"\n\+respond\.status = 500\n/);
    const j = await set(['--rule', '0', '--status', '500', '--dry-run', '--format', 'json'], dir);
    assert.equal(j.code, 0, j.stderr);
    const result = envelope(j).result!;
    assert.deepEqual(Object.keys(result), ['changed_files', 'changes', 'dry_run', 'requires_reload', 'rule_set']);
    assert.deepEqual(
      [result['changed_files'], result['dry_run'], result['requires_reload'], result['rule_set']],
      [[], true, false, './mock-rule-set.toml'],
    );
    assert.equal((result['changes'] as unknown[]).length, 1);
    assert.equal(read(dir, 'mock-rule-set.toml'), beforeText);
    assert.deepEqual(listDir(dir), ['mock-rule-set.toml', 'mock.toml']);
  });
});

describe('set rule: bad invocations exit 2 and write nothing', () => {
  let dir: string;
  let snapshot: string;
  before(async () => {
    dir = tempDir();
    assert.equal((await set(['--path', '/a', '--text', 'x'], dir)).code, 0);
    snapshot = read(dir, 'mock-rule-set.toml') + read(dir, 'mock.toml');
  });

  const cases: readonly { name: string; argv: string[]; stderr: RegExp; usageLine?: boolean }[] = [
    {
      name: 'bare set',
      argv: ['set'],
      stderr: /^mock set: missing required subcommand\nUsage: mock set rule /,
      usageLine: true,
    },
    {
      name: 'unknown target',
      argv: ['set', 'foo'],
      stderr: /^mock set: unknown target 'foo' \(only 'rule' is supported\)\n/,
      usageLine: true,
    },
    {
      name: 'unknown flag with a near match',
      argv: ['set', 'rule', '--pth', '/a'],
      stderr: /^mock set rule: unknown option '--pth'; did you mean '--path'\?\n/,
      usageLine: true,
    },
    {
      name: 'unknown flag, no near match',
      argv: ['set', 'rule', '--bogus'],
      stderr: /^mock set rule: unrecognized argument '--bogus'\n/,
      usageLine: true,
    },
    { name: '--alow-outside', argv: ['set', 'rule', '--alow-outside'], stderr: /did you mean '--allow-outside'\?/ },
    {
      name: 'dangling value flag',
      argv: ['set', 'rule', '--path', '/a', '--status'],
      stderr: /^mock set rule: --status requires a value\n/,
      usageLine: true,
    },
    {
      name: 'dangling flag followed by a flag',
      argv: ['set', 'rule', '--text', '--dry-run'],
      stderr: /--text requires a value/,
    },
    {
      name: 'empty path flag',
      argv: ['set', 'rule', '--rule-set=', '--path', '/a', '--text', 'x'],
      stderr: /--rule-set must be a non-empty path, got ''/,
    },
    {
      name: 'boolean flag with a value',
      argv: ['set', 'rule', '--dry-run=yes'],
      stderr: /--dry-run does not take a value/,
    },
    {
      name: 'bad --format',
      argv: ['set', 'rule', '--path', '/a', '--text', 'x', '--format', 'xml'],
      stderr: /invalid value for --format: 'xml' \(expected 'text' or 'json'\)/,
    },
    {
      name: '--json and --text',
      argv: ['set', 'rule', '--path', '/a', '--json', '{}', '--text', 'x'],
      stderr: /^mock set rule: --json and --text are mutually exclusive\n/,
      usageLine: true,
    },
    {
      name: '--text and --file',
      argv: ['set', 'rule', '--path', '/a', '--text', 'x', '--file', 'f'],
      stderr: /--text and --file are mutually exclusive/,
    },
    {
      name: 'invalid --json',
      argv: ['set', 'rule', '--path', '/a', '--json', '{nope}'],
      stderr: /^mock set rule: --json is not valid JSON: .* at line 1 column 2\n/,
    },
    { name: 'empty --json', argv: ['set', 'rule', '--path', '/a', '--json='], stderr: /--json is not valid JSON/ },
    {
      name: 'status 99',
      argv: ['set', 'rule', '--path', '/a', '--status', '99'],
      stderr: /--status must be a valid HTTP status code \(100-999\), got '99'/,
    },
    { name: 'status 1000', argv: ['set', 'rule', '--path', '/a', '--status', '1000'], stderr: /got '1000'/ },
    { name: 'status abc', argv: ['set', 'rule', '--path', '/a', '--status', 'abc'], stderr: /got 'abc'/ },
    {
      name: 'negative delay',
      argv: ['set', 'rule', '--rule', '0', '--delay', '-1'],
      stderr: /--delay must be a whole number of milliseconds/,
    },
    {
      name: 'negative rule',
      argv: ['set', 'rule', '--rule', '-1', '--status', '200'],
      stderr: /--rule must be a 0-based rule index/,
    },
    {
      name: 'method TRACE',
      argv: ['set', 'rule', '--path', '/a', '--text', 'x', '--method', 'trace'],
      stderr: /unsupported HTTP method `trace` \u2014 supported: GET, POST, PUT, DELETE, PATCH, HEAD/,
    },
    {
      name: 'malformed header',
      argv: ['set', 'rule', '--path', '/a', '--text', 'x', '-H', 'novalue'],
      stderr: /--header \/ -H expects "Name: value", got 'novalue'/,
    },
    {
      name: 'a flag given twice',
      argv: ['set', 'rule', '--path', '/a', '--path', '/b', '--text', 'x'],
      stderr: /--path was given more than once/,
    },
    {
      name: 'a stray word',
      argv: ['set', 'rule', 'extra', '--path', '/a', '--text', 'x'],
      stderr: /unexpected argument 'extra'/,
    },
    {
      name: 'add without respond',
      argv: ['set', 'rule', '--path', '/a'],
      stderr: /nothing to respond with \u2014 give at least one of --status, --json\/--text or --file/,
    },
    {
      name: 'add without a condition',
      argv: ['set', 'rule', '--text', 'x'],
      stderr: /nothing to match on \u2014 give --path/,
    },
    {
      name: 'edit without a flag',
      argv: ['set', 'rule', '--rule', '0'],
      stderr: /nothing to change \u2014 give at least one of/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await runMock(c.argv, { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, c.stderr);
      if (c.usageLine) assert.match(r.stderr, /\nUsage: mock set rule \[-c <config>\]/);
      assert.equal(r.stdout, '');
      assert.equal(read(dir, 'mock-rule-set.toml') + read(dir, 'mock.toml'), snapshot);
    });
  }

  const enveloped: readonly { name: string; argv: string[]; kind: string; message: RegExp }[] = [
    {
      name: 'no such rule',
      argv: ['--rule', '5', '--status', '200'],
      kind: 'usage',
      message:
        /^no such rule: --rule 5 is 0-based \(rule #6\), and this rule set has \d+ rules? \(--rule 0 to --rule \d+\)$/,
    },
    {
      name: 'a rule set not in service.rule_sets',
      argv: ['--rule-set', 'nope.toml', '--rule', '0', '--status', '200'],
      kind: 'usage',
      message: /^no such rule set `\.\/nope\.toml` \u2014 it is not in service\.rule_sets$/,
    },
    {
      name: 'outside the config directory',
      argv: ['--rule-set', '../outside/rs.toml', '--path', '/a', '--text', 'x'],
      kind: 'usage',
      message:
        /^--rule-set `\.\.\/outside\/rs\.toml` resolves outside the config directory; pass --allow-outside to permit this$/,
    },
    {
      name: 'the config itself',
      argv: ['--rule-set', 'mock.toml', '--path', '/a', '--text', 'x'],
      kind: 'usage',
      message: /names the root config itself/,
    },
    {
      name: 'an unloadable edit (--file naming a missing file)',
      argv: ['--path', '/m', '--file', 'missing.json'],
      kind: 'usage',
      message: /^refused: the edit would leave `\.\/mock-rule-set\.toml` unable to load; nothing was written$/,
    },
  ];
  for (const c of enveloped) {
    it(`${c.name} (text and --format json)`, async () => {
      const t = await set(c.argv, dir);
      assert.equal(t.code, 2, t.stderr);
      assert.match(t.stderr.split('\n')[0]!.replace(/^mock set rule: /, ''), c.message);
      const j = await set([...c.argv, '--format', 'json'], dir);
      assert.equal(j.code, 2);
      const e = envelope(j);
      assert.equal(e.error?.kind, c.kind);
      assert.match(e.error.message, c.message);
      assert.equal(read(dir, 'mock-rule-set.toml') + read(dir, 'mock.toml'), snapshot);
      assert.deepEqual(listDir(dir), ['mock-rule-set.toml', 'mock.toml']);
    });
  }

  it('the refused edit names the file, line and column of the problem', async () => {
    const r = await set(['--path', '/m', '--file', 'missing.json'], dir);
    assert.match(r.stderr, /\.\/mock-rule-set\.toml:\d+:\d+: error: .*missing\.json/);
  });

  it('a rule set that does not parse: config_invalid with its position', async () => {
    const d = tempDir();
    await writeTree(d, {
      'mock.toml': '[service]\nrule_sets = ["mock-rule-set.toml"]\n',
      'mock-rule-set.toml': '[[rules]\n',
    });
    const r = await set(['--path', '/a', '--text', 'x', '--format', 'json'], d);
    assert.equal(r.code, 2);
    assert.equal(envelope(r).error?.kind, 'config_invalid');
    assert.match(envelope(r).error!.message, /^\.\/mock-rule-set\.toml:\d+:\d+: /);
    assert.equal(read(d, 'mock-rule-set.toml'), '[[rules]\n');
  });

  it("a root config that does not load: config_invalid, with the loader's diagnostics", async () => {
    const d = tempDir();
    await writeTree(d, { 'mock.toml': '[service]\nrule_setz = []\n' });
    const r = await set(['--path', '/a', '--text', 'x'], d);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^mock set rule: the root config `\.\/mock\.toml` does not load; fix it first \(nothing was written\)\n/,
    );
    assert.match(r.stderr, /\.\/mock\.toml:2:1: error: .*rule_setz/);
    assert.deepEqual(listDir(d), ['mock.toml']);
  });

  it('a rule set that already fails to load: an edit that leaves it broken is refused, one that fixes it is applied', async () => {
    const d = tempDir();
    await writeTree(d, {
      'mock.toml': '[service]\nrule_sets = ["mock-rule-set.toml"]\n',
      'mock-rule-set.toml': '[[rules]]\nwhen.request.url_path = "/g"\nrespond.file_path = "gone.json"\n',
    });
    const still = await set(['--rule', '0', '--path', '/h', '--format', 'json'], d);
    assert.equal(still.code, 2);
    assert.equal(envelope(still).error?.kind, 'config_invalid');
    assert.match(envelope(still).error!.message, /does not load, before or after this edit/);
    const fixed = await set(['--rule', '0', '--text', 'here now'], d);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.equal(read(d, 'mock-rule-set.toml'), '[[rules]]\nwhen.request.url_path = "/g"\nrespond.text = "here now"\n');
  });

  it('--help (set and set rule) prints the help on stdout', async () => {
    for (const argv of [
      ['set', '--help'],
      ['set', 'rule', '--help'],
      ['set', 'rule', '-h'],
    ]) {
      const r = await runMock(argv, { cwd: dir });
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^mock set rule \[-c <config>\] \[--rule-set <path>\] \[--rule <n>\] \\\n/);
      assert.match(r.stdout, /--allow-outside {9}Permit --rule-set to resolve outside the config directory\n/);
      assert.match(r.stdout, /Exit codes: 0 applied/);
    }
  });
});

describe('set rule: confinement and --allow-outside', () => {
  it('writes the path as given into rule_sets with --allow-outside', async () => {
    const root = tempDir();
    const dir = join(root, 'proj');
    await mkdir(dir);
    const r = await set(['--rule-set', '../outside/rs.toml', '--path', '/o', '--text', 'o'], dir);
    assert.equal(r.code, 2);
    assert.equal(existsSync(join(root, 'outside')), false);
    assert.deepEqual(listDir(dir), []);
    await mkdir(join(root, 'outside'));
    const ok = await set(['--rule-set', '../outside/rs.toml', '--path', '/o', '--text', 'o', '--allow-outside'], dir);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(read(dir, 'mock.toml'), /rule_sets = \["\.\.\/outside\/rs\.toml"\]/);
    assert.match(read(root, 'outside/rs.toml'), /when\.request\.url_path = "\/o"/);
  });
});

describe('set rule: failed writes', () => {
  it('a folder that is not there: exit 1, kind io, nothing written', async () => {
    const dir = tempDir();
    const r = await set(['--rule-set', 'sub/rs.toml', '--path', '/a', '--text', 'x', '--format', 'json'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(envelope(r).error?.kind, 'io');
    assert.match(
      envelope(r).error!.message,
      /^cannot write `\.\/sub\/rs\.toml`: its folder does not exist; nothing was written$/,
    );
    assert.deepEqual(listDir(dir), []);
  });

  it('a path through a file: exit 1, kind io, the existing config untouched', async () => {
    const dir = tempDir();
    await writeTree(dir, { 'mock.toml': '[listener]\nport = 3001\n', notadir: 'x' });
    const r = await set(['--rule-set', 'notadir/rs.toml', '--path', '/a', '--text', 'x'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /^mock set rule: cannot write `\.\/notadir\/rs\.toml`: /);
    assert.equal(read(dir, 'mock.toml'), '[listener]\nport = 3001\n');
    assert.deepEqual(listDir(dir), ['mock.toml', 'notadir']);
  });

  it('a read-only folder: exit 1, kind io, the old file whole', async (t) => {
    // root ignores folder permissions: the program then runs as `nobody`, if `nobody` can run it here
    const as = await otherUser();
    if (!as.ok) return t.skip(as.reason);
    const dir = tempDir();
    assert.equal((await set(['--path', '/a', '--text', 'x'], dir)).code, 0);
    const beforeText = read(dir, 'mock-rule-set.toml');
    await chmod(dir, 0o555);
    try {
      const r = await as.user.run(['set', 'rule', '--rule', '0', '--status', '201', '--format', 'json'], dir);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(envelope(r).error?.kind, 'io');
      assert.match(
        envelope(r).error!.message,
        /^cannot write `\.\/mock-rule-set\.toml`: permission denied; nothing was written$/,
      );
      assert.equal(read(dir, 'mock-rule-set.toml'), beforeText);
      assert.deepEqual(listDir(dir), ['mock-rule-set.toml', 'mock.toml']);
    } finally {
      await chmod(dir, 0o755);
    }
  });

  it('a byte order mark is kept', async () => {
    const dir = tempDir();
    await writeTree(dir, {
      'mock.toml': '\uFEFF[service]\nrule_sets = ["mock-rule-set.toml"]\n',
      'mock-rule-set.toml': '\uFEFF[[rules]]\nwhen.request.url_path = "/b"\nrespond.text = "b"\n',
    });
    const r = await set(['--rule', '0', '--status', '202'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      read(dir, 'mock-rule-set.toml'),
      '\uFEFF[[rules]]\nwhen.request.url_path = "/b"\nrespond.text = "b"\nrespond.status = 202\n',
    );
  });

  it('a file is replaced by a rename (a new inode), never rewritten in place', async () => {
    const dir = tempDir();
    assert.equal((await set(['--path', '/a', '--text', 'x'], dir)).code, 0);
    const inode = statSync(join(dir, 'mock-rule-set.toml')).ino;
    assert.equal((await set(['--rule', '0', '--status', '201'], dir)).code, 0);
    assert.notEqual(statSync(join(dir, 'mock-rule-set.toml')).ino, inode);
  });

  it('an existing file keeps its mode; a symlink keeps pointing at the edited file', async () => {
    const dir = tempDir();
    assert.equal((await set(['--path', '/a', '--text', 'x'], dir)).code, 0);
    await chmod(join(dir, 'mock-rule-set.toml'), 0o600);
    await mkdir(join(dir, 'real'));
    await writeFile(join(dir, 'real', 'rs.toml'), '[[rules]]\nwhen.request.url_path = "/l"\nrespond.text = "l"\n');
    await symlink(join(dir, 'real', 'rs.toml'), join(dir, 'link.toml'));
    assert.equal((await set(['--rule', '0', '--status', '201'], dir)).code, 0);
    assert.equal(statSync(join(dir, 'mock-rule-set.toml')).mode & 0o777, 0o600);
    const r = await set(['--rule-set', 'link.toml', '--path', '/l2', '--text', 'l2'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(await readFile(join(dir, 'real', 'rs.toml'), 'utf8'), /"\/l2"/);
    assert.ok(
      statSync(join(dir, 'link.toml'), { throwIfNoEntry: true }) &&
        readFileSync(join(dir, 'link.toml'), 'utf8').includes('/l2'),
    );
  });
});

describe('set rule: concurrent writers', () => {
  it('an external edit between read and rename: exit 1, kind conflict, the other content intact', async () => {
    const dir = tempDir();
    assert.equal((await set(['--path', '/a', '--text', 'x'], dir)).code, 0);
    const theirs = '# edited by someone else\n[[rules]]\nwhen.request.url_path = "/theirs"\nrespond.text = "theirs"\n';
    const running = set(['--rule', '0', '--status', '500', '--format', 'json'], dir, { [PAUSE_ENV]: '1500' });
    // wait until the new text is staged (a temp file appears), then write the file from "another editor"
    const deadline = Date.now() + 10_000;
    while (!listDir(dir).some((f) => f.endsWith('.tmp')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      listDir(dir).some((f) => f.endsWith('.tmp')),
      'set rule staged its temp file',
    );
    await writeFile(join(dir, 'mock-rule-set.toml'), theirs);
    const r = await running;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(envelope(r).error?.kind, 'conflict');
    assert.match(
      envelope(r).error!.message,
      /^`\.\/mock-rule-set\.toml` changed on disk while set rule was working; nothing was written/,
    );
    assert.equal(read(dir, 'mock-rule-set.toml'), theirs);
    assert.deepEqual(listDir(dir), ['mock-rule-set.toml', 'mock.toml'], 'no temp file left behind');
  });

  it('a file created by someone else during a bootstrap is not overwritten', async () => {
    const dir = tempDir();
    const running = set(['--path', '/a', '--text', 'x'], dir, { [PAUSE_ENV]: '1500' });
    const deadline = Date.now() + 10_000;
    while (!listDir(dir).some((f) => f.endsWith('.tmp')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await writeFile(join(dir, 'mock.toml'), '# mine\n');
    const r = await running;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /`\.\/mock\.toml` changed on disk while set rule was working/);
    assert.equal(read(dir, 'mock.toml'), '# mine\n');
    assert.deepEqual(listDir(dir), ['mock.toml']);
  });

  it('SIGKILL at random moments leaves the old file or the new one, whole, every time', async (t) => {
    const dir = tempDir();
    const pad = 'p'.repeat(120_000);
    assert.equal((await set(['--path', '/k', '--text', `v0${pad}`], dir)).code, 0);
    // calibrate: kill moments spread from well before the write to just after a normal run's end
    const started = Date.now();
    assert.equal((await set(['--rule', '0', '--text', `v0${pad}`], dir)).code, 0);
    const runMs = Date.now() - started;
    const killedMidway = { before: 0, after: 0 };
    for (let i = 1; i <= 30; i++) {
      const old = read(dir, 'mock-rule-set.toml');
      const oldValue = /respond\.text = "(v\d+)p+"/.exec(old)![1]!;
      const next = old.replace(`"${oldValue}${pad}"`, `"v${i}${pad}"`);
      const child = spawn(process.execPath, [MAIN_JS, 'set', 'rule', '--rule', '0', '--text', `v${i}${pad}`], {
        cwd: dir,
        stdio: 'ignore',
      });
      const closed = new Promise<void>((r) => child.on('close', () => r()));
      await new Promise((r) => setTimeout(r, Math.floor(runMs * (0.5 + Math.random() * 0.7))));
      child.kill('SIGKILL');
      await closed;
      const now = read(dir, 'mock-rule-set.toml');
      assert.ok(
        now === old || now === next,
        `iteration ${i}: the file is neither the old nor the new version (${now.length} bytes)`,
      );
      assert.doesNotThrow(() => parseTOML(now));
      if (now === old) killedMidway.before++;
      else killedMidway.after++;
    }
    // whatever temp files a kill left behind, the workspace still loads
    const v = await runMock(['validate'], { cwd: dir });
    assert.equal(v.code, 0, v.stderr + v.stdout);
    assert.equal(killedMidway.before + killedMidway.after, 30);
    t.diagnostic(`SIGKILL: ${killedMidway.before} old, ${killedMidway.after} new (a normal run takes ${runMs} ms)`);
  });
});

describe('set rule: round trip with get', () => {
  it('get --format json → set rule --rule-set <matched.rule_set_file> --rule <rule_index>', async () => {
    const root = tempDir();
    await writeTree(root, {
      'cfg/mock.toml': '[service]\nrule_sets = ["rs/first.toml", "rs/second.toml"]\n',
      'cfg/rs/first.toml': '[[rules]]\nwhen.request.url_path = "/one"\nrespond.text = "one"\n',
      'cfg/rs/second.toml':
        '# second\n[[rules]]\nwhen.request.url_path = "/x"\nrespond.text = "x"\n\n[[rules]]\nwhen.request.url_path = "/two"\nrespond.text = "two"\n',
    });
    const got = await getJson(root, '/two', ['-c', 'cfg/mock.toml']);
    const matched = got['matched'] as { rule_index: number; rule_set_file: string; rule_set_index: number };
    assert.deepEqual(matched, { rule_index: 1, rule_set_file: './cfg/rs/second.toml', rule_set_index: 1 });
    const r = await set(
      [
        '-c',
        'cfg/mock.toml',
        '--rule-set',
        matched.rule_set_file,
        '--rule',
        String(matched.rule_index),
        '--status',
        '503',
        '--format',
        'json',
      ],
      root,
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(envelope(r).result?.['rule_set'], './cfg/rs/second.toml');
    assert.deepEqual(
      (envelope(r).result?.['changes'] as { summary: string }[]).map((c) => c.summary),
      ['rule #2 in rule set #2 (any method /two): respond.status'],
    );
    const again = await getJson(root, '/two', ['-c', 'cfg/mock.toml']);
    assert.equal((again['response'] as { status: number }).status, 503);
    assert.deepEqual(again['matched'], matched);
    assert.equal(read(root, 'cfg/mock.toml'), '[service]\nrule_sets = ["rs/first.toml", "rs/second.toml"]\n');
  });

  it('get --why prints the exact set rule command for the winning rule, and running it edits that rule', async () => {
    const root = tempDir();
    await writeTree(root, {
      'cfg/mock.toml': '[service]\nrule_sets = ["rs/first.toml", "my rules.toml"]\n',
      'cfg/rs/first.toml': '[[rules]]\nwhen.request.url_path = "/one"\nrespond.text = "one"\n',
      'cfg/my rules.toml':
        '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[[rules]]\nwhen.request.url_path = "/b"\nwhen.request.method = "GET"\nrespond.text = "b"\n',
    });
    const why = await runMock(['get', '/b', '--why', '-c', 'cfg/mock.toml'], { cwd: root });
    assert.equal(why.code, 0, why.stderr);
    assert.match(why.stdout, /\nAnswered: rule set #2, rule #2\n/);
    assert.match(why.stdout, /\n {2}Rule #2: MATCH\n/);
    const line = why.stdout.split('\n').find((l) => l.startsWith('edit with: '));
    assert.equal(line, "edit with: mock set rule -c cfg/mock.toml --rule-set './cfg/my rules.toml' --rule 1");
    // the printed command, run as printed (minus the program name), edits rule #2 and says which one it is
    const argv = [
      '-c',
      'cfg/mock.toml',
      '--rule-set',
      'cfg/my rules.toml',
      '--rule',
      '1',
      '--status',
      '500',
      '--dry-run',
    ];
    const dry = await runMock(['set', 'rule', ...argv], { cwd: root });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      /Updated: rule set `\.\/cfg\/my rules\.toml`, rule #2 \u2014 rule #2 in rule set #2 \(GET \/b\): respond\.status\n/,
    );
    const wrong = await runMock(
      ['set', 'rule', '-c', 'cfg/mock.toml', '--rule-set', 'cfg/my rules.toml', '--rule', '2', '--status', '500'],
      { cwd: root },
    );
    assert.equal(wrong.code, 2);
    assert.match(
      wrong.stderr,
      /no such rule: --rule 2 is 0-based \(rule #3\), and this rule set has 2 rules \(--rule 0 to --rule 1\)/,
    );
  });
});

describe('set rule: where the rule went, when the workspace already lists other rule sets', () => {
  it('a new default mock-rule-set.toml says it is tried after rules.toml and how to add there instead', async () => {
    const dir = tempDir();
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml': '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n',
    });
    const r = await set(['--path', '/b', '--text', 'b'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout
        .split('\n')
        .includes(
          '  note: added to ./mock-rule-set.toml (new), tried after ./rules.toml; --rule-set rules.toml adds it there',
        ),
      r.stdout,
    );
    // what the note suggests works, and says nothing more: rules.toml is not new
    const there = await set(['--rule-set', 'rules.toml', '--path', '/c', '--text', 'c'], dir);
    assert.equal(there.code, 0, there.stderr);
    assert.doesNotMatch(there.stdout, /note: added to/);
    assert.match(read(dir, 'rules.toml'), /url_path = "\/c"/);
    // the second rule in the now existing default file: no note either
    const again = await set(['--path', '/d', '--text', 'd'], dir);
    assert.doesNotMatch(again.stdout, /note: added to/);
  });

  it('a rule that can never answer is named, with the rule that answers first; validate warns and still exits 0', async () => {
    const dir = tempDir();
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml': '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n',
    });
    const r = await set(['--path', '/a', '--method', 'POST', '--text', 'never'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout
        .split('\n')
        .includes(
          '  note: rule #1 in ./mock-rule-set.toml can never answer: rule #1 in ./rules.toml always answers first for the same path and method',
        ),
      r.stdout,
    );
    // another path: nothing said
    const fine = await set(['--path', '/b', '--text', 'b'], dir);
    assert.doesNotMatch(fine.stdout, /never answer/);
    for (const strict of [[], ['--strict']]) {
      const v = await runMock(['validate', ...strict], { cwd: dir });
      assert.equal(v.code, 0, v.stderr + v.stdout);
      assert.match(
        v.stderr,
        /^warning: rule #1 in \.\/mock-rule-set\.toml can never answer: rule #1 in \.\/rules\.toml always answers first for the same path and method$/m,
      );
    }
    // an extra condition on the earlier rule: it does not always answer, so nothing is said
    await writeFile(
      join(dir, 'rules.toml'),
      '[[rules]]\nwhen.request.url_path = "/a"\nwhen.request.headers.x-k = { value = "1" }\nrespond.text = "a"\n',
    );
    const v = await runMock(['validate'], { cwd: dir });
    assert.doesNotMatch(v.stderr, /never answer/);
  });

  it('in a fresh directory (nothing else listed) there is no note', async () => {
    const r = await set(['--path', '/b', '--text', 'b'], tempDir());
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /note:/);
  });
});
