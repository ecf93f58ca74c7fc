// A value made from a JSON schema (OpenAPI 3.0 with `nullable`, or 3.1) that validates against it, always the
// same for the same schema. Local `$ref`s are followed as they are met (the document is never copied or fully
// dereferenced), `allOf` is merged before sampling (so a `$ref` wrapped with a description keeps its
// constraints), `oneOf` takes the first branch whose value matches no other branch, strings follow `pattern`
// (randexp, with a fixed seed) or a small table of formats, numbers and arrays keep their bounds. A schema's own
// example is used for a scalar when it conforms. Deep or recursive schemas stop at a depth, keeping only the
// required properties there. See docs/openapi.md.
import RandExpModule from 'randexp';
import { isObj, resolveRef, type Obj } from './document.js';

// randexp is CommonJS whose module.exports is the class (its types describe it as a `default` export)
const RandExp = ((RandExpModule as unknown as { default?: unknown }).default ??
  RandExpModule) as unknown as typeof RandExpModule.default;
type RandExp = InstanceType<typeof RandExp>;

export interface SampleOptions {
  /** leave out writeOnly properties (a response) or readOnly ones (a request) */
  readonly skip?: 'writeOnly' | 'readOnly';
}

/** beyond this depth only required properties and minimal arrays are made */
const SHALLOW_DEPTH = 8;
/** beyond this depth nothing more is made (the value may then break the schema: a recursion without end) */
const MAX_DEPTH = 24;
/** a `$ref` met this often on the way down is not followed further than needed */
const REF_REPEATS = 2;

const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  url: 'https://example.com/',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'json-pointer': '/a',
  'relative-json-pointer': '0',
  regex: '.*',
  byte: 'AAAA',
  binary: '',
  password: 'password',
  int32: '0',
  int64: '0',
};

type Schema = Obj;

interface Ctx {
  readonly doc: Obj;
  readonly skip: 'writeOnly' | 'readOnly' | undefined;
  readonly refs: Map<string, number>;
}

export function sampleSchema(schema: unknown, doc: Obj, opts: SampleOptions = {}): unknown {
  return gen(schema, { doc, skip: opts.skip, refs: new Map() }, 0, 0);
}

/** values made for a schema object, by the object (and what is skipped) */
const madeFor = new WeakMap<object, Map<string, unknown>>();
/** values made for a bare `$ref`, by the document, then the `$ref` (and what is skipped) */
const madeForRef = new WeakMap<Obj, Map<string, unknown>>();

/**
 * sampleSchema, made once per schema: the same value (one object, not a copy: never to be changed) for a schema
 * met again, or for another bare `$ref` to the same target. A large document answers thousands of operations
 * with the same few hundred schemas (docs/openapi.md#large-documents).
 */
export function sampleSchemaOnce(schema: unknown, doc: Obj, opts: SampleOptions = {}): unknown {
  if (typeof schema !== 'object' || schema === null) return sampleSchema(schema, doc, opts);
  const skip = opts.skip ?? '';
  const ref = (schema as Obj)['$ref'];
  let cache: Map<string, unknown> | undefined;
  let key = skip;
  if (typeof ref === 'string' && Object.keys(schema).length === 1) {
    cache = madeForRef.get(doc);
    if (cache === undefined) madeForRef.set(doc, (cache = new Map<string, unknown>()));
    key = `${skip}\0${ref}`;
  } else {
    cache = madeFor.get(schema);
    if (cache === undefined) madeFor.set(schema, (cache = new Map<string, unknown>()));
  }
  if (cache.has(key)) return cache.get(key);
  const value = sampleSchema(schema, doc, opts);
  cache.set(key, value);
  return value;
}

