// Callbacks (docs/callbacks.md): outgoing HTTP calls a rule's answer makes after it is written. Types only: the
// config decodes a CallbackSpec per `respond.callbacks` entry (config/callbacks.ts), dispatch plans each one for a
// request (dispatch/callbacks.ts: templates rendered, delay drawn, the host checked), and the server edge sends the
// planned ones after the commit point (callbacks/).
import type { HeaderList } from '../shared/headers.js';
import type { DelaySpec } from './answer.js';
import type { TemplateSlot } from './template.js';

/** The statuses retried when `retry_on` is not written: a timeout, too many requests, the server's transient errors. */
export const DEFAULT_RETRY_ON: readonly number[] = [408, 425, 429, 500, 502, 503, 504];

/** One `respond.callbacks` entry as loaded. */
export interface CallbackSpec {
  /** the URL as written (a template's source when `template` holds a url slot) */
  readonly url: string;
  /** upper case; default POST */
  readonly method: string;
  /** names lower-cased */
  readonly headers: HeaderList;
  /** the body as written: literal text, or JSON text (minified when literal); absent: no body */
  readonly body?: { readonly kind: 'text' | 'json'; readonly text: string };
  /** when to send, from the moment the answer is written; absent: at once */
  readonly delay?: DelaySpec;
  /** further attempts after a failed one (0: one attempt) */
  readonly retries: number;
  /** answer statuses that are retried (a connection failure or timeout always is) */
  readonly retryOn: readonly number[];
  /** the pause before the first retry, doubled before each next one (ms) */
  readonly retryDelayMs: number;
  /** one attempt's limit, connection to last byte (ms) */
  readonly timeoutMs: number;
  /** scenarios moved when a delivery succeeds (a 2xx answer) */
  readonly onSuccess?: Readonly<Record<string, string>>;
  /** scenarios moved when a delivery fails for good (its last attempt failed, or it was refused) */
  readonly onFailure?: Readonly<Record<string, string>>;
  /** the templated parts (only those that hold `{{`) */
  readonly template?: CallbackTemplate;
  /**
   * the URL's host when the config wrote it literally (the host part holds no `{{`): such a callback goes where
   * the config says; one whose host comes from a template is checked against service.callback_hosts
   */
  readonly literalHost?: string;
  /** for messages: "callback 1 of rule 2 of rules.toml" */
  readonly where: string;
}

export interface CallbackTemplate {
  readonly url?: TemplateSlot;
  readonly body?: TemplateSlot;
  readonly headers: readonly (readonly [name: string, slot: TemplateSlot])[];
}

/** One callback planned for one answer: everything the sender needs, made by dispatch. */
export interface PlannedCallback {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderList;
  readonly body: Uint8Array;
  /** ms after the answer is written */
  readonly delayMs: number;
  readonly retries: number;
  readonly retryOn: readonly number[];
  readonly retryDelayMs: number;
  readonly timeoutMs: number;
  /** why it is never sent (a host the allow-list refuses, a template that failed); it is journaled as refused */
  readonly refused?: string;
  /** applies the scenario moves of its result (the request's own state store, its session's when it had one) */
  readonly settle?: (delivered: boolean) => Readonly<Record<string, string>> | undefined;
  readonly where: string;
}

/** The callbacks one answer makes, and the request that made them. */
export interface CallbackBatch {
  readonly callbacks: readonly PlannedCallback[];
  readonly trigger: {
    readonly method: string;
    readonly path: string;
    readonly session?: string;
  };
  /** the triggering exchange's journal id, set by the journal when it records the exchange */
  journalId?: number;
}
