// One request through the server: (req, res) → read the live workspace once (server/live.ts: that LiveState
// serves the request to its end, body cap, dispatch, delay and log, even if a reload swaps it meanwhile) →
// OPTIONS first (before the body and before the size cap) →
// read the body under the cap (413 before buffering) → snapshotFrom → request log → dispatch → sleep
// answer.delayMs (a timer, never blocking) → write status, headers and body in one go → trace event.
//
// The first answer made in an event-loop turn is written at once; the others made in the same turn are written
// together at its end (setImmediate), not one by one as each request is handled. The client, woken by the first,
// is still busy reading when the rest arrive, instead of going back to sleep between them and being woken by
// each write (a wake-up costs the writing server more than the write itself, docs/speed.md#measured-choices-in-the-code;
// a lone client is answered as soon as before). The order
// on a connection is node:http's: pipelined answers go out in request order whenever they are written. An answer
// that had to wait (a file request waits for the end of the poll phase it arrived in) is written when it is made:
// those are released together already.
//
// Capabilities (the journal, record mode, …) join through the hooks of ListenerDeps.hooks (server/hooks.ts):
// before dispatch, on the outcome, after the last byte. They are composed once, here; with none, every request
// takes the bare path below with no per-request work added, and a capability that is off is not in the list.
//
// A handler failure never reaches the process: it is logged and answered 500 once. A client that goes away
// mid-body is dropped quietly.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { commitOutcome, type DispatchEnv, type Outcome } from '../dispatch/dispatch.js';
import { finalize } from '../dispatch/finalize.js';
import { textDraft } from '../dispatch/respond.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Answer } from '../model/answer.js';
import type { Workspace } from '../model/workspace.js';
import { chain, Soon, type ValueOrPromise } from '../shared/value-or-promise.js';
import type { SocketActivity } from './activity.js';
import { exceedsDeclared, readBody, type BodyRead } from './body.js';
import { jsonShape, startsAsContainer } from './json-shape.js';
import { composeHooks, type InFlight, type RequestHook, type Sent } from './hooks.js';
import type { LiveState } from './live.js';
import { requestLines, requestLogLines } from './log.js';
import { publishTrace } from './trace.js';
import { writeAnswer } from './write.js';
import { deliverAnswer } from './deliver-call.js';

const EMPTY = new Uint8Array(0);
const NO_BODY: BodyRead = { kind: 'ok', bytes: EMPTY };

/** a request whose body is being read */
interface Reading {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly receivedAt: Date;
  readonly live: LiveState;
}

/** an answer made, to be written at the end of the turn */
interface ReadyAnswer {
  readonly res: ServerResponse;
  readonly method: string;
  readonly outcome: Outcome;
  readonly x: InFlight | undefined;
}

export type DispatchFunction = (
  ws: Workspace,
  req: RequestSnapshot,
  env: DispatchEnv,
  opts?: { readonly explain?: boolean },
) => ValueOrPromise<Outcome>;

export interface ListenerDeps {
  /** `current` is read once per request (a LiveWorkspace, or any holder of one LiveState) */
  readonly live: { readonly current: LiveState };
  readonly env: DispatchEnv;
  /**
   * sessions and overrides (server/scopes.ts): while `header` is set, each request's env is `envFor(req)`, else
   * `env` (the shared one, with the shared overrides while there are some); absent: `deps.env` always
   */
  readonly scopes?: {
    readonly env: DispatchEnv;
    readonly header: string | undefined;
    envFor(req: IncomingMessage): DispatchEnv;
  };
  readonly dispatch: DispatchFunction;
  readonly log: (line: string) => void;
  readonly now: () => Date;
  readonly activity: SocketActivity;
  /** the capabilities on the request path, in order (server/hooks.ts); none: the bare path, no added work */
  readonly hooks?: readonly RequestHook[];
  /**
   * Held connections (server/gate.ts): an answer that waits on a timer or on its client holds its connection
   * until the response closes; `hold` answers false when `limit` connections are held already. Absent: no bound.
   */
  readonly holds?: {
    readonly limit: number;
    hold(socket: object): boolean;
    release(socket: object): void;
  };
}

