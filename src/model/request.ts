// RequestSnapshot: what every stage sees. Built once per request by snapshotFrom() in dispatch/snapshot.ts,
// the ONE normaliser, used by the server adapter and by `mock get` alike.
import type { HeaderList } from '../shared/headers.js';
import type { Json, TypedJson } from '../shared/json.js';

export type { HeaderList };

export interface RequestSnapshot {
  /** upper-case method token as received */
  readonly method: string;
  /** target path as received, still percent-encoded, without the query */
  readonly rawPath: string;
  /**
   * Path segments after per-segment percent-decoding ('+' kept; invalid UTF-8 becomes U+FFFD)
   * and dot-segment removal (a '..' at the root has nothing to remove and is dropped). Empty segments are kept. A segment may contain '/' or '\' when
   * they were percent-encoded; file routing refuses such segments.
   */
  readonly segments: readonly string[];
  /** canonical form for rule matching and scripts: '/' + segments joined by '/', one trailing '/' removed */
  readonly path: string;
  /** raw query, without '?' ('' when none) */
  readonly query: string;
  /** names lower-cased, arrival order kept */
  readonly headers: HeaderList;
  readonly body: RequestBody;
  /** HTTP version as received, e.g. '1.1' (for the request log) */
  readonly httpVersion: string;
  /**
   * The query, cookies, body text and form fields, each parsed from the fields above only when a rule or a script
   * first asks (dispatch/request-parts.ts): a request nobody asks about pays for none of them.
   */
  readonly parts: RequestParts;
}

/** The parts of a request that are parsed on demand; each is built once, on first access. */
export interface RequestParts {
  /** query names (compared exactly) to their values, percent-decoded with '+' as a space, in arrival order */
  readonly query: ReadonlyMap<string, readonly string[]>;
  /** cookie names to values from the `cookie` header (RFC 6265; the first of duplicates) */
  readonly cookies: ReadonlyMap<string, string>;
  /** the body decoded as UTF-8 (invalid sequences replaced), whatever its type; undefined without a body */
  readonly bodyText: string | undefined;
  /**
   * Fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body: a text field gives its
   * values, a file part its filename (or '' without one). Undefined when the body is not a form.
   */
  readonly form: FormFields | undefined;
}

export interface FormFields {
  /** field name to its values, in arrival order */
  readonly fields: ReadonlyMap<string, readonly string[]>;
  /** the names that came as file parts (their values are the filenames) */
  readonly files: ReadonlySet<string>;
}

export interface JsonRequestBody {
  readonly kind: 'json';
  /** exact: integers beyond 2^53 are bigint */
  readonly value: Json;
  readonly byteLength: number;
  /**
   * The same body as JSON.parse gave it, when `value` has not been made exact yet (the server builds `value` only
   * when asked): a part of it that holds no integer beyond 2^53 is exact as it is.
   */
  readonly unchecked?: Json;
  /**
   * The same body with each number typed by its lexeme (a JsonFloat for `42.0` or `1e3`), when it may hold a
   * number written that way; undefined when it cannot (then `value` is typed as it is). Built when first asked for.
   */
  readonly typed?: TypedJson | undefined;
}

export type RequestBody =
  | { readonly kind: 'none' }
  | JsonRequestBody
  /** present, not JSON, and not declared as JSON (its text and form fields: RequestSnapshot.parts) */
  | { readonly kind: 'bytes'; readonly byteLength: number }
  /** declared application/json but does not parse: answered 400 by dispatch */
  | { readonly kind: 'invalid_json'; readonly message: string; readonly byteLength: number };
