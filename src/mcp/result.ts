// A tool's answer is the envelope the matching command prints under `--format json` ({schema, mock, result | error},
// docs/output.md), as the text content and, parsed, as the structured content. An error envelope marks the call
// as an error; a command that refused its arguments before it could print one (a usage error, plain text on
// stderr) is answered with a `usage` error envelope carrying that text.
import { errorEnvelope } from '../model/envelope.js';
import type { ErrorKind } from '../model/errors.js';
import type { CliRun } from './port.js';

export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The answer for an envelope's text. */
export function envelopeAnswer(text: string): ToolAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  const structured = isObject ? (parsed as Record<string, unknown>) : undefined;
  return {
    content: [{ type: 'text', text }],
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    isError: structured === undefined || 'error' in structured,
  };
}

/** The answer for an error the tool itself found (a path outside the workspace, no running server). */
export function errorAnswer(version: string, kind: ErrorKind, message: string): ToolAnswer {
  return envelopeAnswer(errorEnvelope(version, kind, message));
}

/** The answer for one command run: its envelope, or its stderr as a usage error when it printed none. */
export function cliAnswer(version: string, run: CliRun): ToolAnswer {
  const out = run.stdout.trim();
  if (out.startsWith('{')) return envelopeAnswer(run.stdout);
  const message = run.stderr.trim() || out || `the command ended with exit code ${run.code} and printed nothing`;
  return errorAnswer(version, run.code === 2 ? 'usage' : 'internal', message);
}
