// Scenario states in the store: `started` when absent, moves applied only by commitTransition, pruning after a
// reload, resets by part, and the names a workspace's rules give.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Rule, RuleSet } from '../model/rule-set.js';
import {
  collectionSizes,
  commitTransition,
  currentScenarios,
  pruneScenarios,
  resetStore,
  scenarioState,
  scenarioStatesProblem,
  setScenarios,
  transitionOf,
  workspaceScenarios,
} from './scenarios.js';
import { MemoryStore } from './store.js';

test('a scenario is `started` until moved; setting it back to `started` removes its key', () => {
  const s = new MemoryStore();
  assert.equal(scenarioState(s, 'cart'), 'started');
  setScenarios(s, { cart: 'paid' });
  assert.equal(scenarioState(s, 'cart'), 'paid');
  assert.deepEqual(s.keys(), ['scenario:cart']);
  setScenarios(s, { cart: 'started' });
  assert.equal(s.size, 0);
});

test('a transition reads before, computes after, and moves the store only when committed', () => {
  const s = new MemoryStore();
  setScenarios(s, { cart: 'item_added' });
  assert.equal(transitionOf(s, undefined, undefined), undefined);
  const read = transitionOf(s, ['cart'], undefined)!;
  assert.deepEqual([read.before, read.after], [{ cart: 'item_added' }, { cart: 'item_added' }]);
  const t = transitionOf(s, ['cart'], { cart: 'paid', session: 'in' })!;
  assert.deepEqual(t.before, { cart: 'item_added', session: 'started' });
  assert.deepEqual(t.after, { cart: 'paid', session: 'in' });
  assert.equal(scenarioState(s, 'cart'), 'item_added', 'not moved before the commit');
  commitTransition(t);
  assert.deepEqual(currentScenarios(s, []), { cart: 'paid', session: 'in' });
});

test('pruning keeps the scenarios still named; resets clear only the parts asked for', () => {
  const s = new MemoryStore();
  setScenarios(s, { cart: 'paid', gone: 'x' });
  s.set('collection:/api/users', [{ id: 1 }, { id: 2 }]);
  s.set('collection:/api/profile', { name: 'a' });
  s.set('rotation:f\0abc', 1);
  assert.equal(
    pruneScenarios(s, (n) => n === 'cart'),
    1,
  );
  assert.deepEqual(currentScenarios(s, ['cart', 'new']), { cart: 'paid', new: 'started' });
  assert.deepEqual(collectionSizes(s), { '/api/users': 2 });
  resetStore(s, { state: false, rotation: false });
  assert.deepEqual(s.keys(), ['scenario:cart', 'rotation:f\0abc']);
  resetStore(s, {});
  assert.equal(s.size, 0);
});

test('the scenarios a workspace names: from when.state and set_state, once per loaded rule-set list', () => {
  const rule = (scenarios: string[] | undefined, setState?: Record<string, string>): Rule => ({
    index: 0,
    label: '/x',
    conditions: [],
    respond: { body: { kind: 'empty' }, headers: [], delayMs: 0, ...(setState ? { setState } : {}) },
    priority: 0,
    weight: 1,
    ...(scenarios ? { scenarios } : {}),
  });
  const ruleSets = [
    {
      rules: [rule(['cart']), rule(undefined, { session: 'in', cart: 'paid' }), rule(undefined)],
    } as unknown as RuleSet,
  ];
  assert.deepEqual([...workspaceScenarios({ ruleSets })], ['cart', 'session']);
  assert.equal(workspaceScenarios({ ruleSets }), workspaceScenarios({ ruleSets }));
});

test('scenarioStatesProblem names what is wrong with a states map', () => {
  assert.equal(scenarioStatesProblem({ cart: 'paid', 'a.b-c_1': 'x' }), undefined);
  assert.match(scenarioStatesProblem([])!, /expected an object/);
  assert.match(scenarioStatesProblem({ 'a b': 'x' })!, /not a valid scenario name/);
  assert.match(scenarioStatesProblem({ cart: '' })!, /non-empty string/);
  assert.match(scenarioStatesProblem({ cart: 3 })!, /non-empty string/);
});
