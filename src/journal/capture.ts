// Capture: one finished exchange → an Entry. The server feeds it after the last byte: the request as dispatch
// saw it (snapshot) with the bytes read, the response as written, and who answered. For a dispatched answer the
// Outcome must be the one the server answered with, dispatched with `{ explain: true }`: its explanation becomes
// the entry's `why` through get's encoder (dispatch/explain-view.ts), never a recomputed one. A capture only holds
// references (HeldEntry); the entry is made when it is read (entryOf), and redaction happens then, before anything
// leaves the journal: header and query values, the target's query, JSON keys at any depth and form keys, by the
// verbose log's denylists (shared/redact.ts), and the values its why shows, by the same lists (redact-why.ts).
import type { ContractMark, Outcome, Stage } from '../dispatch/dispatch.js';
import type { Explanation } from '../dispatch/explain.js';
import {
  fallbackFile,
  matchedView,
  stageName,
  type ShownPaths,
  type WhyView,
  whyView,
} from '../dispatch/explain-view.js';
import type { RequestBody, RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import type { FaultKind } from '../model/answer.js';
import type { HeaderList } from '../shared/headers.js';
import { parseJson } from '../shared/json.js';
import { redactHeaders, redactQuery } from '../shared/redact.js';
import { redactWhy } from './redact-why.js';
import {
  captureRequestBody,
  captureResponseBody,
  classify,
  jsonBody,
  mediaTypeOf,
  plainJson,
  type BodyCaptureOptions,
} from './body.js';
import type { AnsweredBy, CapturedBody, Entry, JournalStage, JsonValue } from './entry.js';

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
    /**
     * the headers as received, as Node's flat list (name, value, name, value, …): kept instead of the snapshot's
     * pairs (one array, not one per header), their names lower-cased when the entry is made
     */
    readonly rawHeaders?: readonly string[];
  };
  /** as written (`Outcome.answer` for a dispatched one) */
  readonly response: { readonly status: number; readonly headers: HeaderList; readonly body: Uint8Array };
  readonly answerer: Answerer;
  /** the session the request belonged to (docs/library.md#sessions); absent: the default one */
  readonly session?: string;
}

export interface CaptureOptions extends BodyCaptureOptions {
  /** epoch ms, for latencyMs when the exchange leaves it out */
  readonly now: () => number;
}

export const CAPTURE_MESSAGES = {
  refusedNote: 'The request body exceeds the configured limit \u2014 answered 413 before dispatch.',
} as const;

/** The views of who answered and why, made once the workspace they are shown against is replaced. */
interface Views {
  readonly stage: JournalStage;
  readonly answeredBy: AnsweredBy;
  readonly matched: Entry['matched'];
  readonly why: WhyView;
}

/**
 * What few exchanges have, kept apart from the fields every entry has: the journal holds a thousand entries, which
 * live long enough to be copied by young-generation collections until they are promoted, so the common entry is
 * kept to a few fields (docs/speed.md, "The journal, the last step").
 */
interface Rare {
  /** the bodies were reduced to their size and type */
  bodiesDropped?: boolean | undefined;
  /** a body's full size, when more than its bytes kept */
  requestByteLength?: number | undefined;
  responseByteLength?: number | undefined;
  requestJson?: boolean | undefined;
  /** the file served, when the stage does not name it */
  servedFile?: string | undefined;
  explanation?: Explanation | undefined;
  fault?: FaultKind | undefined;
  stateBefore?: Readonly<Record<string, string>> | undefined;
  stateAfter?: Readonly<Record<string, string>> | undefined;
  contract?: ContractMark | undefined;
  session?: string | undefined;
  protocol?: 'HTTP/2' | undefined;
  stream?: { open: boolean; events: number } | undefined;
  views?: Views | undefined;
  streamBuffer?: Uint8Array | undefined;
  proxy?: { readonly target: string; readonly saved: string | null } | undefined;
}

/**
 * One exchange as the journal holds it between its capture and a reader: references to what the request path
 * built already (the canonical path and query, the header lists, the body bytes within `bodyBytes`, dispatch's
 * stage and explanation) and the timings. Nothing is copied, redacted or encoded here; `entryOf` makes the Entry
 * when it is asked for. Readers that need only the row (filters, the live event stream) read it from here.
 */
