// The socket work of the answers that do not leave in one go (docs/faults.md): faults, dribbled bodies and
// streams. Dispatch decided what (Answer.delivery); this writes it, with its timing, to this one connection only
// (a fault never touches another socket, keep-alive ones included). Every timer stops when the client leaves.
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Answer, FaultKind, StreamEvent } from '../model/answer.js';
import { http2Fault, isHttp2 } from './http2-faults.js';

/** The timer functions and clock the writers use (injected by the tests). */
export interface Clock {
  readonly now: () => number;
  readonly setTimeout: (fn: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: unknown) => void;
}

export const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface DeliverOptions {
  /** how long a `timeout` fault holds its connection (ms) */
  readonly holdMs: number;
  readonly clock?: Clock;
  /** hears each event of a stream as it is written */
  readonly onEvent?: (bytes: Uint8Array) => void;
}

/** Node writes these itself from the keep-alive state */
const NODE_MANAGED = new Set(['connection', 'keep-alive']);

function flatHeaders(answer: Answer, drop?: string): string[] {
  const flat: string[] = [];
  for (const [name, value] of answer.headers) if (!NODE_MANAGED.has(name) && name !== drop) flat.push(name, value);
  return flat;
}

/** Writes an answer that has a `delivery`. */
export function deliver(res: ServerResponse, answer: Answer, method: string, opts: DeliverOptions): void {
  const d = answer.delivery;
  const clock = opts.clock ?? REAL_CLOCK;
  if (d === undefined) throw new Error('deliver: an answer without a delivery');
  switch (d.kind) {
    case 'fault':
      return fault(res, answer, d.fault, opts.holdMs, clock);
    case 'chunks': {
      res.writeHead(answer.status, flatHeaders(answer));
      if (method === 'HEAD' || answer.body.byteLength === 0) return void res.end();
      return play(res, bodyPieces(answer.body, d.count, d.intervalMs), clock);
    }
    case 'stream':
      // no content-length: node frames it chunked (HTTP/1.1) or closes at the end (HTTP/1.0)
      res.writeHead(answer.status, flatHeaders(answer, 'content-length'));
      if (method === 'HEAD') return void res.end();
      res.flushHeaders();
      return play(res, d.events, clock, opts.onEvent);
    case 'file':
      return sendFile(res, answer, d.path, d.size, method);
    case 'websocket':
      // not an upgrade (those never reach here, server/websocket/upgrade.ts): the answer as it is, 426
      res.writeHead(answer.status, flatHeaders(answer));
      return void res.end(method === 'HEAD' ? undefined : answer.body);
  }
}

/** the most a file being sent holds in memory for its connection, besides the socket's own buffer */
export const FILE_HIGH_WATER_BYTES = 64 * 1024;

/**
 * A large file from disk, as fast as the client takes it (docs/https-and-limits.md): read FILE_HIGH_WATER_BYTES
 * at a time, the next read only once the socket has taken the last (pipe), so a client that does not read holds
 * about one socket buffer and one read, and the read stream goes when the connection closes. The first `size`
 * bytes are sent, as announced: a file that has grown meanwhile is cut there, one that has shrunk ends the
 * connection (the client sees a short body, not a wrong one announced as whole).
 */
function sendFile(res: ServerResponse, answer: Answer, path: string, size: number, method: string): void {
  res.writeHead(answer.status, flatHeaders(answer));
  if (method === 'HEAD' || size === 0) return void res.end();
  const file = createReadStream(path, { start: 0, end: size - 1, highWaterMark: FILE_HIGH_WATER_BYTES });
  let sent = 0;
  file.on('data', (chunk) => (sent += chunk.length));
  file.once('error', () => res.destroy());
  // everything read was written by then (pipe writes each chunk as it is read)
  file.once('end', () => (sent < size ? res.destroy() : res.end()));
  res.once('close', () => file.destroy());
  file.pipe(res, { end: false });
}

/** `count` pieces of (nearly) equal size, the first at once, then `intervalMs` apart. */
export function splitBody(body: Uint8Array, count: number, intervalMs: number): StreamEvent[] {
  const pieces = bodyPieces(body, count, intervalMs);
  return Array.from({ length: pieces.length }, (_, i) => ({
    pauseMs: pieces.pauseMs(i),
    bytes: pieces.bytes(i, i + 1),
  }));
}

/** A stream's events by index, without an object per event: an array's, or a body's pieces (bodyPieces). */
export interface Events {
  readonly length: number;
  pauseMs(i: number): number;
  size(i: number): number;
  /** the bytes of events `from` to `to` (excluded), one after the other */
  bytes(from: number, to: number): Uint8Array;
}

/**
 * splitBody's pieces as Events: a body of many pieces costs no object per piece (60,000 pieces were 11 MiB per
 * request, kept while a client that does not read holds its connection), and pieces sent together are one view.
 */
export function bodyPieces(body: Uint8Array, count: number, intervalMs: number): Events {
  const total = body.byteLength;
  const n = Math.max(1, Math.min(count, total));
  const start = (i: number): number => Math.floor((i * total) / n);
  return {
    length: n,
    pauseMs: (i) => (i === 0 ? 0 : intervalMs),
    size: (i) => start(i + 1) - start(i),
    bytes: (from, to) => body.subarray(start(from), start(to)),
  };
}

function arrayEvents(events: readonly StreamEvent[]): Events {
  return {
    length: events.length,
    pauseMs: (i) => events[i]!.pauseMs,
    size: (i) => events[i]!.bytes.byteLength,
    bytes: (from, to) => (to - from === 1 ? events[from]!.bytes : joined(events, from, to)),
  };
}

/**
 * Events `from` to `to` in one piece: a view when they lie one after the other in one buffer (a stream file's
 * events are views into its shared body), else a copy.
 */
