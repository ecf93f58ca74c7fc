// Dotted body paths (reference §5): `customer.tier`, `items.0.sku`. Not JSONPath: `$` is an ordinary key.
// The loader splits on every '.'; this walks the segments.
import type { Json } from '../shared/json.js';

/**
 * Walk `segments` through `root`. On an object a segment is an exact, case-sensitive key (a numeric
 * segment too); on an array it must be an unsigned integer (`01` and `+1` mean 1, `-1` never);
 * on a scalar it fails. Undefined when the path does not resolve.
 */
export function resolveBodyPath(root: Json, segments: readonly string[]): Json | undefined {
  let cur: Json = root;
  for (const seg of segments) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    if (Array.isArray(cur)) {
      const i = parseUsize(seg);
      if (i === undefined || i >= cur.length) return undefined;
      cur = (cur as readonly Json[])[i]!;
    } else {
      if (!Object.hasOwn(cur, seg)) return undefined;
      cur = (cur as { readonly [k: string]: Json })[seg]!;
    }
  }
  return cur;
}

const USIZE = /^\+?[0-9]+$/;

/** Rust `usize::from_str`: optional '+', ASCII digits only. Undefined when it does not parse or is too big to index. */
export function parseUsize(s: string): number | undefined {
  if (!USIZE.test(s)) return undefined;
  const n = Number(s.startsWith('+') ? s.slice(1) : s);
  return Number.isSafeInteger(n) ? n : undefined;
}
