import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { discardStaged, placeStaged, stageFile, writeSafely } from './safe-write.js';

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
