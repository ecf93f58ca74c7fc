// `--routes routes.json` (docs/coming-from-json-server.md#routes): json-server 0.17's rewrites, tried in order,
// each on the URL the one before it left: `"/api/*": "/$1"`, `"/blog/:resource/:id/show": "/:resource/:id"`. A
// pattern matches the whole path and query, case-insensitively, with an optional trailing slash; `*` takes
// anything (the query too), `:name` one segment. In the target, `$1` is the n-th capture and `:name` the named one.
import type { RequestSnapshot } from '../model/request.js';
import type { RouteRewrite } from '../model/collection.js';
import { parseQuery } from '../routing/request-parts.js';
import { normaliseSegments } from './snapshot.js';

export interface CompiledRewrite {
  readonly re: RegExp;
  readonly names: readonly (string | number)[];
  readonly to: string;
}

const compiled = new WeakMap<readonly RouteRewrite[], readonly CompiledRewrite[]>();

/** `:name` (optionally `:name?`), `*`, or one other character */
const TOKEN = /(\/)?:(\w+)(\?)?|(\/)?\*|[\s\S]/g;

export function compileRewrite(r: RouteRewrite): CompiledRewrite {
  const names: (string | number)[] = [];
  let src = '';
  let unnamed = 0;
  for (const m of r.from.matchAll(TOKEN)) {
    if (m[2] !== undefined) {
      names.push(m[2]);
      const seg = '([^\\/]+?)';
      src += m[1] === undefined ? seg : m[3] === undefined ? `\\/${seg}` : `(?:\\/${seg})?`;
    } else if (m[0].endsWith('*') && m[0].length <= 2 && (m[4] !== undefined || m[0] === '*')) {
      names.push(unnamed++);
      src += m[4] === undefined ? '(.*)' : '\\/(.*)';
    } else src += m[0].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return { re: new RegExp(`^${src}(?:\\/(?=$))?$`, 'i'), names, to: r.to };
}

/** The target after every rewrite that matched, in order; undefined when none did. */
export function rewriteTarget(target: string, rewrites: readonly RouteRewrite[]): string | undefined {
  let list = compiled.get(rewrites);
  if (list === undefined) compiled.set(rewrites, (list = rewrites.map(compileRewrite)));
  let url = target;
  let changed = false;
  for (const r of list) {
    const m = r.re.exec(url);
    if (m === null) continue;
    url = r.to.replace(/\$(\d+)|:(\w+)/g, (whole, n: string | undefined, name: string | undefined) => {
      if (n !== undefined) return m[Number(n)] ?? '';
      const at = r.names.indexOf(name!);
      return at < 0 ? whole : (m[at + 1] ?? '');
    });
    changed = true;
  }
  return changed ? url : undefined;
}

/** The request at the rewritten target (its headers and body as they came). */
export function rewrittenRequest(req: RequestSnapshot, rewrites: readonly RouteRewrite[]): RequestSnapshot {
  const target = rewriteTarget(req.query === '' ? req.rawPath : `${req.rawPath}?${req.query}`, rewrites);
  if (target === undefined) return req;
  const qi = target.indexOf('?');
  const p = qi < 0 ? target : target.slice(0, qi);
  const rawPath = p.startsWith('/') ? p : `/${p}`;
  const query = qi < 0 ? '' : target.slice(qi + 1);
  const segments = normaliseSegments(rawPath);
  let path = `/${segments.join('/')}`;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const old = req.parts;
  let q: ReadonlyMap<string, readonly string[]> | undefined;
  const parts = {
    get query() {
      return (q ??= parseQuery(query));
    },
    get cookies() {
      return old.cookies;
    },
    get bodyText() {
      return old.bodyText;
    },
    get form() {
      return old.form;
    },
  };
  return { ...req, rawPath, segments, path, query, parts };
}
