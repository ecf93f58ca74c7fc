import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import { ConnectionGate } from './gate.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly name: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

test('admits up to the limit, queues the rest in order, admits as slots free', () => {
  const started: string[] = [];
  const gate = new ConnectionGate(2, (s) => started.push((s as unknown as FakeSocket).name));
  const socks = ['a', 'b', 'c', 'd', 'e'].map((n) => new FakeSocket(n));
  for (const s of socks) gate.offer(s as unknown as Socket);
  assert.deepEqual(started, ['a', 'b']);
  assert.equal(gate.inFlight, 2);
  assert.equal(gate.queued, 3);
  socks[3]!.destroy(); // d leaves the queue while waiting
  assert.equal(gate.queued, 2);
  socks[0]!.destroy();
  assert.deepEqual(started, ['a', 'b', 'c']);
  socks[1]!.destroy();
  assert.deepEqual(started, ['a', 'b', 'c', 'e']);
  assert.equal(gate.queued, 0);
  assert.equal(gate.inFlight, 2);
  // an 'error' on any offered socket is absorbed
  socks[4]!.emit('error', new Error('reset'));
  gate.destroyAll();
  assert.equal(gate.inFlight, 0);
});

test('destroyAll drops queued connections too', () => {
  const gate = new ConnectionGate(1, () => {});
  const socks = ['a', 'b', 'c'].map((n) => new FakeSocket(n));
  for (const s of socks) gate.offer(s as unknown as Socket);
  gate.destroyAll();
  assert.ok(socks.every((s) => s.destroyed));
  assert.equal(gate.inFlight, 0);
  assert.equal(gate.queued, 0);
});

test('a held connection frees its working slot; past heldLimit a hold is refused; released, it works again', () => {
  const started: string[] = [];
  const gate = new ConnectionGate(1, (s) => started.push((s as unknown as FakeSocket).name), 1);
  const [a, b, c] = ['a', 'b', 'c'].map((n) => new FakeSocket(n)) as [FakeSocket, FakeSocket, FakeSocket];
  for (const s of [a, b, c]) gate.offer(s as unknown as Socket);
  assert.deepEqual(started, ['a']);
  assert.equal(gate.hold(a as unknown as Socket), true);
  assert.deepEqual(started, ['a', 'b'], 'the held connection left its slot to a queued one');
  assert.equal(gate.heldCount, 1);
  assert.equal(gate.hold(b as unknown as Socket), false, 'one held connection is the limit');
  assert.equal(gate.hold(a as unknown as Socket), true, 'a second answer on a held connection');
  gate.release(a as unknown as Socket);
  assert.equal(gate.heldCount, 1, 'held until its last waiting answer is done');
  gate.release(a as unknown as Socket);
  assert.equal(gate.heldCount, 0);
  assert.equal(gate.inFlight, 2, 'a and b both count as working, over the bound for a moment');
  b.destroy();
  assert.deepEqual(started, ['a', 'b'], 'no admission while the count is not under the bound');
  a.destroy();
  assert.deepEqual(started, ['a', 'b', 'c']);
  gate.hold(c as unknown as Socket);
  c.destroy();
  assert.equal(gate.inFlight, 0);
  assert.equal(gate.heldCount, 0, 'a held connection that closes leaves the count');
});
