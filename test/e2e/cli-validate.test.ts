// `mock validate`: success and failure, text and JSON, TLS material, the removed --json.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, writeTree } from '../helpers/mock-cli.js';

let ws: string;

before(async () => {
  ws = makeTempDir();
  await writeTree(ws, {
    'good/mock.toml': '[service]\nrule_sets = ["a.toml", "b.toml"]\n',
    'good/a.toml':
      '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[[rules]]\nwhen.request.url_path = "/b"\nrespond.text = "b"\n',
    'good/b.toml': '[[rules]]\nwhen.request.url_path = "/c"\nrespond.json = \'{"c":1}\'\n',
    'empty/mock.toml': '[listener]\nport = 3001\n',
    'bad/mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
    'bad/rs.toml': '[[rules]]\nwhen.request.url_pth = "/x"\nrespond.text = "x"\n',
    'badjson/mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
    'badjson/rs.toml': '[[rules]]\nwhen.request.url_path = "/x"\nrespond.file_path = "broken.json"\n',
    'badjson/broken.json': '{"a": ',
    'tls/mock.toml': '[listener.tls]\ncert = "tls/cert.pem"\nkey = "tls/key.pem"\n',
    'tls/cert.pem': 'not a certificate\n',
    'tls/key.pem': 'not a key\n',
    'warn/mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
    'warn/rs.toml': '[[rules]]\nwhen.request.body.json."$.a" = { value = "1" }\nrespond.text = "x"\n',
    'rulenum/mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
    'rulenum/rs.toml':
      '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[[rules]]\nwhen.request.url_path = "/b"\nrespond.txt = "b"\n\n' +
      '[[rules]]\nwhen.request.url_path = "/c"\nrespond.status = "x"\n\n[[rules]]\nwhen.request.url_path = "/d"\nrespond.text = "d"\nrespond.json = "{}"\n',
    'script/mock.toml': '[service]\nmiddlewares = ["broken.rhai"]\n',
    'script/broken.rhai': 'if url_path == {\n',
  });
});
after(() => removeDir(ws));

