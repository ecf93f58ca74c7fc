// The workspace's rule sets, in order (docs/files-and-rules.md): the first rule that matches answers; a rule set
// whose rules all miss may still answer from its collections, or claim the path by its prefix (404).
import type { ValueOrPromise } from '../../shared/value-or-promise.js';
import { evaluateRuleSet } from '../../routing/evaluate.js';
import { ruleSetsFor } from '../../routing/rule-sets-index.js';
import { answerRule } from '../answer-rule.js';
import { emptyDraft } from '../respond.js';
import type { DispatchCtx, Stage, Staged } from '../types.js';
import { answerFromCollection } from './collections.js';
import { decodeFailure } from '../../start-up/lazy-rule-set.js';
import type { RuleSet } from '../../model/rule-set.js';

/** rule sets whose failed decode was logged already (once each: the live reload replaces them) */
const reported = new WeakSet<RuleSet>();

function reportOnce(ruleSet: RuleSet, failure: string, log: (line: string) => void): void {
  if (reported.has(ruleSet)) return;
  reported.add(ruleSet);
  log(`${failure}; it answers nothing until the live reload replaces it`);
}

export function ruleSetsStage(ctx: DispatchCtx): ValueOrPromise<Staged> | undefined {
  const { ws, req, env, explained } = ctx;
  const sets = ws.ruleSets;
  if (sets.length === 0) return undefined;
  const evalCtx = { rotation: env.rotation, random: env.random, explain: explained !== undefined, state: env.state };
  // only the rule sets that may have a candidate for this path (many rule-set files: routing/path-index.ts); an
  // explanation lists every rule set, and a rule set's collections answer beside its rules, so those try them all
  const only = explained === undefined && ws.collections === undefined ? ruleSetsFor(sets, req) : undefined;
  const count = only === undefined ? sets.length : only.length;
  for (let k = 0; k < count; k++) {
    const ruleSet = sets[only === undefined ? k : only[k]!]!;
    const ev = evaluateRuleSet(ruleSet, req, evalCtx);
    explained?.push({
      ruleSetIndex: ruleSet.index,
      file: ruleSet.file,
      underPrefix: ev.underPrefix,
      winner: ev.winner,
      rules: ev.checks ?? [],
    });
    if (ev.winner !== undefined) {
      const stage: Stage = { kind: 'rule_set', ruleSetIndex: ruleSet.index, ruleIndex: ev.winner };
      return answerRule(ctx, ruleSet.rules[ev.winner]!, stage);
    }
    const failed = decodeFailure(ruleSet);
    if (failed !== undefined) reportOnce(ruleSet, failed, env.log);
    const fromCollection = answerFromCollection(ctx, ruleSet.index);
    if (fromCollection !== undefined) return fromCollection;
    if (ev.underPrefix) return { draft: emptyDraft(404), stage: { kind: 'prefix_miss', ruleSetIndex: ruleSet.index } };
  }
  return undefined;
}
