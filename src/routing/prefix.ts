// Rule-set prefixes claim paths only on a segment boundary, so `/api` never claims `/apixyz`.

/**
 * `/api` claims `/api` and `/api/...`, never `/apixyz`; `/` claims every path.
 * Both sides are canonical: one leading '/', no trailing '/' (except the root itself).
 */
export function claims(prefix: string, path: string): boolean {
  if (prefix === '/' || prefix === '') return true;
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (!path.startsWith(p)) return false;
  return path.length === p.length || path.charCodeAt(p.length) === 47; // '/'
}
