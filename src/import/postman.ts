// A Postman collection (v2.0 or v2.1) → the neutral import form: each saved example of a request becomes a rule.
// Pure. Written by hand rather than with the postman-collection package: that package pins an old faker with all
// its locales, several megabytes in the import bundle for a format this small (docs/import.md).
//
// Per request, in this order: one rule per example that is not the default, selected as Postman's own mock servers
// select one (request header `x-mock-response-name: <example name>`), one per other status code
// (`x-mock-response-code: <code>`), then the default answer (the first 2xx example, else the first). Where the
// examples of one request were saved for different queries (`originalRequest.url.query`), each also gets `query`
// conditions (the default answer stays the fallback for any query). `{{variables}}` are resolved from the collection and the environment (`--postman-env`); the host
// (`{{baseUrl}}`, `https://api.example.com`) is dropped, keeping the path a base URL variable holds; `:id` segments
// and unresolved `{{id}}` segments become path templates.
import { isMethod } from '../model/operators.js';
import { err, ok, type Result } from '../shared/result.js';
import {
  excerpt,
  type Cond,
  type LeftOut,
  type SourceBody,
  type SourceImport,
  type SourceRule,
  type UrlPath,
} from './plan.js';

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PostmanError {
  readonly place: string;
  readonly message: string;
}

/** Postman's own mock-server headers for picking an example */
export const EXAMPLE_NAME_HEADER = 'x-mock-response-name';
export const EXAMPLE_CODE_HEADER = 'x-mock-response-code';

/** response headers a saved example holds that describe the old connection, not the answer */
const DROPPED = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'etag',
  'vary',
  'server',
]);

function keyOf(v: Obj): string | undefined {
  const k = v['key'] ?? v['id'];
  return typeof k === 'string' ? k : undefined;
}

/** `{ key, value }` lists (collection `variable`, an environment's `values`), the enabled ones */
export function variablesOf(list: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(list)) return out;
  for (const v of list) {
    if (!isObj(v) || v['enabled'] === false || v['disabled'] === true) continue;
    const k = keyOf(v);
    const value = v['value'];
    if (k === undefined) continue;
    if (typeof value === 'string') out.set(k, value);
    else if (typeof value === 'number' || typeof value === 'boolean') out.set(k, String(value));
  }
  return out;
}

function resolve(s: string, vars: ReadonlyMap<string, string>): string {
  return s.replace(/\{\{([^{}]+)\}\}/g, (m, name: string) => vars.get(name.trim()) ?? m);
}

function headerList(h: unknown): [string, string][] {
  if (typeof h === 'string')
    return h
      .split(/\r?\n/)
      .map((l) => l.split(/:(.*)/s))
      .filter((p) => p.length > 1 && p[0]!.trim() !== '')
      .map(([k, v]) => [k!.trim().toLowerCase(), (v ?? '').trim()]);
  if (!Array.isArray(h)) return [];
  const out: [string, string][] = [];
  for (const x of h)
    if (isObj(x) && x['disabled'] !== true && typeof x['key'] === 'string')
      out.push([x['key'].toLowerCase(), String((x['value'] as string | undefined) ?? '')]);
  return out;
}

interface Url {
  readonly path: string;
  readonly query: readonly (readonly [string, string])[];
}

