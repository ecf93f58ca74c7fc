// Console-log redaction (SPEC 6): denylisted names keep their name and print their value as `[redacted]`.
// Names are compared case-insensitively. Pure: no I/O, no state.
import type { HeaderList } from '../shared/headers.js';
import { isJsonObject, type Json, type JsonObject } from '../shared/json.js';
import { HEADER_DENYLIST } from '../model/redaction.js';

export { HEADER_DENYLIST };

export const REDACTED = '[redacted]';

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

/** `a=1&token=xyz` → `a=1&token=[redacted]`. Parameter names are compared after form-decoding; the raw text is kept otherwise. */
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

/** The value of every denylisted object key, at any depth (objects inside arrays too), becomes "[redacted]". */
export function redactJson(value: Json): Json {
  if (Array.isArray(value)) return value.map(redactJson);
  if (!isJsonObject(value)) return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value)) {
    const v = (value as JsonObject)[key]!;
    // defineProperty keeps a "__proto__" key an ordinary key
    Object.defineProperty(out, key, {
      value: isDeniedField(key) ? REDACTED : redactJson(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
