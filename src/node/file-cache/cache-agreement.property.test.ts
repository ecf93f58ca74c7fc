// Property: the cached file source answers every request as the uncached one does, over a random sequence of
// edits to a real folder (writes of new and same-size content, deletions, new folders, renames). dispatch() runs
// each request against a zero-config workspace whose fallback folder is that folder, once through each source;
// status, content type and body must agree. Both of the cache's freshness modes are checked: watch (inotify,
// Linux only) and stat.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { makeWorkspace } from '../../../test/e2e/server-harness.js';
import { req } from '../../../test/helpers/routing-fixtures.js';
import { dispatch, prepareWorkspace, type Outcome } from '../../dispatch/dispatch.js';
import type { FileSource } from '../../files/source.js';
import { RotationState } from '../../routing/rotation.js';
import { MemoryStore } from '../../state/store.js';
import { createFsSource } from './fs-source.js';
import { uncachedSource } from './uncached-source.js';
import { cases } from '../../../test/helpers/test-loop.js';

const FILES = ['a.json', 'a.json5', 'b.txt', 'index.json', 'sub/x.json', 'sub/index.html', 'sub/deep/y.csv'] as const;
const DIRS = ['sub', 'sub/deep', 'a'] as const;
// same-size pairs ({"v":1} / {"v":2}) make edits that keep size and, within the clock's grain, mtime
const CONTENTS = ['{"v":1}', '{"v":2}', '{v: 3, // five\n}', 'a,b\n1,2\n', 'plain', '', '<p>hi</p>'] as const;
const PATHS = [
  '/',
  '/a',
  '/a.json',
  '/a.json5',
  '/b',
  '/b.txt',
  '/index',
  '/sub',
  '/sub/',
  '/sub/x',
  '/sub/index.html',
  '/sub/deep/y',
  '/sub/deep/y.csv',
  '/a/',
];

type Edit =
  | { readonly kind: 'write'; readonly file: string; readonly content: string }
  | { readonly kind: 'remove'; readonly path: string }
  | { readonly kind: 'mkdir'; readonly dir: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string };

const anyPath = fc.constantFrom<string>(...FILES, ...DIRS);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      file: fc.constantFrom<string>(...FILES),
      content: fc.constantFrom<string>(...CONTENTS),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), path: anyPath }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mkdir' as const), dir: fc.constantFrom<string>(...DIRS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), from: anyPath, to: anyPath }) },
);

/** Applies an edit; one the folder's state refuses (a file where a folder is needed, a missing source) is a no-op. */
function apply(root: string, e: Edit): void {
  try {
    switch (e.kind) {
      case 'write':
        mkdirSync(dirname(join(root, e.file)), { recursive: true });
        writeFileSync(join(root, e.file), e.content);
        break;
      case 'remove':
        rmSync(join(root, e.path), { recursive: true, force: true });
        break;
      case 'mkdir':
        mkdirSync(join(root, e.dir), { recursive: true });
        break;
      case 'rename':
        renameSync(join(root, e.from), join(root, e.to));
        break;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOTEMPTY', 'EINVAL'].includes(code ?? '')) throw err;
  }
}

function view(o: Outcome): { status: number; type: string | undefined; body: string } {
  const type = o.answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return { status: o.answer.status, type, body: Buffer.from(o.answer.body).toString('latin1') };
}

async function answer(files: FileSource, root: string, path: string): Promise<ReturnType<typeof view>> {
  const ws = makeWorkspace({ fallbackDir: root });
  prepareWorkspace(ws);
  const env = {
    files,
    rotation: new RotationState(),
    state: new MemoryStore(),
    random: () => 0.5,
    log: () => undefined,
  };
  return view(await dispatch(ws, req({ path }), env));
}

for (const watch of process.platform === 'linux' ? [true, false] : [false]) {
  test(`the cache (${watch ? 'watch' : 'stat'} mode) answers as the uncached source does, over random edits`, async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 12 }), async (edits) => {
        runs++;
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'mock-cache-agree-')));
        const cached = createFsSource({ watch });
        const uncached = uncachedSource();
        try {
          for (const e of [undefined, ...edits]) {
            if (e !== undefined) apply(root, e);
            for (const path of PATHS) {
              const want = await answer(uncached, root, path);
              assert.deepEqual(await answer(cached, root, path), want, `${path} after ${JSON.stringify(e)}`);
            }
          }
        } finally {
          cached.close();
          rmSync(root, { recursive: true, force: true });
        }
      }),
      cases(20),
    );
    assert.equal(runs >= cases(20).numRuns, true);
  });
}
