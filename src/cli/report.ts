// Reporting a failure that ends a command: plain text on stderr, or an error envelope on stdout.
import { formatDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import type { Failure } from '../model/errors.js';
import type { OutputFormat } from '../shared/args.js';
import { errorEnvelope, exitCodeFor } from '../model/envelope.js';
import type { Io } from './io.js';
import { fileDisplay } from '../workspace/shown-paths.js';

export type { Failure };

/** Prints the failure and returns its exit code. */
export function reportFailure(io: Io, prefix: string, format: OutputFormat, failure: Failure): number {
  if (format === 'json') {
    io.out(errorEnvelope(io.version(), failure.kind, failure.message, failure.diagnostics));
  } else {
    io.err(`${prefix}: ${failure.message}\n`);
    for (const d of failure.diagnostics ?? []) {
      // a lone diagnostic that only repeats the message (a missing file) adds nothing
      if (d.line === undefined && failure.message.endsWith(d.message)) continue;
      io.err(`${formatDiagnostic(d, (f) => fileDisplay(io.cwd, f))}\n`);
    }
  }
  return exitCodeFor(failure.kind);
}

/** An argument-level usage error: plain text even under --format json, then the one-line usage. */
export function reportUsage(io: Io, message: string, usage: string): number {
  io.err(`${message}\nUsage: ${usage}\n`);
  return exitCodeFor('usage');
}

/** Warnings (or any diagnostics) on stderr, one formatted line each, files shown relative to the cwd. */
export function printDiagnostics(io: Io, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.err(`${formatDiagnostic(d, (f) => fileDisplay(io.cwd, f))}\n`);
}
