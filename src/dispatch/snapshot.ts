// snapshotFrom: the ONE normaliser from raw request parts to a RequestSnapshot.
// The server adapter and `mock get` both call it, so both see exactly the same request.
import type { HeaderList } from '../shared/headers.js';
import {
  exactJson,
  JsonSyntaxError,
  mayHoldIntegralFloat,
  parseJson,
  parseTypedJson,
  type Json,
  type TypedJson,
} from '../shared/json.js';
import type { JsonRequestBody, RequestBody, RequestSnapshot } from '../model/request.js';
import { LazyRequestParts } from '../routing/request-parts.js';
import { parseMultipart } from './multipart.js';

export interface RawRequest {
  readonly method: string;
  /** request target as on the request line: origin-form ("/a?b"), absolute-form or "*" */
  readonly target: string;
  /** any case; order kept; as pairs, or flat (name, value, name, value, …) as Node's rawHeaders */
  readonly headers: HeaderList | readonly string[];
  readonly body?: Uint8Array;
  readonly httpVersion?: string;
}

export function snapshotFrom(raw: RawRequest): RequestSnapshot {
  let target = raw.target;
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  if (target.charCodeAt(0) !== 0x2f /* '/' */ && /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(target)) {
    const afterScheme = target.indexOf('//') + 2;
    const slash = target.indexOf('/', afterScheme);
    const q = target.indexOf('?', afterScheme);
    target = slash < 0 || (q >= 0 && q < slash) ? '/' + (q >= 0 ? target.slice(q) : '') : target.slice(slash);
  }
  if (target === '*') target = '/';
  const qi = target.indexOf('?');
  const rawPath0 = qi >= 0 ? target.slice(0, qi) : target;
  const query = qi >= 0 ? target.slice(qi + 1) : '';
  const rawPath = rawPath0.startsWith('/') ? rawPath0 : '/' + rawPath0;
  let segments: string[];
  let path: string;
  if (!rawPath.includes('%') && !rawPath.includes('/.')) {
    // nothing to decode and no dot-segment: the path is already normal (the common case, without copies)
    segments = splitPath(rawPath);
    path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  } else {
    segments = normaliseSegments(rawPath);
    path = '/' + segments.join('/');
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  }
  const headers: [string, string][] = [];
  const given = raw.headers;
  if (given.length > 0 && typeof given[0] === 'string') {
    const flat = given as readonly string[];
    for (let i = 0; i + 1 < flat.length; i += 2) headers.push([lowerName(flat[i]!), flat[i + 1]!]);
  } else for (const [k, v] of given as HeaderList) headers.push([lowerName(k), v]);
  return {
    method: raw.method.toUpperCase(),
    rawPath,
    segments,
    path,
    query,
    headers,
    body: parseBody(raw.body, headers),
    httpVersion: raw.httpVersion ?? '1.1',
    parts: new LazyRequestParts(query, headers, raw.body, parseMultipart),
  };
}

/**
 * `/a/b/c` → `['a', 'b', 'c']`, as `rawPath.slice(1).split('/')` gives, empty pieces included. A loop of indexOf
 * and slice: split() on a string fresh from the parser costs twice as much (docs/speed.md#workload-b-one-step-closer-2026-11-27).
 */
function splitPath(rawPath: string): string[] {
  const out: string[] = [];
  let start = 1;
  for (let i = rawPath.indexOf('/', 1); i >= 0; i = rawPath.indexOf('/', start)) {
    out.push(rawPath.slice(start, i));
    start = i + 1;
  }
  out.push(rawPath.slice(start));
  return out;
}

/** the common header names as Node spells them, lower-cased once */
const LOWER = new Map<string, string>();
function lowerName(name: string): string {
  let lower = LOWER.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (LOWER.size < 1000) LOWER.set(name, lower);
  }
  return lower;
}

/**
 * Per-segment percent-decoding ('+' kept), then dot-segment removal (decoding first, so %2e%2e is a '..').
 * As remove_dot_segments does, a '..' at the root has nothing to remove and is dropped: `/../x` is `/x`.
 * Nothing can therefore climb above the root; file routing also refuses a '..' segment (confinement).
 */
export function normaliseSegments(rawPath: string): string[] {
  const parts = rawPath.split('/');
  parts.shift(); // the empty piece before the leading '/'
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const seg = decodeSegment(parts[i]!);
    const last = i === parts.length - 1;
    if (seg === '.') {
      if (last) out.push('');
      continue;
    }
    if (seg === '..') {
      out.pop(); // nothing to remove at the root
      if (last) out.push('');
      continue;
    }
    out.push(seg);
  }
  return out;
}

