// Writing an Answer to a node:http response in one go: status line and headers, then the whole body.
import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import type { Answer } from '../model/answer.js';
import { lingerOnClose } from './linger.js';

/** Node owns the connection framing: it writes `connection` / `keep-alive` itself from the keep-alive state. */
const NODE_MANAGED = new Set(['connection', 'keep-alive']);

export const WRITE_MESSAGES = {
  badHeaderName: (name: string) => `failed to create header with the header key: ${name} (invalid HTTP header name)`,
  badHeaderValue: (name: string) =>
    `failed to create header with the header value (header key = ${name}) (failed to parse header value)`,
} as const;

export interface WriteOptions {
  /** answer and then close the connection (413 and other refusals) */
  readonly close?: boolean;
  readonly log: (line: string) => void;
}

/**
 * Headers in answer order; an invalid header name is dropped and an invalid value is sent empty (each with a
 * console line, as the reference does). HEAD gets the GET headers (content-length included) and no body.
 */
export function writeAnswer(res: ServerResponse, answer: Answer, method: string, opts: WriteOptions): void {
  let wire = answer.fresh === true ? freshWireForm(answer) : forWire.get(answer);
  if (wire === undefined) forWire.set(answer, (wire = wireForm(answer)));
  let flat = wire.flat;
  // HTTP/2 has no connection header: the stream ends with the answer, the connection goes on
  if (opts.close === true && res.req?.httpVersionMajor !== 2) {
    flat = [...flat, 'connection', 'close'];
    lingerOnClose(res.socket);
  }
  try {
    // Node validates every name and value here; headers are normally valid (rule headers are checked at load),
    // so the slow path below runs only when one is not.
    res.writeHead(answer.status, flat as string[]);
  } catch {
    res.writeHead(answer.status, validated(flat, opts.log));
  }
  if (method === 'HEAD' || wire.body.byteLength === 0) res.end();
  else if (wire.text !== undefined) res.end(wire.text, 'latin1');
  else res.end(wire.body);
}

interface WireForm {
  /** the headers as node:http takes them: name, value, … */
  readonly flat: readonly string[];
  /** the body as a Buffer (a view, no copy): node's streams are tuned for Buffers, not plain Uint8Arrays */
  readonly body: Buffer;
  /**
   * A small body as a latin1 string (one character per byte, so exactly the same bytes on the wire): node:http joins
   * a string body to the head and hands the socket strings only, which costs less per response than a head string
   * plus a body Buffer (docs/speed.md#measured-choices-in-the-code). Large bodies stay Buffers
   * (no copy).
   */
  readonly text: string | undefined;
}

/** bodies up to this size are also kept as a string (see WireForm.text) */
export const TEXT_BODY_MAX = 8 * 1024;

/** made once per Answer: Answers are immutable, and those of literal bodies and remembered files are reused */
const forWire = new WeakMap<Answer, WireForm>();

function wireForm(answer: Answer): WireForm {
  const flat: string[] = [];
  for (const [name, value] of answer.headers) {
    if (!NODE_MANAGED.has(name)) flat.push(name, value);
  }
  const body = bodyBuffer(answer.body);
  return {
    flat,
    body,
    text: body.byteLength > 0 && body.byteLength <= TEXT_BODY_MAX ? body.toString('latin1') : undefined,
  };
}

/** A fresh answer's wire form: from the one of the answer it is like (Answer.like), with its own length and body. */
function freshWireForm(answer: Answer): WireForm {
  const like = answer.like;
  const own = answer.headers[answer.headers.length - 1];
  if (like === undefined || own === undefined) return wireForm(answer);
  let base = forWire.get(like);
  if (base === undefined) forWire.set(like, (base = wireForm(like)));
  const flat = base.flat.slice();
  if (flat[flat.length - 2] !== 'content-length' || own[0] !== 'content-length') return wireForm(answer);
  flat[flat.length - 1] = own[1];
  const body = bodyBuffer(answer.body);
  const small = body.byteLength > 0 && body.byteLength <= TEXT_BODY_MAX;
  return { flat, body, text: small ? (answer.latin1 ?? body.toString('latin1')) : undefined };
}

function bodyBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

function validated(flat: readonly string[], log: (line: string) => void): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!;
    const value = flat[i + 1]!;
    try {
      validateHeaderName(name);
    } catch {
      log(WRITE_MESSAGES.badHeaderName(name));
      continue;
    }
    try {
      validateHeaderValue(name, value);
      out.push(name, value);
    } catch {
      log(WRITE_MESSAGES.badHeaderValue(name));
      out.push(name, '');
    }
  }
  return out;
}
