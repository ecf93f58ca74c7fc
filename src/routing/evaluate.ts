// evaluateRuleSet: one rule set against one request. The prefix decides whether the rule set is
// consulted at all; checkCondition decides each rule; the strategy picks the winner among the matches.
//
// What it leaves out: answering (dispatch builds the response), the 404 for a claimed path that no rule
// answers (dispatch reads `underPrefix`), and any compiling (everything arrives compiled at load).
import type { RequestSnapshot } from '../model/request.js';
import type { Condition, ConditionCheck, Rule, RuleCheck, RuleSet } from '../model/rule-set.js';
import { checkCondition, compileCondition, type CompiledCondition } from './check.js';
import { undecoded } from '../start-up/lazy-rule-set.js';
import { candidateRules, preparePathIndex, summaryAdmits } from './path-index.js';
import { claims } from './prefix.js';
import { fingerprintRuleSet, type RotationState } from './rotation.js';
import { selectWinner } from './strategy.js';
import type { StateStore } from '../state/store.js';

export interface EvaluateContext {
  readonly rotation: RotationState;
  /** used only when a random strategy has no seed */
  readonly random: () => number;
  /** keep every rule's condition checks (for --why / match-test) */
  readonly explain: boolean;
  /** where `when.state` conditions read scenario states (docs/state.md); absent: every scenario is `started` */
  readonly state?: StateStore;
}

export interface RuleSetEvaluation {
  /** the rule set has a prefix and it claims the request path (then a miss is a 404) */
  readonly underPrefix: boolean;
  /** 0-based index of the winning rule, chosen by the rule set's strategy */
  readonly winner: number | undefined;
  /**
   * matching rule indices in file order: all of them, except under first_match without explain,
   * where scanning stops at the first (nothing later could win)
   */
  readonly matches: readonly number[];
  /**
   * when ctx.explain: every rule's checks, every condition of every rule, even after the winner.
   * Empty when the rule set's prefix does not claim the path (its rules were not consulted).
   */
  readonly checks?: readonly RuleCheck[];
}

/**
 * Build what evaluating a rule set needs (its compiled rules and its path index) now rather than on the first
 * request: the server does it while loading, so the first request is not the one that pays for a long rule list.
 */
export function prepareRuleSet(ruleSet: RuleSet): void {
  // a rule set decoded on first need is prepared then (its first evaluation), not at start
  if (undecoded(ruleSet)) return;
  compiledRules(ruleSet);
  preparePathIndex(ruleSet);
  fingerprintRuleSet(ruleSet);
}

const NOT_CLAIMED: RuleSetEvaluation = { underPrefix: false, winner: undefined, matches: [] };
const NOT_CLAIMED_EXPLAINED: RuleSetEvaluation = { ...NOT_CLAIMED, checks: [] };
const NOT_MATCHED_UNDER_PREFIX: RuleSetEvaluation = { underPrefix: true, winner: undefined, matches: [] };

export function evaluateRuleSet(ruleSet: RuleSet, req: RequestSnapshot, ctx: EvaluateContext): RuleSetEvaluation {
  if (ruleSet.prefix !== undefined && !claims(ruleSet.prefix, req.path)) {
    return ctx.explain ? NOT_CLAIMED_EXPLAINED : NOT_CLAIMED;
  }
  const underPrefix = ruleSet.prefix !== undefined;
  if (ctx.explain) {
    const checks = ruleSet.rules.map((rule, i) => explainRule(rule, i, req, ctx.state));
    const matches = checks.filter((c) => c.matched).map((c) => c.ruleIndex);
    return { underPrefix, winner: selectWinner(matches, ruleSet, ctx), matches, checks };
  }
  // a rule set not decoded yet stays so while its summary says none of its rules can match this path
  if (undecoded(ruleSet) && !summaryAdmits(ruleSet.summary, req.path, req))
    return underPrefix ? NOT_MATCHED_UNDER_PREFIX : NOT_CLAIMED;
  const firstOnly = ruleSet.strategy.kind === 'first_match';
  const candidates = candidateRules(ruleSet, req.path, req);
  const rules = compiledRules(ruleSet);
  const state = ctx.state;
  // `matches` stays the candidate list itself while every candidate matches (no copy in the common case)
  let matches: number[] | undefined;
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k]!;
    if (!rules[i]!(req, state)) {
      matches ??= candidates.slice(0, k);
      continue;
    }
    if (firstOnly) return { underPrefix, winner: i, matches: single(i) };
    matches?.push(i);
  }
  const all = matches ?? candidates;
  return { underPrefix, winner: selectWinner(all, ruleSet, ctx), matches: all };
}

const SINGLES: (readonly number[])[] = [];
/** [i], shared (these arrays are never changed) */
function single(i: number): readonly number[] {
  if (i >= 4096) return [i];
  return (SINGLES[i] ??= Object.freeze([i]));
}

/** each rule set's rules compiled once (rule sets are immutable after load) */
const COMPILED = new WeakMap<RuleSet, readonly CompiledCondition[]>();

function compiledRules(ruleSet: RuleSet): readonly CompiledCondition[] {
  let compiled = COMPILED.get(ruleSet);
  if (compiled === undefined) COMPILED.set(ruleSet, (compiled = ruleSet.rules.map(compileRule)));
  return compiled;
}

/**
 * Conditions are ANDed; the first failure decides. They are pure, so the compiled rule may check them in any order:
 * query and cookie conditions first (rules on one path told apart by `?page=2` fail there), a url_path template
 * last (the path index has usually settled it), the rest in the order written. A rule with none of these keeps
 * the order written. Explanations (explainRule) always keep the order written.
 */
function compileRule(rule: Rule): CompiledCondition {
  const ordered =
    rule.conditions.length === 1 ? rule.conditions : [...rule.conditions].sort((a, b) => checkRank(a) - checkRank(b));
  const parts = ordered.map(compileCondition);
  if (parts.length === 1) return parts[0]!;
  return (req, state) => {
    for (const part of parts) if (!part(req, state)) return false;
    return true;
  };
}

function checkRank(c: Condition): number {
  if (c.on === 'query' || c.on === 'cookie' || c.on === 'state') return 0;
  return c.on === 'url_path' && c.op === 'path_template' ? 2 : 1;
}

/** Every condition is checked, even after one fails, so the explanation shows them all. */
function explainRule(rule: Rule, ruleIndex: number, req: RequestSnapshot, state: StateStore | undefined): RuleCheck {
  const conditions: { readonly condition: Condition; readonly check: ConditionCheck }[] = [];
  let matched = true;
  for (const condition of rule.conditions) {
    const check = checkCondition(condition, req, state);
    if (!check.ok) matched = false;
    conditions.push({ condition, check });
  }
  return { ruleIndex, matched, conditions };
}
