// Record mode's header vocabulary: what is forwarded, what comes back, what is kept in a recording.
//
// Owns: the hop-by-hop and conditional lists (dropped when forwarding), the kept list (written into a rule's
// respond.headers) and the never-kept list (never written, whatever `--record-header` says).
// Leaves out: content-type, which the plan keeps only when the saved form would not give it (plan.ts).
import { HEADER_DENYLIST } from '../shared/redact.js';
import type { HeaderList } from '../shared/headers.js';

/** Connection-level headers: meaningful for one hop only, never forwarded in either direction. */
export const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
] as const;

/**
 * Request headers not forwarded: conditionals (an upstream 304 would be recorded in place of the body),
 * `range` (a partial answer would be recorded as the whole), `expect` (the body is already read).
 */
export const NOT_FORWARDED = [
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'if-range',
  'range',
  'expect',
] as const;

/** Response headers written into a recorded rule (besides `--record-header` names). */
export const KEPT_HEADERS = [
  'location',
  'www-authenticate',
  'retry-after',
  'link',
  'content-disposition',
  'x-total-count',
] as const;

/** Response headers never written into a recording, even when `--record-header` names them. */
export const NEVER_KEPT = [
  ...HOP_BY_HOP,
  'content-length',
  'content-encoding',
  'date',
  'server',
  ...HEADER_DENYLIST,
  'vary',
] as const;

const HOP: ReadonlySet<string> = new Set(HOP_BY_HOP);
const NOT_FWD: ReadonlySet<string> = new Set(NOT_FORWARDED);
const NEVER: ReadonlySet<string> = new Set(NEVER_KEPT);

/** `name` (any case) is never written into a recording: the list above, and every `access-control-*` header. */
export function isNeverKept(name: string): boolean {
  const n = name.toLowerCase();
  return NEVER.has(n) || n.startsWith('access-control-');
}

/** The names a `connection` header lists: hop-by-hop for this message too. */
function connectionNames(headers: HeaderList): ReadonlySet<string> {
  const out = new Set<string>();
  for (const [k, v] of headers) {
    if (k.toLowerCase() === 'connection') for (const n of v.split(',')) out.add(n.trim().toLowerCase());
  }
  return out;
}

/** Request headers to forward: end-to-end ones, without `host`, conditionals, `accept-encoding` or `content-length`. */
export function forwardedRequestHeaders(headers: HeaderList): HeaderList {
  const listed = connectionNames(headers);
  return headers.filter(([k]) => {
    const n = k.toLowerCase();
    return (
      !HOP.has(n) &&
      !NOT_FWD.has(n) &&
      !listed.has(n) &&
      n !== 'host' &&
      n !== 'accept-encoding' &&
      n !== 'content-length'
    );
  });
}

/** Response headers to pass to the client: end-to-end ones, without `content-length` (the answer's own framing). */
export function forwardedResponseHeaders(headers: HeaderList): HeaderList {
  const listed = connectionNames(headers);
  return headers.filter(([k]) => {
    const n = k.toLowerCase();
    return !HOP.has(n) && !listed.has(n) && n !== 'content-length';
  });
}

/** Characters a recorded header value may hold (what the rule loader accepts). */
const STORABLE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The response headers a recording keeps, lower-cased, in arrival order, repeated names joined with ", ":
 * KEPT_HEADERS and `extra` (`--record-header` names), minus the never-kept ones and `content-type`.
 */
export function keptHeaders(headers: HeaderList, extra: readonly string[] = []): HeaderList {
  const wanted = new Set<string>([...KEPT_HEADERS, ...extra.map((n) => n.toLowerCase())]);
  const out = new Map<string, string>();
  for (const [k, v] of headers) {
    const n = k.toLowerCase();
    if (!wanted.has(n) || isNeverKept(n) || n === 'content-type' || !STORABLE_VALUE.test(v)) continue;
    const had = out.get(n);
    out.set(n, had === undefined ? v : `${had}, ${v}`);
  }
  return [...out];
}

/** RFC 9110 token characters: what a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A `--record-header` name: the usage message when it is not a header name or is never kept, else undefined. */
export function checkRecordHeader(name: string): string | undefined {
  if (!TOKEN.test(name)) return `--record-header: '${name}' is not a valid HTTP header name`;
  if (isNeverKept(name))
    return `--record-header: '${name}' is never recorded (hop-by-hop, framing, a secret, CORS, date, server or vary)`;
  return undefined;
}