function joined(events: readonly StreamEvent[], from: number, to: number): Uint8Array {
  const first = events[from]!.bytes;
  let end = first.byteOffset + first.byteLength;
  for (let k = from + 1; k < to; k++) {
    const b = events[k]!.bytes;
    if (b.buffer !== first.buffer || b.byteOffset !== end)
      return Buffer.concat(events.slice(from, to).map((e) => e.bytes));
    end += b.byteLength;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}

const NO_EVENTS: Events = arrayEvents([]);

/**
 * The events on their schedule: each is due its pause after the previous one was due (not after it was sent),
 * so lateness does not add up. The response ends after the last; a client that leaves stops the timer.
 *
 * Back-pressure: when the socket's buffer is full (write() answers false) nothing more is written until it
 * drains, so a client that does not read holds at most about one high-water mark of the stream in memory, not
 * the whole of it; the schedule stands still meanwhile. Events due together leave in one write of at most
 * TURN_BYTES, and a turn writes no more than that to one stream: the kernel takes megabytes from a socket before
 * it reports it full, and tens of thousands of small writes in one turn kept every other connection waiting for
 * seconds. On close, the timer and the drain listener go and the events are let go.
 */
export function play(
  res: ServerResponse,
  events: readonly StreamEvent[] | Events,
  clock: Clock,
  onEvent?: (bytes: Uint8Array) => void,
): void {
  let left: Events = Array.isArray(events) ? arrayEvents(events as readonly StreamEvent[]) : (events as Events);
  let i = 0;
  let due = clock.now();
  /** whether `due` already includes events[i]'s pause */
  let scheduled = false;
  let timer: unknown;
  /** when the socket was last found full */
  let blockedAt = 0;
  const onDrain = (): void => {
    // the schedule stands still while the client does not read
    due += clock.now() - blockedAt;
    step();
  };
  const onClose = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    res.off('drain', onDrain);
    left = NO_EVENTS;
  };
  res.once('close', onClose);
  const step = (): void => {
    timer = undefined;
    if (res.destroyed || res.writableEnded) return;
    const from = i;
    const now = clock.now();
    let bytes = 0;
    while (i < left.length && bytes < TURN_BYTES) {
      if (!scheduled) {
        due += left.pauseMs(i);
        scheduled = true;
      }
      if (due > now) break;
      scheduled = false;
      bytes += left.size(i);
      i++;
    }
    let more = true;
    if (i > from) {
      if (onEvent !== undefined) for (let k = from; k < i; k++) onEvent(left.bytes(k, k + 1));
      more = res.write(left.bytes(from, i));
    }
    if (i >= left.length) {
      res.off('close', onClose);
      left = NO_EVENTS;
      res.end();
      return;
    }
    if (!more) {
      blockedAt = clock.now();
      res.once('drain', onDrain);
    } else if (bytes >= TURN_BYTES) timer = clock.setTimeout(step, 0);
    else timer = clock.setTimeout(step, Math.max(1, Math.ceil(due - now)));
  };
  step();
}

/** the most one turn writes to one stream */
export const TURN_BYTES = 256 * 1024;

/** the body sent before the cut when the answer has none to halve */
const FILLER = Buffer.from('x'.repeat(64));

/** the bytes WireMock 3 writes for MALFORMED_RESPONSE_CHUNK, then it closes */
const WIREMOCK_BAD_CHUNK = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlskdu018973t09sylgasjkfg1][]'./.sdlv";

function fault(res: ServerResponse, answer: Answer, kind: FaultKind, holdMs: number, clock: Clock): void {
  if (isHttp2(res)) return http2Fault(res, answer, kind, holdMs, clock, flatHeaders(answer, 'content-length'));
  const socket = res.socket;
  if (socket === null || socket.destroyed) return;
  switch (kind) {
    case 'connection_reset':
      return reset(socket);
    case 'empty_response':
      // FIN (and TLS close_notify) with nothing before it
      socket.end();
      return;
    case 'malformed_response': {
      // a chunked head, then a chunk size that is not hexadecimal
      const head = [
        `HTTP/1.1 ${answer.status} OK`,
        'content-type: text/plain',
        'transfer-encoding: chunked',
        '',
        '',
      ].join('\r\n');
      socket.write(head + 'zz-not-a-chunk\r\n\r\n');
      socket.end();
      return;
    }
    case 'malformed_chunk':
      // WireMock's MALFORMED_RESPONSE_CHUNK as it sends it (its status is always 200)
      socket.write(WIREMOCK_BAD_CHUNK);
      socket.end();
      return;
    case 'partial_body': {
      const body =
        answer.body.byteLength >= 2
          ? Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength)
          : FILLER;
      const headers = flatHeaders(answer, 'content-length');
      headers.push('content-length', String(body.byteLength));
      res.writeHead(answer.status, headers);
      res.write(body.subarray(0, Math.floor(body.byteLength / 2)));
      socket.end();
      return;
    }
    case 'timeout': {
      const timer = clock.setTimeout(() => socket.destroy(), holdMs);
      (timer as { unref?: () => void }).unref?.();
      res.once('close', () => clock.clearTimeout(timer));
      return;
    }
  }
}

/** A TCP reset: on HTTPS, the TLS socket's own TCP socket is the one reset. */
function reset(socket: Socket): void {
  const tcp = ((socket as Socket & { _parent?: Socket | null })._parent ?? socket) as Socket & {
    resetAndDestroy?: () => void;
  };
  try {
    if (typeof tcp.resetAndDestroy === 'function') tcp.resetAndDestroy();
    else tcp.destroy();
  } catch {
    tcp.destroy();
  }
  if (tcp !== socket) socket.destroy();
}
