// Live workspace, through the real program: edits to mock.toml, rule sets and scripts apply without a restart
// (docs/live-reload.md). Each test starts `mock` on 127.0.0.1 port 0 in its own temporary workspace and waits
// on the program's own output lines, never on a bare sleep.
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import {
  get,
  path,
  reloadLines,
  rulesToml,
  saveByRename,
  saveLikeVim,
  waitFor,
  waitRejected,
  waitReloaded,
  waitServed,
} from './live-reload-helpers.js';

const CONFIG = '[service]\nrule_sets = ["rules.toml"]\n';

async function withMock(
  files: Record<string, string>,
  args: readonly string[],
  body: (m: RunningMock, dir: string) => Promise<void>,
  autoPort = true,
): Promise<void> {
  const dir = makeTempDir('mock-live-');
  await writeTree(dir, files);
  const m = await spawnMock(args, { cwd: dir, autoPort });
  try {
    await body(m, dir);
  } finally {
    await m.stop();
    await removeDir(dir);
  }
}

test('1. an in-place edit, a rename-over save and a vim backup save each reload exactly once', async (t) => {
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) }, [], async (m, dir) => {
    const rules = path(dir, 'rules.toml');
    assert.ok(
      m.stdoutLines.includes('Watching 2 files for changes (--no-watch to turn off)'),
      m.stdoutLines.join('\n'),
    );
    assert.match(m.stdoutLines.at(-1)!, /^Listening on /);
    assert.equal(await get(m.port, '/a'), 'v1');

    await writeFile(rules, rulesToml([['/a', 'v2']]));
    const took = await waitServed(m.port, '/a', 'v2');
    // how soon is a figure, not a bound: bench and reliability suite keep timings (an edit never served fails waitServed)
    t.diagnostic(`edit served after ${took} ms`);
    assert.match(
      await waitReloaded(m, 2),
      /^reloaded generation 2 after change to \.\/rules\.toml \(1 rule across 1 rule set, \d+ ms\)$/,
    );

    await saveByRename(rules, rulesToml([['/a', 'v3']]));
    await waitServed(m.port, '/a', 'v3');
    await waitReloaded(m, 3);

    await saveLikeVim(rules, rulesToml([['/a', 'v4']]));
    await waitServed(m.port, '/a', 'v4');
    await waitReloaded(m, 4);

    // a last edit: had any save above reloaded twice, this one would not be generation 5
    await writeFile(rules, rulesToml([['/a', 'v5']]));
    await waitReloaded(m, 5);
    assert.equal(await get(m.port, '/a'), 'v5');
    assert.equal(reloadLines(m).length, 4, reloadLines(m).join('\n'));
    assert.equal(m.stderr(), '');
  });
});

test('1b. a touch (identical content) reloads nothing', async () => {
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) }, [], async (m, dir) => {
    const rules = path(dir, 'rules.toml');
    await writeFile(rules, rulesToml([['/a', 'v1']]));
    await saveByRename(rules, rulesToml([['/a', 'v1']]));
    await writeFile(rules, rulesToml([['/a', 'v2']]));
    // the identical saves printed nothing: the first line is the real change's, as generation 2
    await waitReloaded(m, 2);
    assert.equal(reloadLines(m).length, 1);
  });
});

test('2. a burst of 50 writes, each a change event of its own: at most 3 reloads, the final content served', async () => {
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'w0']]) }, [], async (m, dir) => {
    const rules = path(dir, 'rules.toml');
    // the writes are paced by a watcher of the test's own: each is seen as a change before the next is made, so
    // the server's watcher gets 50 separate events too (written back to back, they could fold into one)
    let seen = 0;
    let onSeen: (() => void) | undefined;
    const watcher = watch(rules, () => {
      seen++;
      onSeen?.();
    });
    try {
      for (let i = 1; i <= 50; i++) {
        const before = seen;
        const changed = new Promise<void>((resolve) => {
          onSeen = () => {
            if (seen > before) resolve();
          };
        });
        await writeFile(rules, rulesToml([['/a', `w${i}`]]));
        await changed;
      }
    } finally {
      watcher.close();
    }
    await waitServed(m.port, '/a', 'w50');
    const lines = reloadLines(m);
    assert.ok(lines.length >= 1 && lines.length <= 3, lines.join('\n'));
    assert.equal(m.stderr(), '', 'a half-written save never prints an error');
  });
});

