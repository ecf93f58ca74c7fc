// Round-robin counters keyed by match group (SPEC 2.3): the rule set plus the set of rule indices that
// matched. Requests matching the same set share a counter; different sets never do, however interleaved.
// Owned by whoever calls dispatch: the server keeps one for its lifetime; `get` makes a fresh one.
export class RotationState {
  private readonly counters = new Map<string, number>();

  /** The next position (0-based, below `size`) for this group, advancing its counter. */
  next(groupKey: string, size: number): number {
    if (size <= 0) return 0;
    const n = (this.counters.get(groupKey) ?? 0) % size;
    this.counters.set(groupKey, (n + 1) % size);
    return n;
  }
}

/** The match group of a round-robin pick: the rule set's index and its matched rule indices in file order. */
export function matchGroupKey(ruleSetIndex: number, matches: readonly number[]): string {
  // The same match list object (a rule set's index entry for a path) comes back request after request.
  let byIndex = keys.get(matches);
  const known = byIndex?.get(ruleSetIndex);
  if (known !== undefined) return known;
  const key = `${ruleSetIndex}:${matches.join(',')}`;
  if (Object.isFrozen(matches)) {
    if (byIndex === undefined) keys.set(matches, (byIndex = new Map()));
    byIndex.set(ruleSetIndex, key);
  }
  return key;
}

/** keys of frozen match lists (a rule set's index entries, which never change) */
const keys = new WeakMap<readonly number[], Map<number, string>>();