/** the path (host dropped, a base URL variable's path kept) and query of a request's `url` */
function urlOf(u: unknown, vars: ReadonlyMap<string, string>): Url | undefined {
  let raw: string | undefined;
  let pathParts: string[] | undefined;
  let query: [string, string][] | undefined;
  let host = '';
  if (typeof u === 'string') raw = u;
  else if (isObj(u)) {
    raw = typeof u['raw'] === 'string' ? u['raw'] : undefined;
    const p = u['path'];
    if (Array.isArray(p)) pathParts = p.map((x) => (isObj(x) ? String((x['value'] as string) ?? '') : String(x)));
    else if (typeof p === 'string') pathParts = p.split('/');
    const h = u['host'];
    host = Array.isArray(h) ? h.map(String).join('.') : typeof h === 'string' ? h : '';
    if (Array.isArray(u['query'])) {
      query = [];
      for (const q of u['query'] as unknown[])
        if (isObj(q) && q['disabled'] !== true && typeof q['key'] === 'string')
          query.push([resolve(q['key'], vars), resolve(String((q['value'] as string | null) ?? ''), vars)]);
    }
  } else return undefined;
  let prefix = '';
  if (pathParts === undefined) {
    if (raw === undefined) return undefined;
    let r = raw.replace(/#.*$/, '');
    const qi = r.indexOf('?');
    if (query === undefined && qi >= 0)
      query = [...new URLSearchParams(r.slice(qi + 1))].map(([k, v]) => [resolve(k, vars), resolve(v, vars)]);
    if (qi >= 0) r = r.slice(0, qi);
    // the host: a leading variable (its value's path kept), a scheme and host, or a bare host
    const lead = /^\{\{([^{}]+)\}\}/.exec(r);
    if (lead !== null) {
      prefix = pathOfBase(vars.get(lead[1]!.trim()));
      r = r.slice(lead[0].length);
    } else {
      r = r.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
      if (!r.startsWith('/')) r = r.replace(/^[^/]*/, '');
    }
    pathParts = r.split('/').filter((s, i) => !(i === 0 && s === ''));
  } else {
    const lead = /^\{\{([^{}]+)\}\}$/.exec(host);
    if (lead !== null) prefix = pathOfBase(vars.get(lead[1]!.trim()));
  }
  const segments = pathParts.map((s) => {
    if (/^:[A-Za-z_][\w-]*$/.test(s)) return `{${s.slice(1)}}`;
    const r = resolve(s, vars);
    const unresolved = /^\{\{([A-Za-z_][\w-]*)\}\}$/.exec(r);
    return unresolved !== null ? `{${unresolved[1]!}}` : r;
  });
  const path = (prefix + '/' + segments.join('/')).replace(/\/{2,}/g, '/');
  return { path: path.length > 1 ? path.replace(/\/$/, '') : path, query: query ?? [] };
}

function pathOfBase(value: string | undefined): string {
  if (value === undefined) return '';
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/]*(\/[^?#]*)?/i.exec(value);
  return (m?.[1] ?? '').replace(/\/+$/, '');
}

function bodyOf(text: string, type: string | undefined, language: unknown): SourceBody {
  if (text === '') return { kind: 'none' };
  const json = (type !== undefined && /json/i.test(type)) || (type === undefined && language === 'json');
  if (json) return { kind: 'file', data: text, ext: 'json' };
  if (type === undefined || /^text\/plain/i.test(type)) return { kind: 'text', text };
  const ext = /html/i.test(type) ? 'html' : /xml/i.test(type) ? 'xml' : 'txt';
  return { kind: 'file', data: text, ext };
}

interface Example {
  readonly name: string;
  readonly code: number;
  readonly body: SourceBody;
  readonly headers: readonly (readonly [string, string])[];
  readonly query?: readonly (readonly [string, string])[];
  /** the path it was saved for (`originalRequest.url`), when that differs from the request's */
  readonly path?: string;
}

const sameQuery = (a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]): boolean =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export function decodePostman(
  data: unknown,
  o: { readonly title?: string; readonly environment?: ReadonlyMap<string, string> } = {},
): Result<SourceImport, PostmanError> {
  if (!isObj(data) || !isObj(data['info']) || !Array.isArray(data['item']))
    return err({ place: 'item', message: 'a Postman collection v2 needs `info` and an `item` array' });
  const vars = new Map([...variablesOf(data['variable']), ...(o.environment ?? new Map<string, string>())]);
  const rules: SourceRule[] = [];
  const leftOut: LeftOut[] = [];
  let read = 0;
  const walk = (items: readonly unknown[], trail: string): void => {
    items.forEach((it, i) => {
      if (!isObj(it)) return;
      const name = typeof it['name'] === 'string' ? it['name'] : `item[${i}]`;
      const place = trail === '' ? name : `${trail} / ${name}`;
      if (Array.isArray(it['item'])) {
        walk(it['item'], place);
        return;
      }
      read++;
      const req = it['request'];
      const method = (isObj(req) && typeof req['method'] === 'string' ? req['method'] : 'GET').toUpperCase();
      if (!isMethod(method)) {
        leftOut.push({
          place,
          what: 'request.method',
          reason: `the method ${excerpt(method)} cannot be matched by a rule`,
        });
        return;
      }
      const url = urlOf(isObj(req) ? req['url'] : req, vars);
      if (url === undefined) {
        leftOut.push({ place, what: 'request.url', reason: 'the request has no URL' });
        return;
      }
      const responses = Array.isArray(it['response']) ? it['response'].filter(isObj) : [];
      if (responses.length === 0) {
        leftOut.push({ place, what: '', reason: 'no saved example: the collection does not state its answer' });
        return;
      }
      const examples: Example[] = responses.map((r, j) => {
        const headers = headerList(r['header']).filter(([k, v]) => !DROPPED.has(k) && v !== '');
        const type = headers.find(([k]) => k === 'content-type')?.[1];
        const orig = r['originalRequest'];
        const origUrl = orig === undefined || orig === null ? undefined : urlOf(isObj(orig) ? orig['url'] : orig, vars);
        return {
          name: typeof r['name'] === 'string' ? r['name'] : `response[${j}]`,
          code: typeof r['code'] === 'number' ? r['code'] : 200,
          body: bodyOf(typeof r['body'] === 'string' ? r['body'] : '', type, r['_postman_previewlanguage']),
          headers,
          ...(origUrl === undefined ? {} : { query: origUrl.query }),
          ...(origUrl === undefined || origUrl.path === url.path ? {} : { path: origUrl.path }),
        };
      });
      const main = examples.find((e) => e.code >= 200 && e.code < 300) ?? examples[0]!;
      // the answer depends on the query when examples were saved for different ones
      const queries = examples.map((e) => e.query ?? url.query);
      const byQuery = queries.some((q) => !sameQuery(q, queries[0]!));
      const templated = /\{[^}]+\}/.test(url.path);
      const urlPath: UrlPath = templated ? { op: 'path_template', value: url.path } : { op: 'equal', value: url.path };
      const rule = (
        e: Example,
        what: string,
        headers: (readonly [string, string])[],
        withQuery = false,
        path: UrlPath = urlPath,
      ): SourceRule => {
        const query: (readonly [string, Cond])[] = withQuery
          ? (e.query ?? url.query).map(([k, v]) => [k, { op: 'equal', value: v }])
          : [];
        return {
          place,
          title: what,
          method,
          urlPath: path,
          ...(query.length === 0 ? {} : { query }),
          ...(headers.length === 0
            ? {}
            : { headers: headers.map(([k, v]): readonly [string, Cond] => [k, { op: 'equal', value: v }]) }),
          status: e.code,
          body: e.body,
          respondHeaders: e.headers,
        };
      };
      for (const e of examples)
        if (e !== main) rules.push(rule(e, `example "${e.name}"`, [[EXAMPLE_NAME_HEADER, e.name]]));
      const codes = new Set([main.code]);
      for (const e of examples) {
        if (codes.has(e.code)) continue;
        codes.add(e.code);
        rules.push(rule(e, `status ${e.code}`, [[EXAMPLE_CODE_HEADER, String(e.code)]]));
      }
      if (byQuery)
        for (const e of examples) if (e !== main) rules.push(rule(e, `example "${e.name}" (by query)`, [], true));
      // an example saved for one exact URL (`GET …/users/100` → 404) answers that URL, before the default answer
      for (const e of examples)
        if (e !== main && e.path !== undefined && !/\{[^}]+\}/.test(e.path))
          rules.push(rule(e, `example "${e.name}" (for ${e.path})`, [], false, { op: 'equal', value: e.path }));
      rules.push(rule(main, `example "${main.name}" (the default answer)`, []));
    });
  };
  walk(data['item'] as unknown[], '');
  const info = data['info'];
  return ok({
    format: 'postman',
    title: o.title ?? (typeof info['name'] === 'string' ? info['name'] : 'postman'),
    rules,
    leftOut,
    read: { count: read, noun: read === 1 ? 'request' : 'requests' },
    strategy: 'first_match',
    notes: [
      '',
      `A request answers its first 2xx example; send \`${EXAMPLE_NAME_HEADER}: <example name>\` or`,
      `\`${EXAMPLE_CODE_HEADER}: <status>\` for the others, as Postman's mock servers do.`,
    ],
  });
}
