// Record mode's copy of an event stream as it passes to the client (docs/record.md): each SSE event (or NDJSON
// line) with the time its last byte arrived, made into a stream file once the upstream ends it by itself. SSE
// keeps the measured pause before each event as a `: delay` line; NDJSON lines get their median gap as the rule's
// interval_ms. A stream cut short (the client left, the idle or length limit) or larger than the saved-body cap
// yields nothing.
import type { Readable } from 'node:stream';
import type { RecordBody } from '../../record/plan.js';
import { streamFileOf } from '../../record/stream-record.js';

export function streamFormatOf(contentType: string | undefined): 'sse' | 'ndjson' {
  return /^\s*text\/event-stream/i.test(contentType ?? '') ? 'sse' : 'ndjson';
}

/** Watches `rest` (without consuming it: a 'data' listener beside the pipe); `now` in ms. */
export function captureStream(
  rest: Readable,
  format: 'sse' | 'ndjson',
  capBytes: number,
  now: () => number = () => performance.now(),
): Promise<RecordBody | undefined> {
  return new Promise((resolve) => {
    const decoder = new TextDecoder('utf-8');
    let last = now();
    let pending = '';
    let size = 0;
    let over = false;
    const parts: { pauseMs: number; text: string }[] = [];
    const separator = format === 'sse' ? /\n\n/ : /\n/;
    rest.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.byteLength;
      if (size > capBytes) {
        over = true;
        return;
      }
      const t = now();
      pending += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
      for (let m = separator.exec(pending); m !== null; m = separator.exec(pending)) {
        const text = pending.slice(0, m.index);
        pending = pending.slice(m.index + m[0].length);
        if (text.trim() === '') continue;
        parts.push({ pauseMs: Math.max(0, Math.round(t - last)), text });
        last = t;
      }
    });
    rest.once('end', () => {
      if (pending.trim() !== '')
        parts.push({ pauseMs: Math.max(0, Math.round(now() - last)), text: pending.replace(/\n+$/, '') });
      if (over || parts.length === 0) return resolve(undefined);
      resolve(streamFileOf(parts, format));
    });
    rest.once('close', () => resolve(undefined));
  });
}
