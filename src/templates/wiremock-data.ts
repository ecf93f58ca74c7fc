// WireMock's request model for templates of the `wiremock` dialect (docs/templates.md#wiremock-dialect), as
// WireMock 3 renders it: `request.path` reads as the whole path and `request.path.[0]` is its first segment,
// `request.query.ids` is the first value and `request.query.ids.[1]` the second (so are headers and cookies),
// `request.body` is the body's text, `request.headers` renders as `{Accept=*/*, Host=…}`. A multi-value is an
// array marked with how it reads alone; helpers.ts's wireText renders the marks.
import type { RequestSnapshot } from '../model/request.js';

/** how a marked value (a path, a multi-value, a map) reads as text */
export const WM_TEXT = Symbol('wiremock text');

export type Marked = { [WM_TEXT]?: string };

/** the request-model fields a template may name under `request.` */
export const WIREMOCK_FIELDS = [
  'url',
  'path',
  'pathSegments',
  'query',
  'headers',
  'cookies',
  'body',
  'bodyAsBase64',
  'method',
  'host',
  'port',
  'scheme',
  'baseUrl',
  'multipart',
] as const;

/** an array of values that reads as its first (WireMock's MultiValue) */
export function multi(values: readonly string[]): string[] & Marked {
  const out = [...values] as string[] & Marked;
  Object.defineProperty(out, WM_TEXT, { value: values[0] ?? '', enumerable: false });
  return out;
}

/** name → multi-value, looked up in any case for headers, rendered as Java's sorted map text */
function multiMap(pairs: Iterable<readonly [string, readonly string[]]>, anyCase: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sorted = [...pairs].sort(([a], [b]) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  for (const [k, vs] of sorted) out[k] = multi(vs);
  Object.defineProperty(out, WM_TEXT, {
    value: `{${sorted.map(([k, vs]) => `${k}=${vs[0] ?? ''}`).join(', ')}}`,
    enumerable: false,
  });
  if (!anyCase) return out;
  const lower = new Map(Object.keys(out).map((k) => [k.toLowerCase(), k]));
  const find = (p: string): string | undefined => (p in out ? p : lower.get(p.toLowerCase()));
  return new Proxy(out, {
    get: (t, p) => (typeof p === 'string' ? t[find(p) ?? p] : (t as Record<symbol, unknown>)[p]),
    has: (t, p) => (typeof p === 'string' ? find(p) !== undefined : p in t),
    getOwnPropertyDescriptor: (t, p) => Object.getOwnPropertyDescriptor(t, typeof p === 'string' ? (find(p) ?? p) : p),
  });
}

/** `Content-Type` for `content-type`: the case WireMock shows header names in */
function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

function grouped(pairs: Iterable<readonly [string, string]>, name: (k: string) => string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of pairs) {
    const key = name(k);
    const list = out.get(key);
    if (list === undefined) out.set(key, [v]);
    else list.push(v);
  }
  return out;
}

/** How each part of the request model is made from the request. */
const MAKERS: Readonly<
  Record<(typeof WIREMOCK_FIELDS)[number], (req: RequestSnapshot, params: Readonly<Record<string, string>>) => unknown>
> = {
  url: (req) => req.rawPath + (req.query === '' ? '' : `?${req.query}`),
  path: (req) => {
    const segments = req.segments.filter((s, i) => s !== '' || i < req.segments.length - 1);
    const out = [...segments] as string[] & Marked;
    Object.defineProperty(out, WM_TEXT, { value: req.rawPath, enumerable: false });
    return out;
  },
  pathSegments: (req, params) => {
    const out: Record<string, unknown> = { ...params };
    Object.defineProperty(out, WM_TEXT, { value: req.rawPath, enumerable: false });
    return out;
  },
  query: (req) => multiMap(req.parts.query, false),
  headers: (req) => multiMap(grouped(req.headers, headerCase), true),
  cookies: (req) =>
    multiMap(
      [...req.parts.cookies].map(([k, v]) => [k, [v]] as const),
      false,
    ),
  body: (req) => req.parts.bodyText ?? '',
  bodyAsBase64: (req) => Buffer.from(req.parts.bodyText ?? '').toString('base64'),
  method: (req) => req.method,
  host: (req) => {
    const h = hostOf(req);
    const colon = h.lastIndexOf(':');
    return colon > 0 && !h.endsWith(']') ? h.slice(0, colon) : h;
  },
  port: (req) => {
    const h = hostOf(req);
    const colon = h.lastIndexOf(':');
    return colon > 0 && !h.endsWith(']') ? Number(h.slice(colon + 1)) : 80;
  },
  scheme: () => 'http',
  baseUrl: (req) => `http://${hostOf(req)}`,
  multipart: (req) => {
    const out: Record<string, unknown> = {};
    for (const [k, vs] of req.parts.form?.fields ?? []) out[k] = { name: k, body: vs[0] ?? '' };
    return out;
  },
};

function hostOf(req: RequestSnapshot): string {
  return req.headers.find(([k]) => k === 'host')?.[1] ?? '127.0.0.1';
}

/**
 * The `request` a WireMock template sees: the parts it names (`fields`, from the template's paths), or every part
 * when it names `request` itself. Plain own properties: Handlebars reads nothing else.
 */
export function wiremockRequest(
  req: RequestSnapshot,
  params: Readonly<Record<string, string>>,
  fields?: ReadonlySet<string>,
): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of WIREMOCK_FIELDS) if (fields === undefined || fields.has(key)) view[key] = MAKERS[key](req, params);
  return view;
}
