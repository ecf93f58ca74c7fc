// Collections (docs/state.md): a rule set's answer beside its rules (answerFromCollection, called by the rule-set
// stage), and the db file's, as a stage of its own after every rule set.
import { answerCollection, collectionRoute } from '../collections.js';
import { chain, type ValueOrPromise } from '../../shared/value-or-promise.js';
import { asJsonServer, dbOwnAnswer, dbRequest } from '../db-mode.js';
import type { DispatchCtx, Stage, Staged, StateWrite } from '../types.js';
import { workspaceRandom } from '../workspace-random.js';
import { needsLikeEngine } from '../../state/collections/query.js';
import { loadLinearRegex } from '../../shared/linear-regex.js';
import type { HeaderList } from '../../shared/headers.js';
import type { Draft } from '../finalize.js';

/**
 * The db file's collections (`--db`, `service.db`), answered as json-server does (dispatch/db-mode.ts): after
 * `--routes`, with `GET /db`, `--read-only`, `?_delay=` and json-server's CORS.
 */
export function dbCollectionsStage(ctx: DispatchCtx): ValueOrPromise<Staged> | undefined {
  const ws = ctx.ws;
  if (ws.config.service.db === undefined) return answerFromCollection(ctx, undefined);
  const req = dbRequest(ws, ctx.req);
  const own = dbOwnAnswer(ws, req, ctx.env.state);
  const asServer = (s: Staged | undefined): Staged | undefined =>
    s === undefined ? undefined : { ...s, draft: asJsonServer(ws, req, s.draft) };
  if (own !== undefined) return asServer(own);
  const r = answerFromCollection(req === ctx.req ? ctx : { ...ctx, req }, undefined);
  return r === undefined ? undefined : (chain(r, asServer) as ValueOrPromise<Staged>);
}

/** A collection's answer: one of the rule set's (`ruleSetIndex`) or, undefined, one of the db file's. */
export function answerFromCollection(
  ctx: DispatchCtx,
  ruleSetIndex: number | undefined,
): ValueOrPromise<Staged> | undefined {
  const { ws, req, env } = ctx;
  const collections = ws.collections;
  if (collections === undefined) return undefined;
  const hit = collectionRoute(ws, collections, ruleSetIndex, req);
  if (hit === undefined) return undefined;
  // the first `_like` filter loads its linear-time engine (state/collections/query.ts), then is answered
  if (hit.action === 'list' && needsLikeEngine(req.parts.query))
    return loadLinearRegex().then(() => answerFromCollection(ctx, ruleSetIndex)!);
  const c = hit.collection;
  const answered = answerCollection(hit, req, ws, { state: env.state, random: workspaceRandom(ws) });
  const { write, others } = answered;
  const draft = c.headers === undefined ? answered.draft : withHeaders(answered.draft, c.headers);
  const stage: Stage =
    c.ruleSetIndex === undefined
      ? { kind: 'collection', path: c.path, action: hit.action, file: c.file }
      : { kind: 'collection', path: c.path, action: hit.action, file: c.file, ruleSetIndex: c.ruleSetIndex };
  if (write === undefined) return { draft, stage };
  const { state, collectionChanged } = env;
  const change: StateWrite = {
    apply: write,
    save: () => {
      const saved = collectionChanged?.(c, state);
      if (others === undefined || others.length === 0 || collectionChanged === undefined) return saved;
      const all = [saved, ...others.map((o) => collectionChanged(o, state))].filter((p) => p !== undefined);
      return all.length === 0 ? undefined : Promise.all(all).then(() => undefined);
    },
    file: c.file,
  };
  return { draft, stage, writes: [change] };
}

/** the collection's own headers after the answer's (an answer's own header of the same name wins) */
function withHeaders(draft: Draft, headers: HeaderList): Draft {
  const own = new Set(draft.headers.map(([k]) => k));
  return { ...draft, headers: [...draft.headers, ...headers.filter(([k]) => !own.has(k.toLowerCase()))] };
}
