import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, unlink, utimes, writeFile, chmod, rename } from 'node:fs/promises';
import { stat as fsStatCallback, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createFsSource as createSource, type FsSource, type FsSourceOptions } from './fs-source.js';
import { resolveFallbackFile } from '../../files/lookup.js';
import { fileBody } from '../../files/file-body.js';
import type { FileSource as FileSourceLike } from '../../files/source.js';

const text = (b: Uint8Array | undefined): string | undefined =>
  b === undefined ? undefined : new TextDecoder().decode(b);
const PAST = new Date(Date.now() - 3_600_000);
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let base = '';
/** the current mode's own directory */
let dir = '';
/** every source made by a test, closed at the end (watch mode holds watches) */
const sources = {
  all: [] as FsSource[],
  track(src: FsSource): FsSource {
    this.all.push(src);
    return src;
  },
};
/** a file written with an mtime safely in the past, so the source trusts its cache */
async function settled(name: string, content: string | Uint8Array, when = PAST): Promise<string> {
  const path = join(dir, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  await utimes(path, when, when);
  return path;
}

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'mock-fs-source-'));
});
after(async () => {
  for (const src of sources.all) src.close();
  await rm(base, { recursive: true, force: true });
});

for (const watch of [false, true]) {
  const mode = watch ? 'watch mode' : 'stat mode';
  const createFsSource = (options: FsSourceOptions = {}): FsSource =>
    sources.track(createSource({ watch, ...options }));

  describe(mode, () => {
    before(async () => {
      dir = join(base, watch ? 'watch' : 'stat');
      await mkdir(dir);
    });

    describe(`createFsSource (${mode}): reads`, () => {
      it('an unchanged file is read once and the same bytes object is returned', async () => {
        const src = createFsSource();
        const path = await settled('same.json', '{"a":1}');
        const first = await src.read(path);
        await nextTurn();
        const second = await src.read(path);
        assert.equal(text(first), '{"a":1}');
        assert.equal(second, first);
        assert.equal(src.counters.readFile, 1);
      });

      it('an edit of the same size with a new mtime is served on the next call', async () => {
        const src = createFsSource();
        const path = await settled('edit-same-size.json', '{"v":1}');
        assert.equal(text(await src.read(path)), '{"v":1}');
        await settled('edit-same-size.json', '{"v":2}', new Date(PAST.getTime() + 5_000));
        assert.equal(text(await src.read(path)), '{"v":2}');
      });

      it('an edit of a different size is served on the next call', async () => {
        const src = createFsSource();
        const path = await settled('edit-size.json', '[1]');
        assert.equal(text(await src.read(path)), '[1]');
        await writeFile(path, '[1,2,3]');
        assert.equal(text(await src.read(path)), '[1,2,3]');
      });

      it('an edit that keeps size and mtime is still seen while the mtime is recent (racy entries)', async () => {
        const src = createFsSource();
        const now = new Date();
        const path = await settled('racy.json', 'aaaa', now);
        assert.equal(text(await src.read(path)), 'aaaa');
        await settled('racy.json', 'bbbb', now);
        assert.equal(text(await src.read(path)), 'bbbb');
      });

      it('a recent but unchanged file keeps its bytes object while it settles', async () => {
        const src = createFsSource();
        const path = await settled('fresh.json', '{"fresh":true}', new Date());
        const first = await src.read(path);
        await nextTurn();
        assert.equal(await src.read(path), first);
        assert.equal(src.counters.readFile, 2, 're-read because the mtime is recent');
      });

      it('an edit between two in-process requests in one turn is served (fallback lookup then body)', async () => {
        const src = createFsSource();
        await settled('turn.json', '{"n":1}');
        const serve = async (): Promise<string | undefined> => {
          const file = await resolveFallbackFile(dir, ['turn.json'], src);
          const body = file === undefined ? undefined : await fileBody(file, src);
          return body?.kind === 'ok' ? text(body.body) : undefined;
        };
        assert.equal(await serve(), '{"n":1}');
        writeFileSync(join(dir, 'turn.json'), '{"n":22}'); // synchronously, inside the same turn
        assert.equal(await serve(), '{"n":22}');
      });

      it('a deleted file disappears', async () => {
        const src = createFsSource();
        const path = await settled('gone.json', '{}');
        assert.ok(await src.read(path));
        assert.equal((await src.stat(path))?.kind, 'file');
        await unlink(path);
        assert.equal(await src.read(path), undefined);
        assert.equal(await src.stat(path), undefined);
      });

      it('a file replaced by a rename is served', async () => {
        const src = createFsSource();
        const path = await settled('renamed.json', '"old"');
        assert.equal(text(await src.read(path)), '"old"');
        const tmp = await settled('renamed.tmp', '"new"'); // same size, same mtime, different inode
        await rename(tmp, path);
        assert.equal(text(await src.read(path)), '"new"');
      });

      it('a directory is not a file', async () => {
        const src = createFsSource();
        await mkdir(join(dir, 'a-dir'), { recursive: true });
        assert.equal(await src.read(join(dir, 'a-dir')), undefined);
        assert.equal((await src.stat(join(dir, 'a-dir')))?.kind, 'dir');
      });

      it('a 1 MB file is served from memory', async () => {
        const src = createFsSource();
        const path = await settled('big.json', JSON.stringify({ data: 'x'.repeat(1024 * 1024) }));
        const first = await src.read(path);
        await nextTurn();
        assert.equal(await src.read(path), first);
        assert.equal(src.counters.readFile, 1);
      });

      it('files over maxFileBytes are never cached', async () => {
        const src = createFsSource({ maxFileBytes: 8 });
        const path = await settled('over.json', '"0123456789"');
        const first = await src.read(path);
        await nextTurn();
        const second = await src.read(path);
        assert.notEqual(second, first);
        assert.equal(text(second), '"0123456789"');
        assert.equal(src.counters.readFile, 2);
      });

      it('the byte budget evicts the least recently used file', async () => {
        const src = createFsSource({ budgetBytes: 10 });
        const a = await settled('lru-a.json', '"aaaa"');
        const b = await settled('lru-b.json', '"bbbb"');
        await src.read(a);
        await src.read(b); // 12 bytes > 10: a is evicted
        await nextTurn();
        await src.read(b);
        assert.equal(src.counters.readFile, 2, 'b stayed cached');
        await src.read(a);
        assert.equal(src.counters.readFile, 3, 'a was read again');
      });

      it('an unreadable file throws (answered 500), unlike a missing one', {
        skip:
          process.getuid?.() === 0
            ? 'root ignores permissions (test/e2e/unit-as-user.test.ts runs this as nobody)'
            : false,
      }, async () => {
        const src = createFsSource();
        const path = await settled('locked.json', '{}');
        await chmod(path, 0o000);
        try {
          await assert.rejects(src.read(path));
          assert.equal((await fileBody(path, src)).kind, 'error');
        } finally {
          await chmod(path, 0o644);
        }
      });
    });

    describe(`createFsSource (${mode}): stats, listings, canonical paths`, () => {
      it('stats of one path started in the same turn share one syscall', async () => {
        const src = createFsSource();
        const path = await settled('shared.json', '{}');
        const [a, b, c] = await Promise.all([src.stat(path), src.stat(path), src.stat(path)]);
        assert.deepEqual([a?.kind, b?.kind, c?.kind], ['file', 'file', 'file']);
        assert.equal(src.counters.stat, 1);
        if (watch) return; // a later turn may use the trusted stat (see the watch-mode tests)
        await nextTurn();
        await src.stat(path);
        assert.equal(src.counters.stat, 2, 'a later turn stats again');
      });

      it('concurrent requests for a cold file share one stat, one read and one realpath', async () => {
        const src = createFsSource();
        const path = await settled('cold.json', '{"cold":1}');
        const results = await Promise.all(
          Array.from({ length: 5 }, async () => [await src.realpath(path), await src.read(path)] as const),
        );
        assert.ok(results.every(([real, bytes]) => real === results[0]![0] && bytes === results[0]![1]));
        // two stats: the realpath miss does real I/O, so the reads run in a later turn and stat again (once, shared)
        assert.deepEqual(src.counters, { stat: 2, readFile: 1, readdir: 0, realpath: 1 });
      });

      it('read after a stat in the same turn reuses that stat', async () => {
        const src = createFsSource();
        const path = await settled('reuse.json', '{}');
        await src.realpath(path); // warm the caches: the misses do real I/O, which ends the turn
        await src.read(path);
        await nextTurn();
        const before = src.counters.stat;
        await src.stat(path);
        await src.realpath(path);
        await src.read(path);
        assert.ok(src.counters.stat - before <= (watch ? 1 : 1) && src.counters.stat - before >= (watch ? 0 : 1));
      });

      it('a NUL byte in a path reads as absent', async () => {
        const src = createFsSource();
        assert.equal(await src.stat(join(dir, 'a\0b')), undefined);
        assert.equal(await src.read(join(dir, 'a\0b')), undefined);
      });

      it('listings are sorted, cached while the directory is unchanged, and refreshed after a change', async () => {
        const src = createFsSource();
        const sub = join(dir, 'listing');
        await mkdir(sub);
        await writeFile(join(sub, 'b.json'), '{}');
        await writeFile(join(sub, 'A.json'), '{}');
        await mkdir(join(sub, 'c'));
        await symlink('b.json', join(sub, 'link'));
        await symlink('missing', join(sub, 'dangling'));
        await utimes(sub, PAST, PAST);
        const first = await src.list(sub);
        assert.deepEqual(
          first?.map((e) => `${e.name}:${e.kind}`),
          ['A.json:file', 'b.json:file', 'c:dir', 'dangling:other', 'link:file'],
        );
        await nextTurn();
        assert.equal(await src.list(sub), first);
        assert.equal(src.counters.readdir, 1);
        await writeFile(join(sub, 'new.json'), '{}');
        const second = await src.list(sub);
        assert.ok(second?.some((e) => e.name === 'new.json'));
        assert.equal(await src.list(join(sub, 'b.json')), undefined, 'a file is not listable');
      });

      it('canonical paths are cached per inode and follow a retargeted symlink', async () => {
        const src = createFsSource();
        const t1 = await settled('target-1.json', '1');
        const t2 = await settled('target-2.json', '2');
        const link = join(dir, 'retarget.json');
        await symlink(t1, link);
        const real1 = await src.realpath(link);
        await nextTurn();
        assert.equal(await src.realpath(link), real1);
        assert.equal(src.counters.realpath, 1);
        await unlink(link);
        await symlink(t2, link);
        const real2 = await src.realpath(link);
        assert.notEqual(real2, real1);
        assert.ok(real2?.endsWith('target-2.json'));
        assert.equal(text(await src.read(link)), '2');
      });
    });

    describe(`createFsSource (${mode}) with the fallback lookup`, () => {
      let root = '';
      before(async () => {
        root = join(dir, 'served');
        await mkdir(join(root, 'Sub'), { recursive: true });
        await writeFile(join(dir, 'outside.json'), '"secret"');
        await writeFile(join(root, 'plain.json'), '{}');
        await writeFile(join(root, 'Sub', 'Inner.json'), '{}');
        await symlink(join(root, 'plain.json'), join(root, 'in-link.json'));
        await symlink(join(dir, 'outside.json'), join(root, 'out-link.json'));
        await symlink(dir, join(root, 'out-dir'));
        await symlink(root, join(dir, 'root-link'));
      });

      const cases: ReadonlyArray<readonly [string, readonly string[], string | undefined]> = [
        ['exact', ['plain.json'], 'plain.json'],
        ['extension-less', ['plain'], 'plain.json'],
        ['folded at every segment', ['SUB', 'inner'], 'Sub/Inner.json'],
        ['a symlink inside pointing inside', ['in-link.json'], 'in-link.json'],
        ['a symlink pointing outside', ['out-link.json'], undefined],
        ['a directory symlink pointing outside', ['out-dir', 'outside.json'], undefined],
        [
          'a directory symlink that comes back inside',
          ['out-dir', 'served', 'plain.json'],
          'out-dir/served/plain.json',
        ],
      ];
      for (const [what, segments, expected] of cases) {
        it(what, async () => {
          const src = createFsSource();
          assert.equal(
            await resolveFallbackFile(root, segments, src),
            expected === undefined ? undefined : join(root, expected),
          );
        });
      }

      it('a symlinked root serves its files and still refuses the outside', async () => {
        const src = createFsSource();
        const linked = join(dir, 'root-link');
        assert.equal(await resolveFallbackFile(linked, ['plain.json'], src), join(linked, 'plain.json'));
        assert.equal(await resolveFallbackFile(linked, ['out-link.json'], src), undefined);
      });

      it('a file created after a miss is found on the next request', async () => {
        const src = createFsSource();
        assert.equal(await resolveFallbackFile(root, ['later'], src), undefined);
        await writeFile(join(root, 'LATER.json'), '{}');
        assert.equal(await resolveFallbackFile(root, ['later'], src), join(root, 'LATER.json'));
      });
    });
  });
}

