// How a capability joins the request path: a RequestHook with up to three hook points, and the chain the
// listener builds from the hooks once, when it is created (createListener). A capability that is off is not in
// the list, so it adds nothing to a request; with no hook at all the listener runs the bare path it had before
// hooks existed. docs/architecture.md ("Request hooks") describes the points, their order and the cost rule.
//
// Owns: the hook interface, what a hook sees of a request (InFlight) and of its answer (Sent), composing hooks
// into one chain. Leaves out: when the points run (server/listener.ts), the capabilities themselves
// (server/journal-hook.ts, server/record/mode.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Outcome } from '../dispatch/dispatch.js';
import type { Answer } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { HeaderList } from '../shared/headers.js';
import type { ValueOrPromise } from '../shared/value-or-promise.js';
import type { LiveState } from './live.js';

/** One request as the hooks see it, from its arrival to its last byte (one object per request, only with hooks). */
export interface InFlight {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** what dispatch sees (a refused request: without its body) */
  readonly snapshot: RequestSnapshot;
  /** the body bytes as read (empty when none, or refused unread) */
  readonly body: Uint8Array;
  readonly receivedAt: Date;
  /** the live workspace state the request is served under, to its end (its workspace and generation) */
  readonly live: LiveState;
  /** the session the request belongs to (server/scopes.ts); undefined: the default one */
  readonly session?: string | undefined;
}

/** What went out on the socket, and who made it. */
export type Sent =
  /** dispatch's answer (or a before-dispatch hook's), as written */
  | { readonly kind: 'dispatch'; readonly response: Answer; readonly outcome: Outcome }
  /** refused with 413 before dispatch (the body over the cap); `declaredLength` when Content-Length said it */
  | { readonly kind: 'refused'; readonly response: Answer; readonly declaredLength?: number }
  /** record mode: dispatch missed (`outcome`) and the upstream `target` answered; `saved` names what was written, null if nothing */
  | {
      readonly kind: 'proxied';
      /** for a streamed answer, the body is empty (it was never held whole) */
      readonly response: { readonly status: number; readonly headers: HeaderList; readonly body: Uint8Array };
      readonly outcome: Outcome;
      readonly target: string;
      readonly saved: string | null;
    };

/** Hears a streamed answer's events, each as it is written to the socket. */
export type StreamTap = (bytes: Uint8Array) => void;

/** A streamed answer begins: what hears its events (the streamTap hooks together), or undefined. */
export type StreamOpen = (x: InFlight, sent: Sent) => StreamTap | undefined;

/** Hands an answer on to the next hook, and after the last one to the listener (delay, then write). */
export type NextStep = (outcome: Outcome) => ValueOrPromise<void>;

/** Runs every hook's afterWrite: a hook that writes the answer itself calls it once the last byte is handed over. */
export type WrittenStep = (x: InFlight, sent: Sent) => void;

/**
 * A capability on the request path. Every point is optional; a hook joins only the points it has. All points run
 * on the request's own path, so they must not throw for a request they do not understand, and the synchronous
 * ones (beforeDispatch, afterWrite) must not block.
 */
