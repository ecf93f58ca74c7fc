// Stream files (docs/faults.md): a Server-Sent Events file is plain `text/event-stream` text, events separated by
// blank lines, where a comment line `: delay 120` sets the pause (ms) before the next event and is not sent; an
// NDJSON file is one event per non-empty line. Pure: bytes in, events out (and back, for record mode).
import type { StreamEvent, StreamFormat } from '../model/answer.js';
import type { FileStat } from './source.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const DELAY_LINE = /^:[ \t]*delay[ \t]+(\d+)[ \t]*$/;
/** a comment line that means to be a delay (`: delay`, then a space or the end; `: delayed …` is a comment) */
const DELAY_MEANT = /^:[ \t]*delay(?:[ \t]|$)/;

/**
 * The lines of a Server-Sent Events file that start like a delay but are not one (`: delay abc`, `: delay 1.5`):
 * 1-based line numbers and their text. The loader reports each (a request would send it as a comment instead).
 */
export function badDelayLines(text: string): { readonly line: number; readonly text: string }[] {
  const bad: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (DELAY_MEANT.test(line) && !DELAY_LINE.test(line)) bad.push({ line: i + 1, text: line });
  }
  return bad;
}

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

/** how much stream file (bytes on disk) over the file cache's bound is kept parsed, all files together */
export const LARGE_STREAMS_KEPT_BYTES = 64 * 1024 * 1024;
/** a file modified less than this long before its stat may change again within the same mtime: not kept */
const SETTLED_MS = 2000;

interface KeptStream {
  readonly size: number;
  readonly mtimeMs: number;
  readonly key: string;
  readonly parsed: ParsedStream;
}

/** path → the parse of the version its stat names, least recently used first */
const largeStreams = new Map<string, KeptStream>();

/**
 * The parse of a stream file too large for the file cache, when it was kept for the version `stat` names (the
 * same size and mtime): then every client of the file shares one parse and the file is not read again.
 */
export function knownLargeStream(
  path: string,
  stat: FileStat,
  format: StreamFormat,
  intervalMs: number,
): ParsedStream | undefined {
  const kept = largeStreams.get(path);
  if (kept === undefined || kept.size !== stat.size || kept.mtimeMs !== stat.mtimeMs) return undefined;
  if (kept.key !== `${format} ${intervalMs}`) return undefined;
  largeStreams.delete(path);
  largeStreams.set(path, kept);
  return kept.parsed;
}

/**
 * Parses a stream file too large for the file cache, read after `stat` was made, and keeps the parse for that
 * version (knownLargeStream) when the bytes are as long as the stat says and the file had settled (its mtime
 * SETTLED_MS old: a later edit changes the mtime), within LARGE_STREAMS_KEPT_BYTES, dropping the least recently
 * used. A file whose mtime is set back by hand to the very value it had, with the same size, is not noticed.
 */
export function parsedLargeStream(
  path: string,
  stat: FileStat,
  bytes: Uint8Array,
  format: StreamFormat,
  intervalMs: number,
  now: number = Date.now(),
): ParsedStream {
  const parsed = sharedBody(parseStreamFile(bytes, format, intervalMs));
  largeStreams.delete(path);
  if (bytes.byteLength !== stat.size || !(now - stat.mtimeMs > SETTLED_MS) || stat.size > LARGE_STREAMS_KEPT_BYTES)
    return parsed;
  largeStreams.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, key: `${format} ${intervalMs}`, parsed });
  let total = 0;
  for (const k of largeStreams.values()) total += k.size;
  for (const [p, k] of largeStreams) {
    if (total <= LARGE_STREAMS_KEPT_BYTES) break;
    largeStreams.delete(p);
    total -= k.size;
  }
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
