// The parts of a request parsed on demand (RequestSnapshot.parts): the query map, the cookies, the body as text and
// the form fields. Each is parsed from the snapshot's raw fields the first time a rule or a script asks for it and
// kept for the rest of the request; a request nobody asks about pays for none of them.
//
// What it leaves out: multipart parsing, which needs a streaming parser; dispatch hands one in (dispatch/multipart.ts).
import type { FormFields, HeaderList, RequestParts } from '../model/request.js';

/** Parses a multipart/form-data body (the full content-type header value and the bytes); undefined when it cannot. */
export type MultipartParser = (contentType: string, body: Uint8Array) => FormFields | undefined;

const EMPTY_MAP: ReadonlyMap<string, never> = new Map<string, never>();
const textDecoder = new TextDecoder('utf-8', { fatal: false });
const NOT_YET: unique symbol = Symbol('not built yet');
const NEEDS_DECODING = /[%+]/;

export class LazyRequestParts implements RequestParts {
  private queryMap: ReadonlyMap<string, readonly string[]> | undefined;
  private cookieMap: ReadonlyMap<string, string> | undefined;
  private text: string | undefined | typeof NOT_YET = NOT_YET;
  private formFields: FormFields | undefined | typeof NOT_YET = NOT_YET;
  constructor(
    private readonly rawQuery: string,
    private readonly headers: HeaderList,
    private readonly body: Uint8Array | undefined,
    private readonly multipart?: MultipartParser,
  ) {}

  get query(): ReadonlyMap<string, readonly string[]> {
    return (this.queryMap ??= parseQuery(this.rawQuery));
  }
  get cookies(): ReadonlyMap<string, string> {
    return (this.cookieMap ??= parseCookies(this.headers));
  }
  get bodyText(): string | undefined {
    if (this.text === NOT_YET)
      this.text = this.body === undefined || this.body.byteLength === 0 ? undefined : textDecoder.decode(this.body);
    return this.text;
  }
  get form(): FormFields | undefined {
    if (this.formFields === NOT_YET) this.formFields = this.parseForm();
    return this.formFields;
  }

  private parseForm(): FormFields | undefined {
    const type = contentTypeOf(this.headers);
    if (type === undefined) return undefined;
    const media = type.split(';')[0]!.trim().toLowerCase();
    if (media === 'application/x-www-form-urlencoded')
      return { fields: parseQuery(this.bodyText ?? ''), files: new Set() };
    if (media === 'multipart/form-data' && this.body !== undefined && this.multipart !== undefined)
      return this.multipart(type, this.body);
    return undefined;
  }
}

/**
 * A query string (without '?') as names to values: split on '&', each pair at its first '=', names and values
 * percent-decoded with '+' as a space (application/x-www-form-urlencoded, as browsers send forms and queries);
 * a name without '=' has the value ''. Invalid escapes stay literal; invalid UTF-8 becomes U+FFFD.
 */
export function parseQuery(raw: string): ReadonlyMap<string, readonly string[]> {
  if (raw === '') return EMPTY_MAP;
  const out = new Map<string, string[]>();
  // Nothing to decode (no '%', no '+'): splitting gives what URLSearchParams gives, several times faster.
  if (!NEEDS_DECODING.test(raw)) {
    // each pair read in place (no array of pairs): this runs for every request a query condition looks at
    for (let start = 0; start < raw.length; ) {
      let end = raw.indexOf('&', start);
      if (end < 0) end = raw.length;
      if (end > start) {
        const eq = raw.indexOf('=', start);
        const name = eq < 0 || eq > end ? raw.slice(start, end) : raw.slice(start, eq);
        const value = eq < 0 || eq > end ? '' : raw.slice(eq + 1, end);
        const list = out.get(name);
        if (list === undefined) out.set(name, [value]);
        else list.push(value);
      }
      start = end + 1;
    }
    return out;
  }
  for (const [name, value] of new URLSearchParams(raw)) {
    const list = out.get(name);
    if (list === undefined) out.set(name, [value]);
    else list.push(value);
  }
  return out;
}

/**
 * The cookies of the `cookie` header(s) (RFC 6265 §5.4 as user agents send them): `name=value` pairs separated by
 * ';', names and values trimmed, one pair of surrounding double quotes removed from a value, no decoding; a pair
 * without '=' is skipped; the first of duplicate names wins.
 */
export function parseCookies(headers: HeaderList): ReadonlyMap<string, string> {
  let out: Map<string, string> | undefined;
  for (const [k, v] of headers) {
    if (k !== 'cookie') continue;
    for (const pair of v.split(';')) {
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      if (name === '') continue;
      let value = pair.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      out ??= new Map();
      if (!out.has(name)) out.set(name, value);
    }
  }
  return out ?? EMPTY_MAP;
}

function contentTypeOf(headers: HeaderList): string | undefined {
  for (const [k, v] of headers) if (k === 'content-type') return v;
  return undefined;
}
