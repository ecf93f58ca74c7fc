// dispatch(): the single request pipeline, shared by the server, `mock get` and the tests.
// It reads top to bottom as the spec's dispatch table: OPTIONS, the invalid-JSON 400, the contract check (only
// with `--contract`), middleware scripts, rule sets, fallback directory, then finalize. It never sleeps (the server applies delayMs) and never touches node:*.
import type { Answer, Respond } from '../model/answer.js';
import { chain, type ValueOrPromise } from '../shared/value-or-promise.js';
import type { RequestSnapshot } from '../model/request.js';
import type { DenyPolicy, Workspace } from '../model/workspace.js';
import { denyCheck } from '../files/deny.js';
import { resolveFallbackFile } from '../files/lookup.js';
import { fileBody } from '../files/file-body.js';
import type { FileSource } from '../files/source.js';
import { evaluateRuleSet, prepareRuleSet } from '../routing/evaluate.js';
import { prepareRuleSetsLookup, ruleSetsFor } from '../routing/path-index.js';
import { undecoded } from '../model/lazy-rule-set.js';
import type { RuleSet } from '../model/rule-set.js';
import type { RotationState } from '../routing/rotation.js';
import type { Explanation, OverrideCheck, RuleSetExplanation } from './explain.js';
import { type Draft, finalize } from './finalize.js';
import { answerOptions } from './options.js';
import { draftFromRespond, emptyDraft, textDraft, type RespondDraft } from './respond.js';
import { directDraft, templatedDraft, templateEnv, type TemplateUse } from './templated.js';
import { workspaceRandom } from './workspace-random.js';
import { sampleDelay, type PaceState } from './pace.js';
import type { StateStore } from '../state/store.js';
import { transitionOf, type StateTransition } from '../state/scenarios.js';
import type { Collection } from '../model/collection.js';
import { answerCollection, collectionRoute, readCollection, type CollectionAction } from './collections.js';
import type { OverrideList } from './overrides.js';

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
  /** the clock response templates read (`now`); default the wall clock */
  readonly now?: () => Date;
  /** rate-limit windows and the seeded generator for random delays (the server keeps one); absent: no limits */
  readonly pace?: PaceState;
  /** the runtime state (docs/state.md): the server's store for its lifetime; `get` and `match-test` a fresh one */
  readonly state: StateStore;
  /** runtime overrides, tried first, in order (a session's, then the shared ones); absent: none, at no cost */
  readonly overrides?: readonly OverrideList[];
  /** the session the request belongs to (docs/library.md#sessions); absent: the default one */
  readonly session?: string;
  /** told when a collection's data changed in `state` (the server writes a persisted one back) */
  readonly collectionChanged?: (collection: Collection, state: StateStore) => void;
  /** `--contract`: requests and answers checked against an OpenAPI document (docs/contract.md); absent: no cost */
  readonly contract?: ContractGate;
}

/** The contract check as dispatch sees it (made by contract/gate.ts from a compiled document). */
export interface ContractGate {
  /** a request that breaks the contract is answered 400 (else it is answered as usual, and marked) */
  readonly enforce: boolean;
  /** the request's violations (`query.limit: must be <= 100`); undefined when no documented operation is its own */
  checkRequest(req: RequestSnapshot): ContractVerdict | undefined;
  /** the answer's violations of the operation's documented responses ([] when none) */
  checkAnswer(verdict: ContractVerdict, answer: Answer): readonly string[];
  /** the 400 `application/problem+json` body for a request's violations (RFC 9457) */
  problem(verdict: ContractVerdict): string;
}

export interface ContractVerdict {
  /** `GET /pets/{petId}` */
  readonly operation: string;
  readonly violations: readonly string[];
}

/** What the contract check found for one exchange (only with `--contract`). */
export interface ContractMark {
  /** `GET /pets/{petId}`, the documented operation the request fell under */
  readonly operation: string;
  readonly request: readonly string[];
  readonly answer: readonly string[];
  /** the request was answered 400 for its violations */
  readonly enforced: boolean;
}

