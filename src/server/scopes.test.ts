// Which env a request is dispatched with: the shared one (no sessions, no header), or its session's, made once and
// kept (the same object request after request), remade only when an override list changes; a session's state is
// its share of the one store, and goes when the session ends.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import type { DispatchEnv } from '../dispatch/dispatch.js';
import { PaceState } from '../dispatch/pace.js';
import { memorySource } from '../files/memory-source.js';
import { RotationState } from '../routing/rotation.js';
import { MemoryStore } from '../state/store.js';
import { cookieValue, Scopes } from './scopes.js';

function scopes() {
  const state = new MemoryStore();
  const env: DispatchEnv = {
    files: memorySource({}),
    rotation: new RotationState(state),
    state,
    random: Math.random,
    log: () => {},
    pace: new PaceState(),
  };
  let t = 0;
  const s = new Scopes({ env, now: () => t, journalLastId: () => 41 });
  return { s, env, state, advance: (ms: number) => (t += ms) };
}
const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

test('sessions off: the shared env, with the shared overrides only while there are some', () => {
  const { s, env } = scopes();
  assert.equal(s.header, undefined);
  assert.equal(s.env, env);
  s.shared.add([{ rule: {} as never, source: {} }], false, new Date());
  assert.deepEqual(s.env.overrides, [s.shared]);
  s.shared.clear();
  assert.equal(s.env, env, 'back to the very same object');
});

test('sessions on: a session env per id, kept across requests, its state under session:<id>/', () => {
  const { s, env, state } = scopes();
  s.configure({ header: 'x-mock-session', cookie: 'sid', idleMs: 1000, max: 10 });
  assert.equal(s.envFor(req({})), env, 'no session named: the shared env');
  const a = s.envFor(req({ 'x-mock-session': 'a' }));
  assert.equal(a.session, 'a');
  assert.equal(s.envFor(req({ 'x-mock-session': 'a' })), a, 'no allocation for a known session');
  assert.equal(s.envFor(req({ cookie: 'x=1; sid=a' })), a, 'the cookie names it too');
  assert.notEqual(s.envFor(req({ 'x-mock-session': 'b' })), a);
  a.state.set('scenario:cart', 'paid');
  a.rotation.next('g', 3);
  assert.deepEqual(state.keys().sort(), ['session:a/rotation:g', 'session:a/scenario:cart']);
  assert.notEqual(a.pace, env.pace, 'its own rate-limit windows');
  assert.equal(s.peek('a')?.journalFloor, 41, 'its journal view starts after what was there');

  // an override anywhere remakes the env; the session's list comes first
  s.session('a').overrides.add([{ rule: {} as never, source: {} }], false, new Date());
  s.shared.add([{ rule: {} as never, source: {} }], false, new Date());
  const a2 = s.envFor(req({ 'x-mock-session': 'a' }));
  assert.deepEqual(a2.overrides, [s.session('a').overrides, s.shared]);
  assert.deepEqual(s.envFor(req({ 'x-mock-session': 'b' })).overrides, [s.shared]);

  assert.equal(s.close('a'), true);
  assert.deepEqual(state.keys(), [], 'its state went with it');
  s.configure(undefined);
  assert.equal(s.header, undefined);
});

test('idle sessions and the cap end sessions and clear their state (injected clock)', () => {
  const { s, state, advance } = scopes();
  s.configure({ header: 'x-mock-session', idleMs: 1000, max: 2 });
  s.envFor(req({ 'x-mock-session': 'a' })).state.set('k', 1);
  advance(10);
  s.envFor(req({ 'x-mock-session': 'b' })).state.set('k', 2);
  advance(10);
  s.envFor(req({ 'x-mock-session': 'c' }));
  assert.deepEqual(s.sessionIds(), ['b', 'c'], 'a, idle longest, made room');
  assert.deepEqual(state.keys(), ['session:b/k']);
  advance(1000);
  assert.deepEqual(s.sessionIds(), []);
  assert.deepEqual(state.keys(), []);
});

test('cookie values', () => {
  assert.equal(cookieValue('a=1; mock_session=abc; b=2', 'mock_session'), 'abc');
  assert.equal(cookieValue('mock_session="q%20r"', 'mock_session'), 'q r');
  assert.equal(cookieValue('mock_sessionx=1', 'mock_session'), undefined);
  assert.equal(cookieValue('mock_session=', 'mock_session'), undefined);
});
