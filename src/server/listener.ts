// One request through the server: (req, res) → read the live workspace once (server/live.ts: that LiveState
// serves the request to its end, body cap, dispatch, delay and log, even if a reload swaps it meanwhile) →
// OPTIONS first (before the body and before the size cap) →
// read the body under the cap (413 before buffering) → snapshotFrom → request log → dispatch → sleep
// answer.delayMs (a timer, never blocking) → write status, headers and body in one go → trace event.
//
// In parts: this file reads the request (version, OPTIONS, body, log) and owns what every request shares (the
// timers, held connections, refusals, the failure answer); server/answer-paths.ts takes it from dispatch to the
// write, on the plain path or the hooked one, chosen once here; server/turn-writer.ts batches the answers of an
// event-loop turn; server/settle.ts is the value / Soon / promise split they all go through.
//
// Capabilities (the journal, record mode, …) join through the hooks of ListenerDeps.hooks (server/hooks.ts):
// before dispatch, on the outcome, after the last byte. They are composed once, here; with none, every request
// takes the plain path with no per-request work added, and a capability that is off is not in the list.
//
// A handler failure never reaches the process: it is logged and answered 500 once. A client that goes away
// mid-body is dropped quietly.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { CallbackSender } from '../callbacks/sender.js';
import type { DispatchEnv, Outcome } from '../dispatch/dispatch.js';
import { finalize } from '../dispatch/finalize.js';
import { textDraft } from '../dispatch/respond.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Answer } from '../model/answer.js';
import type { Workspace } from '../model/workspace.js';
import type { ValueOrPromise } from '../shared/value-or-promise.js';
import type { SocketActivity } from './activity.js';
import { exceedsDeclared, readBody, type BodyRead } from './body.js';
import { jsonShape, startsAsContainer } from './json-shape.js';
import { hookedPath, plainPath, snapshotOf, type AnswerPath, type ListenerCore } from './answer-paths.js';
import { composeHooks, type HookChain, type RequestHook } from './hooks.js';
import type { LiveState } from './live.js';
import { requestLines, requestLogLines } from './log.js';
import { watch } from './settle.js';
import { writeAnswer } from './write.js';

export { snapshotOf } from './answer-paths.js';

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
  /** sends the callbacks of the answers written (docs/callbacks.md); absent: none are sent */
  readonly callbacks?: CallbackSender;
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

/**
 * Why a body is refused before it is parsed: a JSON body too large in shape (docs/https-and-limits.md). Its shape is
 * read from its bytes in one pass; text that is not JSON at all is the client's error (400, later) whatever its
 * nesting, and only a body within the member limit is parsed to tell (JSON.parse does not recurse).
 */
function jsonOverLimit(bytes: Uint8Array, live: LiveState): string | undefined {
  // too short to be over either: each value counted takes a byte at least, and valid JSON nested d deep 2d bytes
  const { maxDepth, maxMembers } = live.jsonLimits;
  if (bytes.length <= maxMembers && bytes.length < 2 * (maxDepth + 1)) return undefined;
  if (!startsAsContainer(bytes)) return undefined;
  const shape = jsonShape(bytes, live.jsonLimits);
  if (shape.over === 'members') return LISTENER_MESSAGES.jsonTooMany(live.jsonLimits.maxMembers);
  if (shape.over === 'depth' && parsesAsJson(bytes)) return LISTENER_MESSAGES.jsonTooDeep(live.jsonLimits.maxDepth);
  return undefined;
}

function parsesAsJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    return true;
  } catch {
    return false;
  }
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
  const sleeping = new Map<NodeJS.Timeout, () => void>();
  const core = listenerCore(deps, hooks, sleeping);
  const path = hooks === undefined ? plainPath(core) : hookedPath(core, hooks);
  const read = createReader(core, path);
  const { fail } = core;

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
      watch(read(req, res), res, fail);
    } catch (e) {
      fail(res, e);
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

/** Answer `status` with a plain-text body and the full header set, then close the connection. */
function refuse(
  deps: ListenerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  live: LiveState,
  status: number,
  text: string,
): Answer {
  const answer = finalize(textDraft(status, text), snapshotOf(req), live.ws.cors);
  writeAnswer(res, answer, req.method ?? 'GET', { close: true, log: deps.log });
  return answer;
}

/** What every request shares, made once: the timers, held connections, the session env, the failure answer. */
function listenerCore(
  deps: ListenerDeps,
  hooks: HookChain | undefined,
  sleeping: Map<NodeJS.Timeout, () => void>,
): ListenerCore {
  const holds = deps.holds;
  const heldResponses = new WeakSet<ServerResponse>();
  const scopes = deps.scopes;
  const afterWrite = hooks?.afterWrite;
  return {
    deps,
    dispatchOpts: hooks?.explain === true ? EXPLAIN : NO_EXPLAIN,
    envOf: (req) => (scopes === undefined ? deps.env : scopes.header === undefined ? scopes.env : scopes.envFor(req)),
    fail: (res, e) => {
      deps.log(LISTENER_MESSAGES.handlerFailed(e instanceof Error ? e.message : String(e)));
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      try {
        refuse(deps, res.req, res, deps.live.current, 500, LISTENER_MESSAGES.internalError);
      } catch {
        res.destroy();
      }
    },
    holdFor: (res) => {
      if (holds === undefined || heldResponses.has(res)) return true;
      const socket = res.req.socket;
      if (!holds.hold(socket)) return false;
      heldResponses.add(res);
      res.once('close', () => holds.release(socket));
      return true;
    },
    refuseHeld: (res, x) => {
      const text = LISTENER_MESSAGES.tooManyHeld(holds?.limit ?? 0);
      const answer = refuse(deps, res.req, res, deps.live.current, 503, text);
      if (x !== undefined) afterWrite?.(x, { kind: 'refused', response: answer });
    },
    sleep: (ms) => {
      if (!(ms > 0)) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          sleeping.delete(timer);
          resolve();
        }, ms);
        sleeping.set(timer, resolve);
      });
    },
  };
}

/**
 * The request read, synchronous as far as it can go: a bodyless request answered from rules or remembered files is
 * written in the same turn it arrived in, without a promise.
 */
function createReader(
  core: ListenerCore,
  path: AnswerPath,
): (req: IncomingMessage, res: ServerResponse) => ValueOrPromise<void> {
  const { deps, fail } = core;
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
        const answer = refuse(deps, req, res, live, 413, LISTENER_MESSAGES.tooLarge(live.cap));
        return path.refused(req, res, method, receivedAt, live, answer);
      }
      case 'malformed': {
        const text = (STATUS_CODES[body.status] ?? 'bad request').toLowerCase();
        return void refuse(deps, req, res, live, body.status, text);
      }
      case 'ok':
        break;
    }
    const tooBig = jsonOverLimit(body.bytes, live);
    if (tooBig !== undefined) {
      const answer = refuse(deps, req, res, live, 413, tooBig);
      return path.refused(req, res, method, receivedAt, live, answer);
    }
    const snapshot = snapshotOf(req, body.bytes);
    if (snapshot.body.kind !== 'invalid_json') {
      const verbose = live.verbose;
      if (!verbose.header && !verbose.body) {
        deps.log(requestLines(snapshot, receivedAt));
      } else for (const line of requestLogLines(snapshot, receivedAt, verbose)) deps.log(line);
    }
    return path.dispatch(req, res, method, receivedAt, live, snapshot, body.bytes);
  };

  // The body is in (or refused): from the request's events, so a failure is caught here, not left to the emitter.
  // (Callbacks and a shared function rather than promises and closures: this is every request with a body.)
  const bodyRead = (p: Reading, body: BodyRead): void => {
    try {
      watch(afterBody(p.req, p.res, p.method, p.receivedAt, p.live, body), p.res, fail);
    } catch (e) {
      fail(p.res, e);
    }
  };

  return (req, res) => {
    const receivedAt = path.arrived();
    const live = deps.live.current;
    const method = req.method ?? 'GET';
    // HTTP/2 comes from the HTTP/2 engine only (its requests have a stream); `HTTP/2.0` on a request line is not it
    const major = req.httpVersionMajor;
    const stream = major === 2 ? (req as { stream?: { endAfterHeaders?: boolean } }).stream : undefined;
    if (major !== 1 && stream === undefined)
      return void refuse(deps, req, res, live, 505, LISTENER_MESSAGES.versionNotSupported);
    if (method === 'OPTIONS') return path.options(req, res, live, receivedAt);
    // HTTP/1.1 frames a request body only by Content-Length or Transfer-Encoding: a request with neither (or a
    // length of 0) has no body, so there is nothing to read. An HTTP/2 request has none when its headers ended
    // the stream (server/http2.ts).
    const h = req.headers;
    if (
      major === 1
        ? h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0')
        : stream?.endAfterHeaders === true
    ) {
      return afterBody(req, res, method, receivedAt, live, NO_BODY);
    }
    readBody(req, live.cap, { req, res, method, receivedAt, live }, bodyRead, deps.activity);
  };
}