const BAD_EDITS: readonly {
  readonly name: string;
  readonly files: Record<string, string>;
  readonly bad: readonly [file: string, text: string];
  readonly where: RegExp;
  readonly fix: readonly [file: string, text: string];
  readonly fixed: readonly [path: string, text: string];
}[] = [
  {
    name: 'unknown key url_pth',
    files: { 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) },
    bad: ['rules.toml', '[[rules]]\nwhen.request.url_pth = "/a"\nrespond.text = "v2"\n'],
    where: /^\.\/rules\.toml:2:\d+: error: rule #1: unknown key `url_pth`.*allowed keys: .*did you mean `url_path`/m,
    fix: ['rules.toml', rulesToml([['/a', 'v2']])],
    fixed: ['/a', 'v2'],
  },
  {
    name: 'TOML syntax error',
    files: { 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) },
    bad: ['rules.toml', '[[rules]]\nwhen.request.url_path = "/a\nrespond.text = "v2"\n'],
    where: /^\.\/rules\.toml:\d+:\d+: error: /m,
    fix: ['rules.toml', rulesToml([['/a', 'v2']])],
    fixed: ['/a', 'v2'],
  },
  {
    name: 'missing rule set',
    files: { 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) },
    bad: ['mock.toml', '[service]\nrule_sets = ["rules.toml", "more.toml"]\n'],
    where: /^\.\/mock\.toml:2:\d+: error: .*more\.toml/m,
    fix: ['more.toml', rulesToml([['/b', 'v2']])],
    fixed: ['/b', 'v2'],
  },
  {
    name: 'Rhai syntax error',
    files: {
      'mock.toml': CONFIG + 'middlewares = ["mw.rhai"]\n',
      'rules.toml': rulesToml([['/a', 'v1']]),
      'mw.rhai': 'if url_path == "/m" { return #{ text: "m1" }; }\n',
    },
    bad: ['mw.rhai', 'if url_path == "/m" { return #{ text: "m2" }\nlet = ;\n'],
    where: /^\.\/mw\.rhai:\d+:\d+: error: /m,
    fix: ['mw.rhai', 'if url_path == "/m" { return #{ text: "m2" }; }\n'],
    fixed: ['/m', 'm2'],
  },
];

for (const c of BAD_EDITS) {
  test(`3. an invalid edit (${c.name}) keeps the last good workspace; the fix applies`, async () => {
    await withMock(c.files, [], async (m, dir) => {
      await writeFile(path(dir, c.bad[0]), c.bad[1]);
      const stderr = await waitRejected(m, 1);
      assert.match(stderr, /^reload rejected; generation 1 keeps serving$/m);
      assert.match(stderr, c.where);
      for (let round = 0; round < 20; round++) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => get(m.port, '/a')));
        assert.deepEqual(new Set(answers), new Set(['v1']));
      }
      await writeFile(path(dir, c.fix[0]), c.fix[1]);
      await waitServed(m.port, c.fixed[0], c.fixed[1]);
      await waitReloaded(m, 2);
      assert.equal(m.stdoutLines.filter((l) => l.startsWith('Listening on')).length, 1, 'the process never restarted');
    });
  });
}

test('3b. a .json respond target made invalid is a warning on reload: the rules edit applies', async () => {
  const rules = (text: string): string =>
    `[[rules]]\nwhen.request.url_path = "/d"\nrespond.file_path = "data.json"\n\n${rulesToml([['/a', text]])}`;
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': rules('v1'), 'data.json': '{"ok": 1}' }, [], async (m, dir) => {
    await writeFile(path(dir, 'data.json'), '{"ok": ');
    await writeFile(path(dir, 'rules.toml'), rules('v2'));
    await waitServed(m.port, '/a', 'v2');
    await waitFor('the warning', () =>
      /warning: .*data\.json.*not valid JSON.*next start will refuse it/.test(m.stderr()) ? true : undefined,
    );
    assert.equal(await get(m.port, '/d'), '{"ok": ', 'served as written');
    assert.doesNotMatch(m.stderr(), /reload rejected/);
  });
});

test('4. a delayed answer in flight finishes on its workspace; the next request gets the new one', async () => {
  const slow = (text: string): string =>
    `[[rules]]\nwhen.request.url_path = "/slow"\nrespond = { text = "${text}", delay_response_milliseconds = 1500 }\n`;
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': slow('old') }, [], async (m, dir) => {
    let answeredAt = 0;
    const inFlight = get(m.port, '/slow').then((body) => ((answeredAt = Date.now()), body));
    await waitFor('the request to arrive', () => (m.stdoutLines.some((l) => l === '<- /slow') ? true : undefined));
    await writeFile(path(dir, 'rules.toml'), slow('new'));
    await waitReloaded(m, 2);
    const reloadedAt = Date.now();
    assert.equal(await inFlight, 'old');
    assert.ok(answeredAt >= reloadedAt, 'the reload happened while the request was in flight');
    assert.equal(await get(m.port, '/slow'), 'new');
  });
});

