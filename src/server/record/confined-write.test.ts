import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfined } from './confined-write.js';

describe('writeConfined', () => {
  let base: string;
  let root: string;
  const bytes = new TextEncoder().encode('{"a":1}');
  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'mock-confined-')));
    root = join(base, 'root');
    mkdirSync(join(root, 'inner'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    symlinkSync('../outside', join(root, 'out'));
    symlinkSync('inner', join(root, 'alias'));
    writeFileSync(join(root, 'taken.json'), 'old');
    writeFileSync(join(root, 'afile'), 'x');
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const w = (names: string[], more: { unique?: boolean; dryRun?: boolean } = {}) =>
    writeConfined({ root, names, bytes, unique: more.unique ?? false, dryRun: more.dryRun ?? false });

  it('writes a new file, making the directories on the way', async () => {
    const r = await w(['a', 'b', 'c.json']);
    assert.equal(r.kind, 'written');
    assert.equal(readFileSync(join(root, 'a', 'b', 'c.json'), 'utf8'), '{"a":1}');
    assert.deepEqual(readdirSync(join(root, 'a', 'b')), ['c.json']); // no temp file left
  });

  it('follows a symlink that stays inside', async () => {
    const r = await w(['alias', 'x.json']);
    assert.equal(r.kind, 'written');
    assert.ok(existsSync(join(root, 'inner', 'x.json')));
  });

  const refusals: readonly [string, string[], string][] = [
    ['an outward symlinked directory', ['out', 'x.json'], 'outside'],
    ['an outward symlinked directory, deeper', ['out', 'sub', 'x.json'], 'outside'],
    ['a dot-dot name', ['..', 'x.json'], 'unsafe_path'],
    ['a name with a separator', ['a/../../x.json'], 'unsafe_path'],
    ['a name with a backslash', ['..\\x.json'], 'unsafe_path'],
    ['a NUL', ['a\0b'], 'unsafe_path'],
    ['no names', [], 'unsafe_path'],
    ['a file in the way', ['afile', 'x.json'], 'exists'],
    ['a taken name', ['taken.json'], 'exists'],
  ];
  for (const [name, names, reason] of refusals) {
    it(`refuses ${name}`, async () => {
      const r = await w(names);
      assert.deepEqual(r, { kind: 'refused', reason });
    });
  }

  it('nothing reached outside, the taken file untouched', () => {
    assert.deepEqual(readdirSync(join(base, 'outside')), []);
    assert.deepEqual(readdirSync(base).sort(), ['outside', 'root']);
    assert.equal(readFileSync(join(root, 'taken.json'), 'utf8'), 'old');
  });

  it('unique: the next free name', async () => {
    const r = await w(['taken.json'], { unique: true });
    assert.equal(r.kind === 'written' && r.names.join('/'), 'taken-2.json');
    const r2 = await w(['taken.json'], { unique: true });
    assert.equal(r2.kind === 'written' && r2.names.join('/'), 'taken-3.json');
    assert.equal(readFileSync(join(root, 'taken.json'), 'utf8'), 'old');
  });

  it('dry run: the name it would use, nothing created', async () => {
    const r = await w(['new', 'deep', 'y.json'], { dryRun: true });
    assert.equal(r.kind === 'written' && r.names.join('/'), 'new/deep/y.json');
    assert.equal(existsSync(join(root, 'new')), false);
    const t = await w(['taken.json'], { dryRun: true, unique: true });
    assert.equal(t.kind === 'written' && t.names.join('/'), 'taken-4.json');
    assert.deepEqual(await w(['out', 'z.json'], { dryRun: true }), { kind: 'refused', reason: 'outside' });
  });
});
