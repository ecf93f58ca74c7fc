// Redaction (docs/output.md, the request log): denylisted names keep their name and show their value as `[redacted]`. One set of
// denylists and functions for the verbose console log (server/log.ts) and the request journal (journal/), so
// both hide the same things. Names are compared case-insensitively. Pure: no I/O, no state.
import type { HeaderList } from './headers.js';
import { isJsonObject, type Json } from './json.js';

export const REDACTED = '[redacted]';

/** Header values never printed. */
export const HEADER_DENYLIST = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key'] as const;

/** Query-parameter values and JSON body object keys (recursive) never printed. */
export const FIELD_DENYLIST = [
  ...HEADER_DENYLIST,
  'token',
  'access_token',
  'refresh_token',
  'password',
  'secret',
  'client_secret',
  'api_key',
] as const;

const HEADER_NAMES: ReadonlySet<string> = new Set(HEADER_DENYLIST);
const FIELD_NAMES: ReadonlySet<string> = new Set(FIELD_DENYLIST);

export function isDeniedHeader(name: string): boolean {
  return HEADER_NAMES.has(name.toLowerCase());
}

export function isDeniedField(name: string): boolean {
  return FIELD_NAMES.has(name.toLowerCase());
}

/** Same names and order; denylisted values replaced. */
export function redactHeaders(headers: HeaderList): HeaderList {
  return headers.map(([name, value]) => [name, isDeniedHeader(name) ? REDACTED : value] as const);
}

/**
 * `a=1&token=xyz` → `a=1&token=[redacted]`. Parameter names are compared after form-decoding; the raw text is kept
 * otherwise. A query string and an `application/x-www-form-urlencoded` body share this syntax.
 */
export function redactQuery(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      return isDeniedField(decodeQueryName(part.slice(0, eq))) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    })
    .join('&');
}

function decodeQueryName(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * The value of every denylisted object key, at any depth (objects inside arrays too), becomes "[redacted]".
 * Copy on write: a value with nothing to redact comes back as it is (same object), and only the objects and
 * arrays on the way to a redacted key are copied.
 */
export function redactJson(value: Json): Json {
  if (Array.isArray(value)) {
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as Json;
      const r = redactJson(v);
      if (out === undefined && r !== v) out = value.slice(0, i);
      out?.push(r);
    }
    return out ?? (value as Json[]);
  }
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  let out: Record<string, Json> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = value[key]!;
    const r = isDeniedField(key) ? REDACTED : redactJson(v);
    if (out === undefined && r !== v) {
      out = {};
      for (let k = 0; k < i; k++) setKey(out, keys[k]!, value[keys[k]!]!);
    }
    if (out !== undefined) setKey(out, key, r);
  }
  return out ?? value;
}

/** An own enumerable key, `__proto__` included (plain assignment of that one would set the prototype). */
function setKey(o: Record<string, Json>, key: string, v: Json): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
  else o[key] = v;
}
