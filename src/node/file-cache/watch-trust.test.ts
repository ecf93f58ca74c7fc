import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WatchTrust } from './watch-trust.js';

const linuxOnly = { skip: process.platform !== 'linux' ? 'inotify only' : false };
/** one turn of the event loop: the watches' own checks run between two attempts */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WatchTrust', linuxOnly, () => {
  let base = '';
  const trusts: WatchTrust[] = [];
  const make = (changes: [string, boolean][] = []): WatchTrust => {
    const t = new WatchTrust(60_000, 1000, (path, subtree) => changes.push([path, subtree]));
    trusts.push(t);
    return t;
  };
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'mock-watch-trust-'));
  });
  after(async () => {
    for (const t of trusts) t.close();
    await rm(base, { recursive: true, force: true });
  });

  /** begin → stat → complete, repeated until trusted (watches are checked asynchronously first); bounded */
  const trustPath = async (t: WatchTrust, path: string): Promise<void> => {
    for (let i = 0; i < 5000; i++) {
      await t.gate();
      if (t.lookup(path) !== undefined) return;
      const token = t.begin(path);
      const st = await stat(path).catch(() => undefined);
      if (token !== undefined) t.complete(token, st);
      await nextTurn();
    }
    assert.fail(`${path} never became trusted`);
  };

  it('trusts a plain file under watched, canonical, local directories', async () => {
    const t = make();
    const file = join(base, 'plain', 'a.json');
    await mkdir(join(base, 'plain'));
    await writeFile(file, '{}');
    await trustPath(t, file);
    assert.equal(t.lookup(file)?.st?.isFile(), true);
  });

  it('trusts a missing file (a negative stat) too', async () => {
    const t = make();
    await mkdir(join(base, 'neg'));
    const file = join(base, 'neg', 'none.json');
    await trustPath(t, file);
    assert.equal(t.lookup(file)?.st, undefined);
    assert.ok(t.lookup(file));
  });

  it('an event in the directory forgets the file and the directory, and reports them', async () => {
    const changes: [string, boolean][] = [];
    const t = make(changes);
    const dir = join(base, 'events');
    const file = join(dir, 'a.json');
    await mkdir(dir);
    await writeFile(file, '1');
    await trustPath(t, file);
    await writeFile(file, '2');
    await t.gate();
    assert.equal(t.lookup(file), undefined);
    assert.ok(changes.some(([p, sub]) => p === file && !sub));
    assert.ok(changes.some(([p, sub]) => p === dir && !sub));
  });

  it('renaming a watched directory forgets its whole subtree', async () => {
    const changes: [string, boolean][] = [];
    const t = make(changes);
    const dir = join(base, 'tree', 'inner');
    const file = join(dir, 'a.json');
    await mkdir(dir, { recursive: true });
    await writeFile(file, '1');
    await trustPath(t, file);
    await rename(dir, join(base, 'tree', 'moved'));
    await t.gate();
    assert.equal(t.lookup(file), undefined);
    assert.ok(changes.some(([p, sub]) => p === dir && sub));
  });

  it('never trusts a symlink, nor anything below a symlinked directory', async () => {
    const t = make();
    await mkdir(join(base, 'real'));
    await writeFile(join(base, 'real', 'a.json'), '1');
    await symlink(join(base, 'real', 'a.json'), join(base, 'real', 'link.json'));
    await symlink(join(base, 'real'), join(base, 'linked-dir'));
    const links = [join(base, 'real', 'link.json'), join(base, 'linked-dir', 'a.json')];
    const attempt = async (path: string): Promise<void> => {
      const token = t.begin(path);
      if (token !== undefined) t.complete(token, await stat(path));
    };
    // the links get every attempt the plain file beside them gets, until that file is trusted: a positive
    // signal that the watches had all the time they need, rather than a guessed wait
    const plain = join(base, 'real', 'a.json');
    for (let i = 0; i < 5000 && t.lookup(plain) === undefined; i++) {
      await t.gate();
      for (const path of [plain, ...links]) await attempt(path);
      await nextTurn();
    }
    assert.ok(t.lookup(plain), 'the plain file beside the links became trusted');
    await t.gate();
    for (const path of links) {
      await attempt(path);
      await t.gate();
      assert.equal(t.lookup(path), undefined, path);
    }
  });

  it('a directory is trusted only once it is watched itself', async () => {
    const changes: [string, boolean][] = [];
    const t = make(changes);
    const dir = join(base, 'dir-stat');
    await mkdir(dir);
    await trustPath(t, dir);
    await writeFile(join(dir, 'new.json'), '{}');
    await t.gate();
    assert.equal(t.lookup(dir), undefined, 'a change inside the directory forgets its stat');
  });

  it('paths under missing directories (404 scans) cannot use up the watches', async () => {
    const t = new WatchTrust(60_000, 8);
    trusts.push(t);
    for (let i = 0; i < 100; i++) assert.equal(t.begin(join(base, `missing-${i}`, 'x.json')), undefined);
    const file = join(base, 'after-scan', 'a.json');
    await mkdir(join(base, 'after-scan'));
    await writeFile(file, '{}');
    await trustPath(t, file);
  });

  it('opens the watches a request needs after that request, not in its turn', async () => {
    const t = make();
    const dir = join(base, 'later');
    await mkdir(dir);
    assert.equal(t.begin(join(dir, 'a.json')), undefined, 'no trust before the watches are open');
    assert.equal(t.watchCount, 0, 'no fs.watch() in the turn of the request that needs one');
    await t.gate();
    assert.equal(t.watchCount, 0, 'nor in the gate that follows it');
    for (let i = 0; i < 1000 && t.watchCount === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(t.watchCount >= 3, `the chain from / down to the directory is watched: ${t.watchCount}`);
  });

  it('does not trust paths it cannot reason about', () => {
    const t = make();
    for (const path of ['relative/a.json', '/a/../b.json', '/a//b.json', '/a/./b.json', '/a/b/']) {
      assert.equal(t.begin(path), undefined, path);
    }
  });

  it('the gate waits for a poll phase that began after the call', async () => {
    const t = make();
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      setImmediate(() => {
        // from the check phase: the gate must not open in this same check phase
        const settled = (): void => {
          if (order.length === 2) resolve();
        };
        void t.gate().then(() => {
          order.push('gate');
          settled();
        });
        setImmediate(() => {
          order.push('next check');
          settled();
        });
      });
    });
    assert.deepEqual(order, ['next check', 'gate']);
  });
});