describe('createFsSource (watch mode): trusted stats', {
  skip: process.platform !== 'linux' ? 'inotify only' : false,
}, () => {
  let wdir = '';
  before(async () => {
    wdir = join(base, 'trust');
    await mkdir(wdir);
  });
  const make = (options: FsSourceOptions = {}): FsSource => sources.track(createSource({ watch: true, ...options }));
  const write = async (path: string, content: string, when = PAST): Promise<void> => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    await utimes(path, when, when);
  };
  /** repeat a request until it costs no stat syscall (its stats became trusted); bounded */
  const untilTrusted = async (src: FsSource, request: () => Promise<unknown>): Promise<void> => {
    for (let i = 0; i < 5000; i++) {
      const before = src.counters.stat;
      await request();
      if (src.counters.stat === before) return;
      await nextTurn();
    }
    assert.fail('the stats never became trusted');
  };
  const serve = async (src: FsSource, root: string, segments: readonly string[]): Promise<string | undefined> => {
    const file = await resolveFallbackFile(root, segments, src);
    const body = file === undefined ? undefined : await fileBody(file, src);
    return body?.kind === 'ok' ? text(body.body) : undefined;
  };

  it('once trusted, requests cost no syscall at all', async () => {
    const src = make();
    const root = join(wdir, 'steady');
    await write(join(root, 'a.json'), '{"a":1}');
    await untilTrusted(src, () => serve(src, root, ['a.json']));
    const before = { ...src.counters };
    for (let i = 0; i < 20; i++) assert.equal(await serve(src, root, ['a.json']), '{"a":1}');
    assert.deepEqual(src.counters, before);
  });

  it('an edit keeping size, mtime and (coarse) ctime is served on the next request', async () => {
    const src = make();
    const root = join(wdir, 'same-stat');
    await write(join(root, 'a.json'), '{"v":1}');
    await untilTrusted(src, () => serve(src, root, ['a.json']));
    await write(join(root, 'a.json'), '{"v":2}'); // same size, same (past) mtime
    assert.equal(await serve(src, root, ['a.json']), '{"v":2}');
  });

  it('a file created where a miss was trusted is found on the next request', async () => {
    const src = make();
    const root = join(wdir, 'created');
    await write(join(root, 'other.json'), '{}');
    await untilTrusted(src, () => serve(src, root, ['new.json']));
    await write(join(root, 'new.json'), '"new"');
    assert.equal(await serve(src, root, ['new.json']), '"new"');
  });

  it('a deleted trusted file is gone on the next request', async () => {
    const src = make();
    const root = join(wdir, 'deleted');
    await write(join(root, 'a.json'), '{}');
    await untilTrusted(src, () => serve(src, root, ['a.json']));
    await unlink(join(root, 'a.json'));
    assert.equal(await serve(src, root, ['a.json']), undefined);
  });

  it('a directory swapped in under the same name is served on the next request', async () => {
    const src = make();
    const root = join(wdir, 'swap');
    await write(join(root, 'data', 'a.json'), '"old"');
    await write(join(root, 'next', 'a.json'), '"new"'); // same size and mtime
    await untilTrusted(src, () => serve(src, root, ['data', 'a.json']));
    await rename(join(root, 'data'), join(root, 'data-old'));
    await rename(join(root, 'next'), join(root, 'data'));
    assert.equal(await serve(src, root, ['data', 'a.json']), '"new"');
  });

  it('a synchronous edit inside an I/O callback is served by a request made right after it', async () => {
    const src = make();
    const root = join(wdir, 'sync-edit');
    await write(join(root, 'a.json'), '{"n":1}');
    await untilTrusted(src, () => serve(src, root, ['a.json']));
    const got = await new Promise<string | undefined>((resolve, reject) => {
      // an fs callback runs in the poll phase: the inotify event of this write is polled in the next iteration
      fsStatCallback(root, () => {
        writeFileSync(join(root, 'a.json'), '{"n":2}');
        serve(src, root, ['a.json']).then(resolve, reject);
      });
    });
    assert.equal(got, '{"n":2}');
  });

  it('a symlinked file is never trusted (its target changes elsewhere)', async () => {
    const src = make();
    const root = join(wdir, 'linked');
    await write(join(root, 'elsewhere', 't.json'), '"t1"');
    await symlink(join(root, 'elsewhere', 't.json'), join(root, 'l.json'));
    for (let i = 0; i < 5; i++) await serve(src, root, ['l.json']);
    // a plain file beside the link becoming trusted shows the watches had the time they need
    await write(join(root, 'plain.json'), '{}');
    await untilTrusted(src, () => serve(src, root, ['plain.json']));
    const before = src.counters.stat;
    assert.equal(await serve(src, root, ['l.json']), '"t1"');
    assert.ok(src.counters.stat > before, 'still stats');
    await write(join(root, 'elsewhere', 't.json'), '"t2 longer"');
    assert.equal(await serve(src, root, ['l.json']), '"t2 longer"');
  });

  it('nothing stays trusted longer than maxTrustMs', async (t) => {
    // the trust backstop reads Date.now(): frozen, a stat is trusted for the 0 ms; one tick later it is not
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const src = make({ maxTrustMs: 0 });
    const root = join(wdir, 'ttl');
    await write(join(root, 'a.json'), '{}');
    await untilTrusted(src, () => serve(src, root, ['a.json']));
    t.mock.timers.tick(1);
    const before = src.counters.stat;
    await serve(src, root, ['a.json']);
    assert.ok(src.counters.stat > before);
  });

  it('after close(), every request stats again', async () => {
    const src = make();
    const root = join(wdir, 'closed');
    await write(join(root, 'a.json'), '{}');
    await untilTrusted(src, () => serve(src, root, ['a.json']));
    src.close();
    const before = src.counters.stat;
    assert.equal(await serve(src, root, ['a.json']), '{}');
    assert.ok(src.counters.stat > before);
  });
});

