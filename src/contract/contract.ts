// An OpenAPI document compiled for checking: its operations with their path patterns, parameter and body
// validators, and documented responses (by status, then by media type). Compiled once (at load), then asked per
// request: which operation is this, does the request keep to it, does the answer. Pure: the caller parses the
// document (cli/commands/openapi-load.ts) and reads the disk. See docs/contract.md.
import type { ValidateFunction } from 'ajv';
import { deref, entriesOf, isObj, objAt, operationsOf, pointerOf, strAt, type Obj } from '../openapi/document.js';
import { basePathOf, splitPathKey } from '../openapi/paths.js';
import { getHeader, type HeaderList } from '../shared/headers.js';
import { compilerFor, errorsText, type Compiler } from './schemas.js';

export type ParamPlace = 'path' | 'query' | 'header' | 'cookie';

export interface MediaCheck {
  /** the media type as documented (`application/json`, `application/*`, `*\/*`) */
  readonly type: string;
  /** JSON media types with a schema */
  readonly validate?: ValidateFunction;
}

export interface DocumentedResponse {
  /** `200`, `2XX` or `default` */
  readonly key: string;
  readonly pointer: string;
  readonly media: readonly MediaCheck[];
}

export interface ContractOperation {
  readonly method: string;
  /** the path key as written (`/pets/{petId}`) */
  readonly path: string;
  /** `#/paths/~1pets~1{petId}/get` */
  readonly pointer: string;
  readonly op: Obj;
  /** its parameters and its path item's, dereferenced (an operation's own come last) */
  readonly parameters: readonly Obj[];
  /** the path's segments: a literal, or a parameter's name (a segment like `{id}.json`: a regex) */
  readonly segments: readonly Segment[];
  /** the number of literal segments (more literal wins: OpenAPI's precedence) */
  readonly literals: number;
  /** path, query, header and cookie parameters: one coercing validator per place, over an object of them */
  readonly params: readonly PlaceCheck[];
  readonly body?: { readonly required: boolean; readonly pointer: string; readonly media: readonly MediaCheck[] };
  readonly responses: readonly DocumentedResponse[];
}

type Segment = { readonly literal: string } | { readonly param: string } | { readonly pattern: RegExp };

interface PlaceCheck {
  readonly place: ParamPlace;
  /** the parameters of this place, by name as documented (headers lower-cased) */
  readonly names: readonly string[];
  /** the parameters whose schema is an array (a repeated query name gives several values) */
  readonly arrays: ReadonlySet<string>;
  readonly validate: ValidateFunction;
}

export interface Contract {
  readonly operations: readonly ContractOperation[];
  /** the path of `servers[0].url` ('' when none): request paths are matched with it taken off */
  readonly basePath: string;
}

/** Headers a parameter may not describe (OpenAPI: they are described elsewhere). */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export function compileContract(doc: Obj, compiler: Compiler = compilerFor(doc)): Contract {
  const base = (basePathOf(doc) ?? '').replace(/\/+$/, '');
  const operations = operationsOf(doc).map((o): ContractOperation => {
    const key = splitPathKey(o.path).path;
    const tokens = ['paths', o.path, o.method.toLowerCase()];
    const segments = segmentsOf(key);
    const own: readonly unknown[] = Array.isArray(o.op['parameters']) ? (o.op['parameters'] as unknown[]) : [];
    const parameters = [...(o.shared ?? []), ...own].map((p) => deref(doc, p)).filter(isObj);
    const params = paramChecks(parameters, compiler);
    const rb = deref(doc, o.op['requestBody']);
    const body = isObj(rb)
      ? {
          required: rb['required'] === true,
          pointer: pointerOf([...tokens, 'requestBody']),
          media: mediaOf(doc, rb, compiler),
        }
      : undefined;
    const responses = entriesOf(objAt(o.op, 'responses')).map(([status, r]): DocumentedResponse => {
      const resp = deref(doc, r);
      return {
        key: status,
        pointer: pointerOf([...tokens, 'responses', status]),
        media: isObj(resp) ? mediaOf(doc, resp, compiler) : [],
      };
    });
    return {
      method: o.method,
      path: o.path,
      pointer: pointerOf(tokens),
      op: o.op,
      parameters,
      segments,
      literals: segments.filter((s) => 'literal' in s).length,
      params,
      ...(body === undefined ? {} : { body }),
      responses,
    };
  });
  return { operations, basePath: base };
}

function segmentsOf(path: string): readonly Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((s): Segment => {
      const whole = /^\{([^}]+)\}$/.exec(s);
      if (whole !== null) return { param: whole[1]! };
      if (!s.includes('{')) return { literal: s };
      const body = s
        .split(/(\{[^}]*\})/)
        .map((p, i) => (i % 2 === 1 ? '[^/]+' : p.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')))
        .join('');
      return { pattern: new RegExp(`^${body}$`) };
    });
}

function mediaOf(doc: Obj, holder: Obj, compiler: Compiler): readonly MediaCheck[] {
  return entriesOf(objAt(holder, 'content')).map(([type, m]): MediaCheck => {
    const media = deref(doc, m);
    const schema = isObj(media) ? media['schema'] : undefined;
    if (schema === undefined || !isJsonType(type)) return { type };
    return { type, validate: compiler.compile(schema) };
  });
}