export class HeldEntry {
  /** what few exchanges have (see Rare); undefined for most */
  private rare: Rare | undefined = undefined;
  constructor(
    readonly id: number,
    readonly receivedAtMs: number,
    /** set again when a streamed answer ends */
    public latencyMs: number,
    readonly generation: number,
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly target: string,
    /** as the snapshot has them, or as received (flat, names in any case) */
    readonly rawRequestHeaders: HeaderList | readonly string[],
    /** what is kept of the request body: all of it within bodyBytes, else (text only) a prefix */
    public requestBytes: Uint8Array,
    readonly status: number,
    readonly responseHeaders: HeaderList,
    public responseBytes: Uint8Array,
    /** dispatch's stage; null for a 413 refused before dispatch (and once settled) */
    private dispatchStage: Stage | null,
    private context: ExplainContext | undefined,
  ) {}

  private more(): Rare {
    return (this.rare ??= {});
  }
  /** the bodies were reduced to their size and type (the entry would not fit in maxBytes otherwise) */
  get bodiesDropped(): boolean {
    return this.rare?.bodiesDropped === true;
  }
  get requestByteLength(): number {
    return this.rare?.requestByteLength ?? this.requestBytes.byteLength;
  }
  /** grows while a streamed answer is sent */
  get responseByteLength(): number {
    return this.rare?.responseByteLength ?? this.responseBytes.byteLength;
  }
  set responseByteLength(n: number) {
    if (n !== this.responseByteLength) this.more().responseByteLength = n;
  }
  /** dispatch read the request body as JSON (what the rules saw) */
  get requestJson(): boolean {
    return this.rare?.requestJson === true;
  }
  get explanation(): Explanation | undefined {
    return this.rare?.explanation;
  }
  /** the fault the answer was (docs/faults.md), when it was one */
  get fault(): FaultKind | undefined {
    return this.rare?.fault;
  }
  set fault(f: FaultKind | undefined) {
    this.more().fault = f;
  }
  /** the scenarios the answer read or moved, before and after it (docs/state.md), when it touched any */
  get stateBefore(): Readonly<Record<string, string>> | undefined {
    return this.rare?.stateBefore;
  }
  set stateBefore(s: Readonly<Record<string, string>> | undefined) {
    this.more().stateBefore = s;
  }
  get stateAfter(): Readonly<Record<string, string>> | undefined {
    return this.rare?.stateAfter;
  }
  set stateAfter(s: Readonly<Record<string, string>> | undefined) {
    this.more().stateAfter = s;
  }
  /** what `--contract` found (docs/contract.md), when the request fell under a documented operation */
  get contract(): ContractMark | undefined {
    return this.rare?.contract;
  }
  set contract(c: ContractMark | undefined) {
    this.more().contract = c;
  }
  /** the session the request belonged to (docs/library.md#sessions), when it carried one */
  get session(): string | undefined {
    return this.rare?.session;
  }
  set session(s: string | undefined) {
    this.more().session = s;
  }
  /** 'HTTP/2' for a request that came over HTTP/2 (docs/http2.md); absent: HTTP/1.x */
  get protocol(): 'HTTP/2' | undefined {
    return this.rare?.protocol;
  }
  set protocol(p: 'HTTP/2' | undefined) {
    this.more().protocol = p;
  }
  /** a streamed answer: open while its events are being sent, and how many were sent (docs/faults.md) */
  get stream(): { open: boolean; events: number } | undefined {
    return this.rare?.stream;
  }
  set stream(s: { open: boolean; events: number } | undefined) {
    this.more().stream = s;
  }
  /** set by settle(): then the stage, the explanation and the context are let go */
  private get views(): Views | undefined {
    return this.rare?.views;
  }
  private get servedFile(): string | undefined {
    return this.rare?.servedFile;
  }
  /** record mode's proxy: the upstream target and what was saved */
  private get proxy(): { readonly target: string; readonly saved: string | null } | undefined {
    return this.rare?.proxy;
  }
  /** At capture: what the common fields leave out (see holdExchange). */
  keepRare(
    requestByteLength: number,
    responseByteLength: number,
    requestJson: boolean,
    servedFile: string | undefined,
    explanation: Explanation | undefined,
    proxy: Rare['proxy'],
  ): void {
    if (requestByteLength !== this.requestBytes.byteLength) this.more().requestByteLength = requestByteLength;
    if (responseByteLength !== this.responseBytes.byteLength) this.more().responseByteLength = responseByteLength;
    if (requestJson) this.more().requestJson = true;
    const stage = this.dispatchStage;
    // a file the stage names already is not kept twice
    if (servedFile !== undefined && !(stage !== null && 'file' in stage && stage.file === servedFile))
      this.more().servedFile = servedFile;
    if (explanation !== undefined) this.more().explanation = explanation;
    if (proxy !== undefined) this.more().proxy = proxy;
  }