export const LISTENER_MESSAGES = {
  tooLarge: (limit: number) => `request body exceeds the configured limit (${limit} bytes)`,
  jsonTooDeep: (limit: number) =>
    `request body nests JSON arrays and objects deeper than the configured limit (${limit} levels); raise service.max_json_depth to accept it`,
  jsonTooMany: (limit: number) =>
    `request body holds more JSON values than the configured limit (${limit} array items and object members); raise service.max_json_members to accept it`,
  versionNotSupported: 'HTTP version not supported',
  internalError: 'internal server error',
  handlerFailed: (reason: string) => `request handling failed: ${reason}`,
  tooManyHeld: (limit: number) =>
    `too many held connections: ${limit} connections of this listener are already waiting on a delay, a timeout ` +
    `fault or a stream (listener.max_held_connections = ${limit}); raise listener.max_held_connections in mock.toml`,
} as const;

/** Whether an answer with a delivery waits on a timer or on its client (every one but an immediate fault). */
function waits(answer: Answer): boolean {
  const d = answer.delivery;
  return d !== undefined && (d.kind !== 'fault' || d.fault === 'timeout');
}

export interface RequestListener {
  readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  /** `Expect: 100-continue`: no 100 for a body that will be refused, nor for OPTIONS (whose body is never read). */
  readonly onCheckContinue: (req: IncomingMessage, res: ServerResponse) => void;
  /** Release pending response delays (server shutdown). */
  readonly close: () => void;
}

const EXPLAIN = Object.freeze({ explain: true });
const NO_EXPLAIN = Object.freeze({});