const HEX = /^[0-9a-fA-F]{2}$/;
const utf8Lossy = new TextDecoder('utf-8', { fatal: false });
const utf8Encoder = new TextEncoder();

/** Percent-decode one segment. Invalid escapes stay literal; invalid UTF-8 becomes U+FFFD. */
export function decodeSegment(seg: string): string {
  if (!seg.includes('%')) return seg;
  const bytes: number[] = [];
  for (let i = 0; i < seg.length; ) {
    const c = seg[i]!;
    if (c === '%' && HEX.test(seg.slice(i + 1, i + 3))) {
      bytes.push(parseInt(seg.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = seg.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      for (const b of utf8Encoder.encode(ch)) bytes.push(b);
      i += ch.length;
    }
  }
  return utf8Lossy.decode(Uint8Array.from(bytes));
}

function mediaType(headers: HeaderList): string | undefined {
  for (const [k, v] of headers) {
    if (k === 'content-type') return v === 'application/json' ? v : v.split(';')[0]!.trim().toLowerCase();
  }
  return undefined;
}

const NO_BODY: RequestBody = Object.freeze({ kind: 'none' });
const textDecoder = new TextDecoder('utf-8', { fatal: false });
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function parseBody(body: Uint8Array | undefined, headers: HeaderList): RequestBody {
  if (body === undefined || body.byteLength === 0) return NO_BODY;
  const declaredJson = mediaType(headers) === 'application/json';
  let text: string;
  try {
    // JSON text is UTF-8 (RFC 8259): a declared JSON body with invalid bytes is not JSON.
    text = declaredJson ? strictDecoder.decode(body) : textDecoder.decode(body);
  } catch {
    return { kind: 'invalid_json', message: 'the body is not valid UTF-8', byteLength: body.byteLength };
  }
  const first = text.trimStart()[0];
  // Only text that could be JSON is parsed when the client did not declare JSON.
  if (!declaredJson && (first === undefined || !'{["-0123456789tfn'.includes(first))) {
    return { kind: 'bytes', byteLength: body.byteLength };
  }
  let fast: Json;
  try {
    fast = JSON.parse(text) as Json;
  } catch {
    return notParsed(text, declaredJson, body.byteLength);
  }
  return fast === null ? NO_BODY : new ParsedJsonBody(text, fast, body.byteLength);
}

/** Text JSON.parse refused: the exact parser says why (or, should it accept the text after all, gives the value). */
function notParsed(text: string, declaredJson: boolean, byteLength: number): RequestBody {
  try {
    const value = parseJson(text);
    if (value === null) return NO_BODY;
    return mayHoldIntegralFloat(text)
      ? { kind: 'json', value, byteLength, typed: parseTypedJson(text) }
      : { kind: 'json', value, byteLength };
  } catch (e) {
    if (!declaredJson) return { kind: 'bytes', byteLength };
    const message = e instanceof JsonSyntaxError || e instanceof Error ? e.message : String(e);
    return { kind: 'invalid_json', message, byteLength };
  }
}

/**
 * A JSON body as JSON.parse gave it. Made exact (integers beyond 2^53 as bigint, see exactJson) only when `value`
 * is first asked for: body conditions resolve their paths in `unchecked` and need the exact form only for a part
 * that holds such an integer (body-path.ts), so the common request never walks its whole body for them.
 * Likewise `typed` (numbers typed by their lexemes) is built only when a condition that tells 42 from 42.0, or a
 * script, first asks, and is parsed only when the text may hold a number such as `42.0` at all.
 */
class ParsedJsonBody implements JsonRequestBody {
  readonly kind = 'json';
  private exact: Json | undefined;
  private typedValue: TypedJson | undefined | typeof NOT_YET = NOT_YET;
  constructor(
    private readonly text: string,
    readonly unchecked: Json,
    readonly byteLength: number,
  ) {}
  get value(): Json {
    return (this.exact ??= exactJson(this.text, this.unchecked));
  }
  get typed(): TypedJson | undefined {
    if (this.typedValue === NOT_YET)
      this.typedValue = mayHoldIntegralFloat(this.text) ? parseTypedJson(this.text) : undefined;
    return this.typedValue;
  }
}

const NOT_YET: unique symbol = Symbol('not built yet');