export type Stage =
  | { readonly kind: 'options' }
  /** a JSON-declared body that does not parse: 400 */
  | { readonly kind: 'bad_request' }
  /** `--contract` in enforce mode: the request breaks the document, 400 */
  | { readonly kind: 'contract' }
  /** a runtime override (`m.use`, `POST /__mock/api/overrides`); `session` when it was the session's own */
  | { readonly kind: 'override'; readonly id: number; readonly session?: string }
  | { readonly kind: 'middleware'; readonly index: number; readonly file: string }
  | { readonly kind: 'rule_set'; readonly ruleSetIndex: number; readonly ruleIndex: number }
  /** claimed by a prefix, no rule matched: 404 */
  | { readonly kind: 'prefix_miss'; readonly ruleSetIndex: number }
  /** a collection's route (docs/state.md): a rule set's when none of its rules matched, or the db file's */
  | {
      readonly kind: 'collection';
      /** the collection's URL path */
      readonly path: string;
      readonly action: CollectionAction;
      /** its data file */
      readonly file: string;
      /** undefined: the db file's */
      readonly ruleSetIndex?: number;
    }
  | { readonly kind: 'fallback'; readonly file: string }
  /** nothing answered: 404, empty body; `denied` when the file exists but service.deny keeps it from being served */
  | { readonly kind: 'miss'; readonly denied?: { readonly file: string; readonly pattern: string } };

export interface Outcome {
  readonly answer: Answer;
  readonly stage: Stage;
  /** the file whose bytes were served, if any (rule file_path, script file, fallback file) */
  readonly file?: string;
  readonly explanation?: Explanation;
  /** with `explain`, for a templated rule's answer: its template sources and the values they named */
  readonly template?: TemplateUse;
  /**
   * the scenarios the answer read or moves (docs/state.md), before and after; the server applies the move when it
   * writes the answer, nobody else does
   */
  readonly state?: StateTransition;
  /** with `--contract`, for a request a documented operation covers: what the check found */
  readonly contract?: ContractMark;
}

/** the middleware module, imported once on first use (a cache of an immutable module, not state) */
let middlewareLoad: Promise<typeof import('./middleware.js')> | undefined;
let middlewareModule: typeof import('./middleware.js') | undefined;

/** Wall-clock bound on one script evaluation, checked alongside the operation budget: a runaway script stalls the (single-threaded) server at most this long. */
export const DEFAULT_SCRIPT_TIME_LIMIT_MS = 250;

interface Staged {
  readonly draft: Draft;
  readonly stage: Stage;
  readonly file?: string;
  /** the rule's or script's Respond (its delay decides the answer's) */
  readonly respond?: Respond;
  /** a rate limit's 429: never delayed */
  readonly limited?: true;
  /** the scenarios this answer read or moves */
  readonly transition?: StateTransition;
}

/** Build every rule set's compiled rules and path index ahead of the first request (the server's start-up). */
export function prepareWorkspace(ws: Workspace): void {
  for (const rs of ws.ruleSets) prepareRuleSet(rs);
  prepareRuleSetsLookup(ws.ruleSets);
}

/**
 * Rule sets the load cache left undecoded (docs/load-cache.md) are decoded and prepared `afterMs` from now, one per
 * event-loop turn (a request that needs one sooner decodes it itself): the server answers its first requests
 * without waiting for them all, and the rules are in place before a load arrives. Rules decoded while requests
 * stream in were measured to keep the garbage collector busy for the rest of the run (a 2,000-rule set served 40 %
 * fewer requests in one run of two), so that case is made rare rather than left to the first request under load.
 */
export function decodeRestSoon(ws: Workspace, afterMs: number, work: LaterWork = NOW): void {
  const later = ws.ruleSets.filter(undecoded);
  if (later.length > 0 || work !== NOW) setTimeout(() => decodeSoon(later, 0, work), afterMs).unref();
}

/** How the server's start-up runs the work it left for later (the CLI's V8 settings: node/start-up-work.ts). */
export interface LaterWork {
  step<T>(work: () => T): T;
  /** called once the last rule set is decoded */
  done(): void;
}

const NOW: LaterWork = { step: (work) => work(), done: () => {} };

