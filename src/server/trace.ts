// The per-request trace channel (docs/https-and-limits.md): a node:diagnostics_channel named `mock:trace`, published by the
// server after each answer is written. Library-level only: nothing in config or on the command line turns it
// on; a subscriber in the same process does (`diagnostics_channel.subscribe('mock:trace', fn)`).
//
// Events are built from Outcome.stage:
//   rule_set            → { kind: 'matched', rule_set_index, rule_index }      (0-based)
//   middleware          → { kind: 'middleware', file_path, status }           (file_path: the script that answered)
//   fallback            → { kind: 'fallback', file_path, status }             (file_path: the file served)
//   miss, prefix_miss   → { kind: 'miss', status }
//   options, bad_request publish nothing: they are answered before any source is consulted.
import { channel } from 'node:diagnostics_channel';
import type { Outcome } from '../dispatch/dispatch.js';
import { assertNever } from '../shared/result.js';

export const TRACE_CHANNEL_NAME = 'mock:trace';
export const traceChannel = channel(TRACE_CHANNEL_NAME);

export type TraceEvent =
  | { readonly kind: 'matched'; readonly rule_set_index: number; readonly rule_index: number }
  | { readonly kind: 'middleware'; readonly file_path: string; readonly status: number }
  | { readonly kind: 'fallback'; readonly file_path: string; readonly status: number }
  | { readonly kind: 'miss'; readonly status: number }
  | { readonly kind: 'collection'; readonly path: string; readonly status: number };

export function traceEventFor(outcome: Outcome): TraceEvent | undefined {
  const stage = outcome.stage;
  const status = outcome.answer.status;
  switch (stage.kind) {
    case 'rule_set':
      return { kind: 'matched', rule_set_index: stage.ruleSetIndex, rule_index: stage.ruleIndex };
    case 'middleware':
      return { kind: 'middleware', file_path: stage.file, status };
    case 'fallback':
      return { kind: 'fallback', file_path: stage.file, status };
    case 'miss':
    case 'prefix_miss':
      return { kind: 'miss', status };
    case 'collection':
      return { kind: 'collection', path: stage.path, status };
    case 'options':
    case 'bad_request':
    case 'contract':
    case 'override':
      return undefined;
    default:
      return assertNever(stage, 'stage');
  }
}

/** Publishes only when someone listens, so an idle channel costs one property read per request. */
export function publishTrace(outcome: Outcome): void {
  if (!traceChannel.hasSubscribers) return;
  const event = traceEventFor(outcome);
  if (event !== undefined) traceChannel.publish(event);
}
