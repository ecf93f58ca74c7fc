// What the sender shows of each callback (docs/callbacks.md#what-is-recorded): one record per planned callback,
// linked to the request that caused it, with each attempt's timing, status or error. The library's
// `m.callbacks()`, the management listener's `/__mock/api/callbacks` and the inspector read these.

/** Where a callback is in its life. */
export type CallbackState =
  /** waiting for its delay, an attempt's answer or a retry */
  | 'pending'
  /** an attempt got a 2xx answer */
  | 'delivered'
  /** its last attempt failed (a non-2xx status not retried, or the retries ran out) */
  | 'failed'
  /** never sent: a host the allow-list refuses, a template that failed, or pushed out by service.callback_max */
  | 'refused'
  /** a reset or the shutdown cancelled it */
  | 'cancelled';

export interface CallbackAttempt {
  /** ISO time the attempt started */
  readonly at: string;
  readonly ms: number;
  readonly status?: number;
  readonly error?: string;
}

export interface CallbackRecord {
  /** counts from 1, never reused */
  readonly id: number;
  readonly state: CallbackState;
  /** the journal id of the request whose answer made it (absent without a journal) */
  readonly requestId?: number;
  /** the triggering request */
  readonly trigger: { readonly method: string; readonly path: string; readonly session?: string };
  /** "callback 1 of rule 2 of rules.toml" */
  readonly where: string;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    /** the body as UTF-8 text */
    readonly body: string;
  };
  /** ISO time the triggering answer was written */
  readonly plannedAt: string;
  readonly delayMs: number;
  readonly attempts: readonly CallbackAttempt[];
  /** the last answer (its body's first 64 KiB) */
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  };
  /** why it failed, was refused or cancelled */
  readonly error?: string;
  /** the scenarios its result moved */
  readonly moved?: Readonly<Record<string, string>>;
}

/** What `callbacks()` and `waitForCallback()` select on; every given field must hold. */
export interface CallbackFilter {
  /** the URL contains this text */
  readonly url?: string;
  readonly state?: CallbackState;
  /** made by the request of this journal id */
  readonly requestId?: number;
}

export function matchesCallback(r: CallbackRecord, f: CallbackFilter): boolean {
  if (f.url !== undefined && !r.request.url.includes(f.url)) return false;
  if (f.state !== undefined && r.state !== f.state) return false;
  if (f.requestId !== undefined && r.requestId !== f.requestId) return false;
  return true;
}

/** A filter from a query string's fields (`?url=…&state=…&request=…`); a string naming the bad field otherwise. */
export function callbackFilterOf(q: URLSearchParams): CallbackFilter | string {
  const out: { url?: string; state?: CallbackState; requestId?: number } = {};
  const url = q.get('url');
  if (url !== null) out.url = url;
  const state = q.get('state');
  if (state !== null) {
    if (!['pending', 'delivered', 'failed', 'refused', 'cancelled'].includes(state))
      return 'state must be one of pending, delivered, failed, refused, cancelled';
    out.state = state as CallbackState;
  }
  const request = q.get('request');
  if (request !== null) {
    const n = Number(request);
    if (!Number.isSafeInteger(n) || n < 1) return 'request must be a journal id (a positive integer)';
    out.requestId = n;
  }
  return out;
}