export interface RequestHook {
  /** for logs and docs */
  readonly name: string;
  /** dispatch explains its choice (`{ explain: true }`) while this hook is in the chain: it reads Outcome.explanation */
  readonly explain?: boolean;
  /**
   * Before dispatch, with the body read and the request logged. Return an Outcome to answer the request without
   * dispatch (it then goes through onOutcome and afterWrite like a dispatched one), or undefined to go on.
   */
  readonly beforeDispatch?: (x: InFlight) => Outcome | undefined;
  /**
   * On the outcome, before the answer's delay and write. Pass it on with `next` (as is or changed), or write the
   * answer yourself on `x.res` and then call `written` once (the afterWrite hooks run then). Return what `next`
   * returned, or a promise that settles when you are done (a rejection is answered 500 if nothing was written).
   */
  readonly onOutcome?: (
    outcome: Outcome,
    x: InFlight,
    next: NextStep,
    written: WrittenStep,
    /** a hook that sends a stream itself tells the streamTap hooks with this (returns undefined when none listens) */
    streamed: StreamOpen,
  ) => ValueOrPromise<void>;
  /** After the answer's last byte is handed to the socket (a refused 413 too); the response is gone by then. */
  readonly afterWrite?: (x: InFlight, sent: Sent) => void;
  /**
   * A streamed answer is about to be sent (dispatch's `delivery.kind === 'stream'`, or record mode passing an
   * upstream's event stream on): return what hears each event's bytes as they are written, or undefined.
   * `sent.response.body` is empty. afterWrite still runs, with the final Sent, once the stream is done.
   */
  readonly streamTap?: StreamOpen;
  /**
   * A WebSocket upgrade that no rule answers (a `miss`): take it (true) and answer the socket yourself, as record
   * mode passes it through to its target (server/record/websocket.ts), or leave it (false) to be answered as a
   * plain request. `wss` is the listener's own `ws` server, for the handshake.
   */
  readonly onUpgrade?: (
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    snapshot: RequestSnapshot,
    wss: WebSocketServer,
  ) => boolean;
  /** At server shutdown (server/start.ts), after the last connection is gone; resolves when the hook's own work is done. */
  readonly close?: () => Promise<void>;
}

/** The hooks composed, once: each point is undefined when no hook has it, so the listener skips it outright. */
export interface HookChain {
  readonly explain: boolean;
  readonly beforeDispatch: ((x: InFlight) => Outcome | undefined) | undefined;
  /** the onOutcome hooks nested (the first listed outermost); `last` is the listener's own delay-and-write */
  readonly onOutcome: ((outcome: Outcome, x: InFlight, last: NextStep) => ValueOrPromise<void>) | undefined;
  readonly afterWrite: WrittenStep | undefined;
  /** every hook's streamTap, as one (undefined when no hook has one) */
  readonly streamTap: StreamOpen | undefined;
}

const NOTHING: WrittenStep = () => undefined;
const NO_STREAM: StreamOpen = () => undefined;

/** Compose `hooks` in the order given (undefined: no hook at all, the listener's bare path). */
export function composeHooks(hooks: readonly RequestHook[]): HookChain | undefined {
  if (hooks.length === 0) return undefined;
  const befores = hooks.flatMap((h) => (h.beforeDispatch === undefined ? [] : [h.beforeDispatch]));
  const arounds = hooks.flatMap((h) => (h.onOutcome === undefined ? [] : [h.onOutcome]));
  const afters = hooks.flatMap((h) => (h.afterWrite === undefined ? [] : [h.afterWrite]));
  const taps = hooks.flatMap((h) => (h.streamTap === undefined ? [] : [h.streamTap]));

  const afterWrite: WrittenStep | undefined =
    afters.length === 0
      ? undefined
      : afters.length === 1
        ? afters[0]
        : (x, sent) => {
            for (const a of afters) a(x, sent);
          };
  const written = afterWrite ?? NOTHING;

  const beforeDispatch =
    befores.length === 0
      ? undefined
      : befores.length === 1
        ? befores[0]
        : (x: InFlight): Outcome | undefined => {
            for (const b of befores) {
              const o = b(x);
              if (o !== undefined) return o;
            }
            return undefined;
          };

  const streamTap: HookChain['streamTap'] =
    taps.length === 0
      ? undefined
      : (x, o) => {
          const heard = taps.flatMap((t) => t(x, o) ?? []);
          if (heard.length <= 1) return heard[0];
          return (bytes) => {
            for (const h of heard) h(bytes);
          };
        };

  const streamed: StreamOpen = streamTap ?? NO_STREAM;

  let onOutcome: HookChain['onOutcome'];
  if (arounds.length === 1) {
    const only = arounds[0]!;
    onOutcome = (o, x, last) => only(o, x, last, written, streamed);
  } else if (arounds.length > 1) {
    const step = (i: number, o: Outcome, x: InFlight, last: NextStep): ValueOrPromise<void> =>
      i === arounds.length ? last(o) : arounds[i]!(o, x, (next) => step(i + 1, next, x, last), written, streamed);
    onOutcome = (o, x, last) => step(0, o, x, last);
  }

  return {
    explain: hooks.some((h) => h.explain === true),
    beforeDispatch,
    onOutcome,
    afterWrite,
    streamTap,
  };
}
