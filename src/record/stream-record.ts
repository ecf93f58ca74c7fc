// A recorded event stream as a stream file (docs/record.md): SSE keeps the measured pause before each event as a
// `: delay` line (files/stream-file.ts reads it back the same way); NDJSON lines get their median gap as the
// rule's interval_ms, since an NDJSON file has no place for a pause per line.
import { formatSse } from '../files/stream-file.js';
import type { RecordBody } from './plan.js';

const encoder = new TextEncoder();

/** One event (SSE, without its blank line) or line (NDJSON), and the pause before it as measured. */
export interface MeasuredEvent {
  readonly pauseMs: number;
  readonly text: string;
}

export function streamFileOf(parts: readonly MeasuredEvent[], format: 'sse' | 'ndjson'): RecordBody {
  if (format === 'sse') return { kind: 'events', format, bytes: encoder.encode(formatSse(parts)) };
  const gaps = parts
    .slice(1)
    .map((p) => p.pauseMs)
    .sort((a, b) => a - b);
  const intervalMs = gaps.length === 0 ? 0 : gaps[Math.floor(gaps.length / 2)]!;
  return {
    kind: 'events',
    format,
    bytes: encoder.encode(parts.map((p) => p.text + '\n').join('')),
    ...(intervalMs > 0 ? { intervalMs } : {}),
  };
}
