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
