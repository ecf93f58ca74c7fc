// Scenarios (docs/state.md#scenarios): named state machines a rule can require a state of (`when.state`) and
// move (`respond.set_state`). Each one's current state is a string in the state store under `scenario:<name>`;
// an absent key is the first state, `started`, so resetting every scenario is one `clear('scenario:')`.
//
// A move is computed by dispatch and carried on its outcome as a StateTransition; it reaches the store only when
// the answer is written (dispatch/commit.ts, called by server/answer-paths.ts), never for `mock get`, a refused request or a client that left.
import { undecoded } from '../start-up/lazy-rule-set.js';
import type { Rule, RuleSet } from '../model/rule-set.js';
import type { StateStore } from './store.js';

/** the store key prefix of scenario states */
export const SCENARIO_KEY = 'scenario:';

/** every scenario's first state (WireMock's `Started`) */
export const STARTED = 'started';

/** the store key of a scenario */
export function scenarioKey(name: string): string {
  return SCENARIO_KEY + name;
}

/** A scenario's current state: `started` until something moved it. */
export function scenarioState(store: StateStore, name: string): string {
  const v = store.get(SCENARIO_KEY + name);
  return typeof v === 'string' ? v : STARTED;
}

/** Every scenario the store holds a state for, name to state (a scenario at `started` may be absent). */
export function scenarioStates(store: StateStore): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of store.keys(SCENARIO_KEY)) {
    const v = store.get(key);
    if (typeof v === 'string') out[key.slice(SCENARIO_KEY.length)] = v;
  }
  return out;
}

/** Sets scenarios (a state of `started` removes the key: absent and `started` are the same state). */
export function setScenarios(store: StateStore, states: Readonly<Record<string, string>>): void {
  for (const [name, state] of Object.entries(states)) {
    if (state === STARTED) store.delete(SCENARIO_KEY + name);
    else store.set(SCENARIO_KEY + name, state);
  }
}

/** Forgets every scenario `keep` says no longer exists (after a reload). Returns how many went. */
export function pruneScenarios(store: StateStore, keep: (name: string) => boolean): number {
  let removed = 0;
  for (const key of store.keys(SCENARIO_KEY)) {
    if (keep(key.slice(SCENARIO_KEY.length))) continue;
    store.delete(key);
    removed++;
  }
  return removed;
}

/**
 * The scenarios one answer touched: their states when it was chosen (`before`) and once it is sent (`after`,
 * the same names). `store` is where the move goes.
 */
export interface StateTransition {
  readonly store: StateStore;
  readonly before: Readonly<Record<string, string>>;
  readonly after: Readonly<Record<string, string>>;
  /** the scenarios the answer moves, name to new state */
  readonly set: Readonly<Record<string, string>>;
}

/**
 * The transition of an answer that reads the scenarios `read` and moves those of `set` (either may be empty);
 * undefined when it touches none.
 */
export function transitionOf(
  store: StateStore,
  read: readonly string[] | undefined,
  set: Readonly<Record<string, string>> | undefined,
): StateTransition | undefined {
  if (read === undefined && set === undefined) return undefined;
  const before: Record<string, string> = {};
  for (const name of read ?? []) before[name] = scenarioState(store, name);
  if (set !== undefined) for (const name of Object.keys(set)) before[name] ??= scenarioState(store, name);
  const after = set === undefined ? before : { ...before, ...set };
  return { store, before, after, set: set ?? {} };
}

/** Applies a transition's moves to its store (the answer is being sent). */
export function commitTransition(t: StateTransition): void {
  setScenarios(t.store, t.set);
}

const NAMES = new WeakMap<object, ReadonlySet<string>>();

/** Adds the scenarios a rule reads (`when.state`) or moves (`respond.set_state`), in that order. */
export function addRuleScenarios(rule: Rule, out: Set<string>): void {
  for (const name of rule.scenarios ?? []) out.add(name);
  for (const name of Object.keys(rule.respond.setState ?? {})) out.add(name);
  // a callback's delivery moves scenarios too (docs/callbacks.md)
  for (const c of rule.respond.callbacks ?? [])
    for (const name of [...Object.keys(c.onSuccess ?? {}), ...Object.keys(c.onFailure ?? {})]) out.add(name);
}

/** Every scenario a rule's `when.state` or `respond.set_state` names, in file order. */
export function workspaceScenarios(ws: { readonly ruleSets: readonly RuleSet[] }): ReadonlySet<string> {
  let names = NAMES.get(ws.ruleSets);
  if (names === undefined) {
    const out = new Set<string>();
    for (const rs of ws.ruleSets)
      if (undecoded(rs)) for (const name of rs.summary.scenarios) out.add(name);
      else for (const rule of rs.rules) addRuleScenarios(rule, out);
    NAMES.set(ws.ruleSets, (names = out));
  }
  return names;
}

/** Every scenario the workspace names (at `started` until moved) and every one the store holds, name to state. */
export function currentScenarios(store: StateStore, named: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of named) out[name] = scenarioState(store, name);
  return Object.assign(out, scenarioStates(store));
}

/** the store key prefix of collections (a collection's data, seeded lazily from its file) */
export const COLLECTION_KEY = 'collection:';

/** How many items each collection the store holds has (a collection not yet used holds no key, so is not listed). */
export function collectionSizes(store: StateStore): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of store.keys(COLLECTION_KEY)) {
    const v = store.get(key);
    if (Array.isArray(v)) out[key.slice(COLLECTION_KEY.length)] = v.length;
  }
  return out;
}

/** What a reset restarts; each one that is not `false` is reset. */
export interface ResetParts {
  readonly journal?: boolean;
  readonly rotation?: boolean;
  readonly state?: boolean;
  readonly collections?: boolean;
}

/** Resets the store's share of `parts`: scenarios (`state`), collections, round-robin counters (`rotation`). */
export function resetStore(store: StateStore, parts: ResetParts): void {
  if (parts.state !== false) store.clear(SCENARIO_KEY);
  if (parts.collections !== false) store.clear(COLLECTION_KEY);
  if (parts.rotation !== false) store.clear('rotation:');
}

/** what a scenario name may hold (the loader checks the same: config/shapes/rule-set.ts) */
const NAME = /^[A-Za-z0-9_.-]+$/;

/** Why `states` is not a map of scenario names to non-empty strings, or undefined when it is. */
export function scenarioStatesProblem(states: unknown): string | undefined {
  if (typeof states !== 'object' || states === null || Array.isArray(states))
    return 'expected an object of scenario names to states, such as { "cart": "paid" }';
  for (const [name, state] of Object.entries(states)) {
    if (!NAME.test(name)) return `"${name}" is not a valid scenario name (letters, digits, _ . -)`;
    if (typeof state !== 'string' || state === '') return `the state of "${name}" must be a non-empty string`;
  }
  return undefined;
}