describe('createFsSource: remembered results (remember)', () => {
  let rdir = '';
  before(async () => {
    rdir = join(base, 'remember');
    await mkdir(rdir);
  });
  const write = async (path: string, content: string | Uint8Array, when = PAST): Promise<void> => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    await utimes(path, when, when);
  };
  const serveThrough = async (
    src: FileSourceLike,
    root: string,
    segments: readonly string[],
  ): Promise<string | undefined> => {
    const file = await resolveFallbackFile(root, segments, src);
    const body = file === undefined ? undefined : await fileBody(file, src);
    return body?.kind === 'ok' ? text(body.body) : undefined;
  };
  /** a request as dispatch makes it: through remember(), counting how often the lookup really runs */
  const requester = (src: FsSource, root: string) => {
    let computed = 0;
    const scope = {};
    const request = (segments: readonly string[]): PromiseLike<string | undefined> =>
      src.remember!(scope, segments.join('/'), (files) => {
        computed++;
        return serveThrough(files, root, segments);
      });
    return { request, computed: () => computed };
  };
  /** repeat until a request is answered from memory (no lookup ran); bounded */
  // remembered over several turns in a row: a watch event for the set-up's own write may still arrive a turn or two
  // after the first remembered answer, and must not land inside a test's measured requests
  const untilRemembered = async (r: ReturnType<typeof requester>, segments: readonly string[]): Promise<void> => {
    let steady = 0;
    for (let i = 0; i < 5000; i++) {
      const before = r.computed();
      await r.request(segments);
      steady = r.computed() === before ? steady + 1 : 0;
      if (steady === 5) return;
      await nextTurn();
    }
    assert.fail('the result was never remembered');
  };
  const linux = process.platform === 'linux';
  /**
   * a watch-mode source over `<name>/a.json`, with `/a` already answered from memory; its trust backstop is set far
   * beyond a test's length (its own test covers it), so a loaded machine cannot make it re-stat mid-test
   */
  const rememberedA = async (name: string, content: string) => {
    const src = sources.track(createSource({ watch: true, maxTrustMs: 600_000 }));
    const root = join(rdir, name);
    await write(join(root, 'a.json'), content);
    const r = requester(src, root);
    await untilRemembered(r, ['a']);
    return { src, root, r };
  };

  it('once its stats are trusted, the same request is answered from memory with no syscall', {
    skip: !linux,
  }, async () => {
    const { src, r } = await rememberedA('steady', '{"a":1}');
    const counters = { ...src.counters };
    const computed = r.computed();
    for (let i = 0; i < 20; i++) assert.equal(await r.request(['a']), '{"a":1}');
    assert.equal(r.computed(), computed);
    assert.deepEqual(src.counters, counters);
  });

  for (const [what, change, segments, expected] of [
    ['an edit keeping size and mtime', (root: string) => write(join(root, 'a.json'), '{"v":2}'), ['a'], '{"v":2}'],
    [
      'a file created where a miss was remembered',
      (root: string) => write(join(root, 'new.json'), '"new"'),
      ['new'],
      '"new"',
    ],
    ['a deleted file', (root: string) => unlink(join(root, 'a.json')), ['a'], undefined],
    [
      'a directory swapped in under the same name',
      async (root: string) => {
        await rename(join(root, 'data'), join(root, 'data-old'));
        await rename(join(root, 'next'), join(root, 'data'));
      },
      ['data', 'b'],
      '"new"',
    ],
  ] as const) {
    it(`${what} is served on the next request`, { skip: !linux }, async () => {
      const src = sources.track(createSource({ watch: true }));
      const root = join(rdir, what.replace(/\W+/g, '-'));
      await write(join(root, 'a.json'), '{"v":1}');
      await write(join(root, 'data', 'b.json'), '"old"');
      await write(join(root, 'next', 'b.json'), '"new"');
      // directories whose listings are fresh are re-read (the racy rule) until they settle: settle them now
      for (const d of [root, join(root, 'data'), join(root, 'next')]) await utimes(d, PAST, PAST);
      const r = requester(src, root);
      await untilRemembered(r, segments);
      await change(root);
      assert.equal(await r.request(segments), expected);
    });
  }

  it('a synchronous edit inside an I/O callback is served by a request made right after it', {
    skip: !linux,
  }, async () => {
    const { root, r } = await rememberedA('sync-edit', '{"n":1}');
    const got = await new Promise<string | undefined>((resolve, reject) => {
      fsStatCallback(root, () => {
        writeFileSync(join(root, 'a.json'), '{"n":2}');
        r.request(['a']).then(resolve, reject);
      });
    });
    assert.equal(got, '{"n":2}');
  });

  it("a result resting on a symlink is never remembered, and its target's edits are served", {
    skip: !linux,
  }, async () => {
    const src = sources.track(createSource({ watch: true }));
    const root = join(rdir, 'linked');
    await write(join(root, 'elsewhere', 't.json'), '"t1"');
    await symlink(join(root, 'elsewhere', 't.json'), join(root, 'l.json'));
    const r = requester(src, root);
    for (let i = 0; i < 5; i++) await r.request(['l']);
    // a plain file beside the link being remembered shows the watches had the time they need
    await write(join(root, 'plain.json'), '{}');
    await untilRemembered(r, ['plain']);
    const before = r.computed();
    assert.equal(await r.request(['l']), '"t1"');
    assert.equal(r.computed(), before + 1);
    await write(join(root, 'elsewhere', 't.json'), '"t2 longer"');
    assert.equal(await r.request(['l']), '"t2 longer"');
  });

  it('a file too big to cache is read again on every request, never remembered', { skip: !linux }, async () => {
    const src = sources.track(createSource({ watch: true, maxFileBytes: 16 }));
    const root = join(rdir, 'big');
    await write(join(root, 'big.json'), JSON.stringify({ data: 'x'.repeat(64) }));
    const r = requester(src, root);
    for (let i = 0; i < 10; i++) await r.request(['big']);
    // a small file beside it being remembered shows the watches had the time they need
    await write(join(root, 'small.json'), '{}');
    await untilRemembered(r, ['small']);
    const before = r.computed();
    const reads = src.counters.readFile;
    await r.request(['big']);
    assert.equal(r.computed(), before + 1);
    assert.equal(src.counters.readFile, reads + 1);
  });

  it('nothing is remembered longer than maxTrustMs', { skip: !linux }, async (t) => {
    // the backstop reads Date.now(): frozen, a result is remembered for the 0 ms; one tick later it is not
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const src = sources.track(createSource({ watch: true, maxTrustMs: 0 }));
    const root = join(rdir, 'ttl');
    await write(join(root, 'a.json'), '{}');
    const r = requester(src, root);
    await untilRemembered(r, ['a']);
    t.mock.timers.tick(1);
    const before = r.computed();
    await r.request(['a']);
    assert.equal(r.computed(), before + 1);
  });

  it('in stat mode, and after close(), every request looks again', async () => {
    for (const closeIt of [false, true]) {
      const src = sources.track(createSource({ watch: !closeIt ? false : linux }));
      const root = join(rdir, `look-again-${closeIt}`);
      await write(join(root, 'a.json'), '{"v":1}');
      const r = requester(src, root);
      for (let i = 0; i < 5; i++) await r.request(['a']);
      if (closeIt) src.close();
      const before = r.computed();
      for (let i = 0; i < 3; i++) assert.equal(await r.request(['a']), '{"v":1}');
      assert.equal(r.computed(), before + 3);
    }
  });
});
