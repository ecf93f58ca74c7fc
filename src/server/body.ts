// Reading a request body under service.max_request_body_bytes (docs/https-and-limits.md).
//
// A declared Content-Length over the cap is refused from the header alone, before a byte of the body is read;
// so is a chunk whose size line declares more than the cap allows (chunk-sizes.ts follows the size lines).
// Otherwise bytes are counted as they arrive (chunked uploads included) and collecting stops the moment the
// count passes the cap: what was gathered is dropped, and whatever still arrives is discarded unread until the
// connection closes (see linger.ts), so refusing a huge upload never holds more than the cap.
// A body of exactly the cap is accepted.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { BodyReader, SocketActivity } from './activity.js';
import { bodyStartIn, ChunkSizeFollower } from './chunk-sizes.js';

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
  if (req.headers['transfer-encoding'] !== undefined) followChunkSizes(req, cap, collector as BodyCollector<unknown>);
}

/** Node's HTTP parser, as it hangs on the socket: the bytes it is reading right now. */
type ParsedSocket = Socket & { parser?: { getCurrentBuffer?: () => Buffer } | null };

/**
 * A chunked body: refuse it as soon as a size line declares more than the cap allows. The size lines are read
 * from the raw bytes: first the packet the parser is reading now (the request's head ends in it, and the body
 * may start there), then every later packet of the connection until the body ends. Reading the socket's bytes
 * in JavaScript takes the connection off Node's native read path, so only a chunked request pays for it.
 */
function followChunkSizes(req: IncomingMessage, cap: number, collector: BodyCollector<unknown>): void {
  const socket = req.socket as ParsedSocket;
  const packet = socket.parser?.getCurrentBuffer?.();
  if (packet === undefined) return;
  const names: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) names.push(req.rawHeaders[i]!);
  const start = bodyStartIn(packet, `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`, names);
  if (start === undefined) return;
  const follower = new ChunkSizeFollower(cap);
  const status = follower.feed(packet, start);
  if (status === 'too_large') return collector.finish(TOO_LARGE);
  if (status !== 'reading') return;
  const onSocketData = (chunk: Buffer): void => {
    const now = follower.feed(chunk);
    if (now === 'too_large') collector.finish(TOO_LARGE);
    else if (now !== 'reading') collector.stopFollowing();
  };
  collector.following = () => socket.removeListener('data', onSocketData);
  // Now, while the parser reads this packet: Node then hands every later packet to JavaScript, this listener
  // included (it does not see this packet again). Added any later, the socket would stall.
  socket.on('data', onSocketData);
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
  /** while the chunk-size lines are followed: stops following them */
  following: (() => void) | undefined;

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

  stopFollowing(): void {
    const stop = this.following;
    this.following = undefined;
    stop?.();
  }

  finish(result: BodyRead): void {
    if (this.settled) return;
    this.settled = true;
    this.chunks = [];
    if (this.following !== undefined) this.stopFollowing();
    this.activity?.doneReading(this.socket, this);
    // The listeners stay (they do nothing once settled): removing four is a cost on every request with a body.
    // The rest of a refused body is read and thrown away, never kept.
    if (result.kind === 'too_large') this.req.resume();
    this.done(this.ctx, result);
  }
}
