// The journal's JSON on the wire, as types only: what journal/wire.ts writes, what the inspector's page
// (inspector/ui/app.ts, compiled by its own DOM tsconfig, which includes this file) and the tests' fake journal
// read and write. One definition, so a renamed field fails the build of the encoder, the page and the fake alike.
// Snake_case keys, headers as `{name, value}` lists (as in `mock get --format json`), times as ISO 8601.
// Object types rather than interfaces: they stay assignable to the generic `Wire` JSON type.
import type { MatchedWire, WhyWire } from '../dispatch/explain-wire.js';
import type { Wire } from '../shared/wire.js';

export type { MatchedWire, WhyConditionWire, WhyRuleSetWire, WhyRuleWire, WhyWire } from '../dispatch/explain-wire.js';

export type WireHeader = { readonly name: string; readonly value: string };

/** A captured body; `byte_length` is always the body's full size. */
export type WireBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: Wire; readonly byte_length: number }
  | { readonly kind: 'text'; readonly text: string; readonly byte_length: number; readonly truncated: boolean }
  | { readonly kind: 'bytes'; readonly byte_length: number; readonly content_type: string | null };

/** `served_file`: the file whose bytes were served, when one was */
type Served = { readonly served_file?: string };

/** Who answered: dispatch's stage (files relative to the fallback directory, scripts absolute), a 413 refusal made before dispatch, or record mode's proxy. */
export type WireAnsweredBy =
  | ({ readonly kind: 'options' | 'bad_request' | 'contract' | 'refused' } & Served)
  /** a miss; a file the fallback directory holds but a `service.deny` pattern refuses names both */
  | ({ readonly kind: 'miss'; readonly file?: string; readonly denied_by?: string } & Served)
  | ({ readonly kind: 'middleware'; readonly index: number; readonly file: string } & Served)
  | ({ readonly kind: 'rule_set'; readonly rule_set_index: number; readonly rule_index: number } & Served)
  | ({ readonly kind: 'prefix_miss'; readonly rule_set_index: number } & Served)
  /** a runtime override (docs/library.md#overrides); `session` when it was that session's own */
  | ({ readonly kind: 'override'; readonly id: number; readonly session?: string } & Served)
  | ({ readonly kind: 'fallback'; readonly file: string } & Served)
  /** a collection's route: its URL path, what it did, its data file, and its rule set (none: the db file's) */
  | ({
      readonly kind: 'collection';
      readonly path: string;
      readonly action: 'list' | 'show' | 'create' | 'replace' | 'update' | 'delete';
      readonly file: string;
      readonly rule_set_index?: number;
    } & Served)
  | { readonly kind: 'proxied'; readonly target: string; readonly saved: string | null };

/** `stage` values: those of `mock get --format json`, plus `refused` */
export type WireStage =
  | 'options'
  | 'bad_request'
  | 'contract'
  | 'override'
  | 'middleware'
  | 'rule_set'
  | 'prefix_miss'
  | 'collection'
  | 'dyn_route'
  | 'refused';

/**
 * With `--contract` (docs/contract.md): the documented operation the request fell under and how the request and
 * the answer broke it (`query.limit: must be <= 100`); `enforced` when the request was answered 400 for it.
 */
export type WireContract = {
  readonly operation: string;
  readonly request: readonly string[];
  readonly answer: readonly string[];
  readonly enforced: boolean;
};

/** One exchange: `GET /__mock/api/requests/<id>`, and each of the list's `entries`. */
export type WireEntry = {
  readonly id: number;
  readonly received_at: string;
  readonly latency_ms: number;
  readonly generation: number;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly target: string;
    readonly query: string;
    readonly headers: readonly WireHeader[];
    readonly body: WireBody;
  };
  readonly response: { readonly status: number; readonly headers: readonly WireHeader[]; readonly body: WireBody };
  readonly stage: WireStage;
  readonly answered_by: WireAnsweredBy;
  /** present when the answer was a fault (`connection_reset`, `timeout`, …): the response is what the rule declared, not what was sent */
  readonly fault?: string;
  /** the scenarios the answer read or moved, before it and after it was sent (docs/state.md); absent when none */
  readonly state_before?: Readonly<Record<string, string>>;
  readonly state_after?: Readonly<Record<string, string>>;
  /** present when `--contract` found the request or the answer breaking the document */
  readonly contract?: WireContract;
  /** the session the request belonged to, when it carried one */
  readonly session?: string;
  /** `HTTP/2` when the request came over HTTP/2 (docs/http2.md); absent: HTTP/1.x */
  readonly protocol?: 'HTTP/2';
  /** a streamed answer: `open` while its events are still being sent (the body holds those sent so far) */
  readonly stream?: WireStream;
  readonly matched: MatchedWire | null;
  /** a refused request's note says so, with no rule sets */
  readonly why: WhyWire;
};

/** `GET /__mock/api/requests`: the entries after `since`, the newest id, and how many were evicted meanwhile. */
export type WireEntryList = {
  readonly entries: readonly WireEntry[];
  readonly last_id: number;
  readonly dropped: number;
};

/** The short form of an entry for a live list: the row, not the detail. */
export type WireEntrySummary = {
  readonly id: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly stage: WireStage;
  readonly latency_ms: number;
  readonly generation: number;
  /** as in WireEntry */
  readonly fault?: string;
  /** as in WireEntry */
  readonly state_before?: Readonly<Record<string, string>>;
  readonly state_after?: Readonly<Record<string, string>>;
  readonly contract?: WireContract;
  /** the session the request belonged to, when it carried one */
  readonly session?: string;
  /** `HTTP/2` when the request came over HTTP/2 (docs/http2.md); absent: HTTP/1.x */
  readonly protocol?: 'HTTP/2';
  readonly stream?: WireStream;
};

export type WireStream = { readonly open: boolean; readonly events: number };

/** The inspector's `stream` event: one event of an open entry's stream, as sent, at byte `offset` of its body. */
export type WireStreamEvent = {
  readonly id: number;
  readonly offset: number;
  readonly text: string;
  /** the text is the event's start only (an event over the inspector's per-event bound) */
  readonly truncated: boolean;
};

/** The inspector's `request` event: the summary and what answered (for the table's label). */
export type WireRequestEvent = WireEntrySummary & { readonly answered_by: WireAnsweredBy };
