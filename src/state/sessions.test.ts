import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { SessionRegistry, type SessionEnd } from './sessions.js';

function registry(idleMs: number, max: number) {
  let t = 1_000;
  const ended: [string, number, SessionEnd][] = [];
  let made = 0;
  const r = new SessionRegistry<number>(
    { idleMs, max },
    () => ++made,
    (id, value, why) => ended.push([id, value, why]),
    () => t,
  );
  return { r, ended, advance: (ms: number) => (t += ms) };
}

test('a session is made once and kept while it is used', () => {
  const { r, ended, advance } = registry(600_000, 10);
  assert.equal(r.get('a'), 1);
  advance(599_999);
  assert.equal(r.get('a'), 1, 'used just before its idle time: the same session');
  advance(599_999);
  assert.equal(r.get('a'), 1);
  assert.deepEqual(ended, []);
  assert.equal(r.size, 1);
});

test('a session unused for idle_ms ends, and its id starts a fresh one', () => {
  const { r, ended, advance } = registry(1_000, 10);
  r.get('a');
  r.get('b');
  advance(500);
  r.get('b');
  advance(500);
  assert.equal(r.peek('a'), undefined, 'a was idle 1000 ms');
  assert.deepEqual(ended, [['a', 1, 'idle']]);
  assert.equal(r.peek('b'), 2);
  assert.equal(r.get('a'), 3, 'a fresh session under the same id');
  advance(1_000);
  assert.deepEqual(r.ids(), [], 'both idle now');
  assert.deepEqual(
    ended.map(([id, , why]) => `${id}:${why}`),
    ['a:idle', 'b:idle', 'a:idle'],
  );
});

test('an idle session is ended on its next use even before a sweep', () => {
  const { r, ended, advance } = registry(1_000, 10);
  r.get('a');
  advance(100);
  r.get('b'); // a sweep ran here; the next is 250 ms later
  advance(900);
  assert.equal(r.get('a'), 3);
  assert.deepEqual(ended, [['a', 1, 'idle']]);
});

test('beyond max sessions the least recently used one is evicted first', () => {
  const { r, ended, advance } = registry(600_000, 3);
  r.get('a');
  advance(1);
  r.get('b');
  advance(1);
  r.get('c');
  advance(1);
  r.get('a'); // a is now the most recently used
  advance(1);
  r.get('d');
  assert.deepEqual(ended, [['b', 2, 'evicted']]);
  assert.deepEqual(r.ids(), ['c', 'a', 'd']);
  for (let i = 0; i < 100; i++) r.get(`x${i}`);
  assert.equal(r.size, 3, 'never more than max');
});

test('close ends one session, clear ends all; peek neither makes nor touches', () => {
  const { r, ended, advance } = registry(1_000, 10);
  assert.equal(r.peek('a'), undefined);
  assert.equal(r.size, 0);
  r.get('a');
  r.get('b');
  advance(900);
  r.peek('a');
  advance(100);
  assert.equal(r.peek('a'), undefined, 'peek did not keep it alive');
  assert.equal(r.close('b'), true, 'b is idle but not swept yet: closing it ends it');
  r.get('c');
  r.get('d');
  assert.equal(r.close('c'), true);
  assert.equal(r.close('c'), false);
  r.clear();
  assert.equal(r.size, 0);
  assert.deepEqual(
    ended.map(([id, , why]) => `${id}:${why}`),
    ['a:idle', 'b:closed', 'c:closed', 'd:reset'],
  );
});

test('new limits apply from the next use', () => {
  const { r, ended } = registry(600_000, 5);
  for (const id of ['a', 'b', 'c', 'd']) r.get(id);
  r.setLimits({ idleMs: 600_000, max: 2 });
  r.get('e');
  assert.deepEqual(r.ids(), ['d', 'e']);
  assert.equal(ended.length, 3);
});
