import assert from 'node:assert/strict';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { discardStaged, placeStaged, removeStaleTemps, stageFile, writeSafely } from './safe-write.js';

const folder = (): string => mkdtempSync(join(tmpdir(), 'mock-safe-write-'));

test('create never overwrites; replace does; neither leaves a temp file', async () => {
  const dir = folder();
  try {
    const f = join(dir, 'a.json');
    assert.equal(await writeSafely(f, '1', { placement: 'create' }), true);
    assert.equal(await writeSafely(f, '2', { placement: 'create' }), false);
    assert.equal(await writeSafely(f, '2', { placement: 'create', noHardLinks: 'exclusive-copy' }), false);
    assert.equal(readFileSync(f, 'utf8'), '1');
    assert.equal(await writeSafely(f, new TextEncoder().encode('3'), { placement: 'replace' }), true);
    assert.equal(readFileSync(f, 'utf8'), '3');
    assert.deepEqual(readdirSync(dir), ['a.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a staged file is invisible at its name until placed, keeps the mode it is given, and discarding it removes it', async () => {
  const dir = folder();
  try {
    const f = join(dir, 'b.toml');
    writeFileSync(f, 'old');
    const staged = await stageFile(f, 'new', 0o600);
    assert.equal(readFileSync(f, 'utf8'), 'old');
    assert.equal(readdirSync(dir).length, 2);
    assert.equal(await placeStaged(staged, 'replace'), true);
    assert.equal(readFileSync(f, 'utf8'), 'new');
    assert.equal(statSync(f).mode & 0o777, 0o600);
    await discardStaged(staged);
    assert.deepEqual(readdirSync(dir), ['b.toml']);
    const other = await stageFile(join(dir, 'c'), 'x');
    await discardStaged(other);
    assert.deepEqual(readdirSync(dir), ['b.toml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('keep: the old mode stays, and a symbolic link stays a link (its target replaced, staged beside it)', async () => {
  const dir = folder();
  try {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'db.json'), 'old');
    chmodSync(join(dir, 'real', 'db.json'), 0o600);
    symlinkSync(join('real', 'db.json'), join(dir, 'db.json'));
    assert.equal(await writeSafely(join(dir, 'db.json'), 'new', { placement: 'replace', keep: true }), true);
    assert.ok(lstatSync(join(dir, 'db.json')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'db.json'), 'utf8'), 'new');
    assert.equal(statSync(join(dir, 'real', 'db.json')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, 'real')), ['db.json']);
    assert.equal(await writeSafely(join(dir, 'fresh.json'), 'x', { placement: 'replace', keep: true }), true);
    assert.equal(readFileSync(join(dir, 'fresh.json'), 'utf8'), 'x');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("removeStaleTemps: a dead writer's and this process's temp files go; a live one's and other names stay", () => {
  const dir = folder();
  try {
    const names = [
      'db.json',
      '.db.json.4194999.0badc0de.tmp',
      `.db.json.${process.pid}.00000001.tmp`,
      `.db.json.${process.ppid}.00000002.tmp`,
      '.other.json.4194999.0badc0de.tmp',
    ];
    for (const n of names) writeFileSync(join(dir, n), '');
    assert.equal(removeStaleTemps(join(dir, 'db.json')), 2);
    assert.deepEqual(readdirSync(dir).sort(), [names[4], names[3], 'db.json'].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
