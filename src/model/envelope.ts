// The JSON envelope of `--format json` (docs/output.md): {schema: 1, mock: <version>, result | error}, in that
// field order, pretty-printed with a 2-space indent. Also the one table from error kind to exit code.
import type { Diagnostic } from './diagnostic.js';
import type { ErrorKind } from './errors.js';
import { SCHEMA_VERSION, type Wire } from '../shared/wire.js';

export { SCHEMA_VERSION, type Wire };

/** Exit code per error kind: the only place this mapping lives. */
export const EXIT_CODES: Readonly<Record<ErrorKind, number>> = {
  usage: 2,
  config_invalid: 2,
  config_unreadable: 2,
  io: 1,
  conflict: 1,
  internal: 1,
};

export function exitCodeFor(kind: ErrorKind): number {
  return EXIT_CODES[kind];
}

export function successEnvelope(version: string, result: Wire): string {
  return JSON.stringify({ schema: SCHEMA_VERSION, mock: version, result }, null, 2) + '\n';
}

/** `error` = {kind, message, diagnostics?}; the message carries no `mock <cmd>: ` prefix. */
export function errorEnvelope(
  version: string,
  kind: ErrorKind,
  message: string,
  diagnostics?: readonly Diagnostic[],
): string {
  const error: Record<string, Wire> = { kind, message };
  if (diagnostics !== undefined && diagnostics.length > 0) error['diagnostics'] = diagnostics.map(diagnosticToWire);
  return JSON.stringify({ schema: SCHEMA_VERSION, mock: version, error }, null, 2) + '\n';
}

/** A diagnostic as a wire object: snake_case keys, absent parts left out. */
export function diagnosticToWire(d: Diagnostic): Wire {
  const o: Record<string, Wire> = { severity: d.severity, code: d.code, message: d.message };
  if (d.file !== undefined) o['file'] = d.file;
  if (d.line !== undefined) o['line'] = d.line;
  if (d.column !== undefined) o['column'] = d.column;
  if (d.keyPath !== undefined) o['key_path'] = [...d.keyPath];
  if (d.allowed !== undefined) o['allowed'] = [...d.allowed];
  if (d.suggestion !== undefined) o['suggestion'] = d.suggestion;
  return o;
}
