// The request journal's entry: one HTTP exchange as the server saw it, after its last byte. camelCase data for
// library callers (journal/wire.ts gives the snake_case wire form). `stage`, `matched` and `why` are the views
// `mock get --format json` prints (dispatch/explain-view.ts): the explanation dispatch computed while answering,
// never a recomputed one. Values are plain JSON (JSON.stringify works on an entry); what was redacted reads
// `[redacted]`. Entries are frozen (shallowly: the objects of the entry, not a JSON body's own values).
import type { ContractMark, Stage } from '../dispatch/dispatch.js';
import { STAGE_NAMES, type MatchedView, type WhyView } from '../dispatch/explain-view.js';
import type { FaultKind } from '../model/answer.js';
import type { HeaderList } from '../shared/headers.js';
import type { Wire } from '../shared/wire.js';

/** A JSON body's value as JSON.parse gives it (integers beyond 2^53 rounded, as there). */
export type JsonValue = Wire;

/**
 * A captured body. `byteLength` is always the body's full size; the captured part is at most the journal's
 * `bodyBytes`. `text` bodies are text/*, XML and form bodies (and JSON-typed text that does not parse);
 * a JSON body over the cap, and any other type, is `bytes` (size and type only).
 */
export type CapturedBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: JsonValue; readonly byteLength: number }
  | { readonly kind: 'text'; readonly text: string; readonly byteLength: number; readonly truncated: boolean }
  | { readonly kind: 'bytes'; readonly byteLength: number; readonly contentType: string | null };

export interface RequestRecord {
  /** upper-case */
  readonly method: string;
  /** canonical path, as rules match it (percent-decoded, dot segments removed, no trailing '/') */
  readonly path: string;
  /** the request target as received (path and query), denylisted query values redacted */
  readonly target: string;
  /** raw query without '?', denylisted values redacted ('' when none) */
  readonly query: string;
  /** names lower-cased, arrival order kept, denylisted values redacted */
  readonly headers: HeaderList;
  readonly body: CapturedBody;
}

export interface ResponseRecord {
  readonly status: number;
  /** as written, denylisted values (`set-cookie`) redacted */
  readonly headers: HeaderList;
  /** `none` for HEAD and for empty bodies */
  readonly body: CapturedBody;
}

/**
 * Who answered: dispatch's Stage (absolute paths) with the file whose bytes were served, a 413 refusal made
 * before dispatch, or record mode's proxy (`target`: the upstream URL; `saved`: what was written, null if nothing).
 */
export type AnsweredBy =
  | (Stage & { readonly servedFile?: string })
  | { readonly kind: 'refused' }
  | { readonly kind: 'proxied'; readonly target: string; readonly saved: string | null };

export type AnsweredByKind = AnsweredBy['kind'];

/** `stage` values: those of `mock get --format json`, plus `refused` (a 413, answered before dispatch). */
export const JOURNAL_STAGES = [...STAGE_NAMES, 'refused'] as const;
export type JournalStage = (typeof JOURNAL_STAGES)[number];

/** What the `stage` filter accepts: a stage name or an answeredBy kind (`fallback` and `miss` split `dyn_route`). */
export const STAGE_FILTER_VALUES = [...JOURNAL_STAGES, ...(['fallback', 'miss', 'proxied'] as const)] as const;
export type StageFilterValue = (typeof STAGE_FILTER_VALUES)[number];

export function isStageFilterValue(s: string): s is StageFilterValue {
  return (STAGE_FILTER_VALUES as readonly string[]).includes(s);
}

/** What the live list and the filters read of an entry: its row, without headers, bodies or the why. */
export interface EntryRow {
  readonly id: number;
  readonly receivedAt: Date;
  readonly latencyMs: number;
  readonly generation: number;
  readonly request: { readonly method: string; readonly path: string };
  readonly response: { readonly status: number };
  readonly stage: JournalStage;
  readonly answeredBy: AnsweredBy;
  readonly matched: MatchedView | null;
  /** as Entry's */
  readonly fault?: FaultKind | undefined;
  /** as Entry's */
  readonly stateBefore?: Readonly<Record<string, string>> | undefined;
  readonly stateAfter?: Readonly<Record<string, string>> | undefined;
  readonly contract?: ContractMark | undefined;
  /** the session the request belonged to (docs/library.md#sessions), when it carried one */
  readonly session?: string | undefined;
  /** as Entry's */
  readonly protocol?: 'HTTP/2' | undefined;
  readonly stream?: StreamState | undefined;
}

/** A streamed answer in the journal: `open` while its events are still being sent; `events` sent so far. */
export interface StreamState {
  readonly open: boolean;
  readonly events: number;
}

export interface Entry {
  /** counts from 1, never reused (not even after reset) */
  readonly id: number;
  /** when the request arrived */
  readonly receivedAt: Date;
  /** from arrival to the last byte written */
  readonly latencyMs: number;
  /** the workspace generation that answered */
  readonly generation: number;
  readonly request: RequestRecord;
  readonly response: ResponseRecord;
  readonly stage: JournalStage;
  readonly answeredBy: AnsweredBy;
  /**
   * The fault the answer was (docs/faults.md), when it was one: then `response` is what the rule declared, not
   * what the client got (a reset, nothing, bad bytes, half a body, or a held connection).
   */
  readonly fault?: FaultKind;
  /**
   * The scenarios the answer read or moved (docs/state.md), each at its state when the request was answered and
   * after the answer was sent; absent when it touched none.
   */
  readonly stateBefore?: Readonly<Record<string, string>>;
  readonly stateAfter?: Readonly<Record<string, string>>;
  /** with `--contract`: how the request or the answer broke the document (docs/contract.md), when either did */
  readonly contract?: ContractMark;
  /**
   * A streamed answer (docs/faults.md): the entry is in the journal from its first byte, open while the events are
   * sent; `response.body` holds the events sent so far (bounded like any body).
   */
  readonly stream?: StreamState;
  /** the rule that answered, or null */
  readonly matched: MatchedView | null;
  readonly why: WhyView;
  /** the session the request belonged to (docs/library.md#sessions), when it carried one */
  readonly session?: string;
  /** 'HTTP/2' for a request that came over HTTP/2 (docs/http2.md); absent: HTTP/1.x */
  readonly protocol?: 'HTTP/2';
}
