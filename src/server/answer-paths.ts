// The two ways a dispatched request goes on to its answer, chosen once when the listener is made
// (server/listener.ts): the plain path, with no hook at all and no per-request work added, and the hooked path,
// which builds the hooks' view of the request (InFlight) and runs their points (server/hooks.ts) around dispatch,
// the write and the last byte. Both share the flow after dispatch: the answer's delay (a timer, never blocking),
// then the write, batched with the turn's other answers when it was made in the turn the request arrived in
// (server/turn-writer.ts), at once when it had to wait: those come in bursts already (every file request of a turn
// is released together after its poll phase), and holding them for the end of the next turn only delays them
// (docs/speed.md#measured-choices-in-the-code).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { commitOutcome, type DispatchEnv, type Outcome } from '../dispatch/dispatch.js';
import { finalize } from '../dispatch/finalize.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import type { Answer } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import { chain, type ValueOrPromise } from '../shared/value-or-promise.js';
import { exceedsDeclared } from './body.js';
import { deliverAnswer } from './deliver-call.js';
import type { HookChain, InFlight, Sent } from './hooks.js';
import type { ListenerDeps } from './listener.js';
import type { LiveState } from './live.js';
import { settle, type Failed, type Step } from './settle.js';
import { publishTrace } from './trace.js';
import { createTurnClock, createTurnWriter, type WriteNow } from './turn-writer.js';
import { writeAnswer } from './write.js';
import { answerLine } from './log.js';

/** What both paths use of the listener, made once per listener. */
export interface ListenerCore {
  readonly deps: ListenerDeps;
  readonly dispatchOpts: { readonly explain?: boolean };
  /** the env a request is dispatched with: a session's, or the shared one (server/scopes.ts) */
  readonly envOf: (req: IncomingMessage) => DispatchEnv;
  readonly fail: Failed;
  /** True when `res` may wait: its connection is held (once per response) until the response closes. */
  readonly holdFor: (res: ServerResponse) => boolean;
  /** 503: the listener holds as many connections as it may (listener.max_held_connections). */
  readonly refuseHeld: (res: ServerResponse, x: InFlight | undefined) => void;
  /** a timer the listener's close() releases */
  readonly sleep: (ms: number) => Promise<void>;
}

/** A request after the listener read it: how it reaches its answer. */
export interface AnswerPath {
  /** the time a request arrived */
  readonly arrived: () => Date;
  /** OPTIONS, answered before its body is read; a body too big to skip cheaply closes the connection instead */
  readonly options: (
    req: IncomingMessage,
    res: ServerResponse,
    live: LiveState,
    receivedAt: Date,
  ) => ValueOrPromise<void>;
  /** the body is in and the request logged: dispatch, then the answer */
  readonly dispatch: (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    receivedAt: Date,
    live: LiveState,
    snapshot: RequestSnapshot,
    body: Uint8Array,
  ) => ValueOrPromise<void>;
  /** the body was over the cap and `answer` (413) written */
  readonly refused: (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    receivedAt: Date,
    live: LiveState,
    answer: Answer,
  ) => void;
}

const EMPTY = new Uint8Array(0);

/** Whether an answer with a delivery waits on a timer or on its client (every one but an immediate fault). */
function waits(answer: Answer): boolean {
  const d = answer.delivery;
  return d !== undefined && d.kind !== 'websocket' && (d.kind !== 'fault' || d.fault === 'timeout');
}

/** The flow after dispatch, shared by both paths: `now` for an outcome made at once, `later` for one that waited. */
function createFlow(
  core: ListenerCore,
  write: WriteNow,
): { readonly now: Step<Outcome>; readonly later: Step<Outcome> } {
  const batched = createTurnWriter(write, core.fail);
  const afterDelay = (delay: number, res: ServerResponse, method: string, o: Outcome, x: InFlight | undefined) => {
    if (!core.holdFor(res)) return core.refuseHeld(res, x);
    return core.sleep(delay).then(() => batched(res, method, o, x));
  };
  return {
    now: (res, method, o, x) => {
      const delay = o.answer.delayMs;
      if (delay > 0) return afterDelay(delay, res, method, o, x);
      batched(res, method, o, x);
    },
    later: (res, method, o, x) => {
      const delay = o.answer.delayMs;
      if (delay > 0) return afterDelay(delay, res, method, o, x);
      write(res, method, o, x);
    },
  };
}

