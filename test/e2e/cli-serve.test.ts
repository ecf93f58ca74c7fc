// `mock` / `mock serve`: startup lines, zero-config, ./mock.toml, flags, failures before binding, signals.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree } from '../helpers/mock-cli.js';

let empty: string;
let ws: string;

before(async () => {
  empty = makeTempDir();
  ws = makeTempDir();
  await writeTree(ws, {
    'mock.toml': '[service]\nrule_sets = ["mock-rule-set.toml", "second.toml"]\n',
    'mock-rule-set.toml': '[[rules]]\nwhen.request.url_path = "/text"\nrespond.text = "hello"\n',
    'second.toml': '[[rules]]\nwhen.request.url_path = "/two"\nrespond.json = \'{"two":2}\'\n',
    'api/users.json': '{"users": []}',
    'cfg/mock.toml': '[service]\nrule_sets = ["rs/rules.toml"]\n',
    'cfg/rs/rules.toml': '[[rules]]\nwhen.request.url_path = "/c"\nrespond.text = "c"\n',
    'public/page.json': '{"page":1}',
    'bad/mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
    'bad/rs.toml': '[[rules]]\nwhen.request.url_pth = "/x"\nrespond.text = "x"\n',
    'tls/mock.toml': '[listener.tls]\ncert = "tls/cert.pem"\nkey = "tls/key.pem"\n',
    'tls/cert.pem': 'not a certificate\n',
    'tls/key.pem': 'not a key\n',
  });
});
after(async () => {
  await removeDir(empty);
  await removeDir(ws);
});

/** The lines from the first `@ rule_set` (or `Listening`) line on, with the port made neutral. */
function startupTail(lines: readonly string[]): string[] {
  const start = lines.findIndex((l) => l.startsWith('@ rule_set') || l.startsWith('Listening on'));
  const end = lines.findIndex((l) => l.startsWith('Listening on'));
  return lines.slice(start, end + 1).map((l) => l.replace(/:\d+ \.\.\.$/, ':<port> ...'));
}

describe('zero-config', () => {
  test('with no config in an empty directory, every request answers 404 with an empty body', async () => {
    const m = await spawnMock([], { cwd: empty });
    try {
      assert.deepEqual(startupTail(m.stdoutLines), ['Listening on http://127.0.0.1:<port> ...']);
      assert.equal(m.url, `http://127.0.0.1:${m.port}`);
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/anything'],
        ['GET', '/a/b.json'],
        ['POST', '/x'],
        ['DELETE', '/x?y=1'],
      ] as const) {
        const res = await fetch(m.url + path, {
          method,
          ...(method === 'POST' ? { body: '{"a":1}', headers: { 'content-type': 'application/json' } } : {}),
        });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(await res.text(), '');
      }
    } finally {
      assert.equal(await m.stop(), 0);
    }
  });
});