/** Follow `$ref` (counting each on the way down) and merge `allOf`; undefined when a `$ref` repeats too often. */
function flatten(s: unknown, ctx: Ctx, seen: string[]): Schema {
  if (s === true || s === undefined) return {};
  if (s === false) return { not: {} };
  if (!isObj(s)) return {};
  let cur: Schema = s;
  for (let hops = 0; typeof cur['$ref'] === 'string' && hops < 32; hops++) {
    const ref = cur['$ref'];
    const target = resolveRef(ctx.doc, ref);
    if (!isObj(target)) break;
    seen.push(ref);
    // 3.1 allows siblings of $ref: they apply too
    const { $ref: _r, ...rest } = cur;
    cur = Object.keys(rest).length === 0 ? target : { allOf: [target, rest] };
  }
  if (Array.isArray(cur['allOf']) && cur['allOf'].length > 0) {
    const { allOf, ...rest } = cur;
    let merged: Schema = flatten(rest, ctx, seen);
    for (const part of allOf as unknown[]) merged = merge(merged, flatten(part, ctx, seen));
    return merged;
  }
  return cur;
}

const min = (a: unknown, b: unknown): unknown =>
  typeof a !== 'number' ? b : typeof b !== 'number' ? a : Math.min(a, b);
const max = (a: unknown, b: unknown): unknown =>
  typeof a !== 'number' ? b : typeof b !== 'number' ? a : Math.max(a, b);

/** Two schemas that must both hold, as one (the keywords the sampler reads). */
function merge(a: Schema, b: Schema): Schema {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const had = out[k];
    if (had === undefined) {
      out[k] = v;
      continue;
    }
    switch (k) {
      case 'properties': {
        const props: Record<string, unknown> = { ...(had as Obj) };
        for (const [p, ps] of Object.entries(v as Obj))
          props[p] = props[p] === undefined ? ps : { allOf: [props[p], ps] };
        out[k] = props;
        break;
      }
      case 'required':
        out[k] = [...new Set<unknown>([...(had as unknown[]), ...(Array.isArray(v) ? (v as unknown[]) : [])])];
        break;
      case 'type': {
        const ta: unknown[] = Array.isArray(had) ? (had as unknown[]) : [had];
        const tb: unknown[] = Array.isArray(v) ? (v as unknown[]) : [v];
        const both = ta.filter((t) => tb.includes(t) || (t === 'integer' && tb.includes('number')));
        const extra = tb.filter((t) => t === 'integer' && ta.includes('number'));
        const result = [...new Set([...both, ...extra])];
        out[k] = result.length === 1 ? result[0] : result.length === 0 ? v : result;
        break;
      }
      case 'nullable':
        out[k] = had === true && v === true;
        break;
      case 'minimum':
      case 'minLength':
      case 'minItems':
      case 'minProperties':
        out[k] = max(had, v);
        break;
      case 'maximum':
      case 'maxLength':
      case 'maxItems':
      case 'maxProperties':
        out[k] = min(had, v);
        break;
      case 'exclusiveMinimum':
        out[k] = typeof had === 'number' || typeof v === 'number' ? max(had, v) : had === true || v === true;
        break;
      case 'exclusiveMaximum':
        out[k] = typeof had === 'number' || typeof v === 'number' ? min(had, v) : had === true || v === true;
        break;
      case 'enum':
        if (Array.isArray(had) && Array.isArray(v))
          out[k] = had.filter((x) => v.some((y) => JSON.stringify(y) === JSON.stringify(x)));
        break;
      case 'pattern':
        if (had !== v) out['x-patterns'] = [...((out['x-patterns'] as unknown[] | undefined) ?? []), v];
        break;
      case 'items':
        out[k] = { allOf: [had, v] };
        break;
      case 'oneOf':
      case 'anyOf':
        out['x-also'] = [...((out['x-also'] as unknown[] | undefined) ?? []), { [k]: v }];
        break;
      default:
        // description, example, format…: the first one stays
        break;
    }
  }
  return out;
}

