// The socket work of the answers that do not leave in one go (docs/faults.md): faults, dribbled bodies and
// streams. Dispatch decided what (Answer.delivery); this writes it, with its timing, to this one connection only
// (a fault never touches another socket, keep-alive ones included). Every timer stops when the client leaves.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Answer, FaultKind, StreamEvent } from '../model/answer.js';

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
      return play(res, splitBody(answer.body, d.count, d.intervalMs), clock);
    }
    case 'stream':
      // no content-length: node frames it chunked (HTTP/1.1) or closes at the end (HTTP/1.0)
      res.writeHead(answer.status, flatHeaders(answer, 'content-length'));
      if (method === 'HEAD') return void res.end();
      res.flushHeaders();
      return play(res, d.events, clock, opts.onEvent);
  }
}

/** `count` pieces of (nearly) equal size, the first at once, then `intervalMs` apart. */
export function splitBody(body: Uint8Array, count: number, intervalMs: number): StreamEvent[] {
  const n = Math.max(1, Math.min(count, body.byteLength));
  const out: StreamEvent[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * body.byteLength) / n);
    const to = Math.floor(((i + 1) * body.byteLength) / n);
    out.push({ pauseMs: i === 0 ? 0 : intervalMs, bytes: body.subarray(from, to) });
  }
  return out;
}

/**
 * The events on their schedule: each is due its pause after the previous one was due (not after it was sent),
 * so lateness does not add up. The response ends after the last; a client that leaves stops the timer.
 */
export function play(
  res: ServerResponse,
  events: readonly StreamEvent[],
  clock: Clock,
  onEvent?: (bytes: Uint8Array) => void,
): void {
  let i = 0;
  let due = clock.now();
  /** whether `due` already includes events[i]'s pause */
  let scheduled = false;
  let timer: unknown;
  const onClose = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  res.once('close', onClose);
  const step = (): void => {
    timer = undefined;
    if (res.destroyed || res.writableEnded) return;
    while (i < events.length) {
      const e = events[i]!;
      if (!scheduled) {
        due += e.pauseMs;
        scheduled = true;
      }
      const wait = due - clock.now();
      if (wait > 0) {
        timer = clock.setTimeout(step, Math.ceil(wait));
        return;
      }
      scheduled = false;
      i++;
      res.write(e.bytes);
      onEvent?.(e.bytes);
    }
    res.off('close', onClose);
    res.end();
  };
  step();
}

/** the body sent before the cut when the answer has none to halve */
const FILLER = Buffer.from('x'.repeat(64));

function fault(res: ServerResponse, answer: Answer, kind: FaultKind, holdMs: number, clock: Clock): void {
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
