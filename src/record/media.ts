// Content types seen from the recording side: which extension gives a content type (file routing's own table,
// read backwards), and when two content-type values mean the same to a client.
import { BINARY_TYPES, contentTypeFor, TEXT_TYPES } from '../files/content-type.js';

/** The extensions file routing converts (json5, csv → JSON): never chosen for saved bytes. */
const CONVERTED = new Set(['json5', 'csv']);

/** `type/subtype`, lower-cased, without parameters; '' for an absent or empty value. */
export function essenceOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The parameters of a content type, lower-cased names, unquoted values. */
function paramsOf(contentType: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of contentType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name !== '') out.set(name, value);
  }
  return out;
}

/** `application/json`, or any `…/…+json`. */
export function isJsonType(contentType: string | undefined): boolean {
  const e = essenceOf(contentType);
  return e === 'application/json' || (e.includes('/') && e.endsWith('+json'));
}

function utf8Charset(value: string | undefined): boolean {
  return value === undefined || /^utf-?8$/i.test(value);
}

/**
 * `served` (what mock would send) tells a client the same as `upstream`: the same essence, and no parameter
 * beyond a UTF-8 charset on either side (file routing serves only UTF-8 text with a charset).
 */
export function sameContentType(upstream: string, served: string): boolean {
  if (essenceOf(upstream) !== essenceOf(served)) return false;
  for (const ct of [upstream, served]) {
    for (const [name, value] of paramsOf(ct)) if (name !== 'charset' || !utf8Charset(value)) return false;
  }
  return true;
}

/** For each essence, the first extension of file routing's tables that gives it (text table, then binary). */
function reverse(table: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [ext, type] of Object.entries(table)) {
    const e = essenceOf(type);
    if (!CONVERTED.has(ext) && !out.has(e)) out.set(e, ext);
  }
  return out;
}
const TEXT_EXT = reverse(TEXT_TYPES);
const BINARY_EXT = reverse(BINARY_TYPES);

/**
 * The extension saved bytes get from their content type: the table of their family first (`utf8`: valid UTF-8),
 * then the other table, `+json` as `json`, else `txt` (UTF-8) or `bin`. `badJson`: declared JSON that does not
 * parse, saved as `txt` (a `.json` file must hold JSON).
 */
export function extensionFor(contentType: string | undefined, utf8: boolean, badJson: boolean): string {
  if (badJson) return 'txt';
  const e = essenceOf(contentType);
  const found = (utf8 ? TEXT_EXT : BINARY_EXT).get(e) ?? (utf8 ? BINARY_EXT : TEXT_EXT).get(e);
  if (found !== undefined) return found;
  if (isJsonType(contentType)) return 'json';
  return utf8 ? 'txt' : 'bin';
}

/** The content type file routing gives bytes saved under `ext`. */
export function servedTypeFor(ext: string | undefined, utf8: boolean): string {
  return contentTypeFor(ext, utf8);
}
