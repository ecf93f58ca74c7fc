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

/** The `request` a WireMock template sees, built lazily, part by part. */
export function wiremockRequest(
  req: RequestSnapshot,
  params: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const hostHeader = req.headers.find(([k]) => k === 'host')?.[1] ?? '127.0.0.1';
  const colon = hostHeader.lastIndexOf(':');
  const host = colon > 0 && !hostHeader.endsWith(']') ? hostHeader.slice(0, colon) : hostHeader;
  const port = colon > 0 ? Number(hostHeader.slice(colon + 1)) : 80;
  const body = req.parts.bodyText ?? '';
  const cache = new Map<string, unknown>();
  const once = (key: string, make: () => unknown): unknown => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key);
  };
  const view: Record<string, unknown> = {};
  const define = (key: (typeof WIREMOCK_FIELDS)[number], make: () => unknown): void => {
    Object.defineProperty(view, key, { get: () => once(key, make), enumerable: true });
  };
  define('url', () => req.rawPath + (req.query === '' ? '' : `?${req.query}`));
  define('path', () => {
    const segments = req.segments.filter((s, i) => s !== '' || i < req.segments.length - 1);
    const out = [...segments] as string[] & Marked;
    Object.defineProperty(out, WM_TEXT, { value: req.rawPath, enumerable: false });
    return out;
  });
  define('pathSegments', () => {
    const out: Record<string, unknown> = { ...params };
    Object.defineProperty(out, WM_TEXT, { value: req.rawPath, enumerable: false });
    return out;
  });
  define('query', () => multiMap(req.parts.query, false));
  define('headers', () => multiMap(grouped(req.headers, headerCase), true));
  define('cookies', () =>
    multiMap(
      [...req.parts.cookies].map(([k, v]) => [k, [v]] as const),
      false,
    ),
  );
  define('body', () => body);
  define('bodyAsBase64', () => Buffer.from(body).toString('base64'));
  define('method', () => req.method);
  define('host', () => host);
  define('port', () => port);
  define('scheme', () => 'http');
  define('baseUrl', () => `http://${hostHeader}`);
  define('multipart', () => {
    const out: Record<string, unknown> = {};
    for (const [k, vs] of req.parts.form?.fields ?? []) out[k] = { name: k, body: vs[0] ?? '' };
    return out;
  });
  return view;
}