describe('startup lines', () => {
  test('./mock.toml is loaded automatically: one @ rule_set line per file, then Listening', async () => {
    const m = await spawnMock([], { cwd: ws });
    try {
      assert.deepEqual(
        startupTail(m.stdoutLines).filter((l) => l.startsWith('@') || l.startsWith('Listening')),
        [
          '@ rule_set #1 (./mock-rule-set.toml)',
          '@ rule_set #2 (./second.toml)',
          'Listening on http://127.0.0.1:<port> ...',
        ],
      );
      const res = await fetch(m.url + '/text');
      assert.equal(await res.text(), 'hello');
      assert.equal((await fetch(m.url + '/api/users')).status, 200);
    } finally {
      await m.stop();
    }
  });

  test('`mock` and `mock serve` print the same startup lines', async () => {
    const a = await spawnMock([], { cwd: ws });
    const b = await spawnMock(['serve'], { cwd: ws });
    try {
      assert.deepEqual(startupTail(a.stdoutLines), startupTail(b.stdoutLines));
      const head = (lines: string[]): string[] =>
        lines
          .slice(
            0,
            lines.findIndex((l) => l.startsWith('Listening')),
          )
          .map((l) => l.replace(/:\d+/, ''));
      assert.deepEqual(head(a.stdoutLines), head(b.stdoutLines));
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  test('-c with a bare relative path resolves like ./ and the rule-set path is shown through the config dir', async () => {
    for (const c of ['cfg/mock.toml', './cfg/mock.toml', '--config=cfg/mock.toml']) {
      const m = await spawnMock(c.startsWith('--') ? [c] : ['-c', c], { cwd: ws });
      try {
        assert.ok(m.stdoutLines.includes('@ rule_set #1 (./cfg/rs/rules.toml)'), m.stdoutLines.join('\n'));
        assert.equal(await (await fetch(m.url + '/c')).text(), 'c');
      } finally {
        await m.stop();
      }
    }
  });

  test('-d serves another fallback directory', async () => {
    const m = await spawnMock(['serve', '-d', 'public'], { cwd: ws });
    try {
      const res = await fetch(m.url + '/page');
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '{"page":1}');
    } finally {
      await m.stop();
    }
  });

  test('the request log goes to stdout', async () => {
    const m = await spawnMock([], { cwd: empty });
    try {
      await (await fetch(m.url + '/logged-path')).text();
      for (let i = 0; i < 50 && !m.stdoutLines.some((l) => l.includes('/logged-path')); i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(
        m.stdoutLines.some((l) => l.includes('/logged-path')),
        m.stdoutLines.join('\n'),
      );
    } finally {
      await m.stop();
    }
  });
});

describe('failures', () => {
  test('a config error exits 2 before binding, with file:line:column and no stack trace', async () => {
    for (const args of [
      ['-c', 'bad/mock.toml', '-p', '0'],
      ['serve', '-c', 'bad/mock.toml', '-p', '0'],
    ]) {
      const r = await runMock(args, { cwd: ws });
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stdout, /Listening on/);
      assert.match(r.stderr, /bad\/rs\.toml:2:14: error: .*url_pth.*did you mean `url_path`\?/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  test('a missing -c file exits 2', async () => {
    const r = await runMock(['-c', 'nope.toml', '-p', '0'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /nope\.toml/);
  });

  test('an unparseable TLS cert or key stops the process before any listener binds, naming the file', async () => {
    const r = await runMock(['-c', 'tls/mock.toml', '-p', '0'], { cwd: ws });
    assert.notEqual(r.code, 0);
    assert.doesNotMatch(r.stdout, /Listening on/);
    assert.match(r.stderr, /(cert|key)\.pem/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  test('a port in use exits 1 with a message on stderr', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((res) => blocker.listen(0, '127.0.0.1', res));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runMock(['-p', String(port)], { cwd: empty });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout, /Listening on/);
      assert.match(r.stderr, new RegExp(`^mock: .*${port}`));
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    } finally {
      await new Promise((res) => blocker.close(res));
    }
  });
});

describe('shutdown', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} closes the server and exits 0`, async () => {
      const m = await spawnMock([], { cwd: empty });
      m.signal(signal);
      assert.equal(await m.stop(), 0);
    });
  }
});

describe('the request log on stdout (batched)', () => {
  test('every request is logged, whole and in order, under concurrent load and with a line far above the batch size', async () => {
    const dir = makeTempDir();
    try {
      await writeTree(dir, {
        'mock.toml': '[log.verbose]\nbody = true\n',
        'mock-rule-set.toml': '',
      });
      const m = await spawnMock([], { cwd: dir });
      try {
        // 400 GETs, 50 at a time, each waiting for its answer: their log lines must come out in answer order
        const order: number[] = [];
        for (let wave = 0; wave < 8; wave++) {
          await Promise.all(
            Array.from({ length: 50 }, async (_, k) => {
              const n = wave * 50 + k;
              const res = await fetch(`${m.url}/n/${n}`);
              await res.arrayBuffer();
              order.push(n);
            }),
          );
        }
        // one JSON body whose pretty-printed line is ~600 KB (above the 256 KiB batch): logged whole
        const big = 'x'.repeat(600_000);
        const res = await fetch(`${m.url}/big`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ big }),
        });
        await res.arrayBuffer();
        const logged = async (): Promise<string[]> => m.stdoutLines.filter((l) => l.startsWith('<- /n/'));
        for (
          let i = 0;
          i < 200 && ((await logged()).length < 400 || !m.stdoutLines.some((l) => l.includes(big)));
          i++
        ) {
          await new Promise((r) => setTimeout(r, 10));
        }
        const paths = (await logged()).map((l) => Number(l.slice('<- /n/'.length)));
        assert.equal(paths.length, 400);
        assert.deepEqual(new Set(paths).size, 400);
        // within a wave the server may log in any order it received them; waves never interleave
        for (let wave = 0; wave < 8; wave++) {
          assert.deepEqual(
            paths.slice(wave * 50, wave * 50 + 50).sort((a, b) => a - b),
            Array.from({ length: 50 }, (_, k) => wave * 50 + k),
          );
        }
        assert.ok(m.stdoutLines.includes(`  "big": "${big}"`), 'the long line is logged whole');
        // each request's two summary lines stay together
        const at = m.stdoutLines.indexOf('<- /n/7');
        assert.match(m.stdoutLines[at + 1]!, /^ {3}\[GET\] \[HTTP\/1\.1\] request received \(at \d\d:\d\d:\d\d UTC\)$/);
      } finally {
        await m.stop();
      }
    } finally {
      await removeDir(dir);
    }
  });
});