test('5. round-robin counters survive unrelated edits and insertions above; editing the group restarts it', async () => {
  const group = (a2 = 'A2'): string =>
    rulesToml([
      ['/rr', 'A1'],
      ['/rr', a2],
      ['/rr', 'A3'],
    ]);
  const file = (above: string, a2?: string, other = 'o1'): string =>
    `strategy = "round_robin"\n\n${above}${group(a2)}\n${rulesToml([['/other', other]])}`;
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': file('') }, [], async (m, dir) => {
    const rules = path(dir, 'rules.toml');
    let generation = 1;
    const edit = async (text: string): Promise<void> => {
      await writeFile(rules, text);
      await waitReloaded(m, ++generation);
    };
    assert.equal(await get(m.port, '/rr'), 'A1');
    await edit(`# a comment\n${file('', undefined, 'o2')}`);
    assert.equal(await get(m.port, '/rr'), 'A2', 'an unrelated edit keeps the rotation');
    await edit(file(rulesToml([['/zzz', 'Z']]) + '\n', undefined, 'o2'));
    assert.equal(await get(m.port, '/rr'), 'A3', 'a non-matching rule inserted above keeps the rotation');
    assert.equal(await get(m.port, '/rr'), 'A1');
    await edit(file(rulesToml([['/zzz', 'Z']]) + '\n', 'A2 edited', 'o2'));
    assert.equal(await get(m.port, '/rr'), 'A1', 'editing a rule of the group restarts it');
    assert.equal(await get(m.port, '/rr'), 'A2 edited');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

test('6. a listener port edit is reported and not applied; the old port serves the new rules', async () => {
  const port = await freePort();
  const config = (p: number): string => `[listener]\nip_address = "127.0.0.1"\nport = ${p}\n\n${CONFIG}`;
  await withMock(
    { 'mock.toml': config(port), 'rules.toml': rulesToml([['/a', 'v1']]) },
    [],
    async (m, dir) => {
      assert.equal(m.port, port);
      const other = port === 65535 ? port - 1 : port + 1;
      await writeFile(path(dir, 'mock.toml'), config(other));
      await writeFile(path(dir, 'rules.toml'), rulesToml([['/a', 'v2']]));
      await waitServed(m.port, '/a', 'v2');
      const line = `listener.port changed ${port} → ${other}: restart mock to apply; still listening on http://127.0.0.1:${port}`;
      await waitFor(line, () => (m.stdoutLines.includes(line) ? true : undefined));
    },
    false,
  );
});

test('7. --no-watch (mock and mock serve): an edit is not served, and no watch line', async () => {
  // a watching server over a workspace of its own is the control: the same edit, made to both at once, is
  // served by it, so the --no-watch server had the time a watching one needs and still answers the old rule
  await withMock({ 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) }, [], async (control, controlDir) => {
    let generation = 1;
    for (const args of [['--no-watch'], ['serve', '--no-watch']]) {
      await withMock({ 'mock.toml': CONFIG, 'rules.toml': rulesToml([['/a', 'v1']]) }, args, async (m, dir) => {
        assert.ok(!m.stdoutLines.some((l) => l.startsWith('Watching ')), m.stdoutLines.join('\n'));
        const edited = rulesToml([['/a', `v${generation + 1}`]]);
        await Promise.all([
          writeFile(path(dir, 'rules.toml'), edited),
          writeFile(path(controlDir, 'rules.toml'), edited),
        ]);
        generation++;
        await waitServed(control.port, '/a', `v${generation}`);
        await waitReloaded(control, generation);
        assert.equal(await get(m.port, '/a'), 'v1');
        assert.equal(reloadLines(m).length, 0);
      });
    }
  });
});

test('8. on a zero-config server, `mock set rule --path /a --text hi` is served without a restart', async (t) => {
  await withMock({ 'page.txt': 'file' }, [], async (m, dir) => {
    assert.ok(m.stdoutLines.includes('Watching 1 file for changes (--no-watch to turn off)'), m.stdoutLines.join('\n'));
    assert.equal(await get(m.port, '/page.txt'), 'file');
    const set = await runMock(['set', 'rule', '--path', '/a', '--text', 'hi'], { cwd: dir });
    assert.equal(set.code, 0, set.stderr);
    const took = await waitServed(m.port, '/a', 'hi');
    await waitReloaded(m, 2);
    t.diagnostic(`set rule served after ${took} ms`);
  });
});
