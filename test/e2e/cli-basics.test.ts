// Program-level behaviour: --version, --help, the subcommand table, flag syntax and usage errors.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAIN_JS, makeTempDir, removeDir, runMock } from '../helpers/mock-cli.js';

let cwd: string;
before(() => {
  cwd = makeTempDir();
});
after(() => removeDir(cwd));

function packageVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json', '../../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as {
        name: string;
        version: string;
      };
      if (pkg.name === 'folder-mock') return pkg.version;
    } catch {
      // keep looking
    }
  }
  throw new Error('package.json not found');
}

describe('--version and --help', () => {
  const version = `mock ${packageVersion()}\n`;
  const cases: readonly { args: string[]; stdout: string | RegExp }[] = [
    { args: ['--version'], stdout: version },
    { args: ['serve', '--version'], stdout: version },
    { args: ['get', '--version'], stdout: version },
    { args: ['validate', '--version'], stdout: version },
    { args: ['--version', '--bogus'], stdout: version },
    { args: ['-p', 'nope', '--version'], stdout: version },
    { args: ['--help'], stdout: /^mock \[serve\] \[-p <port>\].*\n[\s\S]*Subcommands:\n  serve {7}Start the server/ },
    { args: ['-h'], stdout: /^mock \[serve\] / },
    {
      args: ['get', '--help'],
      stdout: /^mock get <path> \[-c <config>\][\s\S]*--body-file <path>[\s\S]*Exit codes: 0 answered/,
    },
    { args: ['get', '-h', '--bogus'], stdout: /^mock get <path>/ },
    { args: ['match-test', '--help'], stdout: /^mock match-test --rule-set <path>[\s\S]*--rule-set, -r <path>/ },
    { args: ['validate', '--help'], stdout: /^mock validate \[--config <path>\][\s\S]*--json was removed/ },
  ];
  for (const c of cases) {
    test(`mock ${c.args.join(' ')}`, async () => {
      const r = await runMock(c.args, { cwd });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      if (typeof c.stdout === 'string') assert.equal(r.stdout, c.stdout);
      else assert.match(r.stdout, c.stdout);
    });
  }

  test('mock --help and mock serve --help are identical', async () => {
    const a = await runMock(['--help'], { cwd });
    const b = await runMock(['serve', '--help'], { cwd });
    assert.equal(a.stdout, b.stdout);
  });
});

