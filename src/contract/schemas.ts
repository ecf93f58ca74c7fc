// The document's schemas as ajv validators, compiled once at load. OpenAPI 3.1 schemas are JSON Schema 2020-12
// as they stand; OpenAPI 3.0 schemas are a dialect of draft 4/5 and are rewritten first: `nullable: true` lets
// `null` through, a boolean `exclusiveMinimum`/`exclusiveMaximum` becomes the number form, and the keywords JSON
// Schema does not know (`discriminator`, `xml`, `example`, `externalDocs`) are dropped. A `$ref` the parser left
// in place (a cycle) accepts anything. See docs/contract.md.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isObj, type Obj } from '../openapi/document.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

export type Dialect = '3.0' | '3.1';

export function dialectOf(doc: Obj): Dialect {
  return typeof doc['openapi'] === 'string' && doc['openapi'].startsWith('3.1') ? '3.1' : '3.0';
}

export interface Compiler {
  /** a validator for a body or parameter schema; coercing: strings from a query or a header become numbers etc. */
  compile(schema: unknown, coercing?: boolean): ValidateFunction;
}

/** One compiler per document: two ajv instances (exact, and coercing strings for parameters). */
export function compilerFor(doc: Obj): Compiler {
  const dialect = dialectOf(doc);
  const make = (coerce: boolean): Ajv => {
    const opts: Options = { strict: false, allErrors: true, logger: false, coerceTypes: coerce ? 'array' : false };
    const ajv = dialect === '3.1' ? new Ajv2020(opts) : new Ajv(opts);
    addFormats(ajv);
    // the OpenAPI formats ajv-formats leaves out: accepted as written
    for (const f of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'])
      if (!ajv.formats[f]) ajv.addFormat(f, true);
    return ajv;
  };
  const exact = make(false);
  const coercing = make(true);
  const converted = new WeakMap<object, unknown>();
  const prepare = (s: unknown): unknown => (dialect === '3.1' ? withoutCycles(s) : from30(s, converted, new Set()));
  return {
    compile: (schema, coerce = false) => {
      const s = prepare(schema);
      return (coerce ? coercing : exact).compile(isObj(s) || typeof s === 'boolean' ? s : {});
    },
  };
}

const DROPPED_30 = new Set(['discriminator', 'xml', 'example', 'externalDocs', 'nullable', '$ref']);

/** OpenAPI 3.0's schema dialect as JSON Schema (shared sub-schemas converted once; a cycle accepts anything). */
function from30(s: unknown, memo: WeakMap<object, unknown>, path: Set<object>): unknown {
  if (Array.isArray(s)) return s.map((x) => from30(x, memo, path));
  if (!isObj(s)) return s;
  if (path.has(s)) return {};
  const known = memo.get(s);
  if (known !== undefined) return known;
  path.add(s);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (DROPPED_30.has(k)) continue;
    if (k === 'properties' || k === 'patternProperties' || k === 'definitions') {
      out[k] = isObj(v) ? Object.fromEntries(Object.entries(v).map(([n, x]) => [n, from30(x, memo, path)])) : v;
    } else if (k === 'exclusiveMinimum' || k === 'exclusiveMaximum') {
      if (typeof v === 'number') out[k] = v;
    } else if (k === 'enum' || k === 'default' || k === 'required' || k === 'type' || k === 'format') out[k] = v;
    else if (k === 'items' || k === 'additionalProperties' || k === 'not') out[k] = from30(v, memo, path);
    else if (k === 'allOf' || k === 'anyOf' || k === 'oneOf') out[k] = from30(v, memo, path);
    else out[k] = v;
  }
  if (s['exclusiveMinimum'] === true && typeof s['minimum'] === 'number') {
    out['exclusiveMinimum'] = s['minimum'];
    delete out['minimum'];
  }
  if (s['exclusiveMaximum'] === true && typeof s['maximum'] === 'number') {
    out['exclusiveMaximum'] = s['maximum'];
    delete out['maximum'];
  }
  let result: unknown = out;
  if (s['nullable'] === true) {
    if (typeof out['type'] === 'string') {
      out['type'] = [out['type'], 'null'];
      const e: unknown = out['enum'];
      if (Array.isArray(e) && !e.includes(null)) out['enum'] = [...(e as unknown[]), null];
    } else result = { anyOf: [out, { type: 'null' }] };
  }
  path.delete(s);
  memo.set(s, result);
  return result;
}

/** A 3.1 schema with any cycle (a `$ref` the parser could not inline) cut to `{}`: ajv compiles a tree. */
function withoutCycles(s: unknown, path = new Set<object>(), memo = new WeakMap<object, unknown>()): unknown {
  if (Array.isArray(s)) return s.map((x) => withoutCycles(x, path, memo));
  if (!isObj(s)) return s;
  if (path.has(s)) return {};
  const known = memo.get(s);
  if (known !== undefined) return known;
  path.add(s);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#')) continue;
    out[k] = k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? v : withoutCycles(v, path, memo);
  }
  path.delete(s);
  memo.set(s, out);
  return out;
}

/** One ajv error as `<where>: <message>`: `query.limit: must be <= 100`, `body.items.0.id: must be integer`. */
export function errorText(base: string, e: ErrorObject): string {
  const tokens = e.instancePath
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required' && isObj(e.params) && typeof e.params['missingProperty'] === 'string') {
    return `${[base, ...tokens, e.params['missingProperty']].join('.')}: is required`;
  }
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'enum' && isObj(e.params) && Array.isArray(e.params['allowedValues']))
    message += ` (${e.params['allowedValues'].map((v) => JSON.stringify(v)).join(', ')})`;
  if (e.keyword === 'additionalProperties' && isObj(e.params) && typeof e.params['additionalProperty'] === 'string')
    message += ` (\`${e.params['additionalProperty']}\`)`;
  return `${[base, ...tokens].join('.')}: ${message}`;
}

/** The errors of a failed validation, each as errorText gives it (the first few; a long list says how many more). */
export function errorsText(base: string, v: ValidateFunction, limit = 8): readonly string[] {
  const errs = (v.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if');
  const shown = (errs.length > 0 ? errs : (v.errors ?? [])).slice(0, limit).map((e) => errorText(base, e));
  const more = (v.errors?.length ?? 0) - shown.length;
  return more > 0 && errs.length > limit ? [...shown, `… and ${errs.length - limit} more`] : shown;
}
