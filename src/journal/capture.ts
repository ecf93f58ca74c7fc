// Capture: one finished exchange → an Entry. The server feeds it after the last byte: the request as dispatch
// saw it (snapshot) with the bytes read, the response as written, and who answered. For a dispatched answer the
// Outcome must be the one the server answered with, dispatched with `{ explain: true }`: its explanation becomes
// the entry's `why` through get's encoder (dispatch/explain-view.ts), never a recomputed one. Redaction happens
// here, before anything is stored: header and query values, the target's query, JSON keys at any depth and form
// keys, by the verbose log's denylists (shared/redact.ts).
import type { Outcome } from '../dispatch/dispatch.js';
import { matchedView, stageName, type ShownPaths, type WhyView, whyView } from '../dispatch/explain-view.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import type { HeaderList } from '../shared/headers.js';
import { redactHeaders, redactQuery } from '../shared/redact.js';
import { captureRequestBody, captureResponseBody, mediaTypeOf, type BodyCaptureOptions } from './body.js';
import type { AnsweredBy, CapturedBody, Entry, JournalStage } from './entry.js';

/** What the explanation is shown against: the workspace that answered, and how its files are named (as `get` names them). */
export interface ExplainContext {
  readonly ws: Workspace;
  readonly shown: ShownPaths;
}

/** Who answered the exchange. */
export type Answerer =
  /** dispatch() answered; `outcome` is the very Outcome written, dispatched with `{ explain: true }` */
  | { readonly kind: 'dispatch'; readonly outcome: Outcome; readonly context: ExplainContext }
  /** refused with 413 before dispatch (the body over the configured cap) */
  | { readonly kind: 'refused' }
  /** record mode: dispatch missed (`outcome`), the upstream `target` answered; `saved` names what was written, null if nothing */
  | {
      readonly kind: 'proxied';
      readonly target: string;
      readonly saved: string | null;
      readonly outcome: Outcome;
      readonly context: ExplainContext;
    };

export interface Exchange {
  /** when the request arrived */
  readonly receivedAt: Date;
  /** arrival to last byte; when left out, the journal's clock at capture minus receivedAt */
  readonly latencyMs?: number;
  /** the workspace generation that answered */
  readonly generation: number;
  readonly request: {
    /** what dispatch saw (a refused request: the snapshot without its body) */
    readonly snapshot: RequestSnapshot;
    /** the request target as received (`req.url`): path and query */
    readonly target: string;
    /** the body bytes read (empty when none, or when refused unread) */
    readonly body: Uint8Array;
    /** the body's full size when more than `body` holds (a refused body's declared length) */
    readonly byteLength?: number;
  };
  /** as written (`Outcome.answer` for a dispatched one) */
  readonly response: { readonly status: number; readonly headers: HeaderList; readonly body: Uint8Array };
  readonly answerer: Answerer;
}

export interface CaptureOptions extends BodyCaptureOptions {
  /** epoch ms, for latencyMs when the exchange leaves it out */
  readonly now: () => number;
}

export const CAPTURE_MESSAGES = {
  refusedNote: 'The request body exceeds the configured limit \u2014 answered 413 before dispatch.',
} as const;

/** The entry for an exchange, with its id. */
export function entryFrom(ex: Exchange, id: number, opts: CaptureOptions): Entry {
  const req = ex.request.snapshot;
  const redact = opts.redact;
  const headers = redact ? redactHeaders(req.headers) : req.headers;
  const request = Object.freeze({
    method: req.method,
    path: req.path,
    target: redact ? redactTarget(ex.request.target) : ex.request.target,
    query: redact ? redactQuery(req.query) : req.query,
    headers: freezeHeaders(headers),
    body: captureRequestBody(ex.request.body, req.headers, req.body, opts, ex.request.byteLength),
  });
  const response = Object.freeze({
    status: ex.response.status,
    headers: freezeHeaders(redact ? redactHeaders(ex.response.headers) : ex.response.headers),
    body: captureResponseBody(ex.response.body, ex.response.headers, req.method, opts),
  });
  const who = answered(ex.answerer);
  const delivery = ex.answerer.kind === 'dispatch' ? ex.answerer.outcome.answer.delivery : undefined;
  return Object.freeze({
    id,
    receivedAt: new Date(ex.receivedAt.getTime()),
    latencyMs: ex.latencyMs ?? Math.max(0, opts.now() - ex.receivedAt.getTime()),
    generation: ex.generation,
    request,
    response,
    ...who,
    ...(delivery?.kind === 'fault' ? { fault: delivery.fault } : {}),
  });
}

function answered(a: Answerer): { stage: JournalStage; answeredBy: AnsweredBy; matched: Entry['matched']; why: WhyView } {
  switch (a.kind) {
    case 'refused':
      return { stage: 'refused', answeredBy: REFUSED, matched: null, why: REFUSED_WHY };
    case 'dispatch':
    case 'proxied': {
      const { outcome, context } = a;
      const stage = outcome.stage;
      const answeredBy: AnsweredBy =
        a.kind === 'proxied'
          ? { kind: 'proxied', target: a.target, saved: a.saved }
          : outcome.file !== undefined && !('file' in stage && stage.file === outcome.file)
            ? { ...stage, servedFile: outcome.file }
            : stage;
      return {
        stage: stageName(stage),
        answeredBy: Object.freeze(answeredBy),
        matched: matchedView(stage, context.shown),
        why: whyView(outcome, context.ws, context.shown),
      };
    }
  }
}

const REFUSED: AnsweredBy = Object.freeze({ kind: 'refused' });
const REFUSED_WHY: WhyView = Object.freeze({ note: CAPTURE_MESSAGES.refusedNote, ruleSets: Object.freeze([]) });

/** `/a?token=x` → `/a?token=[redacted]` (a fragment, never sent by clients, is left as it is). */
export function redactTarget(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const hash = target.indexOf('#', q);
  const query = hash < 0 ? target.slice(q + 1) : target.slice(q + 1, hash);
  return target.slice(0, q + 1) + redactQuery(query) + (hash < 0 ? '' : target.slice(hash));
}

function freezeHeaders(h: HeaderList): HeaderList {
  return Object.freeze(h.map(([n, v]) => Object.freeze([n, v] as const)));
}

/** The entry with both bodies reduced to their size and type (it would not fit in maxBytes otherwise). */
export function withoutBodies(e: Entry): Entry {
  const shrink = (b: CapturedBody, headers: Entry['request']['headers']): CapturedBody => {
    if (b.kind === 'none' || b.kind === 'bytes') return b;
    return Object.freeze({ kind: 'bytes', byteLength: b.byteLength, contentType: mediaTypeOf(headers) });
  };
  return Object.freeze({
    ...e,
    request: Object.freeze({ ...e.request, body: shrink(e.request.body, e.request.headers) }),
    response: Object.freeze({ ...e.response, body: shrink(e.response.body, e.response.headers) }),
  });
}
