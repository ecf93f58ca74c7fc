// Round-robin counters keyed by match group (docs/live-reload.md#round-robin-rotations): the rule-set file plus the fingerprints of the rules
// that matched, in file order. Requests matching the same group share a counter; different groups never do,
// however interleaved. Owned by whoever calls dispatch: the server keeps one for its lifetime, across live
// reloads (server/live.ts); `get` makes a fresh one.
//
// Why fingerprints and not rule indices: a counter must follow its rules, not their positions. After a reload,
// inserting a rule that does not match above the group leaves the group's key (and position) as it was;
// editing, adding, removing or reordering a rule in the group makes a new key, which starts at its first rule.
// A fingerprint is a hash of the decoded rule (conditions, respond, priority, weight), not of its index, label,
// comments or layout; it is computed at load (prepareRuleSet) for round-robin rule sets only.
import type { Rule, RuleSet } from '../model/rule-set.js';
import { hashText } from '../shared/hash.js';
import { MemoryStore, type StateStore } from '../state/store.js';

/** the store key prefix of round-robin counters */
export const ROTATION_KEY = 'rotation:';

/**
 * The counters, kept in a state store (docs/state.md) under `rotation:<group key>`; in memory by default. A
 * counter counts the group's picks (the position is that count modulo the group's size), so moving it on is one
 * increment: what a shared store would do atomically.
 */
export class RotationState {
  /** group key → its store key, made once per group (a key built per request would be hashed per request) */
  private readonly storeKeys = new Map<string, string>();

  constructor(readonly store: StateStore = new MemoryStore()) {}

  /** The next position (0-based, below `size`) for this group, advancing its counter. */
  next(groupKey: string, size: number): number {
    if (size <= 0) return 0;
    let key = this.storeKeys.get(groupKey);
    if (key === undefined) this.storeKeys.set(groupKey, (key = ROTATION_KEY + groupKey));
    return (this.store.update<number>(key, increment) - 1) % size;
  }

  /** Forget every counter whose group can no longer occur (after a workspace swap). Returns how many went. */
  prune(isLive: (groupKey: string) => boolean): number {
    let removed = 0;
    for (const key of this.store.keys(ROTATION_KEY)) {
      const group = key.slice(ROTATION_KEY.length);
      if (isLive(group)) continue;
      this.store.delete(key);
      this.storeKeys.delete(group);
      removed++;
    }
    return removed;
  }

  /** restarts every counter */
  reset(): void {
    this.store.clear(ROTATION_KEY);
  }

  /** counters kept (for tests and diagnostics) */
  get size(): number {
    return this.store.keys(ROTATION_KEY).length;
  }
}

const increment = (count: number | undefined): number => (count ?? 0) + 1;

/** separates the file from the fingerprints in a group key (never in a path) */
const FILE_END = '\0';

/** The match group of a round-robin pick: the rule set's file and its matched rules' fingerprints in file order. */
export function matchGroupKey(ruleSet: RuleSet, matches: readonly number[]): string {
  // The same match list object (a rule set's index entry for a path) comes back request after request.
  let byRuleSet = keys.get(matches);
  const known = byRuleSet?.get(ruleSet);
  if (known !== undefined) return known;
  let key = ruleSet.file + FILE_END;
  for (let k = 0; k < matches.length; k++) key += (k === 0 ? '' : ',') + ruleFingerprint(ruleSet.rules[matches[k]!]!);
  if (Object.isFrozen(matches)) {
    if (byRuleSet === undefined) keys.set(matches, (byRuleSet = new WeakMap()));
    byRuleSet.set(ruleSet, key);
  }
  return key;
}

/** keys of frozen match lists (a rule set's index entries, which never change), per rule set */
const keys = new WeakMap<readonly number[], WeakMap<RuleSet, string>>();

/** fingerprints, computed once per loaded rule (rules are immutable after load) */
const FINGERPRINTS = new WeakMap<Rule, string>();

/** A hash of what the rule means: conditions, respond, priority and weight; not its index or label. */
export function ruleFingerprint(rule: Rule): string {
  let fp = FINGERPRINTS.get(rule);
  if (fp === undefined) {
    fp = hashText(JSON.stringify([rule.conditions, rule.respond, rule.priority, rule.weight], omitDerived));
    FINGERPRINTS.set(rule, fp);
  }
  return fp;
}

/** compiled patterns are derived from the values written beside them */
function omitDerived(key: string, value: unknown): unknown {
  return key === 'pattern' || value instanceof RegExp ? undefined : value;
}

/**
 * Which group keys can still occur in these rule sets: the file is a round-robin rule set and every
 * fingerprint in the key belongs to one of its rules. The rest are pruned after a swap.
 */
export function liveGroupKeys(ruleSets: readonly RuleSet[]): (groupKey: string) => boolean {
  const byFile = new Map<string, Set<string>>();
  for (const rs of ruleSets) {
    if (rs.strategy.kind !== 'round_robin') continue;
    const fps = byFile.get(rs.file) ?? new Set<string>();
    for (const r of rs.rules) fps.add(ruleFingerprint(r));
    byFile.set(rs.file, fps);
  }
  return (groupKey) => {
    const end = groupKey.indexOf(FILE_END);
    const fps = byFile.get(groupKey.slice(0, end));
    if (fps === undefined) return false;
    const rest = groupKey.slice(end + 1);
    return rest === '' || rest.split(',').every((fp) => fps.has(fp));
  };
}

/** Compute the fingerprints of a round-robin rule set's rules now (load time), not on its first request. */
export function fingerprintRuleSet(ruleSet: RuleSet): void {
  if (ruleSet.strategy.kind === 'round_robin') for (const r of ruleSet.rules) ruleFingerprint(r);
}
