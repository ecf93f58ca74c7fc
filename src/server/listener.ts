// One request through the server: (req, res) → read the live workspace once (server/live.ts: that LiveState
// serves the request to its end, body cap, dispatch, delay and log, even if a reload swaps it meanwhile) →
// OPTIONS first (before the body and before the size cap) →
// read the body under the cap (413 before buffering) → snapshotFrom → request log → dispatch → sleep
// answer.delayMs (a timer, never blocking) → write status, headers and body in one go → trace event.
//
// The first answer made in an event-loop turn is written at once; the others made in the same turn are written
// together at its end (setImmediate), not one by one as each request is handled. The client, woken by the first,
// is still busy reading when the rest arrive, instead of going back to sleep between them and being woken by
// each write (a wake-up costs the writing server more than the write itself: +15 % requests a second on a small
// rule answer under 50 connections in paired runs, and a lone client is answered as soon as before). The order
// on a connection is node:http's: pipelined answers go out in request order whenever they are written. An answer
// that had to wait (a file request waits for the end of the poll phase it arrived in) is written when it is made:
// those are released together already.
//
// With a journal (ListenerDeps.journal), dispatch runs with `{ explain: true }` and each exchange (dispatch answers,
// 413 refusals) is captured right after its last byte is handed to the socket, with the generation it was served
// under and that very explanation. Without one, the same functions run with no per-request work added: the choice
// is made once, here, not per request.
//
// A handler failure never reaches the process: it is logged and answered 500 once. A client that goes away
// mid-body is dropped quietly.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { DispatchEnv, Outcome } from '../dispatch/dispatch.js';
import type { Journal } from '../journal/journal.js';
import { finalize } from '../dispatch/finalize.js';
import { textDraft } from '../dispatch/respond.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { chain, type Maybe } from '../shared/maybe.js';
import type { SocketActivity } from './activity.js';
import { exceedsDeclared, readBody, type BodyRead } from './body.js';
import type { ShownPaths } from '../dispatch/explain-view.js';
import type { LiveState } from './live.js';
import { requestLines, requestLogLines } from './log.js';
import type { RecordMode } from './record/mode.js';
import { publishTrace } from './trace.js';
import { writeAnswer } from './write.js';
import { sendAnswer } from './deliver-call.js';

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
  readonly live: LiveState;
}

export type DispatchFunction = (ws: Workspace, req: RequestSnapshot, env: DispatchEnv, opts?: { readonly explain?: boolean }) => Maybe<Outcome>;

export interface ListenerDeps {
  /** `current` is read once per request (a LiveWorkspace, or any holder of one LiveState) */
  readonly live: { readonly current: LiveState };
  readonly env: DispatchEnv;
  readonly dispatch: DispatchFunction;
  readonly log: (line: string) => void;
  readonly now: () => Date;
  readonly activity: SocketActivity;
  /** records every exchange (the inspector, the library); absent: nothing is recorded, at no cost */
  readonly journal?: Journal;
  /** how a workspace's files are named in the journal's explanations (as `get` names them); asked once per workspace */
  readonly shownPaths?: (ws: Workspace) => ShownPaths;
  /** `--record`: misses are proxied to the target and saved (server/record/mode.ts); without it, no added work */
  readonly record?: RecordMode;
}

export const LISTENER_MESSAGES = {
  tooLarge: (limit: number) => `request body exceeds the configured limit (${limit} bytes)`,
  versionNotSupported: 'HTTP version not supported',
  internalError: 'internal server error',
  handlerFailed: (reason: string) => `request handling failed: ${reason}`,
} as const;

export interface RequestListener {
  readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  /** `Expect: 100-continue`: no 100 for a body that will be refused, nor for OPTIONS (whose body is never read). */
  readonly onCheckContinue: (req: IncomingMessage, res: ServerResponse) => void;
  /** Release pending response delays (server shutdown). */
  readonly close: () => void;
}

const EXPLAIN = Object.freeze({ explain: true });
const NO_EXPLAIN = Object.freeze({});
const NO_PATHS: ShownPaths = Object.freeze({ ruleSet: (i: number) => `#${i + 1}`, middleware: (i: number) => `#${i + 1}` });

