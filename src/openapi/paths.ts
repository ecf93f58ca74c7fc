// Paths: the base path from `servers[0].url`, each path template as a url_path condition, the order that puts
// concrete paths before templated ones, and file-system-safe names for operations and examples.
import { isObj, objAt, strAt, type Obj, type Operation } from './document.js';

/**
 * The path of `servers[0].url` (server variables replaced by their defaults), without a trailing '/';
 * undefined when there is none or it is the root.
 */
export function basePathOf(doc: Obj): string | undefined {
  const servers = doc['servers'];
  const first = Array.isArray(servers) && isObj(servers[0]) ? servers[0] : undefined;
  if (first === undefined) return undefined;
  let url = strAt(first, 'url') ?? '';
  const vars = objAt(first, 'variables');
  url = url.replace(/\{([^}]*)\}/g, (_m, name: string) => {
    const v = vars === undefined ? undefined : objAt(vars, name);
    return (v === undefined ? undefined : strAt(v, 'default')) ?? '';
  });
  let path = url;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(url) ?? /^\/\/[^/]*/.exec(url);
  if (scheme !== null) path = url.slice(scheme[0].length);
  path = path.replace(/[?#].*$/, '');
  if (!path.startsWith('/')) path = '/' + path;
  path = path.replace(/\/+$/, '');
  return path === '' ? undefined : path;
}

export type UrlPathCondition =
  | { readonly op: 'equal'; readonly value: string }
  | { readonly op: 'path_template'; readonly value: string }
  | { readonly op: 'regex'; readonly value: string };

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/g;
export function escapeRegex(s: string): string {
  return s.replace(REGEX_SPECIAL, '\\$&');
}

export function isTemplated(path: string): boolean {
  return /\{[^}]*\}/.test(path);
}

/**
 * A literal path: `equal`, joined to the rule set's prefix like every `equal`. A templated one whose parameters
 * are whole segments with distinct names: `path_template`, as written (`/pets/{petId}`), joined to the prefix
 * the same way. Any other (`/report.{format}`): a regex anchored over the whole request path, base path
 * included, one segment per parameter. The server strips one trailing `/` from a request before matching, so a
 * path ending in `/` matches with or without it (an `equal` or `path_template` value loses its trailing `/` when
 * joined; a regex gets an optional one). `withBase`: put the base path into the value too (a split import has no
 * rule-set prefix).
 */
export function urlPathCondition(path: string, basePath: string | undefined, withBase = false): UrlPathCondition {
  const rel = path.startsWith('/') ? path : '/' + path;
  const value = withBase && basePath !== undefined ? (basePath + rel).replace(/(.)\/$/, '$1') : path;
  if (!isTemplated(path)) return { op: 'equal', value };
  if (wholeSegmentParameters(path)) return { op: 'path_template', value };
  const full = ((basePath ?? '') + rel).replace(/\/+$/, '');
  const parts = full.split(/(\{[^}]*\})/);
  const body = parts.map((p, i) => (i % 2 === 1 ? '[^/]+' : escapeRegex(p))).join('');
  return { op: 'regex', value: `^${body}/?$` };
}

/** A path key split at `#`: AWS descriptions multiplex operations on one path (`/#X-Amz-Target=X.Y`). */
export interface PathKey {
  readonly path: string;
  /** the fragment's `name[=value]` parts (`&`-separated), undefined without a fragment */
  readonly fragment?: readonly { readonly name: string; readonly value?: string }[];
}

export function splitPathKey(key: string): PathKey {
  const hash = key.indexOf('#');
  if (hash < 0) return { path: key };
  const path = key.slice(0, hash) === '' ? '/' : key.slice(0, hash);
  const fragment = key
    .slice(hash + 1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const dec = (x: string): string => {
        try {
          return decodeURIComponent(x);
        } catch {
          return x;
        }
      };
      return eq < 0 ? { name: dec(p) } : { name: dec(p.slice(0, eq)), value: dec(p.slice(eq + 1)) };
    });
  return { path, fragment };
}

/** Every parameter is a whole segment (`{name}`), no name twice: the path reads as a url_path template as it is. */
function wholeSegmentParameters(path: string): boolean {
  const names = new Set<string>();
  for (const seg of path.split('/')) {
    if (!seg.includes('{') && !seg.includes('}')) continue;
    const m = /^\{([^{}/*]+)\}$/.exec(seg);
    if (m === null || names.has(m[1]!)) return false;
    names.add(m[1]!);
  }
  return true;
}

/** One number per segment: 0 literal, 1 holding a parameter. */
function shape(path: string): readonly number[] {
  return splitPathKey(path)
    .path.split('/')
    .filter((s) => s !== '')
    .map((s) => (isTemplated(s) ? 1 : 0));
}

function compareShapes(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Literal paths first, in document order; then templated ones, a concrete segment before a parameter at the
 * first place two paths differ (OpenAPI's precedence), document order otherwise.
 */
export function orderOperations(ops: readonly Operation[]): readonly Operation[] {
  return [...ops].sort((a, b) => {
    const ta = isTemplated(splitPathKey(a.path).path) ? 1 : 0;
    const tb = isTemplated(splitPathKey(b.path).path) ? 1 : 0;
    if (ta !== tb) return ta - tb;
    const c = ta === 1 ? compareShapes(shape(a.path), shape(b.path)) : 0;
    return c !== 0 ? c : a.order - b.order;
  });
}

/** A file-name-safe form: letters, digits, `.`, `_`, `-` kept, anything else a `-`; never empty or dotted. */
export function safeName(s: string, fallback: string): string {
  const out = s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return out === '' ? fallback : out;
}

/** The folder an operation's response files go in: its operationId, else `<method>-<path>`. */
export function operationFolder(o: Operation): string {
  const id = strAt(o.op, 'operationId');
  if (id !== undefined) return safeName(id, 'operation');
  return safeName(`${o.method.toLowerCase()}-${o.path.replace(/[{}]/g, '')}`, o.method.toLowerCase());
}

/** The document title as a lower-case slug, for the rule-set file name. */
export function titleSlug(doc: Obj): string {
  const title = strAt(objAt(doc, 'info') ?? {}, 'title') ?? '';
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'openapi' : slug.slice(0, 60).replace(/-+$/, '');
}