describe('mock validate', () => {
  test('success: the summary line, exit 0', async () => {
    const r = await runMock(['validate', '-c', 'good/mock.toml'], { cwd: ws });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'Validation passed (3 rules across 2 rule set(s)).\n', '']);
  });

  test('load errors name rules as `rule #<n>` (1-based, as get and match-test print them), never rules[<i>]', async () => {
    const r = await runMock(['validate', '-c', 'rulenum/mock.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /rs\.toml:7:9: error: rule #2: unknown key `txt` in `respond`/);
    assert.match(r.stderr, /rs\.toml:11:18: error: rule #3: `respond\.status` must be an integer, found a string/);
    assert.match(r.stderr, /rs\.toml:\d+:\d+: error: rule #4: `text`, `json` are mutually exclusive/);
    assert.doesNotMatch(r.stderr, /rules\[/);
  });

  test('./mock.toml is the default config', async () => {
    const r = await runMock(['validate'], { cwd: join(ws, 'good') });
    assert.equal(r.stdout, 'Validation passed (3 rules across 2 rule set(s)).\n');
  });

  test('--config with a bare relative path, a ./ path, and --config=', async () => {
    for (const args of [
      ['--config', 'good/mock.toml'],
      ['-c', './good/mock.toml'],
      ['--config=good/mock.toml'],
      ['-c=good/mock.toml'],
    ]) {
      const r = await runMock(['validate', ...args], { cwd: ws });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
  });

  test('zero rule sets', async () => {
    const r = await runMock(['validate', '-c', 'empty/mock.toml'], { cwd: ws });
    assert.equal(r.stdout, 'Validation passed (0 rules across 0 rule set(s)).\n');
  });

  test('--quiet prints nothing on success; --strict still passes a clean config', async () => {
    const q = await runMock(['validate', '-c', 'good/mock.toml', '--quiet'], { cwd: ws });
    assert.deepEqual([q.code, q.stdout, q.stderr], [0, '', '']);
    const s = await runMock(['validate', '-c', 'good/mock.toml', '--strict'], { cwd: ws });
    assert.deepEqual([s.code, s.stdout], [0, 'Validation passed (3 rules across 2 rule set(s)).\n']);
  });

  test('JSON success: diagnostics and summary', async () => {
    const r = await runMock(['validate', '-c', 'good/mock.toml', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 0);
    const env = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(env), ['schema', 'mock', 'result']);
    assert.deepEqual(env['result'], { diagnostics: [], summary: { errors: 0, warnings: 0, rule_sets: 2, rules: 3 } });
    assert.ok(r.stdout.includes('\n  "schema": 1,\n'), 'pretty-printed with a 2-space indent');
  });

  test('an unknown key: exit 2, file:line:column, allowed keys and did-you-mean on stderr', async () => {
    const r = await runMock(['validate', '-c', 'bad/mock.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mock validate: failed to load config: /);
    assert.match(
      r.stderr,
      /\.\/bad\/rs\.toml:2:14: error: .*`url_pth`.*`url_path`, `method`, `headers`, `query`, `cookies`, `params`, `body`.*\(did you mean `url_path`\?\)/,
    );
  });

  test('JSON failure: an error envelope with the diagnostics as objects', async () => {
    const r = await runMock(['validate', '-c', 'bad/mock.toml', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 2);
    const env = JSON.parse(r.stdout) as {
      error: { kind: string; message: string; diagnostics: Record<string, unknown>[] };
    };
    assert.deepEqual(Object.keys(env), ['schema', 'mock', 'error']);
    assert.equal(env.error.kind, 'config_invalid');
    const d = env.error.diagnostics[0]!;
    assert.equal(d['severity'], 'error');
    assert.equal(d['code'], 'unknown_key');
    assert.equal(d['file'], join(ws, 'bad/rs.toml'));
    assert.equal(d['line'], 2);
    assert.equal(d['column'], 14);
    assert.equal(d['suggestion'], 'url_path');
  });

  test('warnings are listed and pass; --strict makes them fail with exit 1', async () => {
    const plain = await runMock(['validate', '-c', 'warn/mock.toml'], { cwd: ws });
    assert.equal(plain.code, 0);
    assert.equal(plain.stdout, 'Validation passed (1 rules across 1 rule set(s)).\n');
    assert.match(plain.stderr, /^\.\/warn\/rs\.toml:2:\d+: warning: /);
    const strict = await runMock(['validate', '-c', 'warn/mock.toml', '--strict'], { cwd: ws });
    assert.equal(strict.code, 1);
    assert.equal(strict.stdout, '');
    assert.match(strict.stderr, /warning: [\s\S]*mock validate: 1 warning\(s\), which fail under --strict\n$/);
    const json = await runMock(['validate', '-c', 'warn/mock.toml', '--strict', '--format', 'json'], { cwd: ws });
    assert.equal(json.code, 1);
    const env = JSON.parse(json.stdout) as {
      result: { diagnostics: { severity: string; line: number }[]; summary: Record<string, number> };
    };
    assert.equal(env.result.diagnostics[0]!.severity, 'warning');
    assert.equal(env.result.diagnostics[0]!.line, 2);
    assert.deepEqual(env.result.summary, { errors: 0, warnings: 1, rule_sets: 1, rules: 1 });
  });

  test('a respond file with invalid JSON fails the load', async () => {
    const r = await runMock(['validate', '-c', 'badjson/mock.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /broken\.json/);
  });

  test('a missing config: config_unreadable, exit 2', async () => {
    const r = await runMock(['validate', '-c', 'nope.toml', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.equal((JSON.parse(r.stdout) as { error: { kind: string } }).error.kind, 'config_unreadable');
  });

  test('an unparseable TLS cert or key fails, naming the file', async () => {
    const r = await runMock(['validate', '-c', 'tls/mock.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /(cert|key)\.pem/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  test('a middleware script that does not compile fails', async () => {
    const r = await runMock(['validate', '-c', 'script/mock.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /broken\.rhai:\d+:\d+: error: /);
  });
});