  /** the request's headers, names lower-cased, arrival order kept */
  get requestHeaders(): HeaderList {
    return headerPairs(this.rawRequestHeaders);
  }
  /** the row's request and response fields (filters and the live list read these, not the Entry) */
  get request(): { readonly method: string; readonly path: string } {
    return this;
  }
  get response(): { readonly status: number } {
    return this;
  }
  get receivedAt(): Date {
    return new Date(this.receivedAtMs);
  }
  get stage(): JournalStage {
    if (this.views !== undefined) return this.views.stage;
    return this.dispatchStage === null ? 'refused' : stageName(this.dispatchStage);
  }
  get answeredBy(): AnsweredBy {
    if (this.views !== undefined) return this.views.answeredBy;
    const stage = this.dispatchStage;
    if (stage === null) return REFUSED;
    if (this.proxy !== undefined)
      return Object.freeze({ kind: 'proxied', target: this.proxy.target, saved: this.proxy.saved });
    const file = this.servedFile;
    const context = this.context;
    // one object per stage object (a remembered file's or a rule's), so every row it answers shares it
    const known = shownByStage.get(stage);
    if (known !== undefined && known.context === context && known.file === file) return known.by;
    const shown = this.shownStage(stage);
    const by =
      file !== undefined && !('file' in stage && stage.file === file)
        ? Object.freeze({ ...shown, servedFile: file })
        : shown;
    shownByStage.set(stage, { context, file, by });
    return by;
  }
  /** a fallback file (or a denied one) is named relative to the fallback directory, as `get --why` names it */
  private shownStage(stage: Stage): Stage {
    const ws = this.context?.ws;
    if (ws === undefined) return stage;
    if (stage.kind === 'fallback') return Object.freeze({ ...stage, file: fallbackFile(ws, stage.file) });
    if (stage.kind === 'miss' && stage.denied !== undefined)
      return Object.freeze({ ...stage, denied: { ...stage.denied, file: fallbackFile(ws, stage.denied.file) } });
    return stage;
  }
  get matched(): Entry['matched'] {
    if (this.views !== undefined) return this.views.matched;
    return this.dispatchStage === null || this.context === undefined
      ? null
      : matchedView(this.dispatchStage, this.context.shown);
  }
  /** the workspace the explanation is shown against (undefined once settled, and for a refusal) */
  get workspace(): Workspace | undefined {
    return this.context?.ws;
  }
  /** who answered and why, as the entry shows them */
  answered(): Views {
    if (this.views !== undefined) return this.views;
    const stage = this.dispatchStage;
    if (stage === null || this.context === undefined)
      return { stage: 'refused', answeredBy: REFUSED, matched: null, why: REFUSED_WHY };
    const outcome: Outcome = {
      answer: NO_ANSWER,
      stage,
      ...(this.explanation !== undefined ? { explanation: this.explanation } : {}),
    };
    return {
      stage: stageName(stage),
      answeredBy: this.answeredBy,
      matched: this.matched,
      why: whyView(outcome, this.context.ws, this.context.shown, this.path),
    };
  }
  /** What record mode saved of a proxied answer, once known (a passed-on stream is held before it ends). */
  proxySaved(saved: string | null): void {
    const rare = this.rare;
    if (rare?.proxy === undefined) return;
    rare.proxy = { target: rare.proxy.target, saved };
    const views = rare.views;
    // the views were made already when the workspace was replaced while the stream ran (a saved rule reloads it)
    if (views !== undefined && views.answeredBy.kind === 'proxied')
      rare.views = Object.freeze({ ...views, answeredBy: Object.freeze({ ...views.answeredBy, saved }) });
  }
  /** Make the views now and let go of the workspace and the explanation (the workspace is being replaced). */
  settle(): void {
    if (this.views !== undefined) return;
    const views = Object.freeze(this.answered());
    const rare = this.more();
    rare.views = views;
    this.dispatchStage = null;
    rare.servedFile = undefined;
    rare.explanation = undefined;
    this.context = undefined;
  }
  /** Reduce both bodies to their size and type (the entry would not fit in maxBytes otherwise). */
  dropBodies(): void {
    const rare = this.more();
    rare.requestByteLength = this.requestByteLength;
    rare.responseByteLength = this.responseByteLength;
    rare.bodiesDropped = true;
    this.requestBytes = EMPTY;
    this.responseBytes = EMPTY;
  }
  /**
   * A streamed answer's event, sent: its bytes are kept as a body's are (all within `cap`; over it, a text body's
   * first `cap` bytes and one more, else none), in a buffer that doubles as it fills.
   */
  appendStreamed(bytes: Uint8Array, cap: number): void {
    const total = this.responseByteLength + bytes.byteLength;
    this.responseByteLength = total;
    if (this.bodiesDropped) return;
    const kept = this.responseBytes;
    if (total > cap) {
      const cls = classify(mediaTypeOf(this.responseHeaders));
      if (cls !== 'text' && cls !== 'form') {
        this.responseBytes = EMPTY;
        return;
      }
    }
    const take = Math.min(bytes.byteLength, cap + 1 - kept.byteLength);
    if (take <= 0) return;
    let buf = this.rare?.streamBuffer;
    const need = kept.byteLength + take;
    if (buf === undefined || buf.byteLength < need) {
      const grown = new Uint8Array(Math.min(cap + 1, Math.max(need, 2 * (buf?.byteLength ?? 512))));
      grown.set(kept);
      this.more().streamBuffer = buf = grown;
    }
    buf.set(bytes.subarray(0, take), kept.byteLength);
    this.responseBytes = buf.subarray(0, need);
  }
  /** the settled views (for the size estimate) */
  get settledViews(): Views | undefined {
    return this.views;
  }
}

