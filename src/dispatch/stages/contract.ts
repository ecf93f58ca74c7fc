// `--contract` (docs/contract.md): the request is checked against the OpenAPI document; in enforce mode one that
// breaks it is answered 400 here. The verdict stays on the context, for the answer check that wraps the outcome
// (checkedOutcome, below).
import type { DispatchCtx, Outcome, Stage, Staged, ContractMark } from '../types.js';

const CONTRACT_STAGE: Stage = Object.freeze({ kind: 'contract' });

export function contractStage(ctx: DispatchCtx): Staged | undefined {
  const gate = ctx.env.contract;
  if (gate === undefined) return undefined;
  const verdict = gate.checkRequest(ctx.req);
  ctx.verdict = verdict;
  if (verdict === undefined || !gate.enforce || verdict.violations.length === 0) return undefined;
  return {
    draft: {
      status: 400,
      body: new TextEncoder().encode(gate.problem(verdict)),
      contentType: 'application/problem+json',
      headers: [],
      delayMs: 0,
    },
    stage: CONTRACT_STAGE,
  };
}

/** The outcome with what the contract check found in the request and the answer (logged when anything). */
export function checkedOutcome(ctx: DispatchCtx, outcome: Outcome): Outcome {
  const { verdict, env, req } = ctx;
  const gate = env.contract;
  if (verdict === undefined || gate === undefined) return outcome;
  const refused = outcome.stage.kind === 'contract';
  const answer = refused ? [] : gate.checkAnswer(verdict, outcome.answer);
  const contract: ContractMark = {
    operation: verdict.operation,
    request: verdict.violations,
    answer,
    enforced: refused,
  };
  const target = `${req.method} ${req.rawPath}${req.query === '' ? '' : '?' + req.query}`;
  if (verdict.violations.length > 0)
    env.log(
      `contract: ${target} breaks ${verdict.operation}${refused ? ' (answered 400)' : ' (answered anyway: warn)'}: ${verdict.violations.join('; ')}`,
    );
  if (answer.length > 0) env.log(`contract: ${target}: answer violates the contract: ${answer.join('; ')}`);
  return { ...outcome, contract };
}