function paramChecks(parameters: readonly Obj[], compiler: Compiler): readonly PlaceCheck[] {
  // an operation's own parameter overrides the path item's of the same name and place
  const byKey = new Map<string, Obj>();
  for (const param of parameters) {
    const name = strAt(param, 'name');
    const place = strAt(param, 'in');
    if (name === undefined || place === undefined) continue;
    byKey.set(`${place}\u0000${place === 'header' ? name.toLowerCase() : name}`, param);
  }
  const out: PlaceCheck[] = [];
  for (const place of ['path', 'query', 'header', 'cookie'] as const) {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const arrays = new Set<string>();
    for (const [key, p] of byKey) {
      if (!key.startsWith(place + '\u0000')) continue;
      const name = key.slice(place.length + 1);
      if (place === 'header' && RESERVED_HEADERS.has(name)) continue;
      const schema = p['schema'] ?? schemaOfContent(p);
      properties[name] = schema ?? {};
      if (
        isObj(schema) &&
        (schema['type'] === 'array' || (Array.isArray(schema['type']) && schema['type'].includes('array')))
      )
        arrays.add(name);
      if (p['required'] === true || place === 'path') required.push(name);
    }
    const names = Object.keys(properties);
    if (names.length === 0) continue;
    out.push({
      place,
      names,
      arrays,
      validate: compiler.compile({ type: 'object', properties, required }, true),
    });
  }
  return out;
}

function schemaOfContent(p: Obj): unknown {
  const media = entriesOf(objAt(p, 'content'))[0]?.[1];
  return isObj(media) ? media['schema'] : undefined;
}

export function isJsonType(t: string): boolean {
  const base = t.split(';')[0]!.trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json') || /^application\/x-amz-json-\d/.test(base);
}

export interface Match {
  readonly operation: ContractOperation;
  /** path parameters by name, decoded */
  readonly pathParams: ReadonlyMap<string, string>;
}

/** The segments of a request path relative to the document's base path; undefined when it lies outside it. */
function relativeSegments(contract: Contract, segments: readonly string[]): readonly string[] | undefined {
  if (contract.basePath === '') return segments;
  const base = contract.basePath.split('/').slice(1);
  if (segments.length < base.length) return undefined;
  for (let i = 0; i < base.length; i++) if (segments[i] !== base[i]) return undefined;
  return segments.slice(base.length);
}

/** The documented operations whose path matches these (decoded) request segments, most literal first. */
export function pathMatches(contract: Contract, requestSegments: readonly string[]): readonly Match[] {
  let segs = relativeSegments(contract, requestSegments);
  if (segs === undefined) return [];
  // the server matches `/pets/` as `/pets`
  if (segs.length > 1 && segs[segs.length - 1] === '') segs = segs.slice(0, -1);
  if (segs.length === 1 && segs[0] === '') segs = [''];
  const out: Match[] = [];
  for (const operation of contract.operations) {
    const m = matchSegments(operation.segments, segs);
    if (m !== undefined) out.push({ operation, pathParams: m });
  }
  return out.sort((a, b) => b.operation.literals - a.operation.literals);
}

function matchSegments(pattern: readonly Segment[], segs: readonly string[]): Map<string, string> | undefined {
  const p = pattern.length === 1 && 'literal' in pattern[0]! && pattern[0].literal === '' ? [] : pattern;
  const s = segs.length === 1 && segs[0] === '' ? [] : segs;
  if (p.length !== s.length) return undefined;
  const params = new Map<string, string>();
  for (let i = 0; i < p.length; i++) {
    const seg = p[i]!;
    const got = s[i]!;
    if ('literal' in seg) {
      if (seg.literal !== got) return undefined;
    } else if ('param' in seg) {
      if (got === '') return undefined;
      params.set(seg.param, got);
    } else if (!seg.pattern.test(got)) return undefined;
  }
  return params;
}

/** The documented operation for this method and path: a path may be documented for other methods only. */
export function findOperation(
  contract: Contract,
  method: string,
  segments: readonly string[],
): { readonly match?: Match; readonly pathKnown: boolean } {
  const all = pathMatches(contract, segments);
  const m =
    method === 'HEAD'
      ? (all.find((x) => x.operation.method === 'HEAD') ?? all.find((x) => x.operation.method === 'GET'))
      : all.find((x) => x.operation.method === method);
  return m === undefined ? { pathKnown: all.length > 0 } : { match: m, pathKnown: true };
}

/** What a request holds, as the checks read it. */
export interface RequestView {
  readonly query: ReadonlyMap<string, readonly string[]>;
  readonly headers: HeaderList;
  readonly cookies: ReadonlyMap<string, string>;
  /** the body: absent, JSON (parsed) or other bytes with their content type */
  readonly body:
    | { readonly kind: 'none' }
    | { readonly kind: 'json'; readonly value: unknown }
    | { readonly kind: 'other' };
}

