import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LiveWorkspaceHandle, ReloadEvent, ReloadResult } from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import { WorkspaceWatcher } from './watch.js';

/** A LiveWorkspaceHandle port that counts reload() calls and watches a fixed list of files. */
function handle(
  files: readonly string[],
): LiveWorkspaceHandle & { reloads: number; waitReloads(n: number): Promise<void> } {
  const waiters: (() => void)[] = [];
  const h = {
    reloads: 0,
    generation: 1,
    workspace: {} as Workspace,
    watchedFiles: () => files,
    reload: async (): Promise<ReloadResult> => {
      h.reloads++;
      for (const w of waiters.splice(0)) w();
      return { ok: true, generation: 1, diagnostics: [], outcome: 'unchanged' };
    },
    onReload: (_l: (e: ReloadEvent) => void) => () => undefined,
    onRestored: () => () => undefined,
    async waitReloads(n: number): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (h.reloads < n) {
        if (Date.now() > deadline) throw new Error(`only ${h.reloads} reloads`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
  };
  return h;
}

test('WorkspaceWatcher: one handle per directory, events filtered by name, a burst is one reload', async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mock-watch-')));
  try {
    const a = join(dir, 'a.toml');
    const b = join(dir, 'b.toml');
    writeFileSync(a, '1');
    const h = handle([a, b, join(dir, 'later', 'c.toml')]);
    const failures: string[] = [];
    const w = new WorkspaceWatcher(h, { onWatchFailed: (d, code) => failures.push(`${d} ${code}`) });
    assert.equal(w.watching, 3);
    w.start();
    assert.equal(w.handles, 1, 'the folder, which also stands in for its missing subfolder');
    writeFileSync(join(dir, 'unrelated.txt'), 'x');
    for (let i = 0; i < 20; i++) writeFileSync(a, String(i));
    await h.waitReloads(1);
    // a later event that matters (a missing file appearing) gives exactly one more; the unrelated one gave none
    writeFileSync(b, 'new');
    await h.waitReloads(2);
    assert.equal(h.reloads, 2, 'the burst of 21 writes was one reload');
    mkdirSync(join(dir, 'later'));
    await h.waitReloads(3);
    w.update();
    assert.equal(w.handles, 2, 'the new folder is watched itself once it exists');
    writeFileSync(join(dir, 'later', 'c.toml'), 'c');
    await h.waitReloads(4);
    assert.equal(h.reloads, 4);
    w.close();
    assert.equal(w.handles, 0);
    assert.deepEqual(failures, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
