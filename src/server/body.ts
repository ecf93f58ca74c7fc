// Reading a request body under service.max_request_body_bytes (SPEC 7, 8).
//
// A declared Content-Length over the cap is refused from the header alone, before a byte of the body is read.
// Otherwise bytes are counted as they arrive (chunked uploads included) and collecting stops the moment the
// count passes the cap: what was gathered is dropped, and whatever still arrives is discarded unread until the
// connection closes (see linger.ts), so refusing a huge upload never holds more than the cap.
// A body of exactly the cap is accepted.
import type { IncomingMessage } from 'node:http';

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

/**
 * A one-shot interruption: the parser failed mid-body and this request must answer `status`.
 * (A plain object rather than an AbortSignal: this sits on the path of every request with a body.)
 */
export class BodyInterrupt {
  status: number | undefined;
  private listener: ((status: number) => void) | undefined;
  interrupt(status: number): void {
    if (this.status !== undefined) return;
    this.status = status;
    this.listener?.(status);
  }
  listen(listener: ((status: number) => void) | undefined): void {
    this.listener = listener;
    if (listener !== undefined && this.status !== undefined) listener(this.status);
  }
}

/** `interrupt` fires (with the status to answer) when the parser fails mid-body. */
export function readBody(req: IncomingMessage, cap: number, interrupt?: BodyInterrupt): Promise<BodyRead> {
  if (exceedsDeclared(req, cap)) return Promise.resolve({ kind: 'too_large' });
  if (req.complete && req.readableEnded) return Promise.resolve({ kind: 'ok', bytes: EMPTY });
  return new Promise((resolve) => {
    // Chunks are kept as they come and joined once at the end: nothing is allocated up front for a length the
    // client merely declared.
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;

    const finish = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      interrupt?.listen(undefined);
      chunks.length = 0;
      // the rest of a refused body is read and thrown away, never kept
      if (result.kind === 'too_large') req.resume();
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > cap) finish({ kind: 'too_large' });
      else chunks.push(chunk);
    };
    const onEnd = (): void => {
      const bytes = total === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
      finish({ kind: 'ok', bytes });
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    const onMalformed = (status: number): void => finish({ kind: 'malformed', status });
    const onClose = (): void => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
    interrupt?.listen(onMalformed);
  });
}
