// Runtime overrides (`m.use`, `POST /__mock/api/overrides`, docs/library.md#overrides): tried before everything
// the workspace says, a session's list first, then the shared one, newest first in each.
import type { ValueOrPromise } from '../../shared/value-or-promise.js';
import { answerRule } from '../answer-rule.js';
import { evaluateRuleSet } from '../../routing/evaluate.js';
import type { DispatchCtx, Stage, Staged } from '../types.js';

export function overridesStage(ctx: DispatchCtx): ValueOrPromise<Staged> | undefined {
  const { env, req, checked } = ctx;
  const lists = env.overrides;
  if (lists === undefined) return undefined;
  const evalCtx = { rotation: env.rotation, random: env.random, explain: checked !== undefined, state: env.state };
  for (const list of lists) {
    if (list.size === 0) continue;
    const ev = evaluateRuleSet(list.ruleSet(), req, evalCtx);
    if (checked !== undefined) {
      const shown = list.list();
      for (const c of ev.checks ?? []) checked.push({ id: shown[c.ruleIndex]!.id, session: list.session, check: c });
    }
    if (ev.winner === undefined) continue;
    const o = list.answered(ev.winner);
    const stage: Stage =
      o.session === undefined ? { kind: 'override', id: o.id } : { kind: 'override', id: o.id, session: o.session };
    return answerRule(ctx, o.rule, stage);
  }
  return undefined;
}
