// A broken live edit that is then undone prints one `fixed:` line, so the last line in the terminal is never a
// stale error (docs/live-reload.md).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { path, rulesToml, saveByRename, waitFor, waitRejected } from './live-reload-helpers.js';

let dir: string;
let mock: RunningMock;
const good = rulesToml([['/a', 'v1']]);
before(async () => {
  dir = makeTempDir();
  await writeTree(dir, { 'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n', 'rules.toml': good });
  mock = await spawnMock([], { cwd: dir });
});
after(async () => {
  await mock.stop();
  await removeDir(dir);
});

test('break, then undo: one fixed line naming the file and the generation still serving', async () => {
  await saveByRename(path(dir, 'rules.toml'), '[[rules]\n');
  await waitRejected(mock, 1);
  await saveByRename(path(dir, 'rules.toml'), good);
  const line = await waitFor('a fixed: line', () => mock.stdoutLines.find((l) => l.startsWith('fixed: ')));
  assert.equal(line, 'fixed: ./rules.toml loads again; generation 1 still serving');
});