function typesOf(s: Schema): readonly string[] {
  const t = s['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

function mainType(s: Schema): string | undefined {
  const ts = typesOf(s).filter((t) => t !== 'null');
  if (ts.length > 0) return ts[0];
  if (typesOf(s).includes('null')) return 'null';
  if (isObj(s['properties']) || s['required'] !== undefined || s['additionalProperties'] !== undefined) return 'object';
  if (s['items'] !== undefined || s['minItems'] !== undefined) return 'array';
  if (
    s['pattern'] !== undefined ||
    s['format'] !== undefined ||
    s['minLength'] !== undefined ||
    s['maxLength'] !== undefined
  )
    return 'string';
  if (s['minimum'] !== undefined || s['maximum'] !== undefined || s['multipleOf'] !== undefined) return 'number';
  return undefined;
}

function gen(raw: unknown, ctx: Ctx, depth: number, variant: number): unknown {
  const seen: string[] = [];
  const s = flatten(raw, ctx, seen);
  for (const r of seen) ctx.refs.set(r, (ctx.refs.get(r) ?? 0) + 1);
  try {
    const deep = depth > SHALLOW_DEPTH || seen.some((r) => (ctx.refs.get(r) ?? 0) > REF_REPEATS);
    return genFlat(s, ctx, depth, variant, deep);
  } finally {
    for (const r of seen) ctx.refs.set(r, ctx.refs.get(r)! - 1);
  }
}

function genFlat(s: Schema, ctx: Ctx, depth: number, variant: number, deep: boolean): unknown {
  if (s['const'] !== undefined) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) {
    const usable = s['enum'].filter((v) => v !== null || allowsNull(s));
    if (usable.length > 0) return usable[variant % usable.length];
  }
  const choice = Array.isArray(s['oneOf'])
    ? { kind: 'oneOf', list: s['oneOf'] }
    : Array.isArray(s['anyOf'])
      ? { kind: 'anyOf', list: s['anyOf'] }
      : undefined;
  if (choice !== undefined && choice.list.length > 0)
    return genChoice(s, choice.kind as 'oneOf' | 'anyOf', choice.list as unknown[], ctx, depth, variant);
  const also = s['x-also'];
  if (Array.isArray(also) && also.length > 0) {
    const [first, ...more] = also as Obj[];
    const { 'x-also': _x, ...rest } = s;
    return genFlat({ ...rest, ...first, ...(more.length > 0 ? { 'x-also': more } : {}) }, ctx, depth, variant, deep);
  }
  const type = mainType(s);
  const example = exampleOf(s);
  if (example !== undefined && type !== 'object' && type !== 'array' && conforms(example, s, ctx.doc)) return example;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return variant % 2 === 0;
    case 'integer':
    case 'number':
      return genNumber(s, type === 'integer', variant);
    case 'string':
      return genString(s, variant);
    case 'array':
      return genArray(s, ctx, depth, variant, deep);
    case 'object':
      return genObject(s, ctx, depth, deep);
    default:
      return example !== undefined ? example : {};
  }
}

function exampleOf(s: Schema): unknown {
  if (s['example'] !== undefined) return s['example'];
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if (s['default'] !== undefined) return s['default'];
  return undefined;
}

function allowsNull(s: Schema): boolean {
  return s['nullable'] === true || typesOf(s).includes('null');
}

function genChoice(
  s: Schema,
  kind: 'oneOf' | 'anyOf',
  list: readonly unknown[],
  ctx: Ctx,
  depth: number,
  variant: number,
): unknown {
  const { oneOf: _o, anyOf: _a, ...rest } = s;
  const branches = list.map((b) => ({ allOf: [rest, b] }));
  let first: unknown;
  for (let i = 0; i < branches.length; i++) {
    const v = gen(branches[i], ctx, depth, variant);
    if (i === 0) first = v;
    if (kind === 'anyOf') return v;
    const others = branches.filter((_, j) => j !== i);
    if (!others.some((b) => conforms(v, b, ctx.doc))) return v;
  }
  return first;
}