/**
 * The commit point (dispatch/commit.ts): an answer that changes state (the scenarios it moves, a collection's
 * write) makes its changes right before it is written, and is written as they left it (a persisted collection's
 * change once it is on disk). An answer whose client left, or that was never written, changes nothing
 * (docs/state.md).
 */
function committing(core: ListenerCore, write: WriteNow): WriteNow {
  const live = core.deps.live;
  // an answer's callbacks (docs/callbacks.md) go to the sender once the answer is written
  const sender = core.deps.callbacks;
  const written: WriteNow =
    sender === undefined
      ? write
      : (res, method, o, x) => {
          write(res, method, o, x);
          if (o.callbacks !== undefined) sender.send(o.callbacks);
        };
  return (res, method, outcome, x) => {
    if (outcome.state === undefined && outcome.writes === undefined && outcome.callbacks === undefined)
      return write(res, method, outcome, x);
    if (res.destroyed || res.writableEnded) return;
    const committed = commitOutcome(outcome, (draft) =>
      finalize(draft, x?.snapshot ?? snapshotOf(res.req), live.current.ws.cors),
    );
    if (!(committed instanceof Promise)) return written(res, method, committed, x);
    committed.then(
      (o) => written(res, method, o, x),
      (e: unknown) => core.fail(res, e),
    );
  };
}

/** The answer's log line, for every request the listener logged (not a declared-JSON body that does not parse). */
function logAnswer(core: ListenerCore, res: ServerResponse, outcome: Outcome): void {
  if (outcome.stage.kind !== 'bad_request') core.deps.log(answerLine(res.req.url, outcome.answer));
}

/** Writes the answer unless the response is gone or done (a client that left, a timeout's answer). */
function plainWrite(core: ListenerCore): WriteNow {
  const writing = { log: core.deps.log };
  const live = core.deps.live;
  return (res, method, outcome) => {
    if (res.destroyed || res.writableEnded) return;
    if (waits(outcome.answer) && !core.holdFor(res)) return core.refuseHeld(res, undefined);
    if (outcome.answer.delivery === undefined) writeAnswer(res, outcome.answer, method, writing);
    else deliverAnswer(res, outcome.answer, method, live.current.ws);
    logAnswer(core, res, outcome);
    publishTrace(outcome);
  };
}

/** As plainWrite, then the afterWrite hooks with `x`, the request as the hooks saw it; a stream is tapped. */
function hookedWrite(core: ListenerCore, hooks: HookChain): WriteNow {
  const afterWrite = hooks.afterWrite;
  if (afterWrite === undefined) return plainWrite(core);
  const streamTap = hooks.streamTap;
  const writing = { log: core.deps.log };
  const live = core.deps.live;
  return (res, method, outcome, x) => {
    if (res.destroyed || res.writableEnded) return;
    if (waits(outcome.answer) && !core.holdFor(res)) return core.refuseHeld(res, x);
    const delivery = outcome.answer.delivery;
    if (delivery === undefined) writeAnswer(res, outcome.answer, method, writing);
    else {
      const tap =
        delivery.kind === 'stream' && x !== undefined
          ? streamTap?.(x, { kind: 'dispatch', response: outcome.answer, outcome })
          : undefined;
      deliverAnswer(res, outcome.answer, method, (x?.live ?? live.current).ws, tap);
    }
    logAnswer(core, res, outcome);
    publishTrace(outcome);
    if (x === undefined) return;
    // a fault, dribble or stream is still being written: its exchange is captured once the connection is done with it
    if (delivery === undefined) afterWrite(x, { kind: 'dispatch', response: outcome.answer, outcome });
    else res.once('close', () => afterWrite(x, { kind: 'dispatch', response: outcome.answer, outcome }));
  };
}

