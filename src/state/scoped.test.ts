import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { scopedStore, sessionPrefix } from './scoped.js';
import { MemoryStore } from './store.js';

test('a scoped view reads and writes its own keys under the prefix, and the base sees them prefixed', () => {
  const base = new MemoryStore();
  base.set('scenario:cart', 'paid');
  const a = scopedStore(base, sessionPrefix('a'));
  const b = scopedStore(base, sessionPrefix('b'));
  assert.equal(a.get('scenario:cart'), undefined, 'the shared value is not the session one');
  a.set('scenario:cart', 'empty');
  assert.equal(
    a.update<number>('rotation:g', (n) => (n ?? 0) + 1),
    1,
  );
  assert.equal(
    a.update<number>('rotation:g', (n) => (n ?? 0) + 1),
    2,
  );
  b.set('scenario:cart', 'full');
  assert.equal(a.get('scenario:cart'), 'empty');
  assert.equal(b.get('scenario:cart'), 'full');
  assert.equal(base.get('scenario:cart'), 'paid');
  assert.equal(base.get('session:a/scenario:cart'), 'empty');
  assert.deepEqual(a.keys(), ['scenario:cart', 'rotation:g']);
  assert.deepEqual(a.keys('rotation:'), ['rotation:g']);
  assert.equal(a.clear('rotation:'), 1);
  assert.equal(a.delete('scenario:cart'), true);
  assert.equal(a.delete('scenario:cart'), false);
  assert.deepEqual(a.keys(), []);
  assert.deepEqual(base.keys().sort(), ['scenario:cart', 'session:b/scenario:cart']);
  assert.equal(b.clear(), 1);
  assert.deepEqual(base.keys(), ['scenario:cart']);
});

test('a session id that looks like a prefix of another stays apart (the prefix ends with a slash)', () => {
  const base = new MemoryStore();
  const a = scopedStore(base, sessionPrefix('a'));
  const ab = scopedStore(base, sessionPrefix('ab'));
  ab.set('k', 1);
  assert.deepEqual(a.keys(), []);
  assert.equal(a.clear(), 0);
  assert.equal(ab.get('k'), 1);
});

test('an id with a slash cannot reach into another session', () => {
  const base = new MemoryStore();
  const a = scopedStore(base, sessionPrefix('a'));
  const ab = scopedStore(base, sessionPrefix('a/b'));
  ab.set('k', 1);
  assert.deepEqual(a.keys(), []);
  assert.equal(a.clear(), 0);
});