function decodeSoon(sets: readonly RuleSet[], from: number, work: LaterWork): void {
  let i = from;
  // a rule set a request has decoded meanwhile is only prepared (cheap once done)
  while (i < sets.length && !undecoded(sets[i]!)) prepareRuleSet(sets[i++]!);
  if (i === sets.length) return work.done();
  const rs = sets[i]!;
  try {
    work.step(() => {
      void rs.rules; // decodes it
      prepareRuleSet(rs);
    });
  } catch {
    // it failed to decode after all: a request that needs it is answered 500, and the log says why
  }
  if (i + 1 < sets.length) setImmediate(() => decodeSoon(sets, i + 1, work)).unref();
  else work.done();
}

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
  const explained: RuleSetExplanation[] | undefined = opts.explain ? [] : undefined;
  const used: TemplateUse[] | undefined = opts.explain ? [] : undefined;
  const checked: OverrideCheck[] | undefined = opts.explain && env.overrides !== undefined ? [] : undefined;
  if (env.contract !== undefined) return dispatchChecked(ws, req, env, env.contract, explained, used, checked);
  const staged: ValueOrPromise<Staged> =
    stageOptions(req) ?? stageBadRequest(req) ?? stageAnswering(ws, req, env, explained, used, checked);
  return chain(staged, (s) =>
    withTemplate(outcomeOf(s, paced(finalize(s.draft, req, ws.cors), s, ws, env), explained, checked), used),
  );
}

/** The stages that answer, in order: runtime overrides, middleware, rule sets (with their collections), the db's
 * collections, the fallback directory. */
function stageAnswering(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  explained: RuleSetExplanation[] | undefined,
  used: TemplateUse[] | undefined,
  checked: OverrideCheck[] | undefined,
): ValueOrPromise<Staged> {
  return (
    (env.overrides === undefined ? undefined : stageOverrides(ws, req, env, env.overrides, checked, used)) ??
    chain(
      stageMiddleware(ws, req, env),
      (mw) =>
        mw ??
        chain(
          stageRuleSets(ws, req, env, explained, used),
          (rs) => rs ?? stageCollection(ws, undefined, req, env) ?? stageFallback(ws, req, env),
        ),
    )
  );
}

/** dispatch() with `--contract`: its own stage after OPTIONS and the invalid-JSON 400, and the answer checked. */
function dispatchChecked(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  gate: ContractGate,
  explained: RuleSetExplanation[] | undefined,
  used: TemplateUse[] | undefined,
  checked: OverrideCheck[] | undefined,
): ValueOrPromise<Outcome> {
  const early = stageOptions(req) ?? stageBadRequest(req);
  const verdict = early === undefined ? gate.checkRequest(req) : undefined;
  const refused = verdict !== undefined && gate.enforce && verdict.violations.length > 0;
  const staged: ValueOrPromise<Staged> =
    early ??
    (refused
      ? {
          draft: {
            status: 400,
            body: new TextEncoder().encode(gate.problem(verdict)),
            contentType: 'application/problem+json',
            headers: [],
            delayMs: 0,
          },
          stage: CONTRACT_STAGE,
        }
      : stageAnswering(ws, req, env, explained, used, checked));
  return chain(staged, (s) => {
    const outcome = withTemplate(
      outcomeOf(s, paced(finalize(s.draft, req, ws.cors), s, ws, env), explained, checked),
      used,
    );
    if (verdict === undefined) return outcome;
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
  });
}

const CONTRACT_STAGE: Stage = Object.freeze({ kind: 'contract' });

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
  checked?: OverrideCheck[],
): Outcome {
  const { stage, file } = staged;
  if (staged.transition !== undefined) {
    const plain = outcomeOf(
      { draft: staged.draft, stage, ...(file === undefined ? {} : { file }) },
      answer,
      explained,
      checked,
    );
    return { ...plain, state: staged.transition };
  }
  if (explained === undefined) return file === undefined ? { answer, stage } : { answer, stage, file };
  const explanation: Explanation =
    checked === undefined || checked.length === 0
      ? { ruleSets: explained }
      : { ruleSets: explained, overrides: checked };
  return file === undefined ? { answer, stage, explanation } : { answer, stage, file, explanation };
}

const OPTIONS_STAGE: Stage = Object.freeze({ kind: 'options' });

function stageOptions(req: RequestSnapshot): Staged | undefined {
  const draft = answerOptions(req.method);
  return draft && { draft, stage: OPTIONS_STAGE };
}

function stageBadRequest(req: RequestSnapshot): Staged | undefined {
  if (req.body.kind !== 'invalid_json') return undefined;
  return {
    draft: textDraft(400, `request body is not valid JSON: ${req.body.message}`),
    stage: { kind: 'bad_request' },
  };
}