/** No hooks: dispatch and answer, nothing else; the arrival time is read once per turn. */
export function plainPath(core: ListenerCore): AnswerPath {
  const { deps, dispatchOpts, envOf, fail } = core;
  const flow = createFlow(core, committing(core, plainWrite(core)));
  return {
    arrived: createTurnClock(deps.now),
    options: (req, res, live) =>
      chain(deps.dispatch(live.ws, snapshotOf(req), envOf(req), dispatchOpts), (outcome) => {
        writeAnswer(res, outcome.answer, 'OPTIONS', { close: exceedsDeclared(req, live.cap), log: deps.log });
      }),
    dispatch: (req, res, method, _receivedAt, live, snapshot) =>
      settle(
        deps.dispatch(live.ws, snapshot, envOf(req), dispatchOpts),
        res,
        method,
        undefined,
        flow.now,
        flow.later,
        fail,
      ),
    refused: () => undefined,
  };
}

/** With hooks: before dispatch (which may answer instead), around the outcome, after the write. */
export function hookedPath(core: ListenerCore, hooks: HookChain): AnswerPath {
  const { deps, dispatchOpts, envOf, fail } = core;
  const flow = createFlow(core, committing(core, hookedWrite(core, hooks)));
  const afterWrite = hooks.afterWrite;
  const around = hooks.onOutcome;
  const dispatchHooked = (x: InFlight, env: DispatchEnv): ValueOrPromise<Outcome> =>
    hooks.beforeDispatch?.(x) ?? deps.dispatch(x.live.ws, x.snapshot, env, dispatchOpts);
  return {
    arrived: deps.now,
    options: (req, res, live, receivedAt) => {
      const snapshot = snapshotOf(req);
      const env = envOf(req);
      const x: InFlight = {
        req,
        res,
        method: 'OPTIONS',
        snapshot,
        body: EMPTY,
        receivedAt,
        live,
        session: env.session,
      };
      const writeOptions = (outcome: Outcome): void => {
        writeAnswer(res, outcome.answer, 'OPTIONS', { close: exceedsDeclared(req, live.cap), log: deps.log });
        afterWrite?.(x, { kind: 'dispatch', response: outcome.answer, outcome });
      };
      return chain(dispatchHooked(x, env), around === undefined ? writeOptions : (o) => around(o, x, writeOptions));
    },
    dispatch: (req, res, method, receivedAt, live, snapshot, body) => {
      const env = envOf(req);
      const x: InFlight = { req, res, method, snapshot, body, receivedAt, live, session: env.session };
      const outcome = dispatchHooked(x, env);
      if (around === undefined) return settle(outcome, res, method, x, flow.now, flow.later, fail);
      const last = (o: Outcome): ValueOrPromise<void> => flow.now(res, method, o, x);
      return chain(outcome, (o) => around(o, x, last));
    },
    refused: (req, res, method, receivedAt, live, answer) => {
      afterWrite?.(
        { req, res, method, snapshot: snapshotOf(req), body: EMPTY, receivedAt, live },
        refusedSent(req, answer),
      );
    },
  };
}

/** A 413 as the afterWrite hooks see it: the declared length when it is a number (the body is never read). */
function refusedSent(req: IncomingMessage, answer: Answer): Sent {
  const declared = Number(req.headers['content-length']);
  return { kind: 'refused', response: answer, ...(Number.isSafeInteger(declared) ? { declaredLength: declared } : {}) };
}

/** The request as dispatch sees it; without `body` it has none (OPTIONS, refusals). */
export function snapshotOf(req: IncomingMessage, body?: Uint8Array): RequestSnapshot {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const httpVersion = req.httpVersion;
  const headers = httpVersion === '2.0' ? http2Headers(req.rawHeaders) : req.rawHeaders;
  // two literals rather than a spread: this runs for every request
  return snapshotFrom(
    body === undefined ? { method, target, headers, httpVersion } : { method, target, headers, body, httpVersion },
  );
}

/**
 * An HTTP/2 request's headers as an HTTP/1.1 request has them: the pseudo-headers (`:method`, `:path`, …) are
 * the request line, not headers, and `:authority` stands for `host` when the request has none.
 */
function http2Headers(raw: readonly string[]): string[] {
  const out: string[] = [];
  let authority: string | undefined;
  let host = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) === 0x3a /* ':' */) {
      if (name === ':authority') authority = raw[i + 1];
      continue;
    }
    if (name === 'host') host = true;
    out.push(name, raw[i + 1]!);
  }
  if (!host && authority !== undefined) out.unshift('host', authority);
  return out;
}
