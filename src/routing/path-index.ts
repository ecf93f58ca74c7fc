// An exact-path index over a rule set, so the common case (url_path written as a bare string) does not
// scan every rule. Built lazily, once per RuleSet object; rule sets are immutable after load.
import type { Rule, RuleSet } from '../model/rule-set.js';

interface PathIndex {
  /** rules holding a url_path `equal` condition, by the path they need (compareTo), in file order */
  readonly byPath: ReadonlyMap<string, readonly number[]>;
  /** every other rule, in file order: these can match any path */
  readonly unindexed: readonly number[];
}

const INDEXES = new WeakMap<RuleSet, PathIndex>();

/**
 * The rules that may match `path`, in file order: those whose url_path `equal` names exactly this
 * path, merged with those that have no such condition. A rule left out cannot match.
 */
export function candidateRules(ruleSet: RuleSet, path: string): readonly number[] {
  let index = INDEXES.get(ruleSet);
  if (index === undefined) {
    index = buildIndex(ruleSet.rules);
    INDEXES.set(ruleSet, index);
  }
  const exact = index.byPath.get(path);
  return exact === undefined ? index.unindexed : mergeSorted(exact, index.unindexed);
}

function buildIndex(rules: readonly Rule[]): PathIndex {
  const byPath = new Map<string, number[]>();
  const unindexed: number[] = [];
  rules.forEach((rule, i) => {
    const key = exactPathOf(rule);
    if (key === undefined) unindexed.push(i);
    else {
      const list = byPath.get(key);
      if (list === undefined) byPath.set(key, [i]);
      else list.push(i);
    }
  });
  // frozen: shared with every caller, and recognisable as stable (rotation.ts caches their group keys)
  for (const list of byPath.values()) Object.freeze(list);
  return { byPath, unindexed: Object.freeze(unindexed) };
}

/** The path a rule requires when one of its (ANDed) conditions is url_path `equal`. */
function exactPathOf(rule: Rule): string | undefined {
  for (const c of rule.conditions) if (c.on === 'url_path' && c.op === 'equal') return c.compareTo;
  return undefined;
}

function mergeSorted(a: readonly number[], b: readonly number[]): readonly number[] {
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! < b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