function stageMiddleware(ws: Workspace, req: RequestSnapshot, env: DispatchEnv): ValueOrPromise<Staged | undefined> {
  if (ws.middlewares.length === 0) return undefined;
  // Loaded on first use, so workspaces without scripts never load the interpreter.
  if (middlewareModule === undefined) {
    return (middlewareLoad ??= import('./middleware.js')).then((m) => {
      middlewareModule = m;
      return stageMiddleware(ws, req, env);
    });
  }
  const hit = middlewareModule.answerFromMiddleware(ws.middlewares, req, {
    maxOperations: ws.config.service.middlewareMaxOperations,
    maxMemoryBytes: ws.config.service.middlewareMaxMemoryBytes,
    timeLimitMs: env.scriptTimeLimitMs ?? DEFAULT_SCRIPT_TIME_LIMIT_MS,
    log: env.log,
    state: env.state,
    ruleSets: ws.ruleSets,
  });
  if (hit === undefined) return undefined;
  return answeredBy(
    draftFromRespond(hit.respond, env.files),
    { kind: 'middleware', index: hit.index, file: hit.file },
    hit.respond,
    hit.setState === undefined ? undefined : transitionOf(env.state, undefined, hit.setState),
  );
}

/** A stage's result from the draft of its Respond (now or once its file is read). */
function answeredBy(
  respond: ValueOrPromise<RespondDraft>,
  stage: Stage,
  from: Respond,
  transition?: StateTransition,
): ValueOrPromise<Staged> {
  if (transition !== undefined)
    return chain(respond, ({ draft, file }) =>
      file === undefined
        ? { draft, stage, respond: from, transition }
        : { draft, stage, file, respond: from, transition },
    );
  return chain(respond, ({ draft, file }) =>
    file === undefined ? { draft, stage, respond: from } : { draft, stage, file, respond: from },
  );
}

/** The answer past a rule's rate limit: 429 with the seconds left in the window (rounded up). */
function tooMany(waitMs: number, stage: Stage): Staged {
  const draft = textDraft(429, 'too many requests');
  return {
    draft: { ...draft, headers: [['retry-after', String(Math.max(1, Math.ceil(waitMs / 1000)))]] },
    stage,
    limited: true,
  };
}

/** The runtime overrides that apply (a session's first, then the shared ones), newest first in each list. */
function stageOverrides(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  lists: readonly OverrideList[],
  checked: OverrideCheck[] | undefined,
  used: TemplateUse[] | undefined,
): ValueOrPromise<Staged> | undefined {
  const ctx = { rotation: env.rotation, random: env.random, explain: checked !== undefined };
  for (const list of lists) {
    if (list.size === 0) continue;
    const ruleSet = list.ruleSet();
    const ev = evaluateRuleSet(ruleSet, req, ctx);
    if (checked !== undefined) {
      const shown = list.list();
      for (const c of ev.checks ?? []) checked.push({ id: shown[c.ruleIndex]!.id, session: list.session, check: c });
    }
    if (ev.winner === undefined) continue;
    const o = list.answered(ev.winner);
    const stage: Stage =
      o.session === undefined ? { kind: 'override', id: o.id } : { kind: 'override', id: o.id, session: o.session };
    const rule = o.rule;
    if (rule.limit !== undefined && env.pace !== undefined) {
      const wait = env.pace.take(rule, rule.limit);
      if (wait !== undefined) return tooMany(wait, stage);
    }
    const template = rule.respond.template;
    const draft =
      template === undefined
        ? draftFromRespond(rule.respond, env.files)
        : templatedDraft(rule, template, req, templateEnv(env.files, workspaceRandom(ws), env.log, env.now), used);
    return answeredBy(draft, stage, rule.respond);
  }
  return undefined;
}

