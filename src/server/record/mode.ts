// Record mode in the server: a request hook (server/hooks.ts) on the outcome. A `miss`, and a POST, PUT, DELETE or
// PATCH that a file would answer (plan.ts WRITE_METHODS), is forwarded to the target
// (proxy.ts), recorded (recorder.ts) and then answered with the upstream's answer; a `prefix_miss` is answered
// as usual (a recording there could never be served) and logged once per path; every other outcome passes on
// untouched. Created only when `--record` is given: without it the hook is not in the listener's chain. A
// proxied answer is handed to the afterWrite hooks (the journal) once written, as the listener does its own.
//
// Order for a whole answer: record first (a saved rule is followed by a reload of the live workspace), then
// write the answer, so the client's next request is answered from the recording. A streamed answer (over the
// cap) is written first and never saved. A failed forward is a 502 naming the error; nothing is written.
//
// Headers: the upstream's end-to-end headers, with its `access-control-*` and `vary` replaced by mock's own
// CORS headers (as finalize gives every answer), and mock's `cache-control` / `x-content-type-options` when the
// upstream sent none, so a browser app sees the same headers while recording as on replay.
//
// Leaves out: planning (record/plan.ts), writing files and rules (recorder.ts and the injected CommitRule).
//
// Record mode has two homes on purpose: server/record/ is its I/O half, inside the server because it is one of the
// listener's request hooks (server/hooks.ts) and writes to the server's sockets; record/ is its pure half, which the CLI's
// flag checks use too. One folder would import server/ while server/ imports it, a cycle the import table forbids.
import type { ServerResponse } from 'node:http';
import type { Outcome } from '../../dispatch/dispatch.js';
import { corsHeaders, DEFAULT_HEADERS, finalize } from '../../dispatch/finalize.js';
import { textDraft } from '../../dispatch/respond.js';
import type { RequestSnapshot } from '../../model/request.js';
import type { Workspace } from '../../model/workspace.js';
import type { CommitRule } from '../../record/commit-port.js';
import { MAX_SAVED_BODY_BYTES, WRITE_METHODS } from '../../record/plan.js';
import { forwardedPath, type RecordTarget } from '../../record/target.js';
import type { HeaderList } from '../../shared/headers.js';
import type { InFlight, NextStep, RequestHook, StreamOpen, WrittenStep } from '../hooks.js';
import { createProxyClient, recordResponseOf, type ProxyResult } from './proxy.js';
import { captureStream, streamFormatOf } from './stream-capture.js';
import { createRecorder, type Saved } from './recorder.js';
import { writeProxied } from './respond.js';
import type { WsRecorder } from './websocket.js';

export interface RecordSettings {
  readonly target: RecordTarget;
  /** HTTPS: do not verify the target's certificate */
  readonly insecure: boolean;
  readonly dryRun: boolean;
  /** `--record-header` names */
  readonly keepHeaders: readonly string[];
  /** absolute, inside the config directory */
  readonly fallbackDir: string;
  readonly commitRule: CommitRule;
  readonly connectTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
}

export interface RecordHooks {
  readonly log: (line: string) => void;
  /** reload the live workspace (after a saved rule) */
  readonly reload: () => Promise<unknown>;
}

export interface RecordMode extends RequestHook {
  /** on the outcome: a miss is proxied; anything else goes on to `next` as usual */
  readonly onOutcome: NonNullable<RequestHook['onOutcome']>;
  /** close idle upstream connections; resolves once pending recordings are done */
  close(): Promise<void>;
}

export const RECORD_MODE_MESSAGES = {
  prefixMiss: (method: string, path: string) =>
    `not proxied: ${method} ${path} — a rule set's url_path_prefix claims this path, so a recording there could never be served (said once per path)`,
  failed: (request: string, reason: string) => `not saved: ${request} — the target failed: ${reason}`,
  notForwarded: (request: string, reason: string) => `not forwarded: ${request} — ${reason}; answered 400`,
} as const;

/** What a proxied request needs of its record mode. */
interface Recording {
  readonly s: RecordSettings;
  readonly hooks: RecordHooks;
  readonly client: ReturnType<typeof createProxyClient>;
  readonly recorder: ReturnType<typeof createRecorder>;
  /** the target as the log and the journal show it */
  readonly targetShown: string;
}

