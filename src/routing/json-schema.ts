// The body operator `json_schema` (docs/matching.md#json-schema): the value at a path is valid against the JSON
// Schema `value`. The keywords a request-matching schema is written with are checked (type, enum, const,
// properties, required, additionalProperties, patternProperties-free objects, items, prefixItems, min/max of
// lengths, items, properties and numbers, exclusive bounds, multipleOf, pattern, uniqueItems, allOf, anyOf,
// oneOf, not, if/then/else, local `$ref` to `#/$defs/…` or `#/definitions/…`); other keywords (`format`,
// annotations) are ignored, as a validator does by default. Schemas are the rule's, so they are trusted text.
import type { Json, JsonObject } from '../shared/json.js';
import { jsonMatches } from './json-match.js';

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: Json | undefined): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;

function typeOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function hasType(v: Json, t: Json): boolean {
  const actual = typeOf(v);
  const one = (x: Json): boolean => x === actual || (x === 'number' && actual === 'integer');
  return Array.isArray(t) ? (t as readonly Json[]).some(one) : one(t);
}

const PATTERNS = new Map<string, RegExp | null>();
function pattern(source: string): RegExp | null {
  let re = PATTERNS.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source, 'u');
    } catch {
      re = null;
    }
    PATTERNS.set(source, re);
  }
  return re;
}

const same = (a: Json, b: Json): boolean => jsonMatches(a, b, { extra: false, anyOrder: false });

/** `v` is valid against `schema`; `root` resolves local `$ref`s; `depth` bounds recursion through them */
export function schemaValid(v: Json, schema: Json, root: Json = schema, depth = 0): boolean {
  if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) return true;
  if (schema === false || !isObject(schema) || depth > 64) return false;
  const s = schema;
  const sub = (x: Json, sch: Json): boolean => schemaValid(x, sch, root, depth + 1);
  if (typeof s['$ref'] === 'string') {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(s['$ref']);
    const defs = m === null ? undefined : isObject(root) ? root[m[1]!] : undefined;
    if (m === null || !isObject(defs) || !sub(v, defs[m[2]!] ?? false)) return false;
  }
  if (s['type'] !== undefined && !hasType(v, s['type'])) return false;
  if (Array.isArray(s['enum']) && !(s['enum'] as readonly Json[]).some((e) => same(v, e))) return false;
  if (s['const'] !== undefined && !same(v, s['const'])) return false;
  if (Array.isArray(s['allOf']) && !(s['allOf'] as readonly Json[]).every((x) => sub(v, x))) return false;
  if (Array.isArray(s['anyOf']) && !(s['anyOf'] as readonly Json[]).some((x) => sub(v, x))) return false;
  if (Array.isArray(s['oneOf']) && (s['oneOf'] as readonly Json[]).filter((x) => sub(v, x)).length !== 1) return false;
  if (s['not'] !== undefined && sub(v, s['not'])) return false;
  if (s['if'] !== undefined) {
    const branch = sub(v, s['if']) ? s['then'] : s['else'];
    if (branch !== undefined && !sub(v, branch)) return false;
  }
  if (typeof v === 'string') return stringValid(v, s);
  const n = num(v);
  if (n !== undefined) return numberValid(n, s);
  if (Array.isArray(v)) return arrayValid(v as readonly Json[], s, sub);
  if (isObject(v)) return objectValid(v, s, sub);
  return true;
}

function stringValid(v: string, s: JsonObject): boolean {
  const len = [...v].length;
  const min = num(s['minLength']);
  const max = num(s['maxLength']);
  if ((min !== undefined && len < min) || (max !== undefined && len > max)) return false;
  if (typeof s['pattern'] === 'string') {
    const re = pattern(s['pattern']);
    if (re === null || !re.test(v)) return false;
  }
  return true;
}

function numberValid(n: number, s: JsonObject): boolean {
  const min = num(s['minimum']);
  const max = num(s['maximum']);
  const xmin = num(s['exclusiveMinimum']);
  const xmax = num(s['exclusiveMaximum']);
  const mult = num(s['multipleOf']);
  if (min !== undefined && n < min) return false;
  if (max !== undefined && n > max) return false;
  if (xmin !== undefined && n <= xmin) return false;
  if (xmax !== undefined && n >= xmax) return false;
  if (mult !== undefined && mult > 0 && Math.abs(n / mult - Math.round(n / mult)) > 1e-9) return false;
  return true;
}

function arrayValid(v: readonly Json[], s: JsonObject, sub: (x: Json, sch: Json) => boolean): boolean {
  const min = num(s['minItems']);
  const max = num(s['maxItems']);
  if ((min !== undefined && v.length < min) || (max !== undefined && v.length > max)) return false;
  const prefix = Array.isArray(s['prefixItems']) ? (s['prefixItems'] as readonly Json[]) : [];
  for (let i = 0; i < prefix.length && i < v.length; i++) if (!sub(v[i]!, prefix[i]!)) return false;
  const items = s['items'];
  if (Array.isArray(items)) {
    // draft-07's tuple form
    const list = items as readonly Json[];
    for (let i = 0; i < list.length && i < v.length; i++) if (!sub(v[i]!, list[i]!)) return false;
  } else if (items !== undefined) {
    for (let i = prefix.length; i < v.length; i++) if (!sub(v[i]!, items)) return false;
  }
  if (s['uniqueItems'] === true)
    for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) if (same(v[i]!, v[j]!)) return false;
  return true;
}

function objectValid(v: JsonObject, s: JsonObject, sub: (x: Json, sch: Json) => boolean): boolean {
  const keys = Object.keys(v);
  const min = num(s['minProperties']);
  const max = num(s['maxProperties']);
  if ((min !== undefined && keys.length < min) || (max !== undefined && keys.length > max)) return false;
  if (Array.isArray(s['required']))
    for (const k of s['required'] as readonly Json[]) if (typeof k !== 'string' || !Object.hasOwn(v, k)) return false;
  const props = isObject(s['properties']) ? s['properties'] : {};
  for (const k of keys) {
    if (Object.hasOwn(props, k)) {
      if (!sub(v[k]!, props[k]!)) return false;
    } else if (s['additionalProperties'] !== undefined && !sub(v[k]!, s['additionalProperties'])) return false;
  }
  return true;
}
