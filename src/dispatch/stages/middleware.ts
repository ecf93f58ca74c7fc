// Middleware scripts (docs/middleware.md): the first script that answers, answers. The interpreter is loaded on
// first use, so a workspace without scripts never loads it.
import { chain, type ValueOrPromise } from '../../shared/value-or-promise.js';
import { transitionOf } from '../../state/scenarios.js';
import { draftFromRespond } from '../respond.js';
import { fileDeny } from '../answer-rule.js';
import type { DispatchCtx, Stage, Staged } from '../types.js';

/** Wall-clock bound on one script evaluation, checked alongside the operation budget: a runaway script stalls the (single-threaded) server at most this long. */
export const DEFAULT_SCRIPT_TIME_LIMIT_MS = 250;

/** the middleware module, imported once on first use (a cache of an immutable module, not state) */
let middlewareLoad: Promise<typeof import('../middleware.js')> | undefined;
let middlewareModule: typeof import('../middleware.js') | undefined;

export function middlewareStage(ctx: DispatchCtx): ValueOrPromise<Staged | undefined> {
  const { ws, req, env } = ctx;
  if (ws.middlewares.length === 0) return undefined;
  if (middlewareModule === undefined) {
    return (middlewareLoad ??= import('../middleware.js')).then((m) => {
      middlewareModule = m;
      return middlewareStage(ctx);
    });
  }
  const hit = middlewareModule.answerFromMiddleware(ws.middlewares, req, {
    maxOperations: ws.config.service.middlewareMaxOperations,
    maxMemoryBytes: ws.config.service.middlewareMaxMemoryBytes,
    timeLimitMs: env.scriptTimeLimitMs ?? DEFAULT_SCRIPT_TIME_LIMIT_MS,
    log: env.log,
    state: env.state,
    ruleSets: ws.ruleSets,
    onAddHeaders: (headers) => {
      ctx.addHeaders = [...(ctx.addHeaders ?? []), ...headers];
    },
  });
  if (hit === undefined) return undefined;
  const respond = hit.respond;
  // a script's file answer may be computed from the request: it passes service.deny as a rendered file_path does
  const kind = respond.body.kind;
  const deny = kind === 'file' || kind === 'stream' ? fileDeny(ws) : undefined;
  const log = env.log;
  const scriptDeny =
    deny === undefined
      ? undefined
      : {
          ...deny,
          onDenied: (file: string, pattern: string) =>
            log(
              `middleware ${hit.file}: the file ${file} it answered with is never served (denied by the pattern ${pattern} of service.deny); answered 404`,
            ),
        };
  const stage: Stage = { kind: 'middleware', index: hit.index, file: hit.file };
  const transition = hit.setState === undefined ? undefined : transitionOf(env.state, undefined, hit.setState);
  return chain(draftFromRespond(respond, env.files, scriptDeny), ({ draft, file }): Staged => {
    const staged: Staged = file === undefined ? { draft, stage, respond } : { draft, stage, file, respond };
    return transition === undefined ? staged : { ...staged, transition };
  });
}
