// Failures that end a command (distinct from diagnostics, which describe input).
import type { Diagnostic } from './diagnostic.js';

export const ERROR_KINDS = ['usage', 'config_invalid', 'config_unreadable', 'io', 'conflict', 'internal'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class MockError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A failure a command reports (text on stderr or an error envelope), with the kind that sets its exit code. */
export interface Failure {
  readonly kind: ErrorKind;
  /** without the `mock <cmd>: ` prefix */
  readonly message: string;
  readonly diagnostics?: readonly Diagnostic[];
}
