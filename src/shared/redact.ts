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

/**
 * JSON text, whole or cut short (an explanation shows at most the start of a body): the value after every
 * denylisted object key becomes `"[redacted]"`, the rest of the text is kept as written. One linear pass over
 * the text; it never parses, so a cut or invalid document is redacted as far as it goes, and text that is not
 * JSON comes back as it is unless it holds a `"<denylisted name>":` pair.
 */
export function redactJsonText(text: string): string {
  if (!text.includes('"')) return text;
  let out = '';
  let kept = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (text.charCodeAt(i) !== 0x22) {
      i++;
      continue;
    }
    const end = stringEnd(text, i);
    let k = skipSpace(text, end);
    if (k < n && text[k] === ':' && isDeniedField(unquote(text.slice(i, end)))) {
      k = skipSpace(text, k + 1);
      const valueEnd = jsonValueEnd(text, k);
      out += `${text.slice(kept, k)}"${REDACTED}"`;
      kept = valueEnd;
      i = valueEnd;
      continue;
    }
    i = end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** the index after the string token starting at `start` (a `"`), or the text's end when it is cut */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** a key token's name (its escapes read); the raw text between the quotes when it does not decode */
function unquote(token: string): string {
  try {
    return JSON.parse(token.endsWith('"') && token.length > 1 ? token : `${token}"`) as string;
  } catch {
    return token.slice(1, token.endsWith('"') ? -1 : undefined);
  }
}

/** the index after the JSON value starting at `i`: a string, a whole object or array (strings inside skipped), or a scalar */
function jsonValueEnd(text: string, i: number): number {
  const n = text.length;
  if (i >= n) return n;
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    while (i < n) {
      const d = text[i];
      if (d === '"') {
        i = stringEnd(text, i);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return n;
  }
  while (i < n && !/[\s,}\]]/.test(text[i]!)) i++;
  return i;
}
