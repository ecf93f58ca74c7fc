// Live reload costs nothing it keeps: after 200 edit-and-reload cycles (counted after 20 to warm up) the process
// holds the same open file descriptors as before and its RSS grew by less than 20 MB. (That an idle watching server
// uses almost no CPU is a timing over a window: test/reliability/idle-cpu.test.ts.) Read from /proc of the real
// program (Linux only; skipped elsewhere). Each cycle waits on its own reload line.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { makeTempDir, removeDir, spawnMock, writeTree } from '../helpers/mock-cli.js';
import { get, openFds, path, rssBytes, rulesToml, waitFor, waitReloaded } from './live-reload-helpers.js';

const CYCLES = 200;
/** reload cycles before the measure starts */
const WARM_UP = 20;

test('9. 200 edit cycles leave fds and RSS where they were', { skip: !existsSync('/proc/self/fd') }, async (t) => {
  const dir = makeTempDir('mock-live-res-');
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml", "more.toml"]\nmiddlewares = ["mw.rhai"]\n',
    'rules.toml': rulesToml([['/a', 'c0']]),
    'more.toml':
      'strategy = "round_robin"\n' +
      rulesToml([
        ['/rr', 'r1'],
        ['/rr', 'r2'],
      ]),
    'mw.rhai': 'if url_path == "/m" { return #{ text: "m" }; }\n',
  });
  const m = await spawnMock([], { cwd: dir });
  try {
    let lastA = 'c1';
    const cycle = async (i: number): Promise<void> => {
      const file = i % 3 === 0 ? 'more.toml' : 'rules.toml';
      const text =
        file === 'more.toml'
          ? 'strategy = "round_robin"\n' +
            rulesToml([
              ['/rr', `r${i}`],
              ['/rr', 'r2'],
            ])
          : rulesToml([['/a', `c${i}`]]);
      if (file === 'rules.toml') lastA = `c${i}`;
      await writeFile(path(dir, file), text);
      await waitReloaded(m, i + 1);
      if (i % 20 === 0) await get(m.port, '/rr');
    };
    // warm up: a few requests and the first WARM_UP cycles, so lazily loaded code (interpreter, file cache) is in,
    // the heap has grown to its working size (its first steps are several MB each, whatever the reloads keep) and
    // the warm-up connections are closed on the server's side by the time the reload line is out
    for (const p of ['/a', '/rr', '/m', '/none']) await get(m.port, p);
    await writeFile(path(dir, 'rules.toml'), rulesToml([['/a', 'c1']]));
    await waitReloaded(m, 2);
    for (let i = 2; i < 2 + WARM_UP; i++) await cycle(i);
    const fdsBefore = openFds(m.pid);
    const rssBefore = rssBytes(m.pid);
    for (let i = 2 + WARM_UP; i < 2 + WARM_UP + CYCLES; i++) await cycle(i);
    assert.equal(await get(m.port, '/a'), lastA);

    // the client's sockets close asynchronously on the server's side: wait for the count to settle back
    await waitFor(`the open fd count back to ${fdsBefore} (now ${openFds(m.pid)})`, () =>
      openFds(m.pid) === fdsBefore ? true : undefined,
    );
    const grown = rssBytes(m.pid) - rssBefore;
    assert.ok(grown < 20 * 1024 * 1024, `RSS grew ${(grown / 1048576).toFixed(1)} MB`);

    assert.equal(m.stderr(), '');
    t.diagnostic(
      `fds ${fdsBefore} → ${openFds(m.pid)}; RSS +${(grown / 1048576).toFixed(1)} MB over ${CYCLES} reloads`,
    );
  } finally {
    await m.stop();
    await removeDir(dir);
  }
});