export function createRecordMode(s: RecordSettings, hooks: RecordHooks): RecordMode {
  const client = createProxyClient({
    target: s.target,
    insecure: s.insecure,
    ...(s.connectTimeoutMs !== undefined ? { connectTimeoutMs: s.connectTimeoutMs } : {}),
    ...(s.totalTimeoutMs !== undefined ? { totalTimeoutMs: s.totalTimeoutMs } : {}),
  });
  const recorder = createRecorder({
    fallbackDir: s.fallbackDir,
    dryRun: s.dryRun,
    commitRule: s.commitRule,
    keepHeaders: s.keepHeaders,
    upstream: s.target.origin + s.target.basePath,
  });
  const m: Recording = { s, hooks, client, recorder, targetShown: s.target.origin + s.target.basePath };
  const prefixMissesSaid = new Set<string>();
  let ws: Promise<WsRecorder> | undefined;

  return {
    name: 'record',
    onOutcome(outcome: Outcome, x: InFlight, next: NextStep, written: WrittenStep, streamed: StreamOpen) {
      const stage = outcome.stage;
      if (stage.kind === 'miss') return proxy(m, outcome, x, next, written, streamed);
      // a file answers every method: a write it would swallow goes to the target and is saved as a method rule
      if (stage.kind === 'fallback' && WRITE_METHODS.has(x.snapshot.method.toUpperCase()))
        return proxy(m, outcome, x, next, written, streamed);
      if (stage.kind === 'prefix_miss') {
        if (!prefixMissesSaid.has(x.snapshot.path)) {
          prefixMissesSaid.add(x.snapshot.path);
          hooks.log(RECORD_MODE_MESSAGES.prefixMiss(x.snapshot.method, x.snapshot.path));
        }
      }
      return next(outcome);
    },
    onUpgrade(req, socket, head, snapshot, wss) {
      // loaded on the first upgrade: a recording without WebSocket never loads it
      ws ??= import('./websocket.js').then((w) =>
        w.createWsRecorder({
          target: s.target,
          insecure: s.insecure,
          dryRun: s.dryRun,
          fallbackDir: s.fallbackDir,
          commitRule: s.commitRule,
          ...(s.connectTimeoutMs !== undefined ? { connectTimeoutMs: s.connectTimeoutMs } : {}),
          log: hooks.log,
          reload: hooks.reload,
        }),
      );
      ws.then(
        (r) => r.pass(req, socket, head, snapshot, wss),
        () => socket.destroy(),
      );
      return true;
    },
    async close() {
      await recorder.idle();
      client.close();
    },
  };
}

/** A request forwarded to the target, its answer written and recorded, then handed to the afterWrite hooks. */
async function proxy(
  m: Recording,
  outcome: Outcome,
  x: InFlight,
  next: NextStep,
  written: WrittenStep,
  opened: StreamOpen,
): Promise<void> {
  const { snapshot } = x;
  const path = forwardedPath(snapshot.rawPath, m.s.target.basePath);
  if (!path.ok) {
    // answered as mock answers, by the listener: nothing reaches the upstream and nothing is saved
    m.hooks.log(RECORD_MODE_MESSAGES.notForwarded(requestShown(snapshot), path.error));
    const draft = textDraft(400, `mock: not forwarded to ${m.targetShown}: ${path.error}\n`);
    await next({ ...outcome, answer: finalize(draft, snapshot, x.live.ws.cors) });
    return;
  }
  const result = await m.client.forward({
    method: snapshot.method,
    rawPath: path.value,
    query: snapshot.query,
    headers: snapshot.headers,
    ...(x.body.byteLength > 0 ? { body: x.body } : {}),
  });
  const headers = withMockHeaders(result.headers, snapshot, x.live.ws);
  const kept =
    result.kind === 'stream' && result.live === true
      ? await passStream(m, result, headers, outcome, x, opened)
      : await passWhole(m, result, headers, snapshot, x.live.ws.deny, x.res);
  written(x, {
    kind: 'proxied',
    response: {
      status: result.status,
      headers,
      body: result.kind === 'stream' ? (kept.streamed ?? new Uint8Array(0)) : result.body,
    },
    outcome,
    target: m.targetShown,
    saved: savedShown(kept.saved),
  });
}

/** what a proxied answer left: the recording saved, and a live stream's events as they were passed on */
interface Kept {
  readonly saved?: Saved | undefined;
  readonly streamed?: Uint8Array | undefined;
}