function genNumber(s: Schema, integer: boolean, variant: number): number {
  const step = typeof s['multipleOf'] === 'number' && s['multipleOf'] > 0 ? s['multipleOf'] : integer ? 1 : 1;
  let lo = typeof s['minimum'] === 'number' ? s['minimum'] : -Infinity;
  let hi = typeof s['maximum'] === 'number' ? s['maximum'] : Infinity;
  let loEx = s['exclusiveMinimum'] === true;
  let hiEx = s['exclusiveMaximum'] === true;
  if (typeof s['exclusiveMinimum'] === 'number' && s['exclusiveMinimum'] >= lo)
    [lo, loEx] = [s['exclusiveMinimum'], true];
  if (typeof s['exclusiveMaximum'] === 'number' && s['exclusiveMaximum'] <= hi)
    [hi, hiEx] = [s['exclusiveMaximum'], true];
  const ok = (v: number): boolean => (loEx ? v > lo : v >= lo) && (hiEx ? v < hi : v <= hi);
  const unit = integer ? Math.max(1, Math.ceil(step)) : step;
  const grid = (v: number): number => {
    let g = Math.ceil(v / unit) * unit;
    if (integer) g = Math.ceil(g);
    return Number(g.toPrecision(12));
  };
  const start = Number.isFinite(lo) ? lo : Number.isFinite(hi) ? Math.min(0, hi) : 0;
  for (let k = 0; k < 4; k++) {
    const base = grid(start) + (variant + k) * unit;
    if (ok(base)) return base;
  }
  // a range too narrow for the grid: the middle (or an end)
  if (Number.isFinite(lo) && Number.isFinite(hi)) {
    const mid = integer ? Math.ceil((lo + hi) / 2) : (lo + hi) / 2;
    if (ok(mid)) return mid;
  }
  if (!Number.isFinite(lo) && Number.isFinite(hi)) {
    const below = grid(hi) - unit * (1 + variant);
    if (ok(below)) return below;
  }
  return Number.isFinite(lo) ? lo : 0;
}

/** The same regexes ajv uses are not ours to copy; these checks are what `conforms` needs for formats. */
function genString(s: Schema, variant: number): string {
  const minLength = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
  const maxLength = typeof s['maxLength'] === 'number' ? s['maxLength'] : Infinity;
  const patterns = [s['pattern'], ...((s['x-patterns'] as unknown[] | undefined) ?? [])].filter(
    (p): p is string => typeof p === 'string',
  );
  const fits = (v: string): boolean => {
    const n = [...v].length;
    return n >= minLength && n <= maxLength && patterns.every((p) => testPattern(p, v));
  };
  if (patterns.length > 0) {
    const key = `${variant}\0${minLength}\0${maxLength}\0${patterns.join('\0')}`;
    let fromPattern = fromPatterns.get(key);
    if (fromPattern === undefined && !fromPatterns.has(key)) {
      fromPattern = patternString(patterns[0]!, variant, fits, minLength, maxLength);
      if (fromPatterns.size >= MAX_CACHED_PATTERNS) fromPatterns.clear();
      fromPatterns.set(key, fromPattern);
    }
    if (fromPattern !== undefined) return fromPattern;
  }
  const format = typeof s['format'] === 'string' ? FORMATS[s['format']] : undefined;
  let base = format ?? 'string';
  if (variant > 0 && format === undefined) base = `string${variant}`;
  if (fits(base)) return base;
  if ([...base].length < minLength) base = base + 'a'.repeat(minLength - [...base].length);
  if ([...base].length > maxLength) base = [...base].slice(0, maxLength).join('');
  return base;
}

/** a string made from patterns, by the variant, the bounds and the patterns: made once (randexp is most of the
 * sampler's time on a document whose strings have patterns) */
const fromPatterns = new Map<string, string | undefined>();
const MAX_CACHED_PATTERNS = 10_000;

const patternCache = new Map<string, RegExp | null>();
function compiled(p: string): RegExp | null {
  let r = patternCache.get(p);
  if (r === undefined) {
    try {
      r = new RegExp(p, 'u');
    } catch {
      try {
        r = new RegExp(p);
      } catch {
        r = null;
      }
    }
    patternCache.set(p, r);
  }
  return r;
}

function testPattern(p: string, v: string): boolean {
  const r = compiled(p);
  return r === null ? true : r.test(v);
}

/** A seeded generator (mulberry32): the same pattern gives the same string on every run. */
function seeded(seed: number): (a: number, b: number) => number {
  let t = seed >>> 0;
  return (a, b) => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = t;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    const r = ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    return a + Math.floor(r * (b - a + 1));
  };
}

