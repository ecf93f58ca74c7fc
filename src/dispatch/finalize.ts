// Default headers, CORS reflection, content-type and content-length, then a rule's own headers.
// Part of dispatch, so `mock get` prints exactly the headers the server sends.
import type { HeaderList } from '../shared/headers.js';
import type { Answer, Delivery } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { CorsPolicy } from '../model/workspace.js';

/** What a stage produces before finalize. */
export interface Draft {
  readonly status: number;
  readonly body: Uint8Array;
  readonly contentType?: string;
  /** a rule's or script's own headers (lower-cased names) */
  readonly headers: HeaderList;
  readonly delayMs: number;
  /** made for this request only (a rendered template): not remembered, since it will never be seen again */
  readonly fresh?: boolean;
  /**
   * With `fresh`: a draft reused for every request of the rule, with this one's status, content type, headers and
   * delivery (none) and any body. Finalize makes its answer once and this one from it (Answer.like).
   */
  readonly like?: Draft;
  /** the body as a latin1 string (one character per byte), when it was made as one (Answer.latin1) */
  readonly latin1?: string;
  /** a fault, dribbled body or stream (docs/faults.md) */
  readonly delivery?: Delivery;
  /**
   * the CORS headers to send instead of mock's own (`--db` answers json-server's: docs/coming-from-json-server.md);
   * [] sends none
   */
  readonly cors?: HeaderList;
}

export const DEFAULT_HEADERS: HeaderList = [
  ['access-control-allow-headers', '*'],
  ['access-control-allow-methods', 'GET, POST, PUT, DELETE, PATCH, OPTIONS'],
  ['access-control-max-age', '86400'],
  ['cache-control', 'no-store'],
  ['connection', 'keep-alive'],
  ['x-content-type-options', 'nosniff'],
];

/** the defaults without mock's CORS ones, for an answer whose CORS headers are its own (Draft.cors) */
const NO_CORS_DEFAULTS: HeaderList = DEFAULT_HEADERS.filter(([k]) => !k.startsWith('access-control-'));

/** Headers a rule may never set: they decide the framing, which is ours. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer']);

const LOOPBACK_ORIGIN = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::\d+)?$/;

export function isCredentialedOriginAllowed(origin: string, cors: CorsPolicy): boolean {
  return LOOPBACK_ORIGIN.test(origin) || cors.allowedOrigins.includes(origin);
}

export function corsHeaders(req: RequestSnapshot, cors: CorsPolicy): HeaderList {
  let credentialed = false;
  let origin: string | undefined;
  for (const [k, v] of req.headers) {
    if (k === 'cookie' || k === 'authorization') credentialed = true;
    else if (k === 'origin' && origin === undefined) origin = v;
  }
  if (credentialed && origin !== undefined && isCredentialedOriginAllowed(origin, cors)) {
    return [
      ['access-control-allow-credentials', 'true'],
      ['access-control-allow-origin', origin],
      ['vary', 'Origin'],
    ];
  }
  return STAR;
}
const STAR: HeaderList = [
  ['access-control-allow-origin', '*'],
  ['vary', '*'],
];

/** 1xx, 204 and 304 carry no body, no content-length and no content-type. */
export function isBodyless(status: number): boolean {
  return status < 200 || status === 204 || status === 304;
}

const EMPTY = new Uint8Array(0);

/** the defaults and the usual CORS pair, in answer order: the start of nearly every answer's headers */
const BASE_STAR: readonly (readonly [string, string])[] = [...DEFAULT_HEADERS, ...STAR];

/**
 * Answers already made for a draft with the usual CORS pair. Drafts of literal bodies and remembered files are
 * made once and reused, and an Answer is immutable, so the same Answer object serves every such request.
 */
const starAnswers = new WeakMap<Draft, Answer>();

export function finalize(draft: Draft, req: RequestSnapshot, cors: CorsPolicy): Answer {
  if (draft.cors !== undefined) return build(draft, draft.cors);
  const corsPart = corsHeaders(req, cors);
  if (corsPart !== STAR) return build(draft, corsPart);
  if (draft.fresh === true) return draft.like === undefined ? build(draft, corsPart) : likeAnswer(draft, draft.like);
  return starAnswer(draft);
}

function starAnswer(draft: Draft): Answer {
  let answer = starAnswers.get(draft);
  if (answer === undefined) starAnswers.set(draft, (answer = build(draft, STAR)));
  return answer;
}

/** A fresh draft's answer from the answer of the draft it is like: a copy of its header list with its own length. */
function likeAnswer(draft: Draft, like: Draft): Answer {
  const head = starAnswer(like);
  const headers = head.headers;
  const last = headers.length - 1;
  if (head.delivery !== undefined || headers[last]?.[0] !== 'content-length') return build(draft, STAR);
  const own = headers.slice() as [string, string][];
  own[last] = ['content-length', String(draft.body.byteLength)];
  return draft.latin1 === undefined
    ? { status: head.status, headers: own, body: draft.body, delayMs: draft.delayMs, fresh: true, like: head }
    : {
        status: head.status,
        headers: own,
        body: draft.body,
        delayMs: draft.delayMs,
        fresh: true,
        like: head,
        latin1: draft.latin1,
      };
}

function build(draft: Draft, corsPart: HeaderList): Answer {
  const bodyless = isBodyless(draft.status);
  const body = bodyless ? EMPTY : draft.body;
  const headers = (
    corsPart === STAR
      ? BASE_STAR.slice()
      : draft.cors === undefined
        ? [...DEFAULT_HEADERS, ...corsPart]
        : [...NO_CORS_DEFAULTS, ...corsPart]
  ) as [string, string][];
  if (!bodyless && draft.contentType !== undefined) headers.push(['content-type', draft.contentType]);
  for (const [name, value] of draft.headers) {
    if (FRAMING.has(name)) continue;
    if (bodyless && name === 'content-type') continue;
    const at = headers.findIndex((h) => h[0] === name);
    if (at >= 0) headers[at] = [name, value];
    else headers.push([name, value]);
  }
  const delivery = draft.delivery;
  if (delivery === undefined) {
    if (!bodyless) headers.push(['content-length', String(body.byteLength)]);
    return draft.fresh === true
      ? { status: draft.status, headers, body, delayMs: draft.delayMs, fresh: true }
      : { status: draft.status, headers, body, delayMs: draft.delayMs };
  }
  // a stream's length is not announced: it is sent as it goes (chunked)
  if (!bodyless && delivery.kind !== 'stream')
    headers.push(['content-length', String(delivery.kind === 'file' ? delivery.size : body.byteLength)]);
  return {
    status: draft.status,
    headers,
    body,
    delayMs: draft.delayMs,
    delivery,
    ...(draft.fresh === true ? { fresh: true } : {}),
  };
}
