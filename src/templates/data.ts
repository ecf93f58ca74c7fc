// The request as a template sees it (`request.params.id`, `request.query.page`…). Each part is built on first
// read and kept for the rest of the render, so a template that echoes one path parameter pays for nothing else.
// The view's properties are its own (getters on the object itself), which Handlebars' prototype-access
// protections allow; nothing reachable from it is a prototype method.
import type { RequestSnapshot } from '../model/request.js';
import type { TemplateData } from '../model/template.js';

/** A repeated query name or form field gives an array of its values; a single one, its value. */
function record(map: ReadonlyMap<string, readonly string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, vs] of map) out[k] = vs.length === 1 ? vs[0] : [...vs];
  return out;
}

/** Header names as any case: `request.headers.X-Request-Id` finds `x-request-id`. */
function headerRecord(req: RequestSnapshot): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of req.headers) out[k] = k in out ? `${out[k]}, ${v}` : v;
  return new Proxy(out, {
    get: (t, p) => (typeof p === 'string' ? (t[p] ?? t[p.toLowerCase()]) : undefined),
    has: (t, p) => typeof p === 'string' && (p in t || p.toLowerCase() in t),
    getOwnPropertyDescriptor: (t, p) =>
      typeof p === 'string'
        ? (Object.getOwnPropertyDescriptor(t, p) ?? Object.getOwnPropertyDescriptor(t, p.toLowerCase()))
        : undefined,
  });
}

function bodyOf(req: RequestSnapshot): unknown {
  const b = req.body;
  if (b.kind === 'json') return b.unchecked ?? b.value;
  return undefined;
}

/** the request a view was made from, for a template of another dialect (compile.ts's WireMock renders) */
export const SOURCE = Symbol('template source');

export interface ViewSource {
  readonly req: RequestSnapshot;
  readonly params: Readonly<Record<string, string>>;
}

export function sourceOf(data: TemplateData): ViewSource | undefined {
  return (data as { [SOURCE]?: ViewSource })[SOURCE];
}

export function templateData(req: RequestSnapshot, params: Readonly<Record<string, string>>): TemplateData {
  let query: Record<string, unknown> | undefined;
  let headers: Record<string, string> | undefined;
  let cookies: Record<string, string> | undefined;
  let form: Record<string, unknown> | undefined;
  const request = {
    method: req.method,
    path: req.path,
    params,
    get query() {
      return (query ??= record(req.parts.query));
    },
    get headers() {
      return (headers ??= headerRecord(req));
    },
    get cookies() {
      return (cookies ??= Object.assign(
        Object.create(null) as Record<string, string>,
        Object.fromEntries(req.parts.cookies),
      ));
    },
    get body() {
      return bodyOf(req);
    },
    get form() {
      return (form ??= record(req.parts.form?.fields ?? new Map()));
    },
    get text() {
      return req.parts.bodyText ?? '';
    },
  };
  const data = { request };
  Object.defineProperty(data, SOURCE, { value: { req, params }, enumerable: false });
  return data;
}

/**
 * The value at a data path (`request.query.page` as `['request', 'query', 'page']`) read straight from the request
 * and its path parameters, own properties only, as the same path reads in `templateData`'s view: a template that
 * echoes a parameter builds no view for it.
 */
export function requestValue(
  req: RequestSnapshot,
  params: Readonly<Record<string, string>>,
  parts: readonly string[],
): unknown {
  if (parts[0] !== 'request') return undefined;
  if (parts.length === 1) return templateData(req, params).request;
  let v: unknown;
  let i = 2;
  switch (parts[1]) {
    case 'method':
      v = req.method;
      break;
    case 'path':
      v = req.path;
      break;
    case 'params':
      v = params;
      break;
    case 'query':
      if (parts.length > 2) {
        const vs = req.parts.query.get(parts[2]!);
        v = vs === undefined ? undefined : vs.length === 1 ? vs[0] : [...vs];
        i = 3;
      } else v = record(req.parts.query);
      break;
    default:
      v = templateData(req, params).request;
      i = 1;
  }
  for (; i < parts.length; i++) {
    const part = parts[i]!;
    v =
      v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, part)
        ? (v as Record<string, unknown>)[part]
        : undefined;
  }
  return v;
}
