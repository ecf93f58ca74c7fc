// The answer of a matched rule, whoever matched it (a runtime override, a rule set, anything later): its rate
// limit, its draft (literal, file or template), and the scenario move it makes. One function, so a rule answers
// alike wherever it is matched.
import type { Rule } from '../model/rule-set.js';
import { chain, type ValueOrPromise } from '../shared/value-or-promise.js';
import { transitionOf } from '../state/scenarios.js';
import { planCallbacks } from './callbacks.js';
import { readCollection } from './collections.js';
import { draftFromRespond, textDraft } from './respond.js';
import { directDraft, templatedDraft, templateEnv, type FileDeny } from './templated.js';
import type { Workspace } from '../model/workspace.js';
import type { DispatchCtx, Stage, Staged } from './types.js';
import { workspaceRandom } from './workspace-random.js';

export function answerRule(ctx: DispatchCtx, rule: Rule, stage: Stage): ValueOrPromise<Staged> {
  const { ws, req, env, used } = ctx;
  if (rule.limit !== undefined && env.pace !== undefined) {
    const wait = env.pace.take(rule, rule.limit);
    if (wait !== undefined) return tooMany(wait, stage);
  }
  const respond = rule.respond;
  const template = respond.template;
  if (template !== undefined && used === undefined) {
    const direct = directDraft(rule, template, req);
    if (direct !== undefined)
      return respond.callbacks === undefined
        ? { draft: direct, stage, respond }
        : { draft: direct, stage, respond, callbacks: planCallbacks(ctx, rule, respond.callbacks, direct) };
  }
  const drafted =
    template === undefined
      ? draftFromRespond(respond, env.files)
      : templatedDraft(
          rule,
          template,
          req,
          templateEnv(
            env.files,
            workspaceRandom(ws),
            env.log,
            env.now,
            ws.collections === undefined ? undefined : (name, id) => readCollection(ws, env.state, name, id),
            fileDeny(ws),
            env.state,
          ),
          used,
        );
  // the scenarios are read only for a rule that names some (decided at load: Rule.scenarios, Respond.setState)
  const moves = respond.setState;
  const transition =
    rule.scenarios === undefined && moves === undefined ? undefined : transitionOf(env.state, rule.scenarios, moves);
  const callbacks = respond.callbacks;
  if (callbacks !== undefined)
    return chain(drafted, ({ draft, file }) => ({
      draft,
      stage,
      respond,
      ...(file === undefined ? {} : { file }),
      ...(transition === undefined ? {} : { transition }),
      callbacks: planCallbacks(ctx, rule, callbacks, draft),
    }));
  if (transition !== undefined)
    return chain(drafted, ({ draft, file }) =>
      file === undefined ? { draft, stage, respond, transition } : { draft, stage, file, respond, transition },
    );
  return chain(drafted, ({ draft, file }) =>
    file === undefined ? { draft, stage, respond } : { draft, stage, file, respond },
  );
}

/** What a file path rendered from the request may not name (templated.ts): the workspace's service.deny. */
export function fileDeny(ws: Workspace): FileDeny | undefined {
  if (ws.deny === undefined) return undefined;
  let deny = denies.get(ws);
  if (deny === undefined) denies.set(ws, (deny = { policy: ws.deny, fallbackDir: ws.fallbackDir }));
  return deny;
}

/** one FileDeny per workspace (a reload is a new workspace), not one per request */
const denies = new WeakMap<Workspace, FileDeny>();

/** The answer past a rule's rate limit: 429 with the seconds left in the window (rounded up). */
function tooMany(waitMs: number, stage: Stage): Staged {
  const draft = textDraft(429, 'too many requests');
  return {
    draft: { ...draft, headers: [['retry-after', String(Math.max(1, Math.ceil(waitMs / 1000)))]] },
    stage,
    limited: true,
  };
}
