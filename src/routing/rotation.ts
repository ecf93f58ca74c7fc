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
  return `${ruleSetIndex}:${matches.join(',')}`;
}
