// The types dispatch() speaks: what it is given (DispatchEnv), the stage that answered (Stage) and what it returns
// (Outcome), plus the contract check's port. The pipeline itself is in dispatch.ts; each stage in stages/.
import type { Answer, Respond } from '../model/answer.js';
import type { CallbackBatch } from '../model/callback.js';
import type { ValueOrPromise } from '../shared/value-or-promise.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import type { FileSource } from '../files/source.js';
import type { RotationState } from '../routing/rotation.js';
import type { StateStore } from '../state/store.js';
import type { StateTransition } from '../state/scenarios.js';
import type { Collection } from '../model/collection.js';
import type { Explanation, OverrideCheck, RuleSetExplanation } from './explain.js';
import type { Draft } from './finalize.js';
import type { TemplateUse } from './templated.js';
import type { CollectionAction } from './collections.js';
import type { OverrideList } from './overrides.js';
import type { PaceState } from './pace.js';

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
  /**
   * told when a collection's data changed in `state` (the server writes a persisted one back); a promise: the
   * change is answered once it settles (on disk), or with a 500 when it rejects
   */
  readonly collectionChanged?: (collection: Collection, state: StateStore) => Promise<void> | undefined;
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
  /** the 400 `application/problem+json` body for a request's violations (docs/contract.md: its fields) */
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
  /**
   * the changes the answer makes to the state (a collection's write), made by commitOutcome (dispatch/commit.ts)
   * when the answer is written, and never when it is not
   */
  readonly writes?: readonly StateWrite[];
  /** the outgoing calls the answer makes (docs/callbacks.md), sent by the server after the commit point */
  readonly callbacks?: CallbackBatch;
}

/** A change an answer makes to the state, made at the commit point, when the answer is written. */
export interface StateWrite {
  /** makes the change; a draft to answer instead when it can no longer be made as planned */
  apply(): Draft | undefined;
  /** after apply: the change written to its data file (a persisted collection); undefined: nothing to wait for */
  save(): Promise<void> | undefined;
  /** the data file, for the answer when saving fails */
  readonly file: string;
}

/** What a stage answers with, before finalize: the draft and what the outcome reports about it. */
export interface Staged {
  readonly draft: Draft;
  readonly stage: Stage;
  readonly file?: string;
  /** the rule's or script's Respond (its delay decides the answer's) */
  readonly respond?: Respond;
  /** a rate limit's 429: never delayed */
  readonly limited?: true;
  /** the scenarios this answer read or moves */
  readonly transition?: StateTransition;
  /** the changes it makes to the state, at the commit point */
  readonly writes?: readonly StateWrite[];
  /** the callbacks it makes, planned */
  readonly callbacks?: CallbackBatch;
}

/** One request on its way through the stages: what every stage reads, and what the explanation collects. */
export interface DispatchCtx {
  readonly ws: Workspace;
  readonly req: RequestSnapshot;
  readonly env: DispatchEnv;
  /** with `explain`: every rule set's checks, in order */
  readonly explained: RuleSetExplanation[] | undefined;
  /** with `explain`: the templates the answer rendered */
  readonly used: TemplateUse[] | undefined;
  /** with `explain` and overrides: each override's checks */
  readonly checked: OverrideCheck[] | undefined;
  /** with `--contract`: the request's verdict, set by the contract stage for the answer check */
  verdict: ContractVerdict | undefined;
  /** headers a middleware script adds to whatever answers next (`add_headers`, docs/middleware.md) */
  addHeaders?: readonly (readonly [string, string])[];
}

/**
 * A stage of the pipeline: the request's answer (now, or later when it needs the disk or a module load), or
 * undefined when the request is not its to answer and the next stage is tried.
 */
export type StageFn = (ctx: DispatchCtx) => ValueOrPromise<Staged | undefined>;