/** What an exchange leaves in the journal: references and the timings, nothing encoded (see HeldEntry). */
export function holdExchange(ex: Exchange, id: number, opts: CaptureOptions): HeldEntry {
  const req = ex.request.snapshot;
  const reqBytes = ex.request.body;
  const a = ex.answerer;
  const res = ex.response;
  const head = req.method === 'HEAD';
  const answeredBy = a.kind === 'refused' ? undefined : a;
  const held = new HeldEntry(
    id,
    ex.receivedAt.getTime(),
    ex.latencyMs ?? Math.max(0, opts.now() - ex.receivedAt.getTime()),
    ex.generation,
    req.method,
    req.path,
    req.query,
    ex.request.target,
    ex.request.rawHeaders ?? req.headers,
    ownBytes(keptBytes(reqBytes, opts.bodyBytes, req.headers)),
    res.status,
    res.headers,
    head ? EMPTY : ownBytes(keptBytes(res.body, opts.bodyBytes, res.headers)),
    answeredBy === undefined ? null : answeredBy.outcome.stage,
    answeredBy?.context,
  );
  held.keepRare(
    ex.request.byteLength ?? reqBytes.byteLength,
    head ? 0 : (sentFromFile(a) ?? res.body.byteLength),
    req.body.kind === 'json',
    answeredBy?.outcome.file,
    // an explanation that consulted no rule set explains nothing the stage does not (and need not be kept)
    answeredBy?.outcome.explanation?.ruleSets.length || answeredBy?.outcome.explanation?.overrides?.length
      ? answeredBy.outcome.explanation
      : undefined,
    a.kind === 'proxied' ? { target: a.target, saved: a.saved } : undefined,
  );
  const delivery = a.kind === 'dispatch' ? a.outcome.answer.delivery : undefined;
  if (delivery?.kind === 'fault') held.fault = delivery.fault;
  const moved = a.kind === 'dispatch' ? a.outcome.state : undefined;
  if (moved !== undefined) {
    held.stateBefore = moved.before;
    held.stateAfter = moved.after;
  }
  const contract = a.kind === 'dispatch' ? a.outcome.contract : undefined;
  if (contract !== undefined && (contract.request.length > 0 || contract.answer.length > 0)) held.contract = contract;
  if (ex.session !== undefined) held.session = ex.session;
  if (req.httpVersion === '2.0') held.protocol = 'HTTP/2';
  return held;
}

/** what answered, as the rows show it, by dispatch's stage object: made once, not per row read */
const shownByStage = new WeakMap<
  Stage,
  { readonly context: ExplainContext | undefined; readonly file: string | undefined; readonly by: AnsweredBy }
>();

const EMPTY = new Uint8Array(0);
/**
 * The size of a file too large to keep in memory, sent from disk as the client read it (docs/https-and-limits.md): the
 * journal keeps none of its bytes, only its size.
 */
function sentFromFile(a: Exchange['answerer']): number | undefined {
  const d = a.kind === 'dispatch' ? a.outcome.answer.delivery : undefined;
  return d?.kind === 'file' ? d.size : undefined;
}

const NO_ANSWER = Object.freeze({ status: 0, headers: Object.freeze([]), body: EMPTY, delayMs: 0 });

/**
 * A request body is often a view into the packet it arrived in (up to 64 KiB, headers and pipelined requests
 * included), and a rendered template's body a view into Node's shared 8 KiB buffer pool: kept as it is, either
 * would keep the whole buffer alive. A copy when the view is much smaller than what it views. (Other response
 * bodies are the answer's own, shared by every request it answers, and pass as they are.)
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer.byteLength <= 2 * bytes.byteLength + 1024) return bytes;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/**
 * The bytes worth keeping: all of them within the cap; over it, a text body's first `cap` bytes and one more (to
 * see whether the cut splits a character), copied, so the rest can go; else none (its size and type are kept).
 */
