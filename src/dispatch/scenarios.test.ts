// Scenarios in dispatch (docs/state.md): state conditions decoded by the real loader, the winning rule's transition
// carried on the outcome and never applied by dispatch itself, explanations with the live value, scripts reading
// `state` and returning `set_state`, and a workspace without scenarios never reading the store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memorySource } from '../files/memory-source.js';
import { compile } from '../interpreter/index.js';
import { RotationState } from '../routing/rotation.js';
import { MemoryStore } from '../state/store.js';
import { commitTransition, setScenarios } from '../state/scenarios.js';
import { dispatch, type DispatchEnv, type Outcome } from './dispatch.js';
import { ROOT, ruleSet, workspace } from './fixtures/workspace.js';
import { namesScenario } from './scenarios.js';
import { snapshotFrom } from './snapshot.js';

/** A MemoryStore that counts reads (the hot-path check below). */
class CountingStore extends MemoryStore {
  reads = 0;
  override get(key: string): unknown {
    this.reads++;
    return super.get(key);
  }
}

const env = (state = new MemoryStore()): DispatchEnv => ({
  files: memorySource({}),
  rotation: new RotationState(),
  state,
  random: Math.random,
  log: () => {},
});

const CART = ruleSet(
  0,
  `
[[rules]]
when.request = { url_path = "/cart", method = "GET" }
when.state.cart = "started"
respond.text = "empty"
[[rules]]
when.request = { url_path = "/cart/items", method = "POST" }
respond = { status = 201, text = "added", set_state = { cart = "item_added", audit = "on" } }
[[rules]]
when.request = { url_path = "/cart", method = "GET" }
when.state.cart = { value = "started", op = "not_equal" }
respond.text = "full"
[[rules]]
when.request.url_path = "/plain"
respond.text = "plain"
`,
);

const run = async (
  ws: ReturnType<typeof workspace>,
  method: string,
  target: string,
  e: DispatchEnv,
  explain = false,
): Promise<Outcome> => dispatch(ws, snapshotFrom({ method, target, headers: [] }), e, { explain });

const body = (o: Outcome): string => new TextDecoder().decode(o.answer.body);

test('conditions read the store; the move rides on the outcome and only commitTransition applies it', async () => {
  const ws = workspace([CART]);
  const e = env();
  assert.equal(body(await run(ws, 'GET', '/cart', e)), 'empty');
  const add = await run(ws, 'POST', '/cart/items', e);
  assert.equal(add.answer.status, 201);
  assert.deepEqual(add.state?.before, { cart: 'started', audit: 'started' });
  assert.deepEqual(add.state?.after, { cart: 'item_added', audit: 'on' });
  assert.equal(body(await run(ws, 'GET', '/cart', e)), 'empty', 'dispatch alone moved nothing');
  commitTransition(add.state);
  const full = await run(ws, 'GET', '/cart', e);
  assert.equal(body(full), 'full');
  assert.deepEqual(full.state?.before, { cart: 'item_added' });
  assert.deepEqual(full.state?.after, { cart: 'item_added' });
  assert.equal((await run(ws, 'GET', '/plain', e)).state, undefined);
});

test('the explanation shows each state condition with the value it was checked against', async () => {
  const ws = workspace([CART]);
  const e = env();
  setScenarios(e.state, { cart: 'paid' });
  const o = await run(ws, 'GET', '/cart', e, true);
  const rules = o.explanation!.ruleSets[0]!.rules;
  const stateChecks = rules.flatMap((r) => r.conditions.filter((c) => c.condition.on === 'state'));
  assert.deepEqual(
    stateChecks.map((c) => [c.check.ok, c.check.actual]),
    [
      [false, 'paid'],
      [true, 'paid'],
    ],
  );
  assert.equal(body(o), 'full');
});

test('a workspace whose rules name no scenario never reads the store', async () => {
  const ws = workspace([
    ruleSet(0, '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n'),
    ruleSet(1, '[[rules]]\nwhen.request.url_path = "/b"\nrespond.text = "b"\n', { kind: 'round_robin' }),
  ]);
  const store = new CountingStore();
  for (const path of ['/a', '/b', '/b', '/missing']) await run(ws, 'GET', path, env(store));
  assert.equal(store.reads, 0);
  // with a scenario rule, the winning rule's scenario is read (the check, and its `before`)
  const stateful = new CountingStore();
  await run(workspace([CART]), 'GET', '/cart', env(stateful));
  assert.ok(stateful.reads > 0);
});

test('scripts read `state` and move scenarios with `set_state` beside an answer', async () => {
  const file = `${ROOT}/mw.rhai`;
  const source = `
if url_path == "/peek" { return #{ text: state.cart }; }
if url_path == "/clear" { return #{ status: 204, set_state: #{ cart: "started" } }; }
if url_path == "/bad" { return #{ text: "x", set_state: 3 }; }
if url_path == "/only" { return #{ set_state: #{ cart: "x" } }; }
`;
  const ws = {
    ...workspace([CART]),
    middlewares: [{ file, entry: './mw.rhai', dir: ROOT, script: compile(source, file) }],
  };
  const logs: string[] = [];
  const e = { ...env(), log: (l: string) => logs.push(l) };
  assert.equal(body(await run(ws, 'GET', '/peek', e)), 'started');
  setScenarios(e.state, { cart: 'item_added' });
  assert.equal(body(await run(ws, 'GET', '/peek', e)), 'item_added');
  const clear = await run(ws, 'GET', '/clear', e);
  assert.equal(clear.answer.status, 204);
  assert.deepEqual([clear.state?.before, clear.state?.after], [{ cart: 'item_added' }, { cart: 'started' }]);
  const bad = await run(ws, 'GET', '/bad', e);
  assert.equal(body(bad), 'x');
  assert.equal(bad.state, undefined);
  assert.match(logs.join('\n'), /`set_state` must be a map/);
  // set_state alone is not an answer: the rules answer (here nothing does: a 404), and nothing moves
  const only = await run(ws, 'GET', '/only', e);
  assert.equal(only.stage.kind, 'miss');
  assert.equal(only.state, undefined);
  // what a reload keeps: the rules' scenarios and those a script's text names
  const keep = namesScenario(ws);
  assert.deepEqual(['cart', 'audit', 'session'].map(keep), [true, true, false]);
});
