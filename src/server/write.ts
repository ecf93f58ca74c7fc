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
  const flat: string[] = [];
  for (const [name, value] of answer.headers) {
    if (NODE_MANAGED.has(name.toLowerCase())) continue;
    try {
      validateHeaderName(name);
    } catch {
      opts.log(WRITE_MESSAGES.badHeaderName(name));
      continue;
    }
    let sent = value;
    try {
      validateHeaderValue(name, value);
    } catch {
      opts.log(WRITE_MESSAGES.badHeaderValue(name));
      sent = '';
    }
    flat.push(name, sent);
  }
  if (opts.close === true) {
    flat.push('connection', 'close');
    lingerOnClose(res.socket);
  }
  res.writeHead(answer.status, flat);
  if (method === 'HEAD' || answer.body.byteLength === 0) res.end();
  else res.end(answer.body);
}
