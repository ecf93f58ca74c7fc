// dispatch(): the single request pipeline, shared by the server, `mock get` and the tests. The request walks the
// stages of STAGES in order until one answers; the answer is finalized (default headers, CORS, content length),
// given its delay, and, with `--contract`, checked. Each stage is one file in stages/; a new one is one entry
// below (docs/architecture.md#the-pipeline). It never sleeps (the server applies delayMs) and never touches node:*.
import type { Answer } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { Soon, type ValueOrPromise } from '../shared/value-or-promise.js';
import type { Explanation, OverrideCheck, RuleSetExplanation } from './explain.js';
import { finalize } from './finalize.js';
import { sampleDelay } from './pace.js';
import { badRequestStage } from './stages/bad-request.js';
import { dbCollectionsStage } from './stages/collections.js';
import { checkedOutcome, contractStage } from './stages/contract.js';
import { fallbackStage } from './stages/fallback.js';
import { middlewareStage } from './stages/middleware.js';
import { optionsStage } from './stages/options.js';
import { overridesStage } from './stages/overrides.js';
import { ruleSetsStage } from './stages/rule-sets.js';
import type { TemplateUse } from './templated.js';
import type { Draft } from './finalize.js';
import type { DispatchCtx, DispatchEnv, Outcome, StageFn, Staged } from './types.js';

export type * from './types.js';
export { DEFAULT_SCRIPT_TIME_LIMIT_MS } from './stages/middleware.js';
export { prepareWorkspace } from './prepare.js';
export { commitOutcome } from './commit.js';

/** The stages, in the order they are tried. The last always answers. */
const STAGES: readonly StageFn[] = [
  optionsStage,
  badRequestStage,
  contractStage,
  overridesStage,
  middlewareStage,
  ruleSetsStage,
  dbCollectionsStage,
  fallbackStage,
];

/**
 * The answer to one request. Synchronous when no stage needs the disk or a first-time module load (rule answers
 * with literal bodies, remembered fallback resolutions): callers `await` it either way.
 */
export function dispatch(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  opts: { readonly explain?: boolean } = {},
): ValueOrPromise<Outcome> {
  const explain = opts.explain === true;
  const ctx: DispatchCtx = {
    ws,
    req,
    env,
    explained: explain ? [] : undefined,
    used: explain ? [] : undefined,
    checked: explain && env.overrides !== undefined ? [] : undefined,
    verdict: undefined,
  };
  const staged = walk(ctx, 0);
  if (staged instanceof Promise || staged instanceof Soon) return staged.then((s) => outcome(ctx, s));
  return outcome(ctx, staged);
}

/** Stage after stage from `from`, synchronously until one answers later (then the rest run after it settles). */
function walk(ctx: DispatchCtx, from: number): ValueOrPromise<Staged> {
  for (let i = from; i < STAGES.length; i++) {
    const r = STAGES[i]!(ctx);
    if (r === undefined) continue;
    if (r instanceof Promise || r instanceof Soon) return r.then((s) => s ?? walk(ctx, i + 1));
    return r;
  }
  throw new Error('no stage answered (the fallback stage always answers)');
}

function outcome(ctx: DispatchCtx, s0: Staged): Outcome {
  const { ws, req, env, used, explained, checked } = ctx;
  // a script's `add_headers`: under the answer's own headers (those win, as a later `res.header` does in Express)
  const added = ctx.addHeaders;
  const s =
    added === undefined || s0.stage.kind === 'options' ? s0 : { ...s0, draft: withAddedHeaders(s0.draft, added) };
  const answered = withTemplate(
    outcomeOf(s, paced(finalize(s.draft, req, ws.cors), s, ws, env), explained, checked),
    used,
  );
  return env.contract === undefined ? answered : checkedOutcome(ctx, answered);
}

/** a draft of this request only, with the headers a script added under its own */
function withAddedHeaders(draft: Draft, added: readonly (readonly [string, string])[]): Draft {
  const { like: _like, ...rest } = draft;
  const under = draft.contentType === undefined ? added : added.filter(([k]) => k !== 'content-type');
  return { ...rest, headers: [...under, ...draft.headers], fresh: true };
}

/**
 * The answer's delay when it is drawn per request or comes from `service.delay` (rule, script and file answers
 * whose rule sets no delay of its own; never OPTIONS, a 400, a 429 or a fault; a rule's own delay does apply
 * before its fault). Everything else: as finalized.
 */
function paced(answer: Answer, s: Staged, ws: Workspace, env: DispatchEnv): Answer {
  const r = s.respond;
  let spec = r?.delay;
  if (spec === undefined) {
    if (r?.delaySet === true || s.limited === true) return answer;
    spec = ws.config.service.delay;
    if (spec === undefined) return answer;
    const k = s.stage.kind;
    if (k !== 'rule_set' && k !== 'middleware' && k !== 'fallback' && k !== 'collection') return answer;
    if (answer.delivery?.kind === 'fault') return answer;
  }
  const delayMs = sampleDelay(spec, env.pace?.uniform(ws) ?? env.random);
  return delayMs === answer.delayMs ? answer : { ...answer, delayMs };
}

function withTemplate(outcome: Outcome, used: TemplateUse[] | undefined): Outcome {
  return used === undefined || used.length === 0 ? outcome : { ...outcome, template: used[0]! };
}

// Object literals of fixed shape rather than spreads: this runs for every request (a spread builds the object
// key by key, and its shape varies).
function outcomeOf(
  staged: Staged,
  answer: Answer,
  explained: RuleSetExplanation[] | undefined,
  checked: OverrideCheck[] | undefined,
): Outcome {
  const { stage, file } = staged;
  if (staged.transition !== undefined || staged.writes !== undefined || staged.callbacks !== undefined) {
    const plain = outcomeOf(
      { draft: staged.draft, stage, ...(file === undefined ? {} : { file }) },
      answer,
      explained,
      checked,
    );
    const { transition, writes, callbacks } = staged;
    return {
      ...plain,
      ...(transition === undefined ? {} : { state: transition }),
      ...(writes === undefined ? {} : { writes }),
      ...(callbacks === undefined ? {} : { callbacks }),
    };
  }
  if (explained === undefined) return file === undefined ? { answer, stage } : { answer, stage, file };
  const explanation: Explanation =
    checked === undefined || checked.length === 0
      ? { ruleSets: explained }
      : { ruleSets: explained, overrides: checked };
  return file === undefined ? { answer, stage, explanation } : { answer, stage, file, explanation };
}
