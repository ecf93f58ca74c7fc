// Dotted body paths (docs/files-and-rules.md): `customer.tier`, `items.0.sku`. Not JSONPath: `$` is an ordinary key.
// The loader splits on every '.'; this walks the segments.
import type { JsonRequestBody } from '../model/request.js';
import { holdsInteger, holdsUnsafeInteger, type Json, type TypedJson } from '../shared/json.js';

/**
 * Walk `segments` through `root`. On an object a segment is an exact, case-sensitive key (a numeric
 * segment too); on an array it must be an unsigned integer (`01` and `+1` mean 1, `-1` never);
 * on a scalar it fails. Undefined when the path does not resolve.
 */
export function resolveBodyPath(root: Json, segments: readonly string[]): Json | undefined;
export function resolveBodyPath(root: TypedJson, segments: readonly string[]): TypedJson | undefined;
export function resolveBodyPath(root: TypedJson, segments: readonly string[]): TypedJson | undefined {
  // (a JsonFloat is an object without own keys: every segment fails on it, as on any scalar)
  let cur: TypedJson = root;
  for (const seg of segments) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    if (Array.isArray(cur)) {
      const i = parseUsize(seg);
      if (i === undefined || i >= cur.length) return undefined;
      cur = (cur as readonly TypedJson[])[i]!;
    } else {
      if (!Object.hasOwn(cur, seg)) return undefined;
      cur = (cur as { readonly [k: string]: TypedJson })[seg]!;
    }
  }
  return cur;
}

/**
 * The body value at `segments`, exact (integers beyond 2^53 as bigint). Resolved in the body as JSON.parse gave it
 * when that is still there, and taken from the exact body only when the value found holds such an integer.
 */
export function resolveInBody(body: JsonRequestBody, segments: readonly string[]): Json | undefined {
  const unchecked = body.unchecked;
  if (unchecked === undefined) return resolveBodyPath(body.value, segments);
  const found = resolveBodyPath(unchecked, segments);
  return found === undefined || !holdsUnsafeInteger(found) ? found : resolveBodyPath(body.value, segments);
}

/**
 * The body value at `segments` with its numbers typed by their lexemes (`42.0` a JsonFloat), for the operators
 * that tell 42 from 42.0. A value holding no integer is typed as it is; otherwise the typed body is asked for,
 * and parsed only when the text may hold a number written as `42.0` or `1e3` at all.
 */
export function resolveTypedInBody(body: JsonRequestBody, segments: readonly string[]): TypedJson | undefined {
  const unchecked = body.unchecked;
  const found = resolveBodyPath(unchecked ?? body.value, segments);
  if (found === undefined || !holdsInteger(found)) return found;
  const typed = body.typed;
  if (typed !== undefined) return resolveBodyPath(typed, segments);
  return unchecked !== undefined && holdsUnsafeInteger(found) ? resolveBodyPath(body.value, segments) : found;
}

const USIZE = /^\+?[0-9]+$/;

/** Rust `usize::from_str`: optional '+', ASCII digits only. Undefined when it does not parse or is too big to index. */
export function parseUsize(s: string): number | undefined {
  if (!USIZE.test(s)) return undefined;
  const n = Number(s.startsWith('+') ? s.slice(1) : s);
  return Number.isSafeInteger(n) ? n : undefined;
}
