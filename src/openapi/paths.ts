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
 * included, one segment per parameter.
 */
export function urlPathCondition(path: string, basePath: string | undefined): UrlPathCondition {
  if (!isTemplated(path)) return { op: 'equal', value: path };
  if (wholeSegmentParameters(path)) return { op: 'path_template', value: path };
  const full = (basePath ?? '') + (path.startsWith('/') ? path : '/' + path);
  const parts = full.split(/(\{[^}]*\})/);
  const body = parts.map((p, i) => (i % 2 === 1 ? '[^/]+' : escapeRegex(p))).join('');
  return { op: 'regex', value: `^${body}$` };
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
  return path.split('/').filter((s) => s !== '').map((s) => (isTemplated(s) ? 1 : 0));
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
    const ta = isTemplated(a.path) ? 1 : 0;
    const tb = isTemplated(b.path) ? 1 : 0;
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
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug === '' ? 'openapi' : slug.slice(0, 60).replace(/-+$/, '');
}