function stageRuleSets(
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  explained: RuleSetExplanation[] | undefined,
  used?: TemplateUse[],
): ValueOrPromise<Staged | undefined> {
  if (ws.ruleSets.length === 0) return undefined;
  const ctx = { rotation: env.rotation, random: env.random, explain: explained !== undefined, state: env.state };
  // only the rule sets that may have a candidate for this path (many rule-set files: routing/path-index.ts); an
  // explanation lists every rule set, and a rule set's collections answer beside its rules, so those try them all
  const sets = ws.ruleSets;
  const only = explained === undefined && ws.collections === undefined ? ruleSetsFor(sets, req) : undefined;
  const count = only === undefined ? sets.length : only.length;
  for (let k = 0; k < count; k++) {
    const ruleSet = sets[only === undefined ? k : only[k]!]!;
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
      const stage: Stage = { kind: 'rule_set', ruleSetIndex: ruleSet.index, ruleIndex: ev.winner };
      if (rule.limit !== undefined && env.pace !== undefined) {
        const wait = env.pace.take(rule, rule.limit);
        if (wait !== undefined) return tooMany(wait, stage);
      }
      const template = rule.respond.template;
      if (template !== undefined && used === undefined) {
        const direct = directDraft(rule, template, req);
        if (direct !== undefined) return { draft: direct, stage, respond: rule.respond };
      }
      const draft =
        template === undefined
          ? draftFromRespond(rule.respond, env.files)
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
              ),
              used,
            );
      // the scenarios are read only for a rule that names some (decided at load: Rule.scenarios, Respond.setState)
      const moves = rule.respond.setState;
      const transition =
        rule.scenarios === undefined && moves === undefined
          ? undefined
          : transitionOf(env.state, rule.scenarios, moves);
      return answeredBy(draft, stage, rule.respond, transition);
    }
    const fromCollection = stageCollection(ws, ruleSet.index, req, env);
    if (fromCollection !== undefined) return fromCollection;
    if (ev.underPrefix) return { draft: emptyDraft(404), stage: { kind: 'prefix_miss', ruleSetIndex: ruleSet.index } };
  }
  return undefined;
}

/** A collection's answer: one of the rule set's (`ruleSetIndex`) or, undefined, one of the db file's. */
function stageCollection(
  ws: Workspace,
  ruleSetIndex: number | undefined,
  req: RequestSnapshot,
  env: DispatchEnv,
): Staged | undefined {
  const collections = ws.collections;
  if (collections === undefined) return undefined;
  const hit = collectionRoute(collections, ruleSetIndex, req);
  if (hit === undefined) return undefined;
  const c = hit.collection;
  const { draft, changed } = answerCollection(hit, req, ws, { state: env.state, random: workspaceRandom(ws) });
  if (changed) env.collectionChanged?.(c, env.state);
  const stage: Stage =
    c.ruleSetIndex === undefined
      ? { kind: 'collection', path: c.path, action: hit.action, file: c.file }
      : { kind: 'collection', path: c.path, action: hit.action, file: c.file, ruleSetIndex: c.ruleSetIndex };
  return { draft, stage };
}

const MISS: Staged = Object.freeze({ draft: emptyDraft(404), stage: Object.freeze({ kind: 'miss' }) });

function stageFallback(ws: Workspace, req: RequestSnapshot, env: DispatchEnv): ValueOrPromise<Staged> {
  const root = ws.fallbackDir;
  const { files } = env;
  // The whole resolution is a pure function of the request segments and the disk: a FileSource that can vouch
  // for "nothing changed" hands back the remembered result without touching the disk.
  if (files.remember === undefined) return resolveFallback(root, req.segments, files, ws.deny);
  // Per workspace (one fallback root), by raw path: the segments are a function of it and of nothing else.
  return files.remember(ws, req.rawPath, (f) => resolveFallback(root, req.segments, f, ws.deny));
}

async function resolveFallback(
  root: string,
  segments: readonly string[],
  files: FileSource,
  deny: DenyPolicy | undefined,
): Promise<Staged> {
  const file = await resolveFallbackFile(root, segments, files);
  if (file === undefined) return MISS;
  // looked up here, once per resolution, not on every request a remembered resolution answers
  const pattern = deny === undefined ? undefined : denyCheck(deny)(root, file);
  if (pattern !== undefined) return { draft: emptyDraft(404), stage: { kind: 'miss', denied: { file, pattern } } };
  const fb = await fileBody(file, files);
  if (fb.kind === 'missing') return MISS;
  if (fb.kind === 'error') return { draft: textDraft(500, fb.message), stage: { kind: 'fallback', file }, file };
  return {
    draft: { status: 200, body: fb.body, contentType: fb.contentType, headers: [], delayMs: 0 },
    stage: { kind: 'fallback', file },
    file,
  };
}