function patternString(
  p: string,
  variant: number,
  fits: (v: string) => boolean,
  minLength: number,
  _maxLength: number,
): string | undefined {
  const r = compiled(p);
  if (r === null) return undefined;
  let gen: RandExp;
  try {
    gen = new RandExp(r);
  } catch {
    return undefined;
  }
  // printable ASCII keeps bodies readable; an unanchored pattern may match anywhere, so pad to the bounds
  gen.defaultRange.subtract(0, 31);
  gen.defaultRange.subtract(127, 0x10ffff);
  // repetitions without an upper bound get few extra turns first (short values fit maxLength), more later
  const limits = [1, 3, 8, 16, Math.max(32, minLength)];
  for (let attempt = 0; attempt < limits.length * 4; attempt++) {
    gen.max = limits[Math.floor(attempt / 4)]!;
    gen.randInt = seeded(1 + variant * 7919 + attempt * 104729);
    let v: string;
    try {
      v = gen.gen();
    } catch {
      return undefined;
    }
    if (fits(v)) return v;
    if ([...v].length < minLength && !p.startsWith('^') && !p.endsWith('$')) {
      const padded = v + 'a'.repeat(minLength - [...v].length);
      if (fits(padded)) return padded;
    }
  }
  return undefined;
}

function genArray(s: Schema, ctx: Ctx, depth: number, variant: number, deep: boolean): unknown[] {
  const minItems = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
  const maxItems = typeof s['maxItems'] === 'number' ? s['maxItems'] : Infinity;
  const want = Math.min(maxItems, Math.max(minItems, deep ? 0 : 1));
  if (depth >= MAX_DEPTH) return [];
  const out: unknown[] = [];
  const unique = s['uniqueItems'] === true;
  const seen = new Set<string>();
  for (let i = 0, tries = 0; out.length < want && tries < want + 16; tries++, i++) {
    const v = gen(s['items'], ctx, depth + 1, variant + i);
    const key = JSON.stringify(v);
    if (unique && seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

function genObject(s: Schema, ctx: Ctx, depth: number, deep: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth >= MAX_DEPTH) return out;
  const required = new Set(
    Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [],
  );
  const props = isObj(s['properties']) ? s['properties'] : {};
  for (const [name, ps] of Object.entries(props)) {
    const need = required.has(name);
    if (!need && deep) continue;
    if (!need && ctx.skip !== undefined) {
      const flat = flatten(ps, ctx, []);
      if (flat[ctx.skip] === true) continue;
    }
    out[name] = gen(ps, ctx, depth + 1, 0);
  }
  const extra = s['additionalProperties'];
  for (const name of required) if (!(name in out)) out[name] = gen(isObj(extra) ? extra : {}, ctx, depth + 1, 0);
  const minProps = typeof s['minProperties'] === 'number' ? s['minProperties'] : 0;
  const wantExtra =
    extra !== false &&
    (minProps > Object.keys(out).length || (Object.keys(props).length === 0 && isObj(extra) && !deep));
  if (wantExtra) {
    for (let i = 1; Object.keys(out).length < Math.max(minProps, 1) && i < 1000; i++) {
      const name = `additionalProp${i}`;
      if (!(name in out)) out[name] = gen(isObj(extra) ? extra : {}, ctx, depth + 1, i - 1);
    }
  }
  return out;
}

/**
 * Does v satisfy s, for the keywords the sampler reads (type, nullable, const, enum, pattern, lengths, bounds,
 * required, items, allOf/oneOf/anyOf)? A cheap check for choosing a `oneOf` branch or trusting an example;
 * ajv is the judge in the tests.
 */
export function conforms(v: unknown, raw: unknown, doc: Obj, depth = 0): boolean {
  if (depth > 16) return true;
  const ctx: Ctx = { doc, skip: undefined, refs: new Map() };
  const s = flatten(raw, ctx, []);
  if (s['not'] !== undefined && isObj(s['not']) && Object.keys(s['not']).length === 0) return false;
  if (v === null)
    return allowsNull(s) || (s['type'] === undefined && s['enum'] === undefined && s['const'] === undefined)
      ? checkChoices(v, s, doc, depth)
      : false;
  if (s['const'] !== undefined && JSON.stringify(s['const']) !== JSON.stringify(v)) return false;
  if (Array.isArray(s['enum']) && !s['enum'].some((e) => JSON.stringify(e) === JSON.stringify(v))) return false;
  const types = typesOf(s).filter((t) => t !== 'null');
  const kind = Array.isArray(v)
    ? 'array'
    : typeof v === 'object'
      ? 'object'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v;
  if (types.length > 0 && !types.some((t) => t === kind || (t === 'number' && kind === 'integer'))) return false;
  if (typeof v === 'string') {
    const n = [...v].length;
    if (typeof s['minLength'] === 'number' && n < s['minLength']) return false;
    if (typeof s['maxLength'] === 'number' && n > s['maxLength']) return false;
    for (const p of [s['pattern'], ...((s['x-patterns'] as unknown[] | undefined) ?? [])])
      if (typeof p === 'string' && !testPattern(p, v)) return false;
    if (
      typeof s['format'] === 'string' &&
      FORMAT_CHECKS[s['format']] !== undefined &&
      !FORMAT_CHECKS[s['format']]!.test(v)
    )
      return false;
  }
  if (typeof v === 'number') {
    if (typeof s['minimum'] === 'number' && (s['exclusiveMinimum'] === true ? v <= s['minimum'] : v < s['minimum']))
      return false;
    if (typeof s['maximum'] === 'number' && (s['exclusiveMaximum'] === true ? v >= s['maximum'] : v > s['maximum']))
      return false;
    if (typeof s['exclusiveMinimum'] === 'number' && v <= s['exclusiveMinimum']) return false;
    if (typeof s['exclusiveMaximum'] === 'number' && v >= s['exclusiveMaximum']) return false;
    if (typeof s['multipleOf'] === 'number' && s['multipleOf'] > 0) {
      const q = v / s['multipleOf'];
      if (Math.abs(q - Math.round(q)) > 1e-9) return false;
    }
  }
  if (Array.isArray(v)) {
    if (typeof s['minItems'] === 'number' && v.length < s['minItems']) return false;
    if (typeof s['maxItems'] === 'number' && v.length > s['maxItems']) return false;
    if (s['items'] !== undefined && !v.every((x) => conforms(x, s['items'], doc, depth + 1))) return false;
  }
  if (isObj(v)) {
    const req = Array.isArray(s['required']) ? s['required'] : [];
    if (!req.every((r) => typeof r !== 'string' || r in v)) return false;
    const props = isObj(s['properties']) ? s['properties'] : {};
    for (const [k, x] of Object.entries(v)) {
      if (props[k] !== undefined) {
        if (!conforms(x, props[k], doc, depth + 1)) return false;
      } else if (s['additionalProperties'] === false) return false;
      else if (isObj(s['additionalProperties']) && !conforms(x, s['additionalProperties'], doc, depth + 1))
        return false;
    }
    if (typeof s['minProperties'] === 'number' && Object.keys(v).length < s['minProperties']) return false;
    if (typeof s['maxProperties'] === 'number' && Object.keys(v).length > s['maxProperties']) return false;
  }
  return checkChoices(v, s, doc, depth);
}

function checkChoices(v: unknown, s: Schema, doc: Obj, depth: number): boolean {
  const groups: Obj[] = [s, ...((s['x-also'] as Obj[] | undefined) ?? [])];
  for (const g of groups) {
    if (Array.isArray(g['oneOf']) && g['oneOf'].filter((b) => conforms(v, b, doc, depth + 1)).length !== 1)
      return false;
    if (Array.isArray(g['anyOf']) && !g['anyOf'].some((b) => conforms(v, b, doc, depth + 1))) return false;
  }
  return true;
}

/** Loose shapes of the common formats, for trusting a document's example (the sampler's own values pass). */
const FORMAT_CHECKS: Readonly<Record<string, RegExp>> = {
  'date-time': /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:?\d\d)$/,
  date: /^\d{4}-\d\d-\d\d$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uuid: /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:/,
};
