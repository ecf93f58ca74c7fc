import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SocketActivity } from './activity.js';

test('whenIdle runs at once when nothing is in flight, else after the last response', () => {
  const a = new SocketActivity();
  const s = {};
  const ran: string[] = [];
  a.whenIdle(s, () => ran.push('now'));
  assert.deepEqual(ran, ['now']);
  a.begin(s);
  a.begin(s);
  a.whenIdle(s, () => ran.push('later'));
  assert.equal(a.inFlight(s), 2);
  a.end(s);
  assert.deepEqual(ran, ['now']);
  a.end(s);
  assert.deepEqual(ran, ['now', 'later']);
  a.end(s); // extra ends are harmless
  assert.equal(a.inFlight(s), 0);
  assert.equal(a.inFlight({}), 0);
});

test('a request reading its body answers a parser failure; a complete one declines', () => {
  const a = new SocketActivity();
  const s = {};
  const got: number[] = [];
  assert.equal(a.interruptBody(s, 400), false);
  const reader = {
    interrupt: (status: number) => {
      got.push(status);
      return true;
    },
  };
  a.readingBody(s, reader);
  assert.equal(a.interruptBody(s, 408), true);
  assert.deepEqual(got, [408]);
  assert.equal(a.interruptBody(s, 400), false, 'only once');
  a.doneReading(s, reader);
  a.readingBody(s, { interrupt: () => false });
  assert.equal(a.interruptBody(s, 400), false, 'the body was complete: the failure is a later request');
  const stale = { interrupt: () => true };
  const current = { interrupt: () => true };
  a.readingBody(s, stale);
  a.readingBody(s, current);
  a.doneReading(s, stale); // a finished earlier reader does not unregister the current one
  assert.equal(a.interruptBody(s, 400), true);
  a.doneReading(s, current);
  assert.equal(a.interruptBody(s, 400), false, 'nothing reading');
});