describe('usage errors exit 2 with a message on stderr and start nothing', () => {
  const cases: readonly { args: string[]; stderr: string }[] = [
    { args: ['serv'], stderr: "mock: unknown subcommand 'serv'; did you mean 'serve'?" },
    { args: ['banana'], stderr: "mock: unknown subcommand 'banana'" },
    { args: ['gett'], stderr: "mock: unknown subcommand 'gett'; did you mean 'get'?" },
    {
      args: ['record', 'http://127.0.0.1:9'],
      stderr: "mock: unknown subcommand 'record'; did you mean 'mock --record http://127.0.0.1:9'?",
    },
    { args: ['validat'], stderr: "mock: unknown subcommand 'validat'; did you mean 'validate'?" },
    { args: ['version'], stderr: "mock: unknown subcommand 'version'" },
    { args: ['--prot', '3000'], stderr: "mock: unknown option '--prot'; did you mean '--port'?" },
    { args: ['serve', '--prot', '3000'], stderr: "mock: unknown option '--prot'; did you mean '--port'?" },
    { args: ['--bogus'], stderr: "mock: unknown option '--bogus'" },
    { args: ['-V'], stderr: "mock: unknown option '-V'; did you mean '-c'?" },
    { args: ['-p', 'notanumber'], stderr: "mock: invalid value for --port: 'notanumber' (expected 0..65535)" },
    { args: ['--port=70000'], stderr: "mock: invalid value for --port: '70000' (expected 0..65535)" },
    { args: ['-p'], stderr: 'mock: --port / -p requires a value' },
    { args: ['-c', '--init'], stderr: 'mock: --config / -c requires a value' },
    { args: ['--config='], stderr: "mock: --config / -c must be a non-empty path, got ''" },
    { args: ['--init=yes'], stderr: 'mock: --init does not take a value' },
    { args: ['serve', 'extra'], stderr: "mock: unexpected argument 'extra'" },
    { args: ['get', '--formt', 'json', '/x'], stderr: "mock get: unknown option '--formt'; did you mean '--format'?" },
    { args: ['get', '/x', '--methd', 'GET'], stderr: "mock get: unknown option '--methd'; did you mean '--method'?" },
    { args: ['get', '/x', '--bogus'], stderr: "mock get: unrecognized argument '--bogus'" },
    { args: ['get'], stderr: 'mock get: missing required argument <path>' },
    { args: ['get', '/x', '--why=1'], stderr: 'mock get: --why does not take a value' },
    { args: ['get', '/x', '-m'], stderr: 'mock get: --method / -m requires a value' },
    { args: ['get', '/x', '--format'], stderr: 'mock get: --format requires a value' },
    {
      args: ['get', '/x', '--format', 'xml'],
      stderr: "mock get: invalid value for --format: 'xml' (expected 'text' or 'json')",
    },
    { args: ['get', '/x', '-b', '{nope'], stderr: 'mock get: --body is not valid JSON: ' },
    { args: ['get', '/x', '-H', 'no-colon'], stderr: `mock get: invalid header 'no-colon' (expected "Name: value")` },
    { args: ['get', '/x', '-m', 'BAD METHOD'], stderr: "mock get: invalid method 'BAD METHOD'" },
    {
      args: ['get', '/x', '--body-file', 'nope.json'],
      stderr: 'mock get: cannot read --body-file nope.json: No such file or directory',
    },
    { args: ['validate', '--strct'], stderr: "mock validate: unknown option '--strct'; did you mean '--strict'?" },
    { args: ['validate', '--config='], stderr: "mock validate: --config / -c must be a non-empty path, got ''" },
    { args: ['validate'], stderr: 'mock validate: missing required flag --config / -c (there is no ./mock.toml here)' },
    { args: ['validate', '--json'], stderr: 'mock validate: --json was removed; use --format json instead' },
    { args: ['match-test', '--pth', '/x'], stderr: "mock match-test: unknown option '--pth'; did you mean '--path'?" },
    { args: ['match-test'], stderr: 'mock match-test: --rule-set <path> is required' },
    {
      args: ['match-test', '-r', 'rs.toml', '--rule', '0'],
      stderr: 'mock match-test: --rule is 1-based; use 1 for the first rule',
    },
    { args: ['match-test', '-r', 'rs.toml', '--rule', 'x'], stderr: "mock match-test: invalid value for --rule: 'x'" },
  ];
  for (const c of cases) {
    test(`mock ${c.args.join(' ')}`, async () => {
      const r = await runMock(c.args, { cwd, timeoutMs: 10_000 });
      assert.equal(r.code, 2, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.startsWith(c.stderr), `stderr was:\n${r.stderr}`);
      assert.match(r.stderr, /\nUsage: mock/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    });
  }

  test('argument errors stay plain text under --format json', async () => {
    const r = await runMock(['get', '--bogus', '--format', 'json'], { cwd });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mock get: unrecognized argument '--bogus'\n/);
  });

  test('validate --json --format json is an envelope with error.kind usage', async () => {
    const r = await runMock(['validate', '--json', '--format', 'json'], { cwd });
    assert.equal(r.code, 2);
    const env = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(env), ['schema', 'mock', 'error']);
    assert.equal(env['schema'], 1);
    assert.equal(env['mock'], packageVersion());
    const error = env['error'] as Record<string, unknown>;
    assert.equal(error['kind'], 'usage');
    assert.match(String(error['message']), /--format json/);
  });
});

test('the installed program starts from its code cache (made at build time, accepted by this Node.js)', async () => {
  const r = await runMock(['--version'], { cwd: process.cwd(), env: { MOCK_DEBUG_CODE_CACHE: '1' } });
  assert.equal(r.code, 0);
  assert.match(r.stderr, /^code cache: used$/m);
});

test('the installed program is ASCII (so V8 keeps its source as a one-byte string), and its messages survive the escaping', async () => {
  const bundle = readFileSync(MAIN_JS.replace(/main\.cjs$/, 'mock.cjs'));
  const wide = bundle.findIndex((b) => b > 0x7f);
  assert.equal(wide, -1, `a byte above 0x7F at offset ${wide}`);
  // HEADER_SHAPE holds a `…`: escaped in the bundle, it must still read as one
  const dir = makeTempDir();
  try {
    writeFileSync(join(dir, 'mock.toml'), '[service]\nrule_sets = ["r.toml"]\n');
    writeFileSync(join(dir, 'r.toml'), '[[rules]]\nwhen.request.headers.x = 1\nrespond.status = 204\n');
    const r = await runMock(['validate'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stdout + r.stderr, /\{ value = "…", op = "equal" \}/);
  } finally {
    await removeDir(dir);
  }
});