export function createListener(deps: ListenerDeps): RequestListener {
  const journal = deps.journal;
  const dispatchOpts = journal === undefined ? NO_EXPLAIN : EXPLAIN;
  /** what each request being answered arrived with, for its capture (with a journal only) */
  const arrivals = new WeakMap<ServerResponse, { readonly receivedAt: Date; readonly snapshot: RequestSnapshot; readonly bytes: Uint8Array }>();
  const shownByWs = new WeakMap<Workspace, ShownPaths>();
  const shownFor = (ws: Workspace): ShownPaths => {
    let shown = shownByWs.get(ws);
    if (shown === undefined) shownByWs.set(ws, (shown = deps.shownPaths?.(ws) ?? NO_PATHS));
    return shown;
  };
  const sleeping = new Map<NodeJS.Timeout, () => void>();
  const record = deps.record;

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
  const refuse = (req: IncomingMessage, res: ServerResponse, live: LiveState, status: number, text: string): void => {
    const answer = finalize(textDraft(status, text), snapshotOf(req), live.ws.cors);
    writeAnswer(res, answer, req.method ?? 'GET', { close: true, log: deps.log });
  };

  // One request, synchronous as far as it can go: a bodyless request answered from rules or remembered files is
  // written in the same turn it arrived in, without a promise.
  const handle = (req: IncomingMessage, res: ServerResponse): Maybe<void> => {
    const receivedAt = deps.now();
    const live = deps.live.current;
    const method = req.method ?? 'GET';
    if (req.httpVersionMajor !== 1) return refuse(req, res, live, 505, LISTENER_MESSAGES.versionNotSupported);
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
      const pending = afterBody(p.req, p.res, p.method, p.receivedAt, p.live, body);
      if (pending instanceof Promise) pending.catch((e: unknown) => fail(p.req, p.res, e));
    } catch (e) {
      fail(p.req, p.res, e);
    }
  };

  // Answered before the body is read; a body too big to skip cheaply closes the connection instead.
  const answerOptions = (req: IncomingMessage, res: ServerResponse, live: LiveState, receivedAt: Date): Maybe<void> => {
    const snapshot = snapshotOf(req);
    return chain(deps.dispatch(live.ws, snapshot, deps.env, dispatchOpts), (outcome) => {
      writeAnswer(res, outcome.answer, 'OPTIONS', { close: exceedsDeclared(req, live.cap), log: deps.log });
      if (journal !== undefined) captureDispatched(journal, res, receivedAt, snapshot, EMPTY, outcome, live);
    });
  };

  const afterBody = (req: IncomingMessage, res: ServerResponse, method: string, receivedAt: Date, live: LiveState, body: BodyRead): Maybe<void> => {
    switch (body.kind) {
      case 'aborted':
        res.destroy();
        return;
      case 'too_large':
        refuse(req, res, live, 413, LISTENER_MESSAGES.tooLarge(live.cap));
        if (journal !== undefined) captureRefused(journal, req, res, receivedAt, live);
        return;
      case 'malformed':
        return refuse(req, res, live, body.status, (STATUS_CODES[body.status] ?? 'bad request').toLowerCase());
      case 'ok':
        break;
    }
    const snapshot = snapshotOf(req, body.bytes);
    if (snapshot.body.kind !== 'invalid_json') {
      const verbose = live.verbose;
      if (!verbose.header && !verbose.body) {
        deps.log(requestLines(snapshot, receivedAt));
      } else for (const line of requestLogLines(snapshot, receivedAt, verbose)) deps.log(line);
    }
    if (journal !== undefined) arrivals.set(res, { receivedAt, snapshot, bytes: body.bytes });
    const outcome = deps.dispatch(live.ws, snapshot, deps.env, dispatchOpts);
    if (record !== undefined) {
      const x = { req, res, snapshot, body: body.bytes, live, receivedAt, journal };
      return record.route(outcome, x, (o) => answerAfterDelay(res, method, o, live));
    }
    return outcome instanceof Promise ? answerLater(res, method, outcome, live) : answerAfterDelay(res, method, outcome, live);
  };

  // An answer that waited (for the file gate, a read, a script) is written as soon as it is made: those come in
  // bursts already (every file request of a turn is released together after its poll phase), and holding them
  // for the end of the next turn only delays them (2-3 % fewer requests a second on a small file, paired runs).
  const answerLater = (res: ServerResponse, method: string, outcome: Promise<Outcome>, live: LiveState): Promise<void> =>
    outcome.then((o) => (o.answer.delayMs > 0 ? answerAfter(o.answer.delayMs, res, method, o, live) : write(res, method, o, live)));

  const answerAfterDelay = (res: ServerResponse, method: string, outcome: Outcome, live: LiveState): Maybe<void> => {
    const delay = outcome.answer.delayMs;
    if (delay > 0) return answerAfter(delay, res, method, outcome, live);
    answer(res, method, outcome, live);
  };

  const answerAfter = (delay: number, res: ServerResponse, method: string, outcome: Outcome, live: LiveState): Promise<void> =>
    sleep(delay).then(() => answer(res, method, outcome, live));

  // Whether an answer was written in this turn already, and the answers made after it, in order.
  let turnOpen = false;
  let ready: ReadyAnswer[] = [];
  const endTurn = (): void => {
    turnOpen = false;
    const batch = ready;
    if (batch.length === 0) return;
    ready = [];
    for (const { res, method, outcome, live } of batch) {
      try {
        write(res, method, outcome, live);
      } catch (e) {
        fail(res.req, res, e);
      }
    }
  };

  const answer = (res: ServerResponse, method: string, outcome: Outcome, live: LiveState): void => {
    if (turnOpen) {
      ready.push({ res, method, outcome, live });
      return;
    }
    turnOpen = true;
    setImmediate(endTurn);
    write(res, method, outcome, live);
  };

  /**
   * Writes the answer unless the response is gone or done (a client that left, a timeout's answer). `live` is
   * what the request was served under (its workspace and generation), for whatever records the exchange.
   */
  const write =
    journal === undefined
      ? (res: ServerResponse, method: string, outcome: Outcome, live: LiveState): void => {
          if (res.destroyed || res.writableEnded) return;
          sendAnswer(res, outcome.answer, method, deps.log, live);
          publishTrace(outcome);
        }
      : (res: ServerResponse, method: string, outcome: Outcome, live: LiveState): void => {
          if (res.destroyed || res.writableEnded) return;
          sendAnswer(res, outcome.answer, method, deps.log, live);
          publishTrace(outcome);
          const arrived = arrivals.get(res);
          if (arrived !== undefined) captureDispatched(journal, res, arrived.receivedAt, arrived.snapshot, arrived.bytes, outcome, live);
        };

  /** The exchange, once its last byte is written: the very Outcome answered, under the request's own generation. */
  const captureDispatched = (j: Journal, res: ServerResponse, receivedAt: Date, snapshot: RequestSnapshot, bytes: Uint8Array, outcome: Outcome, live: LiveState): void => {
    j.capture({
      receivedAt,
      generation: live.generation,
      request: { snapshot, target: res.req.url ?? '/', body: bytes },
      response: { status: outcome.answer.status, headers: outcome.answer.headers, body: outcome.answer.body },
      answerer: { kind: 'dispatch', outcome, context: { ws: live.ws, shown: shownFor(live.ws) } },
    });
  };

  const captureRefused = (j: Journal, req: IncomingMessage, res: ServerResponse, receivedAt: Date, live: LiveState): void => {
    const declared = Number(req.headers['content-length']);
    const answer = finalize(textDraft(413, LISTENER_MESSAGES.tooLarge(live.cap)), snapshotOf(req), live.ws.cors);
    j.capture({
      receivedAt,
      generation: live.generation,
      request: { snapshot: snapshotOf(req), target: req.url ?? '/', body: EMPTY, ...(Number.isSafeInteger(declared) ? { byteLength: declared } : {}) },
      response: { status: res.statusCode, headers: answer.headers, body: answer.body },
      answerer: { kind: 'refused' },
    });
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
      const pending = handle(req, res);
      if (pending instanceof Promise) pending.catch((e: unknown) => fail(req, res, e));
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

/** The request as dispatch sees it; without `body` it has none (OPTIONS, refusals). */
export function snapshotOf(req: IncomingMessage, body?: Uint8Array): RequestSnapshot {
  return snapshotFrom({
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    headers: req.rawHeaders,
    ...(body !== undefined ? { body } : {}),
    httpVersion: req.httpVersion,
  });
}
