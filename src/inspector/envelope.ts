// The management listener's JSON answers: the CLI's own envelope ({schema: 1, mock, result | error}, model/envelope.ts)
// with an HTTP status per error kind, so a client reads the same shape `mock … --format json` prints.
// Owns: the error-kind → HTTP status table. Leaves out: writing (router.ts).
import { errorEnvelope, successEnvelope, type Wire } from '../model/envelope.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ErrorKind } from '../model/errors.js';

export type { Wire };

/** HTTP status per error kind: the only place this mapping lives. */
export const HTTP_STATUS: Readonly<Record<ErrorKind, number>> = {
  usage: 400,
  config_invalid: 422,
  config_unreadable: 500,
  io: 500,
  conflict: 409,
  internal: 500,
};

/** What a JSON route answers: a result, an error, or nothing (204). */
export type JsonAnswer =
  | { readonly kind: 'result'; readonly result: Wire; readonly status?: number }
  | {
      readonly kind: 'error';
      readonly error: ErrorKind;
      readonly message: string;
      readonly diagnostics?: readonly Diagnostic[];
      readonly status?: number;
    }
  | { readonly kind: 'empty' };

export const result = (value: Wire, status?: number): JsonAnswer => ({
  kind: 'result',
  result: value,
  ...(status === undefined ? {} : { status }),
});
export const failure = (
  error: ErrorKind,
  message: string,
  diagnostics?: readonly Diagnostic[],
  status?: number,
): JsonAnswer => ({
  kind: 'error',
  error,
  message,
  ...(diagnostics === undefined ? {} : { diagnostics }),
  ...(status === undefined ? {} : { status }),
});

/** Status and body text of an answer (the body is '' for 204). */
export function encodeAnswer(version: string, answer: JsonAnswer): { readonly status: number; readonly body: string } {
  switch (answer.kind) {
    case 'result':
      return { status: answer.status ?? 200, body: successEnvelope(version, answer.result) };
    case 'error':
      return {
        status: answer.status ?? HTTP_STATUS[answer.error],
        body: errorEnvelope(version, answer.error, answer.message, answer.diagnostics),
      };
    case 'empty':
      return { status: 204, body: '' };
  }
}
