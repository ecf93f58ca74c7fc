// `mock --init`: defaults without a terminal or with --yes, never overwriting, the files load and serve at
// once, and the interactive prompts through a real pseudo-terminal (util-linux `script`) when available.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { MAIN_JS, makeTempDir, removeDir, runMock, spawnMock, writeTree } from '../helpers/mock-cli.js';

const dirs: string[] = [];
function fresh(): string {
  const d = makeTempDir('mock-init-');
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await removeDir(d);
});

const read = (dir: string, f: string): string => readFileSync(join(dir, f), 'utf8');

describe('mock --init without prompts', () => {
  for (const args of [['--init', '--yes'], ['--init'], ['serve', '--init', '--yes']]) {
    test(`mock ${args.join(' ')} writes mock.toml and mock-rule-set.toml`, async () => {
      const dir = fresh();
      const r = await runMock(args, { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stdout,
        'root config file is created: ./mock.toml.\n' +
          'rule set config file is created: ./mock-rule-set.toml.\n\n' +
          'Created:\n  - ./mock.toml\n  - ./mock-rule-set.toml\n\n' +
          'Start the server with `mock` (reads ./mock.toml from the current directory).\n',
      );
      assert.deepEqual(readdirSync(dir).sort(), ['mock-rule-set.toml', 'mock.toml']);
      const toml = read(dir, 'mock.toml');
      assert.match(toml, /^\[listener\]\nip_address = "127\.0\.0\.1"\nport = 3001\n/m);
      assert.match(toml, /^rule_sets = \["mock-rule-set\.toml"\]$/m);
      assert.match(toml, /^# middlewares = \[\]$/m);
      assert.match(toml, /^fallback_respond_dir = "\."$/m);
      assert.match(read(dir, 'mock-rule-set.toml'), /when\.request\.url_path = "\/health"\nrespond\.text = "ok"/);
    });
  }

  test('--middleware also writes mock-middleware.rhai and lists it', async () => {
    const dir = fresh();
    const r = await runMock(['--init', '--yes', '--middleware'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /middleware scripting file is created: \.\/mock-middleware\.rhai\.\n/);
    assert.match(r.stdout, / {2}- \.\/mock-middleware\.rhai\n/);
    assert.match(read(dir, 'mock.toml'), /^middlewares = \["mock-middleware\.rhai"\]$/m);
    assert.match(read(dir, 'mock-middleware.rhai'), /if url_path == "\/hello" \{/);
  });

  test('an existing mock.toml is never overwritten: exit 1, nothing written', async () => {
    const dir = fresh();
    await writeTree(dir, { 'mock.toml': '# mine\n' });
    const r = await runMock(['--init', '--yes', '--middleware'], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^mock --init: \.\/mock\.toml already exists; nothing was written/);
    assert.equal(read(dir, 'mock.toml'), '# mine\n');
    assert.deepEqual(readdirSync(dir), ['mock.toml']);
  });

  test('an existing rule-set file is kept as it is, with a warning', async () => {
    const dir = fresh();
    await writeTree(dir, {
      'mock-rule-set.toml': '[[rules]]\nwhen.request.url_path = "/mine"\nrespond.text = "mine"\n',
    });
    const r = await runMock(['--init', '--yes'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[warn\] rule set config file exists and is kept as it is: \.\/mock-rule-set\.toml\./);
    assert.match(read(dir, 'mock-rule-set.toml'), /"\/mine"/);
  });

  test('what it writes validates and serves at once', async () => {
    const dir = fresh();
    await runMock(['--init', '--yes', '--middleware'], { cwd: dir });
    const v = await runMock(['validate'], { cwd: dir });
    assert.equal(v.code, 0, v.stderr);
    assert.equal(v.stdout, 'Validation passed (2 rules across 1 rule set(s)).\n');
    const m = await spawnMock([], { cwd: dir });
    try {
      assert.ok(m.stdoutLines.includes('@ rule_set #1 (./mock-rule-set.toml)'));
      assert.equal(await (await fetch(m.url + '/health')).text(), 'ok');
      assert.equal(await (await fetch(m.url + '/greet')).text(), 'Hello, world.');
      assert.equal(await (await fetch(m.url + '/hello')).text(), 'Hello from middleware!');
    } finally {
      await m.stop();
    }
  });
});

/** util-linux `script` is there and can open a pseudo-terminal here */
const hasScript =
  spawnSync('script', ['-qfec', 'test -t 0 && test -t 1', '/dev/null'], {
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 10_000,
  }).status === 0;

/** Runs `mock --init` (plus `extra` arguments) in a pseudo-terminal, answering each prompt once its question appears. */
function initInPty(
  cwd: string,
  answers: readonly (readonly [question: string, keys: string])[],
  extra = '',
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const command = `stty cols 200 rows 50; exec '${process.execPath}' '${MAIN_JS}' --init ${extra}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let next = 0;
    let seenFrom = 0;
    const plain = (): string => output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    const pump = (): void => {
      const text = plain();
      const a = answers[next];
      if (a === undefined) return;
      const at = text.indexOf(a[0], seenFrom);
      if (at < 0) return;
      seenFrom = at + a[0].length;
      next++;
      setTimeout(() => {
        child.stdin.write(a[1]);
        pump();
      }, 50);
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
      pump();
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolvePromise({ code, output: plain() });
    });
  });
}

describe('mock --init in a terminal', { skip: hasScript ? false : 'util-linux `script` is not installed' }, () => {
  test('prompts for IP, port, fallback directory, rule set, middleware and TLS, then writes the answers', async () => {
    const dir = fresh();
    const r = await initInPty(dir, [
      ['Listener IP address', '\r'],
      ['Listener port', '4567\r'],
      ['Fallback response directory', 'public\r'],
      ['Create an example rule-set file', '\r'],
      ['Create a middleware', 'y'],
      ['Enable HTTPS', 'n'],
    ]);
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /Created:/);
    const toml = read(dir, 'mock.toml');
    assert.match(toml, /^ip_address = "127\.0\.0\.1"$/m);
    assert.match(toml, /^port = 4567$/m);
    assert.match(toml, /^fallback_respond_dir = "public"$/m);
    assert.match(toml, /^rule_sets = \["mock-rule-set\.toml"\]$/m);
    assert.match(toml, /^middlewares = \["mock-middleware\.rhai"\]$/m);
    assert.match(toml, /^# \[listener\.tls\]$/m);
    assert.ok(existsSync(join(dir, 'public')), 'the fallback directory is created');
    assert.ok(existsSync(join(dir, 'mock-middleware.rhai')));
  });

  test('declining the rule set and enabling TLS', async () => {
    const dir = fresh();
    const r = await initInPty(dir, [
      ['Listener IP address', '\r'],
      ['Listener port', '\r'],
      ['Fallback response directory', '\r'],
      ['Create an example rule-set file', 'n'],
      ['Create a middleware', 'n'],
      ['Enable HTTPS', 'y'],
    ]);
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /TLS was enabled\. Place `cert\.pem` and `key\.pem`/);
    const toml = read(dir, 'mock.toml');
    assert.match(toml, /^port = 3001$/m);
    assert.match(toml, /^# rule_sets = \["mock-rule-set\.toml"\]$/m);
    assert.match(toml, /^\[listener\.tls\]\ncert = "\.\/cert\.pem"\nkey = "\.\/key\.pem"\n/m);
    assert.deepEqual(readdirSync(dir), ['mock.toml']);
  });

  test('--init --from asks the same listener questions first, then its own', async () => {
    const dir = fresh();
    await writeTree(dir, {
      'api.json': JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'pets', version: '1' },
        paths: {
          '/pets': {
            get: { responses: { '200': { description: 'ok', content: { 'application/json': { example: [] } } } } },
          },
        },
      }),
    });
    const r = await initInPty(
      dir,
      [
        ['Listener IP address', '127.0.0.2\r'],
        ['Listener port', '4568\r'],
        ['URL prefix the API answers under', '\r'],
        ['Rule-set file name', '\r'],
      ],
      '--from api.json',
    );
    assert.equal(r.code, 0, r.output);
    const toml = read(dir, 'mock.toml');
    assert.match(toml, /^ip_address = "127\.0\.0\.2"$/m);
    assert.match(toml, /^port = 4568$/m);
  });

  test('Ctrl-C at a prompt writes nothing', async () => {
    const dir = fresh();
    const r = await initInPty(dir, [['Listener IP address', '\u0003']]);
    assert.notEqual(r.code, 0);
    assert.deepEqual(readdirSync(dir), []);
  });
});
