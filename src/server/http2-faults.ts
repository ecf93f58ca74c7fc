// Faults over HTTP/2 (docs/faults.md#over-http2): a connection carries many streams, so a fault is the one
// stream's, never its neighbours': each maps to a stream reset (RST_STREAM) with the error code nearest to what the
// HTTP/1.1 fault does to its connection. No import of node:http2: the codes are the protocol's own numbers.
import type { ServerResponse } from 'node:http';
import type { Answer, FaultKind } from '../model/answer.js';
import type { Clock } from './deliver.js';

/** HTTP/2 error codes (the numbers of the protocol's registry) */
const NO_ERROR = 0;
const PROTOCOL_ERROR = 1;
const INTERNAL_ERROR = 2;
const CANCEL = 8;

interface ResettableStream {
  readonly destroyed: boolean;
  close(code: number): void;
}

/** the stream under Node's compatibility response */
function streamOf(res: ServerResponse): ResettableStream | undefined {
  return (res as unknown as { stream?: ResettableStream }).stream;
}

export function isHttp2(res: ServerResponse): boolean {
  return res.req?.httpVersionMajor === 2;
}

/**
 * `connection_reset`: the stream is reset (INTERNAL_ERROR) before its headers; `empty_response`: reset with
 * NO_ERROR before its headers, nothing written; `malformed_response`: reset with PROTOCOL_ERROR (nghttp2 writes
 * only well-formed frames), and `malformed_chunk` the same; `partial_body`: the headers with the full length, half the body, then a reset
 * (INTERNAL_ERROR); `timeout`: nothing, until the client leaves or the hold ends (then CANCEL).
 */
export function http2Fault(
  res: ServerResponse,
  answer: Answer,
  kind: FaultKind,
  holdMs: number,
  clock: Clock,
  headers: string[],
): void {
  const stream = streamOf(res);
  if (stream === undefined || stream.destroyed) return;
  switch (kind) {
    case 'connection_reset':
      return stream.close(INTERNAL_ERROR);
    case 'empty_response':
      return stream.close(NO_ERROR);
    case 'malformed_response':
    // HTTP/2 has no chunked framing to break: a broken body is a stream reset, as for a broken head
    case 'malformed_chunk':
      return stream.close(PROTOCOL_ERROR);
    case 'partial_body': {
      const body = answer.body.byteLength >= 2 ? Buffer.from(answer.body) : Buffer.from('x'.repeat(64));
      headers.push('content-length', String(body.byteLength));
      res.writeHead(answer.status, headers);
      // the reset follows the half body once it has left
      res.write(body.subarray(0, Math.floor(body.byteLength / 2)), () => stream.close(INTERNAL_ERROR));
      return;
    }
    case 'timeout': {
      const timer = clock.setTimeout(() => stream.close(CANCEL), holdMs);
      (timer as { unref?: () => void }).unref?.();
      res.once('close', () => clock.clearTimeout(timer));
      return;
    }
  }
}