function keptBytes(bytes: Uint8Array, cap: number, headers: HeaderList): Uint8Array {
  if (bytes.byteLength <= cap) return bytes;
  const cls = classify(mediaTypeOf(headers));
  if (cls !== 'text' && cls !== 'form') return EMPTY;
  // a copy (a Buffer's slice() is a view, which would keep the whole body alive)
  const prefix = new Uint8Array(cap + 1);
  prefix.set(bytes.subarray(0, cap + 1));
  return prefix;
}

/** The Entry of what the journal held: redacted (when on), decoded, frozen, its why made through get's views. */
export function entryOf(h: HeldEntry, opts: BodyCaptureOptions): Entry {
  const redact = opts.redact;
  const requestHeaders = h.requestHeaders;
  const requestBody: CapturedBody = h.bodiesDropped
    ? droppedBody(h.requestByteLength, requestHeaders)
    : h.requestJson
      ? capturedJson(h, requestHeaders, opts)
      : captureRequestBody(h.requestBytes, requestHeaders, NOT_JSON, opts, h.requestByteLength);
  const request = Object.freeze({
    method: h.method,
    path: h.path,
    target: redact ? redactTarget(h.target) : h.target,
    query: redact ? redactQuery(h.query) : h.query,
    headers: freezeHeaders(redact ? redactHeaders(requestHeaders) : requestHeaders),
    body: requestBody,
  });
  const responseBody: CapturedBody = h.bodiesDropped
    ? droppedBody(h.responseByteLength, h.responseHeaders)
    : captureResponseBody(h.responseBytes, h.responseHeaders, h.method, opts, h.responseByteLength);
  const response = Object.freeze({
    status: h.status,
    headers: freezeHeaders(redact ? redactHeaders(h.responseHeaders) : h.responseHeaders),
    body: responseBody,
  });
  const who = h.answered();
  const cls = classify(mediaTypeOf(requestHeaders));
  return Object.freeze({
    id: h.id,
    receivedAt: new Date(h.receivedAtMs),
    latencyMs: h.latencyMs,
    generation: h.generation,
    request,
    response,
    stage: who.stage,
    answeredBy: who.answeredBy,
    matched: who.matched,
    why: redact ? redactWhy(who.why, cls === 'form' ? 'form' : 'other') : who.why,
    ...(h.fault !== undefined ? { fault: h.fault } : {}),
    ...(h.stateBefore !== undefined ? { stateBefore: h.stateBefore, stateAfter: h.stateAfter ?? {} } : {}),
    ...(h.contract !== undefined ? { contract: h.contract } : {}),
    ...(h.session !== undefined ? { session: h.session } : {}),
    ...(h.protocol !== undefined ? { protocol: h.protocol } : {}),
    ...(h.stream !== undefined ? { stream: Object.freeze({ ...h.stream }) } : {}),
  });
}

const NOT_JSON = Object.freeze({ kind: 'none' }) as RequestBody;

/** A body dispatch read as JSON: parsed again from the bytes kept (JSON.parse's reading, as `unchecked` was). */
function capturedJson(h: HeldEntry, headers: HeaderList, opts: BodyCaptureOptions): CapturedBody {
  const bytes = h.requestBytes;
  if (h.requestByteLength > opts.bodyBytes || bytes.byteLength !== h.requestByteLength)
    return captureRequestBody(EMPTY, headers, NOT_JSON, opts, h.requestByteLength);
  const text = strict.decode(bytes);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    // what the exact parser accepts beyond JSON.parse, as dispatch read it
    value = plainJson(parseJson(text));
  }
  return jsonBody(value, h.requestByteLength, opts.redact);
}

const strict = new TextDecoder('utf-8');

/** Pairs with lower-cased names, from pairs or from Node's flat list. */
function headerPairs(h: HeaderList | readonly string[]): HeaderList {
  if (h.length === 0 || typeof h[0] !== 'string') return h as HeaderList;
  const flat = h as readonly string[];
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!.toLowerCase(), flat[i + 1]!]);
  return out;
}

function droppedBody(byteLength: number, headers: HeaderList): CapturedBody {
  return byteLength === 0 ? NONE_BODY : Object.freeze({ kind: 'bytes', byteLength, contentType: mediaTypeOf(headers) });
}
const NONE_BODY: CapturedBody = Object.freeze({ kind: 'none' });

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
