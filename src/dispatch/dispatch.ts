// dispatch(): the single request pipeline, shared by the server, `mock get` and the tests.
// It reads top to bottom as the spec's dispatch table: OPTIONS, middleware scripts, rule sets, fallback
// directory, then finalize. It never sleeps (the server applies delayMs) and never touches node:*.
import type { Answer } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { resolveFallbackFile } from '../files/lookup.js';
import { fileBody } from '../files/serve.js';
import type { FileSource } from '../files/source.js';
import { evaluateRuleSet } from '../routing/evaluate.js';
import type { RotationState } from '../routing/rotation.js';
import type { Explanation, RuleSetExplanation } from './explain.js';
import { type Draft, finalize } from './finalize.js';
import { answerOptions } from './options.js';
import { draftFromRespond, emptyDraft, textDraft } from './respond.js';

export interface DispatchEnv {
  readonly files: FileSource;
  /** the server keeps one for its lifetime; `get` makes a fresh one */
  readonly rotation: RotationState;
  /** used only when a random strategy has no seed */
  readonly random: () => number;
  /** script print/debug output and script errors */
  readonly log: (line: string) => void;
  /** wall-clock budget for one script evaluation (ms) */
  readonly scriptTimeLimitMs?: number;
}

export type Stage =
  | { readonly kind: 'options' }
  /** a JSON-declared body that does not parse: 400 */
  | { readonly kind: 'bad_request' }
  | { readonly kind: 'middleware'; readonly index: number; readonly file: string }
  | { readonly kind: 'rule_set'; readonly ruleSetIndex: number; readonly ruleIndex: number }
  /** claimed by a prefix, no rule matched: 404 */
  | { readonly kind: 'prefix_miss'; readonly ruleSetIndex: number }
  | { readonly kind: 'fallback'; readonly file: string }
  /** nothing answered: 404, empty body */
  | { readonly kind: 'miss' };

export interface Outcome {
  readonly answer: Answer;
  readonly stage: Stage;
  /** the file whose bytes were served, if any (rule file_path, script file, fallback file) */
  readonly file?: string;
  readonly explanation?: Explanation;
}

/** Wall-clock bound on one script evaluation, checked alongside the operation budget: a runaway script stalls the (single-threaded) server at most this long. */
/** the middleware module, imported once on first use (a cache of an immutable module, not state) */
let middlewareStage: Promise<typeof import('./middleware.js')> | undefined;

export const DEFAULT_SCRIPT_TIME_LIMIT_MS = 250;

interface Staged {
  readonly draft: Draft;
  readonly stage: Stage;
  readonly file?: string;
}

export async function dispatch(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  opts: { readonly explain?: boolean } = {},
): Promise<Outcome> {
  const explained: RuleSetExplanation[] | undefined = opts.explain ? [] : undefined;
  const staged =
    stageOptions(req) ??
    stageBadRequest(req) ??
    (await stageMiddleware(ws, req, env)) ??
    (await stageRuleSets(ws, req, env, explained)) ??
    (await stageFallback(ws, req, env));
  const answer = finalize(staged.draft, req, ws.cors);
  return {
    answer,
    stage: staged.stage,
    ...(staged.file !== undefined ? { file: staged.file } : {}),
    ...(explained !== undefined ? { explanation: { ruleSets: explained } } : {}),
  };
}

function stageOptions(req: RequestSnapshot): Staged | undefined {
  const draft = answerOptions(req.method);
  return draft && { draft, stage: { kind: 'options' } };
}

function stageBadRequest(req: RequestSnapshot): Staged | undefined {
  if (req.body.kind !== 'invalid_json') return undefined;
  return {
    draft: textDraft(400, `request body is not valid JSON: ${req.body.message}`),
    stage: { kind: 'bad_request' },
  };
}

async function stageMiddleware(ws: Workspace, req: RequestSnapshot, env: DispatchEnv): Promise<Staged | undefined> {
  if (ws.middlewares.length === 0) return undefined;
  // Loaded on first use, so workspaces without scripts never load the interpreter.
  const { answerFromMiddleware } = await (middlewareStage ??= import('./middleware.js'));
  const hit = answerFromMiddleware(ws.middlewares, req, {
    maxOperations: ws.config.service.middlewareMaxOperations,
    timeLimitMs: env.scriptTimeLimitMs ?? DEFAULT_SCRIPT_TIME_LIMIT_MS,
    log: env.log,
  });
  if (hit === undefined) return undefined;
  const { draft, file } = await draftFromRespond(hit.respond, env.files);
  return { draft, stage: { kind: 'middleware', index: hit.index, file: hit.file }, ...(file !== undefined ? { file } : {}) };
}

async function stageRuleSets(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  explained: RuleSetExplanation[] | undefined,
): Promise<Staged | undefined> {
  const ctx = { rotation: env.rotation, random: env.random, explain: explained !== undefined };
  for (const ruleSet of ws.ruleSets) {
    const ev = evaluateRuleSet(ruleSet, req, ctx);
    explained?.push({
      ruleSetIndex: ruleSet.index,
      file: ruleSet.file,
      underPrefix: ev.underPrefix,
      winner: ev.winner,
      rules: ev.checks ?? [],
    });
    if (ev.winner !== undefined) {
      const rule = ruleSet.rules[ev.winner]!;
      const { draft, file } = await draftFromRespond(rule.respond, env.files);
      return {
        draft,
        stage: { kind: 'rule_set', ruleSetIndex: ruleSet.index, ruleIndex: ev.winner },
        ...(file !== undefined ? { file } : {}),
      };
    }
    if (ev.underPrefix) return { draft: emptyDraft(404), stage: { kind: 'prefix_miss', ruleSetIndex: ruleSet.index } };
  }
  return undefined;
}

async function stageFallback(ws: Workspace, req: RequestSnapshot, env: DispatchEnv): Promise<Staged> {
  const miss: Staged = { draft: emptyDraft(404), stage: { kind: 'miss' } };
  if (req.escapesRoot) return miss;
  const file = await resolveFallbackFile(ws.fallbackDir, req.segments, env.files);
  if (file === undefined) return miss;
  const fb = await fileBody(file, env.files);
  if (fb.kind === 'missing') return miss;
  if (fb.kind === 'error') return { draft: textDraft(500, fb.message), stage: { kind: 'fallback', file }, file };
  return {
    draft: { status: 200, body: fb.body, contentType: fb.contentType, headers: [], delayMs: 0 },
    stage: { kind: 'fallback', file },
    file,
  };
}