export function createListener(deps: ListenerDeps): RequestListener {
  const hooks = composeHooks(deps.hooks ?? []);
  const dispatchOpts = hooks?.explain === true ? EXPLAIN : NO_EXPLAIN;
  const afterWrite = hooks?.afterWrite;
  const streamTap = hooks?.streamTap;
  const sleeping = new Map<NodeJS.Timeout, () => void>();
  /** the writer's options for every answer but a refusal (made once, not per request) */
  const writing = { log: deps.log };

  const sleep = (ms: number): Promise<void> => {
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sleeping.delete(timer);
        resolve();
      }, ms);
      sleeping.set(timer, resolve);
    });
  };

  /** Answer `status` with a plain-text body and the full header set, then close the connection. */
  const refuse = (req: IncomingMessage, res: ServerResponse, live: LiveState, status: number, text: string): Answer => {
    const answer = finalize(textDraft(status, text), snapshotOf(req), live.ws.cors);
    writeAnswer(res, answer, req.method ?? 'GET', { close: true, log: deps.log });
    return answer;
  };

  const holds = deps.holds;
  const heldResponses = new WeakSet<ServerResponse>();
  /** True when `res` may wait: its connection is held (once per response) until the response closes. */
  const holdFor = (res: ServerResponse): boolean => {
    if (holds === undefined || heldResponses.has(res)) return true;
    const socket = res.req.socket;
    if (!holds.hold(socket)) return false;
    heldResponses.add(res);
    res.once('close', () => holds.release(socket));
    return true;
  };
  /** 503: the listener holds as many connections as it may (listener.max_held_connections). */
  const refuseHeld = (res: ServerResponse, x: InFlight | undefined): void => {
    const answer = refuse(res.req, res, deps.live.current, 503, LISTENER_MESSAGES.tooManyHeld(holds?.limit ?? 0));
    if (x !== undefined) afterWrite?.(x, { kind: 'refused', response: answer });
  };

  /** With hooks: the hooks before dispatch, then dispatch unless one of them answered. */
  const dispatchHooked = (x: InFlight, env: DispatchEnv): ValueOrPromise<Outcome> =>
    hooks?.beforeDispatch?.(x) ?? deps.dispatch(x.live.ws, x.snapshot, env, dispatchOpts);

  /** the env a request is dispatched with: a session's, or the shared one (server/scopes.ts) */
  const scopes = deps.scopes;
  const envOf = (req: IncomingMessage): DispatchEnv =>
    scopes === undefined ? deps.env : scopes.header === undefined ? scopes.env : scopes.envFor(req);

  // On the bare path the time a request arrived is read once per event-loop turn: the requests handled in a poll
  // phase had all arrived when it began, and the log shows whole seconds (a clock read cost more than the rest of
  // the log line, docs/speed.md#workload-b-one-step-closer-2026-11-27). The hooks (the journal) read it per request.
  let turnStarted: Date | undefined;
  const turnEnded = (): void => {
    turnStarted = undefined;
  };
  const turnTime = (): Date => {
    if (turnStarted === undefined) {
      turnStarted = deps.now();
      setImmediate(turnEnded);
    }
    return turnStarted;
  };

  // One request, synchronous as far as it can go: a bodyless request answered from rules or remembered files is
  // written in the same turn it arrived in, without a promise.
  const handle = (req: IncomingMessage, res: ServerResponse): ValueOrPromise<void> => {
    const receivedAt = hooks === undefined ? turnTime() : deps.now();
    const live = deps.live.current;
    const method = req.method ?? 'GET';
    if (req.httpVersionMajor !== 1) return void refuse(req, res, live, 505, LISTENER_MESSAGES.versionNotSupported);
    if (method === 'OPTIONS') return answerOptions(req, res, live, receivedAt);
    // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3): nothing to read.
    const h = req.headers;
    if (h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0')) {
      return afterBody(req, res, method, receivedAt, live, NO_BODY);
    }
    readBody(req, live.cap, { req, res, method, receivedAt, live }, bodyRead, deps.activity);
  };

  // The body is in (or refused): from the request's events, so a failure is caught here, not left to the emitter.
  // (Callbacks and a shared function rather than promises and closures: this is every request with a body.)
  const bodyRead = (p: Reading, body: BodyRead): void => {
    try {
      watchFailure(p.req, p.res, afterBody(p.req, p.res, p.method, p.receivedAt, p.live, body));
    } catch (e) {
      fail(p.req, p.res, e);
    }
  };

  // Answered before the body is read; a body too big to skip cheaply closes the connection instead.
  const answerOptions = (
    req: IncomingMessage,
    res: ServerResponse,
    live: LiveState,
    receivedAt: Date,
  ): ValueOrPromise<void> => {
    const snapshot = snapshotOf(req);
    const env = envOf(req);
    if (hooks === undefined) {
      return chain(deps.dispatch(live.ws, snapshot, env, dispatchOpts), (outcome) => {
        writeAnswer(res, outcome.answer, 'OPTIONS', { close: exceedsDeclared(req, live.cap), log: deps.log });
      });
    }
    const x: InFlight = { req, res, method: 'OPTIONS', snapshot, body: EMPTY, receivedAt, live, session: env.session };
    const writeOptions = (outcome: Outcome): void => {
      writeAnswer(res, outcome.answer, 'OPTIONS', { close: exceedsDeclared(req, live.cap), log: deps.log });
      afterWrite?.(x, { kind: 'dispatch', response: outcome.answer, outcome });
    };
    const around = hooks.onOutcome;
    return chain(dispatchHooked(x, env), around === undefined ? writeOptions : (o) => around(o, x, writeOptions));
  };

  const afterBody = (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    receivedAt: Date,
    live: LiveState,
    body: BodyRead,
  ): ValueOrPromise<void> => {
    switch (body.kind) {
      case 'aborted':
        res.destroy();
        return;
      case 'too_large': {
        const answer = refuse(req, res, live, 413, LISTENER_MESSAGES.tooLarge(live.cap));
        if (afterWrite !== undefined)
          afterWrite(
            { req, res, method, snapshot: snapshotOf(req), body: EMPTY, receivedAt, live },
            refusedSent(req, answer),
          );
        return;
      }
      case 'malformed':
        return void refuse(req, res, live, body.status, (STATUS_CODES[body.status] ?? 'bad request').toLowerCase());
      case 'ok':
        break;
    }
    if (startsAsContainer(body.bytes)) {
      const shape = jsonShape(body.bytes, live.jsonLimits);
      // text that is not JSON at all is the client's error (400, below) whatever its nesting: only a body within
      // the member limit gets here, so parsing it to tell is cheap (JSON.parse does not recurse)
      if (shape.over === 'members' || (shape.over === 'depth' && parsesAsJson(body.bytes))) {
        const text =
          shape.over === 'depth'
            ? LISTENER_MESSAGES.jsonTooDeep(live.jsonLimits.maxDepth)
            : LISTENER_MESSAGES.jsonTooMany(live.jsonLimits.maxMembers);
        const answer = refuse(req, res, live, 413, text);
        if (afterWrite !== undefined)
          afterWrite(
            { req, res, method, snapshot: snapshotOf(req), body: EMPTY, receivedAt, live },
            refusedSent(req, answer),
          );
        return;
      }
    }
    const snapshot = snapshotOf(req, body.bytes);
    if (snapshot.body.kind !== 'invalid_json') {
      const verbose = live.verbose;
      if (!verbose.header && !verbose.body) {
        deps.log(requestLines(snapshot, receivedAt));
      } else for (const line of requestLogLines(snapshot, receivedAt, verbose)) deps.log(line);
    }
    const env = envOf(req);
    if (hooks === undefined) {
      const outcome = deps.dispatch(live.ws, snapshot, env, dispatchOpts);
      if (outcome instanceof Soon) return answerSoon(req, res, method, outcome, undefined);
      return outcome instanceof Promise
        ? answerLater(res, method, outcome, undefined)
        : answerAfterDelay(res, method, outcome, undefined);
    }
    const x: InFlight = { req, res, method, snapshot, body: body.bytes, receivedAt, live, session: env.session };
    const outcome = dispatchHooked(x, env);
    const around = hooks.onOutcome;
    if (around === undefined) {
      if (outcome instanceof Soon) return answerSoon(req, res, method, outcome, x);
      return outcome instanceof Promise
        ? answerLater(res, method, outcome, x)
        : answerAfterDelay(res, method, outcome, x);
    }
    const last = (o: Outcome): ValueOrPromise<void> => answerAfterDelay(res, method, o, x);
    return chain(outcome, (o) => around(o, x, last));
  };

  // An answer that waited (for the file gate, a read, a script) is written as soon as it is made: those come in
  // bursts already (every file request of a turn is released together after its poll phase), and holding them
  // for the end of the next turn only delays them (docs/speed.md#measured-choices-in-the-code).
  const answerLater = (
    res: ServerResponse,
    method: string,
    outcome: Promise<Outcome>,
    x: InFlight | undefined,
  ): Promise<void> => outcome.then((o) => answerMade(res, method, o, x));

  const answerMade = (
    res: ServerResponse,
    method: string,
    outcome: Outcome,
    x: InFlight | undefined,
  ): Promise<void> | undefined => {
    if (outcome.answer.delayMs > 0) return answerAfter(outcome.answer.delayMs, res, method, outcome, x);
    write(res, method, outcome, x);
    return undefined;
  };

  // A file request released with the others of its turn (a Soon): it goes on to its answer in that one callback,
  // without a promise of its own.
  const answerSoon = (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    outcome: Soon<Outcome>,
    x: InFlight | undefined,
  ): void =>
    outcome.listen((ok, o) => {
      if (!ok) return fail(req, res, o);
      try {
        answerMade(res, method, o as Outcome, x)?.catch((e: unknown) => fail(req, res, e));
      } catch (e) {
        fail(req, res, e);
      }
    });

  /** a failure of what is left of a request's handling is answered 500 (or drops the connection) */
  const watchFailure = (req: IncomingMessage, res: ServerResponse, pending: ValueOrPromise<void>): void => {
    if (pending instanceof Promise) pending.catch((e: unknown) => fail(req, res, e));
    else if (pending instanceof Soon)
      pending.listen((ok, e) => {
        if (!ok) fail(req, res, e);
      });
  };

  const answerAfterDelay = (
    res: ServerResponse,
    method: string,
    outcome: Outcome,
    x: InFlight | undefined,
  ): ValueOrPromise<void> => {
    const delay = outcome.answer.delayMs;
    if (delay > 0) return answerAfter(delay, res, method, outcome, x);
    answer(res, method, outcome, x);
  };

  const answerAfter = (
    delay: number,
    res: ServerResponse,
    method: string,
    outcome: Outcome,
    x: InFlight | undefined,
  ): Promise<void> => {
    if (!holdFor(res)) {
      refuseHeld(res, x);
      return Promise.resolve();
    }
    return sleep(delay).then(() => answer(res, method, outcome, x));
  };

  // Whether an answer was written in this turn already, and the answers made after it, in order.
  let turnOpen = false;
  let ready: ReadyAnswer[] = [];
  const endTurn = (): void => {
    turnOpen = false;
    const batch = ready;
    if (batch.length === 0) return;
    ready = [];
    for (const { res, method, outcome, x } of batch) {
      try {
        write(res, method, outcome, x);
      } catch (e) {
        fail(res.req, res, e);
      }
    }
  };

  const answer = (res: ServerResponse, method: string, outcome: Outcome, x: InFlight | undefined): void => {
    if (turnOpen) {
      ready.push({ res, method, outcome, x });
      return;
    }
    turnOpen = true;
    setImmediate(endTurn);
    write(res, method, outcome, x);
  };

  /**
   * Writes the answer unless the response is gone or done (a client that left, a timeout's answer), moving the
   * scenarios it moves (docs/state.md: only an answer that goes out moves them), then runs the afterWrite hooks with `x`, the request as the hooks saw it (undefined on the bare path).
   */
  const writeNow =
    afterWrite === undefined
      ? (res: ServerResponse, method: string, outcome: Outcome, _x: InFlight | undefined): void => {
          if (res.destroyed || res.writableEnded) return;
          if (waits(outcome.answer) && !holdFor(res)) return refuseHeld(res, undefined);
          if (outcome.answer.delivery === undefined) writeAnswer(res, outcome.answer, method, writing);
          else deliverAnswer(res, outcome.answer, method, deps.live.current.ws);
          publishTrace(outcome);
        }
      : (res: ServerResponse, method: string, outcome: Outcome, x: InFlight | undefined): void => {
          if (res.destroyed || res.writableEnded) return;
          if (waits(outcome.answer) && !holdFor(res)) return refuseHeld(res, x);
          const delivery = outcome.answer.delivery;
          if (delivery === undefined) writeAnswer(res, outcome.answer, method, writing);
          else {
            const tap =
              delivery.kind === 'stream' && x !== undefined
                ? streamTap?.(x, { kind: 'dispatch', response: outcome.answer, outcome })
                : undefined;
            deliverAnswer(res, outcome.answer, method, (x?.live ?? deps.live.current).ws, tap);
          }
          publishTrace(outcome);
          if (x === undefined) return;
          // a fault, dribble or stream is still being written: its exchange is captured once the connection is done with it
          if (outcome.answer.delivery === undefined)
            afterWrite(x, { kind: 'dispatch', response: outcome.answer, outcome });
          else res.once('close', () => afterWrite(x, { kind: 'dispatch', response: outcome.answer, outcome }));
        };

  /**
   * The commit point (dispatch/commit.ts): an answer that changes state makes its changes now, right before it is
   * written, and is then written as the changes left it (a persisted collection's change once it is on disk). An
   * answer whose client left changes nothing.
   */
  const write = (res: ServerResponse, method: string, outcome: Outcome, x: InFlight | undefined): void => {
    if (outcome.state === undefined && outcome.writes === undefined) return writeNow(res, method, outcome, x);
    if (res.destroyed || res.writableEnded) return;
    const committed = commitOutcome(outcome, (draft) =>
      finalize(draft, x?.snapshot ?? snapshotOf(res.req), deps.live.current.ws.cors),
    );
    if (!(committed instanceof Promise)) return writeNow(res, method, committed, x);
    committed.then(
      (o) => writeNow(res, method, o, x),
      (e: unknown) => fail(res.req, res, e),
    );
  };

  const fail = (req: IncomingMessage, res: ServerResponse, e: unknown): void => {
    deps.log(LISTENER_MESSAGES.handlerFailed(e instanceof Error ? e.message : String(e)));
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    try {
      refuse(req, res, deps.live.current, 500, LISTENER_MESSAGES.internalError);
    } catch {
      res.destroy();
    }
  };

  // One shared listener for every response (no closure per request). Node detaches the response's socket before
  // 'close', but its request keeps it; nothing is added to Node's objects (an extra property would change their
  // hidden class, and every internal function that handles them would see one more shape).
  function onResponseClose(this: ServerResponse): void {
    deps.activity.end(this.req.socket);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    deps.activity.begin(socket);
    res.on('close', onResponseClose);
    try {
      watchFailure(req, res, handle(req, res));
    } catch (e) {
      fail(req, res, e);
    }
  };

  return {
    onRequest,
    onCheckContinue(req, res) {
      if (req.method !== 'OPTIONS' && !exceedsDeclared(req, deps.live.current.cap)) {
        try {
          res.writeContinue();
        } catch {
          // the socket is gone; the request below notices
        }
      }
      onRequest(req, res);
    },
    close() {
      for (const [timer, wake] of sleeping) {
        clearTimeout(timer);
        wake();
      }
      sleeping.clear();
    },
  };
}

/** A 413 as the afterWrite hooks see it: the declared length when it is a number (the body is never read). */
function refusedSent(req: IncomingMessage, answer: Answer): Sent {
  const declared = Number(req.headers['content-length']);
  return { kind: 'refused', response: answer, ...(Number.isSafeInteger(declared) ? { declaredLength: declared } : {}) };
}

function parsesAsJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The request as dispatch sees it; without `body` it has none (OPTIONS, refusals). */
export function snapshotOf(req: IncomingMessage, body?: Uint8Array): RequestSnapshot {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const headers = req.rawHeaders;
  const httpVersion = req.httpVersion;
  // two literals rather than a spread: this runs for every request
  return snapshotFrom(
    body === undefined ? { method, target, headers, httpVersion } : { method, target, headers, body, httpVersion },
  );
}
