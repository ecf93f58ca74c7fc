// Stream files (docs/faults.md): a Server-Sent Events file is plain `text/event-stream` text, events separated by
// blank lines, where a comment line `: delay 120` sets the pause (ms) before the next event and is not sent; an
// NDJSON file is one event per non-empty line. Pure: bytes in, events out (and back, for record mode).
import type { StreamEvent, StreamFormat } from '../model/answer.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const DELAY_LINE = /^:[ \t]*delay[ \t]+(\d+)[ \t]*$/;

export const STREAM_CONTENT_TYPES: Readonly<Record<StreamFormat, string>> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** A stream file's events and their bytes one after the other; every event's bytes are a view into `body`. */
export interface ParsedStream {
  readonly events: readonly StreamEvent[];
  readonly body: Uint8Array;
}

/** file bytes → `${format} ${intervalMs}` → parsed (the FileSource hands back the same bytes while a file is unchanged) */
const parsedStreams = new WeakMap<Uint8Array, Map<string, ParsedStream>>();

/**
 * parseStreamFile once per version of the file's bytes: every request of the same file shares the one body and
 * its events (views into it), so a client that does not read holds references, not a copy of the stream.
 */
export function parsedStreamFile(bytes: Uint8Array, format: StreamFormat, intervalMs: number): ParsedStream {
  const key = `${format} ${intervalMs}`;
  let byKey = parsedStreams.get(bytes);
  const known = byKey?.get(key);
  if (known !== undefined) return known;
  const parsed = sharedBody(parseStreamFile(bytes, format, intervalMs));
  if (byKey === undefined) parsedStreams.set(bytes, (byKey = new Map<string, ParsedStream>()));
  byKey.set(key, parsed);
  return parsed;
}

/** The events' bytes concatenated, and the events made views into that one buffer. */
function sharedBody(events: readonly StreamEvent[]): ParsedStream {
  const body = concatEvents(events);
  const views: StreamEvent[] = new Array<StreamEvent>(events.length);
  let at = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const size = e.bytes.byteLength;
    views[i] = { pauseMs: e.pauseMs, bytes: body.subarray(at, at + size) };
    at += size;
  }
  return { events: views, body };
}

/** The events of a stream file; `intervalMs` is the pause before every event but the first that has no delay of its own. */
export function parseStreamFile(bytes: Uint8Array, format: StreamFormat, intervalMs: number): StreamEvent[] {
  const text = decoder.decode(bytes);
  return format === 'sse' ? parseSse(text, intervalMs) : parseNdjson(text, intervalMs);
}

export function parseSse(text: string, intervalMs: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  let pending: number | undefined;
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines: string[] = [];
    for (const line of block.split('\n')) {
      const d = DELAY_LINE.exec(line);
      if (d !== null) pending = (pending ?? 0) + Number(d[1]);
      else if (line !== '') lines.push(line);
    }
    if (lines.length === 0) continue;
    const pauseMs = pending ?? (events.length === 0 ? 0 : intervalMs);
    pending = undefined;
    events.push({ pauseMs, bytes: encoder.encode(lines.join('\n') + '\n\n') });
  }
  return events;
}

export function parseNdjson(text: string, intervalMs: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    events.push({ pauseMs: events.length === 0 ? 0 : intervalMs, bytes: encoder.encode(line + '\n') });
  }
  return events;
}

/** An SSE file from events as received (record mode): each event preceded by its measured pause as `: delay`. */
export function formatSse(events: readonly { readonly pauseMs: number; readonly text: string }[]): string {
  let out = '';
  for (const e of events) {
    const body = e.text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
    if (body === '') continue;
    out += (e.pauseMs > 0 ? `: delay ${Math.round(e.pauseMs)}\n` : '') + body + '\n\n';
  }
  return out;
}

/** Every event's bytes one after the other: the body `get` and the journal show. */
export function concatEvents(events: readonly StreamEvent[]): Uint8Array {
  let size = 0;
  for (const e of events) size += e.bytes.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of events) {
    out.set(e.bytes, at);
    at += e.bytes.byteLength;
  }
  return out;
}
