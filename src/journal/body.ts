// Body capture: request and response bytes → a CapturedBody, by content type, up to the journal's `bodyBytes`.
// JSON (application/json, +json) is parsed when it fits; text/*, XML and form bodies are kept as text (cut at a
// character boundary, `truncated` said); anything else, and JSON over the cap, is its size and type only.
// A request body counts as JSON when dispatch read it as JSON (what the rules saw), whatever its declared type.
// Redaction (when on): JSON keys at any depth and form keys, with the verbose log's denylist (shared/redact.ts).
import type { RequestBody } from '../model/request.js';
import { getHeader, type HeaderList } from '../shared/headers.js';
import { stringifyJson, type Json } from '../shared/json.js';
import { redactJson, redactQuery } from '../shared/redact.js';
import type { CapturedBody, JsonValue } from './entry.js';

export interface BodyCaptureOptions {
  readonly bodyBytes: number;
  readonly redact: boolean;
}

type BodyClass = 'json' | 'form' | 'text' | 'bytes';

const NONE: CapturedBody = Object.freeze({ kind: 'none' });
const lossy = new TextDecoder('utf-8', { fatal: false });

/** The media type (lower-case, no parameters), or null. */
export function mediaTypeOf(headers: HeaderList): string | null {
  const v = getHeader(headers, 'content-type');
  if (v === undefined) return null;
  const semi = v.indexOf(';');
  return (semi < 0 ? v : v.slice(0, semi)).trim().toLowerCase();
}

export function classify(mediaType: string | null): BodyClass {
  if (mediaType === null) return 'bytes';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  if (
    mediaType.startsWith('text/') ||
    mediaType === 'application/xml' ||
    mediaType.endsWith('+xml') ||
    mediaType === 'application/x-ndjson'
  )
    return 'text';
  return 'bytes';
}

/**
 * A request body. `bytes` is what was read (empty when none, or when refused unread); `byteLength` the full size
 * when more than `bytes` (a refused body's declared length); `parsed` is dispatch's reading of it.
 */
export function captureRequestBody(
  bytes: Uint8Array,
  headers: HeaderList,
  parsed: RequestBody,
  opts: BodyCaptureOptions,
  byteLength = bytes.byteLength,
): CapturedBody {
  if (byteLength === 0) return NONE;
  const type = mediaTypeOf(headers);
  const cls = classify(type);
  if (parsed.kind === 'json') {
    if (byteLength > opts.bodyBytes || bytes.byteLength !== byteLength) return bytesBody(byteLength, type);
    // `unchecked` is JSON.parse's (no bigint); `value` may hold exact integers
    return jsonBody(
      parsed.unchecked !== undefined ? (parsed.unchecked as JsonValue) : plainJson(parsed.value),
      byteLength,
      opts.redact,
    );
  }
  return captureByClass(cls, type, bytes, byteLength, opts);
}

/** A response body as written (none for HEAD, whose body is never sent). */
/** `byteLength`: the body's full size when `bytes` holds only its start (the journal keeps no more than it shows). */
export function captureResponseBody(
  bytes: Uint8Array,
  headers: HeaderList,
  method: string,
  opts: BodyCaptureOptions,
  byteLength = bytes.byteLength,
): CapturedBody {
  if (method === 'HEAD' || byteLength === 0) return NONE;
  const type = mediaTypeOf(headers);
  return captureByClass(classify(type), type, bytes, byteLength, opts);
}

function captureByClass(
  cls: BodyClass,
  type: string | null,
  bytes: Uint8Array,
  byteLength: number,
  opts: BodyCaptureOptions,
): CapturedBody {
  const whole = bytes.byteLength === byteLength;
  // nothing of it was read (a refused body): its size and type are all there is
  if (bytes.byteLength === 0) return bytesBody(byteLength, type);
  switch (cls) {
    case 'json': {
      if (byteLength > opts.bodyBytes || !whole) return bytesBody(byteLength, type);
      const text = lossy.decode(bytes);
      try {
        return jsonBody(JSON.parse(text) as JsonValue, byteLength, opts.redact);
      } catch {
        // declared JSON that does not parse: shown as the text it is
        return textBody(bytes, byteLength, opts, false);
      }
    }
    case 'form':
      return textBody(bytes, byteLength, opts, true);
    case 'text':
      return textBody(bytes, byteLength, opts, false);
    case 'bytes':
      return bytesBody(byteLength, type);
  }
}

export function jsonBody(value: JsonValue, byteLength: number, redact: boolean): CapturedBody {
  return Object.freeze({ kind: 'json', value: redact ? (redactJson(value) as JsonValue) : value, byteLength });
}

function bytesBody(byteLength: number, contentType: string | null): CapturedBody {
  return Object.freeze({ kind: 'bytes', byteLength, contentType });
}

function textBody(bytes: Uint8Array, byteLength: number, opts: BodyCaptureOptions, form: boolean): CapturedBody {
  const cut = Math.min(bytes.byteLength, opts.bodyBytes);
  const end = characterStart(bytes, cut);
  const text = lossy.decode(end === bytes.byteLength ? bytes : bytes.subarray(0, end));
  return Object.freeze({
    kind: 'text',
    text: form && opts.redact ? redactQuery(text) : text,
    byteLength,
    truncated: end < byteLength,
  });
}

/** The largest offset ≤ `at` that starts a UTF-8 character (never splits one). */
function characterStart(bytes: Uint8Array, at: number): number {
  if (at >= bytes.byteLength) return bytes.byteLength;
  let i = at;
  while (i > 0 && (bytes[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** Json as plain JSON: an exact integer beyond 2^53 (bigint) becomes the number JSON.parse would give. */
export function plainJson(v: Json): JsonValue {
  return holdsBigint(v) ? (JSON.parse(stringifyJson(v)) as JsonValue) : (v as JsonValue);
}

function holdsBigint(v: Json): boolean {
  if (typeof v === 'bigint') return true;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.some(holdsBigint);
  return Object.values(v).some(holdsBigint);
}
