// Answer: the one response type dispatch produces. Respond: the declarative form a rule or script gives.
// Faults, dribbled bodies and streams are answer kinds too (`Delivery`): dispatch decides what happens, the
// server edge does the socket work and the timing (docs/faults.md).
import type { HeaderList } from '../shared/headers.js';
import type { CallbackSpec } from './callback.js';
import type { RespondTemplate } from './template.js';
import type { WebSocketPlan } from './websocket.js';

export interface Answer {
  readonly status: number;
  /** final: defaults + CORS + content-type + content-length + rule headers */
  readonly headers: HeaderList;
  readonly body: Uint8Array;
  /** the server sleeps this long before writing; dispatch never sleeps; `get` ignores it */
  readonly delayMs: number;
  /** made for one request (a rendered template): the server does not remember its wire form */
  readonly fresh?: boolean;
  /**
   * A fresh answer made from `like`, an answer reused for every request of its rule, by changing the body alone:
   * the same status, the same headers but the last (`content-length`, which both end with), no delivery. The
   * server reuses the wire form of `like`.
   */
  readonly like?: Answer;
  /** the body as a latin1 string (one character per byte, so the same bytes), when it was made as one */
  readonly latin1?: string;
  /** how the answer leaves other than in one go; absent for nearly every answer */
  readonly delivery?: Delivery;
}

/** The faults a rule or script may ask for (docs/faults.md). */
export const FAULT_KINDS = [
  'connection_reset',
  'empty_response',
  'malformed_response',
  'malformed_chunk',
  'partial_body',
  'timeout',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export function isFaultKind(s: string): s is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(s);
}

/** One piece of a streamed answer: sent `pauseMs` after the previous one (the first after the headers). */
export interface StreamEvent {
  readonly pauseMs: number;
  readonly bytes: Uint8Array;
}

export type Delivery =
  /** nothing valid is answered: the socket is reset, closed, fed garbage, cut short or left hanging */
  | { readonly kind: 'fault'; readonly fault: FaultKind }
  /** the body (content-length announced) in `count` equal pieces, `intervalMs` apart */
  | { readonly kind: 'chunks'; readonly count: number; readonly intervalMs: number }
  /** no content-length: the events one after the other with their pauses, then the end */
  | { readonly kind: 'stream'; readonly events: readonly StreamEvent[] }
  /**
   * the first `size` bytes of the file at `path` (absolute), content-length `size`, read from disk as the client
   * takes them: a file too large to keep in memory (files/file-body.ts largeFile); the answer's body is empty
   */
  | { readonly kind: 'file'; readonly path: string; readonly size: number }
  /**
   * a WebSocket conversation (docs/websocket.md): an upgrade request is upgraded and the plan played on it; any
   * other request gets the answer itself (426)
   */
  | { readonly kind: 'websocket'; readonly plan: WebSocketPlan };

/** A delay: fixed, uniform in [min, max], or log-normal around a median (sigma the log's spread). */
export type DelaySpec =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number }
  | { readonly kind: 'lognormal'; readonly median: number; readonly sigma: number };

export type StreamFormat = 'sse' | 'ndjson';

export type RespondBody =
  /** absolute path; `confineTo` (absolute dir) when the file must stay inside that directory */
  | { readonly kind: 'file'; readonly path: string; readonly confineTo?: string }
  | { readonly kind: 'text'; readonly text: string }
  /** already minified JSON text, key order kept */
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'empty' }
  /** a Server-Sent Events or NDJSON file streamed event by event (`intervalMs` between undelayed events) */
  | {
      readonly kind: 'stream';
      readonly path: string;
      readonly confineTo?: string;
      readonly format: StreamFormat;
      readonly intervalMs: number;
    };

export interface Respond {
  readonly body: RespondBody;
  /** default 200 */
  readonly status?: number;
  /** names lower-cased; applied last, overriding defaults and content-type (content-length is never taken from here) */
  readonly headers: HeaderList;
  readonly delayMs: number;
  /** set when the answer is a response template (docs/templates.md): its parts are rendered per request */
  readonly template?: RespondTemplate;
  /** a delay drawn per request (a `{ min, max }` or `{ median, sigma }` delay); overrides `delayMs` */
  readonly delay?: DelaySpec;
  /** whether the rule wrote its own delay (then `service.delay` does not apply) */
  readonly delaySet?: boolean;
  readonly fault?: FaultKind;
  readonly chunks?: { readonly count: number; readonly intervalMs: number };
  /** scenarios moved when this answer is sent: scenario name to its new state (docs/state.md) */
  readonly setState?: Readonly<Record<string, string>>;
  /** `respond.websocket`: the rule answers an upgrade with this conversation */
  readonly websocket?: WebSocketPlan;
  /** outgoing calls made once the answer is written (docs/callbacks.md); absent for nearly every rule */
  readonly callbacks?: readonly CallbackSpec[];
}