/** An event stream: passed on live, saved as a stream file once the upstream ends it (stream-capture.ts). */
async function passStream(
  m: Recording,
  result: Extract<ProxyResult, { kind: 'stream' }>,
  headers: HeaderList,
  outcome: Outcome,
  x: InFlight,
  opened: StreamOpen,
): Promise<Kept> {
  const contentType = result.headers.find(([k]) => k === 'content-type')?.[1];
  const capture = captureStream(result.rest, streamFormatOf(contentType), MAX_SAVED_BODY_BYTES);
  // the journal (the inspector) hears each chunk as it is passed on, not only once the stream has ended
  const tap = opened(x, {
    kind: 'proxied',
    response: { status: result.status, headers, body: EMPTY },
    outcome,
    target: m.targetShown,
    saved: null,
  });
  if (tap !== undefined) result.rest.on('data', (chunk: Buffer) => tap(chunk));
  send(x.res, { ...result, headers });
  const events = await capture;
  const response =
    events === undefined ? recordResponseOf(result)! : { status: result.status, headers: result.headers, body: events };
  const recorded = await m.recorder.record({ request: x.snapshot, response }, x.live.ws.deny);
  logAll(m, recorded.lines);
  if (recorded.saved?.kind === 'rule') await m.hooks.reload().catch(() => undefined);
  return { saved: recorded.saved, streamed: events?.kind === 'events' ? events.bytes : undefined };
}

/**
 * A whole answer is recorded first (a saved rule is followed by a reload), then written, so the client's next
 * request is answered from the recording; a stream over the cap is written first and never saved as a rule; a
 * failed forward is written as the 502 it is, and nothing is saved.
 */
async function passWhole(
  m: Recording,
  result: ProxyResult,
  headers: HeaderList,
  snapshot: RequestSnapshot,
  deny: Workspace['deny'],
  res: ServerResponse,
): Promise<Kept> {
  if (result.kind === 'failed') {
    m.hooks.log(RECORD_MODE_MESSAGES.failed(requestShown(snapshot), result.error));
    send(res, { ...result, headers });
    return {};
  }
  if (result.kind === 'stream') {
    send(res, { ...result, headers });
    logAll(m, (await m.recorder.record({ request: snapshot, response: recordResponseOf(result)! }, deny)).lines);
    return {};
  }
  const recorded = await m.recorder.record({ request: snapshot, response: recordResponseOf(result)! }, deny);
  logAll(m, recorded.lines);
  if (recorded.saved?.kind === 'rule') await m.hooks.reload().catch(() => undefined);
  send(res, { ...result, headers });
  return { saved: recorded.saved };
}

function logAll(m: Recording, lines: readonly string[]): void {
  for (const l of lines) m.hooks.log(l);
}

const EMPTY = new Uint8Array(0);

function send(res: ServerResponse, result: ProxyResult): void {
  if (res.destroyed || res.writableEnded) {
    if (result.kind === 'stream') result.rest.destroy();
    return;
  }
  // a client that leaves mid-stream ends the upstream read too
  if (result.kind === 'stream') res.once('close', () => result.rest.destroy());
  writeProxied(res, result);
}

/** `api/users.json`, `mock-recorded.toml#3` (its body file after a space), or null: nothing saved. */
function savedShown(saved: Saved | undefined): string | null {
  if (saved === undefined) return null;
  if (saved.kind === 'file') return saved.file;
  return `${saved.ruleSet}#${saved.ruleNumber}${saved.file === undefined ? '' : ' ' + saved.file}`;
}

function requestShown(r: RequestSnapshot): string {
  return `${r.method} ${r.rawPath}${r.query === '' ? '' : '?' + r.query}`;
}

const REPLACED = (name: string): boolean => name.startsWith('access-control-') || name === 'vary';
const ADDED_UNLESS_SENT = DEFAULT_HEADERS.filter(([k]) => k === 'cache-control' || k === 'x-content-type-options');

/** The upstream's headers with mock's CORS headers in place of its own (see the header comment). */
export function withMockHeaders(upstream: HeaderList, req: RequestSnapshot, ws: Workspace): HeaderList {
  const out: [string, string][] = [];
  for (const [k, v] of upstream) if (!REPLACED(k)) out.push([k, v]);
  for (const [k, v] of ADDED_UNLESS_SENT) if (!out.some(([n]) => n === k)) out.push([k, v]);
  for (const [k, v] of DEFAULT_HEADERS) if (k.startsWith('access-control-')) out.push([k, v]);
  for (const [k, v] of corsHeaders(req, ws.cors)) out.push([k, v]);
  return out;
}