/** Each way the request breaks the operation, as `query.limit: must be <= 100`; [] when it keeps to it. */
export function requestViolations(m: Match, req: RequestView): readonly string[] {
  const out: string[] = [];
  for (const check of m.operation.params) {
    const data: Record<string, unknown> = {};
    for (const name of check.names) {
      const v = valueOf(check.place, name, m, req);
      if (v === undefined) continue;
      data[name] = v.length === 1 && !check.arrays.has(name) ? v[0] : check.arrays.has(name) ? splitArray(v) : v[0];
    }
    if (!check.validate(data)) out.push(...errorsText(check.place, check.validate));
  }
  const body = m.operation.body;
  if (body !== undefined) {
    if (req.body.kind === 'none') {
      if (body.required) out.push('body: is required');
    } else {
      const type = getHeader(req.headers, 'content-type') ?? '';
      const media = mediaFor(body.media, type);
      if (media === undefined && body.media.length > 0)
        out.push(
          `body: content type ${type === '' ? '(none)' : `\`${type}\``} is not documented (${body.media.map((x) => x.type).join(', ')})`,
        );
      else if (media?.validate !== undefined && req.body.kind === 'json' && !media.validate(req.body.value))
        out.push(...errorsText('body', media.validate));
    }
  }
  return out;
}

function valueOf(place: ParamPlace, name: string, m: Match, req: RequestView): readonly string[] | undefined {
  switch (place) {
    case 'path': {
      const v = m.pathParams.get(name);
      return v === undefined ? undefined : [v];
    }
    case 'query':
      return req.query.get(name);
    case 'header': {
      const vs = req.headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
      return vs.length === 0 ? undefined : vs;
    }
    case 'cookie': {
      const v = req.cookies.get(name);
      return v === undefined ? undefined : [v];
    }
  }
}

/** `?ids=1,2,3` (form style, not exploded) as well as `?ids=1&ids=2` */
function splitArray(v: readonly string[]): readonly string[] {
  return v.length === 1 ? v[0]!.split(',') : v;
}

/** The documented media type an actual content type falls under: exact, then `type/*`, then `*\/*`. */
export function mediaFor(media: readonly MediaCheck[], actual: string): MediaCheck | undefined {
  const base = actual.split(';')[0]!.trim().toLowerCase();
  const norm = (t: string): string => t.split(';')[0]!.trim().toLowerCase();
  return (
    media.find((x) => norm(x.type) === base) ??
    media.find((x) => norm(x.type) === `${base.split('/')[0]}/*`) ??
    media.find((x) => norm(x.type) === '*/*')
  );
}

/** The documented response for a status: exact, then `2XX`, then `default`. */
export function responseFor(op: ContractOperation, status: number): DocumentedResponse | undefined {
  const s = String(status);
  return (
    op.responses.find((r) => r.key === s) ??
    op.responses.find((r) => r.key.toUpperCase() === `${s[0]}XX`) ??
    op.responses.find((r) => r.key === 'default')
  );
}

/** One way an answer breaks the document, with the pointer it breaks. */
export interface AnswerViolation {
  readonly kind: 'undocumented_status' | 'undocumented_content_type' | 'schema_mismatch';
  readonly pointer: string;
  readonly message: string;
}

/**
 * How an answer (status, content type, body bytes) breaks the operation's documented responses; [] when it
 * keeps to them. An empty body is not checked against a schema (HEAD, 204, or a rule answering with no body).
 */
export function answerViolations(
  op: ContractOperation,
  status: number,
  contentType: string | undefined,
  body: Uint8Array,
): readonly AnswerViolation[] {
  const documented = responseFor(op, status);
  const at = `${op.method} ${op.path}`;
  if (documented === undefined) {
    return [
      {
        kind: 'undocumented_status',
        pointer: pointerOf(['paths', op.path, op.method.toLowerCase(), 'responses']),
        message: `${at} answers ${status}, which is not documented (${op.responses.map((r) => r.key).join(', ') || 'no responses'})`,
      },
    ];
  }
  if (body.byteLength === 0 || documented.media.length === 0) return [];
  const type = contentType ?? '';
  const media = mediaFor(documented.media, type);
  if (media === undefined) {
    return [
      {
        kind: 'undocumented_content_type',
        pointer: documented.pointer + '/content',
        message: `${at} answers ${status} as ${type === '' ? '(no content type)' : `\`${type.split(';')[0]!.trim()}\``}, documented as ${documented.media.map((m) => `\`${m.type}\``).join(', ')}`,
      },
    ];
  }
  if (media.validate === undefined || !isJsonType(type)) return [];
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch (e) {
    return [
      {
        kind: 'schema_mismatch',
        pointer: `${documented.pointer}/content/${media.type.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`,
        message: `${at} answers ${status} with a body that is not JSON: ${e instanceof Error ? e.message : String(e)}`,
      },
    ];
  }
  if (media.validate(value)) return [];
  return [
    {
      kind: 'schema_mismatch',
      pointer: `${documented.pointer}/content/${media.type.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`,
      message: `${at} answers ${status} with a body that breaks the schema: ${errorsText('body', media.validate).join('; ')}`,
    },
  ];
}
