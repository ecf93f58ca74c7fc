// Rules that can never answer: an earlier rule always answers first for the same path and method. A
// conservative check (docs/files-and-rules.md#rules-that-never-answer): the shadowed rule has an `equal` url_path;
// the earlier rule checks that same path with `equal` and at most the same method, nothing else; or an earlier
// rule set's prefix claims the path (it answers or 404s there, so later rule sets never see it). Within one rule
// set only `first_match` orders rules by position; any rule set tried earlier answers whatever its strategy.
import type { Condition, Rule, RuleSet } from '../model/rule-set.js';
import { claims } from './prefix.js';

export type ShadowedBy =
  | { readonly kind: 'rule'; readonly ruleSetIndex: number; readonly ruleIndex: number }
  | { readonly kind: 'prefix'; readonly ruleSetIndex: number; readonly prefix: string };

export interface Shadowed {
  readonly ruleSetIndex: number;
  readonly ruleIndex: number;
  readonly by: ShadowedBy;
}

interface Key {
  readonly path: string;
  /** undefined: any method */
  readonly method: string | undefined;
}

/** The exact path and method a rule needs, when it checks an `equal` path; undefined otherwise. */
function keyOf(rule: Rule): Key | undefined {
  const path = rule.conditions.find(
    (c): c is Extract<Condition, { on: 'url_path' }> => c.on === 'url_path' && c.op === 'equal',
  );
  if (path === undefined) return undefined;
  const method = rule.conditions.find((c) => c.on === 'method');
  return { path: path.compareTo, method: method?.on === 'method' ? method.value : undefined };
}

/** Does `earlier` answer every request with this path and method: an equal path and at most a method, nothing else? */
function alwaysAnswers(earlier: Rule, k: Key): boolean {
  let path = false;
  for (const c of earlier.conditions) {
    if (c.on === 'url_path' && c.op === 'equal' && c.compareTo === k.path && !path) path = true;
    else if (c.on === 'method' && k.method !== undefined && c.value === k.method) continue;
    else return false;
  }
  return path;
}

/** What keeps rule `ruleIndex` of rule set `ruleSetIndex` from ever answering, or undefined. */
export function shadowOf(
  ruleSets: readonly RuleSet[],
  ruleSetIndex: number,
  ruleIndex: number,
): ShadowedBy | undefined {
  const set = ruleSets[ruleSetIndex];
  const rule = set?.rules[ruleIndex];
  if (set === undefined || rule === undefined) return undefined;
  const k = keyOf(rule);
  if (k === undefined) return undefined;
  for (const earlier of ruleSets.slice(0, ruleSetIndex)) {
    if (earlier.prefix !== undefined && claims(earlier.prefix, k.path))
      return { kind: 'prefix', ruleSetIndex: earlier.index, prefix: earlier.prefix };
    const r = earlier.rules.find((x) => alwaysAnswers(x, k));
    if (r !== undefined) return { kind: 'rule', ruleSetIndex: earlier.index, ruleIndex: r.index };
  }
  if (set.strategy.kind !== 'first_match') return undefined;
  const r = set.rules.slice(0, ruleIndex).find((x) => alwaysAnswers(x, k));
  return r === undefined ? undefined : { kind: 'rule', ruleSetIndex, ruleIndex: r.index };
}

/** Every rule of the workspace that can never answer, in order. */
export function shadowedRules(ruleSets: readonly RuleSet[]): Shadowed[] {
  const out: Shadowed[] = [];
  for (const set of ruleSets) {
    for (const rule of set.rules) {
      const by = shadowOf(ruleSets, set.index, rule.index);
      if (by !== undefined) out.push({ ruleSetIndex: set.index, ruleIndex: rule.index, by });
    }
  }
  return out;
}

/** `rule #2 in ./rules.toml can never answer: rule #1 in ./rules.toml always answers first for the same path and method` */
export function shadowText(ruleSets: readonly RuleSet[], s: Shadowed, shown: (file: string) => string): string {
  const where = (setIndex: number, ruleIndex: number): string =>
    `rule #${ruleIndex + 1} in ${shown(ruleSets[setIndex]!.file)}`;
  const cause =
    s.by.kind === 'rule'
      ? `${where(s.by.ruleSetIndex, s.by.ruleIndex)} always answers first for the same path and method`
      : `${shown(ruleSets[s.by.ruleSetIndex]!.file)}, tried earlier, claims ${s.by.prefix} with its prefix (it answers or 404s there)`;
  return `${where(s.ruleSetIndex, s.ruleIndex)} can never answer: ${cause}`;
}
