// Reading a request body under service.max_request_body_bytes (SPEC 7, 8).
//
// A declared Content-Length over the cap is refused from the header alone, before a byte of the body is read.
// Otherwise bytes are counted as they arrive (chunked uploads included) and collecting stops the moment the
// count passes the cap: what was gathered is dropped, and whatever still arrives is discarded unread until the
// connection closes (see linger.ts), so refusing a huge upload never holds more than the cap.
// A body of exactly the cap is accepted.
import type { IncomingMessage } from 'node:http';
import type { BodyReader, SocketActivity } from './activity.js';

export type BodyRead =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array }
  | { readonly kind: 'too_large' }
  /** the client went away (or the stream failed) before the body ended */
  | { readonly kind: 'aborted' }
  /** the parser refused the rest of the body (bad chunk framing, request timeout): answer `status` */
  | { readonly kind: 'malformed'; readonly status: number };

const EMPTY = new Uint8Array(0);

/** The declared Content-Length, when it is one plain decimal number (Node has already refused malformed ones). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

export function exceedsDeclared(req: IncomingMessage, cap: number): boolean {
  const declared = declaredLength(req);
  return declared !== undefined && declared > cap;
}

/** the collector reading a request's body, found by the listeners below (shared: no closure per request) */
const COLLECTOR = Symbol('bodyCollector');
type Collecting = IncomingMessage & { [COLLECTOR]?: BodyCollector<unknown> };

const ABORTED: BodyRead = Object.freeze({ kind: 'aborted' });
const TOO_LARGE: BodyRead = Object.freeze({ kind: 'too_large' });

/**
 * Read `req`'s body under `cap`, then call `done(ctx, result)` once: at once when the result is known from the
 * headers alone, otherwise from the request's events (callbacks rather than a promise: this is on the path of
 * every request with a body). While the body is being read the request is registered with `activity`, so a
 * parser failure mid-body (bad chunk framing, a request timeout) ends this read with `malformed` and its status.
 */
export function readBody<C>(
  req: IncomingMessage,
  cap: number,
  ctx: C,
  done: (ctx: C, result: BodyRead) => void,
  activity?: SocketActivity,
): void {
  if (exceedsDeclared(req, cap)) return done(ctx, TOO_LARGE);
  if (req.complete && req.readableEnded) return done(ctx, { kind: 'ok', bytes: EMPTY });
  const collector = new BodyCollector(req, cap, ctx, done, activity);
  (req as Collecting)[COLLECTOR] = collector as BodyCollector<unknown>;
  activity?.readingBody(collector.socket, collector);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
}

function onData(this: Collecting, chunk: Buffer): void {
  this[COLLECTOR]?.data(chunk);
}
function onEnd(this: Collecting): void {
  this[COLLECTOR]?.end();
}
function onError(this: Collecting): void {
  this[COLLECTOR]?.finish(ABORTED);
}
function onClose(this: Collecting): void {
  if (!this.complete) this[COLLECTOR]?.finish(ABORTED);
}

class BodyCollector<C> implements BodyReader {
  // Chunks are kept as they come and joined once at the end: nothing is allocated up front for a length the
  // client merely declared.
  private chunks: Buffer[] = [];
  private total = 0;
  private settled = false;
  readonly socket: object;

  constructor(
    private readonly req: IncomingMessage,
    private readonly cap: number,
    private readonly ctx: C,
    private readonly done: (ctx: C, result: BodyRead) => void,
    private readonly activity: SocketActivity | undefined,
  ) {
    this.socket = req.socket;
  }

  data(chunk: Buffer): void {
    if (this.settled) return;
    this.total += chunk.length;
    if (this.total > this.cap) this.finish(TOO_LARGE);
    else this.chunks.push(chunk);
  }

  end(): void {
    if (this.settled) return;
    const { chunks, total } = this;
    const bytes = total === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
    this.finish({ kind: 'ok', bytes });
  }

  /** The parser failed mid-body: this request answers `status`. False when the body had already ended. */
  interrupt(status: number): boolean {
    if (this.req.complete) return false;
    this.finish({ kind: 'malformed', status });
    return true;
  }

  finish(result: BodyRead): void {
    if (this.settled) return;
    this.settled = true;
    this.chunks = [];
    this.activity?.doneReading(this.socket, this);
    // The listeners stay (they do nothing once settled): removing four is a cost on every request with a body.
    // The rest of a refused body is read and thrown away, never kept.
    if (result.kind === 'too_large') this.req.resume();
    this.done(this.ctx, result);
  }
}
