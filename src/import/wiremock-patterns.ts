// WireMock's request patterns (value matchers, body patterns, multipart patterns) → conditions of a rule.
// A matcher a rule cannot state is left out, named with its place and reason in the summary; one WireMock does not
// know is an error at its place. docs/import.md lists what maps to what.
import { STRING_OPS } from '../model/operators.js';
import type { Cond } from './plan.js';

export type Obj = { readonly [k: string]: unknown };
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface DecodeError {
  /** `mappings/orders.json: request.headers.Accept` */
  readonly place: string;
  readonly message: string;
}

export class Failed extends Error {
  constructor(readonly decode: DecodeError) {
    super(decode.message);
  }
}

export interface Ctx {
  readonly file: string;
  readonly leftOut: { place: string; what: string; reason: string }[];
  /** WireMock scenario name → the scenario name written here */
  readonly scenarios?: ReadonlyMap<string, string>;
}

export function leave(ctx: Ctx, what: string, reason: string): void {
  ctx.leftOut.push({ place: ctx.file, what, reason });
}

export const fail = (ctx: Ctx, at: string, message: string): Failed =>
  new Failed({ place: `${ctx.file}: ${at}`, message });

/** Every matcher WireMock accepts in a value pattern; any other key is a mistake in the mapping. */
export const KNOWN_MATCHERS = new Set([
  'equalTo',
  'binaryEqualTo',
  'contains',
  'doesNotContain',
  'matches',
  'doesNotMatch',
  'absent',
  'equalToJson',
  'matchesJsonPath',
  'matchesJsonSchema',
  'equalToXml',
  'matchesXPath',
  'before',
  'after',
  'equalToDateTime',
  'and',
  'or',
  'not',
  'hasExactly',
  'includes',
  'anything',
]);

/** options that go with a matcher (WireMock's documented ones): never an error */
const MATCHER_OPTIONS = new Set([
  'caseInsensitive',
  'ignoreArrayOrder',
  'ignoreExtraElements',
  'xPathNamespaces',
  'enablePlaceholders',
  'placeholderOpeningDelimiterRegex',
  'placeholderClosingDelimiterRegex',
  'exemptedComparisons',
  'ignoreOrderOfSameNode',
  'namespaceAwareness',
  'actualFormat',
  'expectedOffset',
  'expectedOffsetUnit',
  'truncateExpected',
  'truncateActual',
  'applyTruncationLast',
  'schemaVersion',
  'expression',
]);

export const REASONS = {
  xpath: 'XPath is not supported',
  xml: 'XML comparison is not supported',
  jsonSchema: 'a JSON schema is supported on the body (matchesJsonSchema in bodyPatterns)',
  and: 'all-of matchers (`and`) are not supported, except of a single matcher',
  logic: 'a negated matcher inside `or`/`not` cannot be combined into one pattern',
  multi: 'hasExactly and includes are supported on headers, query parameters and form fields, of equalTo matchers',
  binary: 'binary body matching is only supported for bytes that are UTF-8 text',
  jsonPathFilter: 'only simple JSONPath expressions ($.a.b[0], $.list[?(@.k == v)]) are supported',
  oneBody: 'a rule holds one text condition on the body; only the first is kept',
  twoJson: 'a rule holds one condition on a JSON path; only the first is kept',
  multipart: 'only multipart patterns naming their part (`Content-Disposition` … `name="x"`) are supported',
  notOnce: 'the same matcher is given twice for one name; only the first is kept',
  bodyAbsent: 'an `absent` body pattern is not supported',
  textOp: 'a date or multi-value matcher on the whole body is not supported (on a JSONPath it is)',
} as const;

export const escapeRegex = (s: string): string => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/** The matcher key of a pattern object (its first non-option key), checked against WireMock's set. */
function matcherKey(p: Obj, at: string, ctx: Ctx): string {
  const keys = Object.keys(p).filter((k) => !MATCHER_OPTIONS.has(k));
  const unknown = keys.find((k) => !KNOWN_MATCHERS.has(k));
  if (unknown !== undefined)
    throw fail(
      ctx,
      `${at}.${unknown}`,
      `unknown matcher \`${unknown}\` (WireMock's are ${[...KNOWN_MATCHERS].join(', ')})`,
    );
  const key = keys[0];
  if (key === undefined) throw fail(ctx, at, 'no matcher given');
  return key;
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * A positive value matcher as a regular expression source that matches where it holds (for `or` and `not`), or
 * undefined when it has none.
 */
function positiveRegex(p: unknown, at: string, ctx: Ctx): string | undefined {
  if (!isObj(p)) throw fail(ctx, at, 'expected a matcher object');
  const key = matcherKey(p, at, ctx);
  const s = textOf(p[key]);
  const ci = p['caseInsensitive'] === true;
  switch (key) {
    case 'equalTo':
      return ci ? `(?i:^${escapeRegex(s)}$)` : `^${escapeRegex(s)}$`;
    case 'contains':
      return escapeRegex(s);
    case 'matches':
      return `^(?:${s})$`;
    case 'anything':
      return '';
    case 'or': {
      const list = Array.isArray(p[key]) ? (p[key] as unknown[]) : [];
      const parts = list.map((q, i) => positiveRegex(q, `${at}.or[${i}]`, ctx));
      if (parts.length === 0 || parts.some((x) => x === undefined)) return undefined;
      return parts.map((x) => `(?:${x!})`).join('|');
    }
    default:
      return undefined;
  }
}

/** A WireMock string pattern as a condition; undefined when left out (noted). */
export function stringCond(p: unknown, at: string, ctx: Ctx, place: 'header' | 'body'): Cond | undefined {
  if (!isObj(p)) throw fail(ctx, at, 'expected a matcher object');
  const key = matcherKey(p, at, ctx);
  const v = p[key];
  const s = textOf(v);
  const ci = p['caseInsensitive'] === true;
  switch (key) {
    case 'equalTo':
      return ci ? { op: 'regex', value: `(?i)^${escapeRegex(s)}$` } : { op: 'equal', value: s };
    case 'contains':
      return { op: 'contains', value: s };
    case 'doesNotContain':
      return { op: 'not_contains', value: s };
    case 'matches':
      return { op: 'regex', value: `^(?:${s})$` };
    case 'doesNotMatch':
      return { op: 'not_regex', value: `^(?:${s})$` };
    case 'absent':
      if (place === 'body') break;
      return v === false ? { op: 'exists' } : { op: 'absent' };
    case 'anything':
      // on a body: no condition at all
      return place === 'body' ? undefined : { op: 'exists' };
    case 'or': {
      const re = positiveRegex(p, at, ctx);
      if (re !== undefined) return { op: 'regex', value: re };
      leave(ctx, `${at}.or`, REASONS.logic);
      return undefined;
    }
    case 'not': {
      const inner = isObj(v) ? v : undefined;
      const re = inner === undefined ? undefined : positiveRegex(inner, `${at}.not`, ctx);
      if (re !== undefined) return { op: 'not_regex', value: re };
      // not(not x), not(doesNotMatch x) and not(doesNotContain x) are x itself
      if (inner !== undefined && 'doesNotMatch' in inner)
        return { op: 'regex', value: `^(?:${textOf(inner['doesNotMatch'])})$` };
      if (inner !== undefined && 'doesNotContain' in inner)
        return { op: 'contains', value: textOf(inner['doesNotContain']) };
      leave(ctx, `${at}.not`, REASONS.logic);
      return undefined;
    }
    case 'before':
    case 'after':
    case 'equalToDateTime':
      return dateCond(key, s, p);
    case 'hasExactly':
    case 'includes': {
      const list = Array.isArray(v) ? v : [];
      const values = list.map((q) =>
        isObj(q) && Object.keys(q).length === 1 && typeof q['equalTo'] === 'string' ? q['equalTo'] : undefined,
      );
      if (place === 'header' && values.every((x) => x !== undefined))
        return { op: key === 'hasExactly' ? 'has_exactly' : 'includes', value: JSON.stringify(values) };
      leave(ctx, `${at}.${key}`, REASONS.multi);
      return undefined;
    }
    case 'and': {
      const list = Array.isArray(v) ? v : [];
      if (list.length === 1) return stringCond(list[0], `${at}.and[0]`, ctx, place);
      leave(ctx, `${at}.and`, REASONS.and);
      return undefined;
    }
  }
  const reason =
    key === 'matchesXPath'
      ? REASONS.xpath
      : key === 'equalToXml'
        ? REASONS.xml
        : key === 'matchesJsonSchema'
          ? REASONS.jsonSchema
          : key === 'absent'
            ? REASONS.bodyAbsent
            : `\`${key}\` is not supported here`;
  leave(ctx, `${at}.${key}`, reason);
  return undefined;
}

/** WireMock's truncation names (`first day of month`, `FIRST_DAY_OF_MONTH`) as ours */
const truncation = (t: unknown): string | undefined =>
  typeof t === 'string' ? t.toLowerCase().replace(/_/g, ' ') : undefined;

/** `before`, `after`, `equalToDateTime` with their offset, truncations and the request's format */
function dateCond(key: string, expected: string, p: Obj): Cond {
  const op = key === 'equalToDateTime' ? 'equal_date_time' : key;
  let value = expected;
  const amount = p['expectedOffset'];
  if (typeof amount === 'number') {
    const unit = typeof p['expectedOffsetUnit'] === 'string' ? p['expectedOffsetUnit'].toLowerCase() : 'days';
    value += ` ${amount < 0 ? '-' : '+'}${Math.abs(amount)} ${unit}`;
  }
  const options: [string, string][] = [];
  const te = truncation(p['truncateExpected']);
  if (te !== undefined) options.push(['truncate_expected', te]);
  const ta = truncation(p['truncateActual']);
  if (ta !== undefined) options.push(['truncate_actual', ta]);
  if (typeof p['actualFormat'] === 'string') options.push(['format', p['actualFormat']]);
  return options.length === 0 ? { op, value } : { op, value, options };
}

/** name → pattern tables (headers, queryParameters, cookies, formParameters, pathParameters) */
export function namedConds(table: unknown, at: string, ctx: Ctx, lower: boolean): (readonly [string, Cond])[] {
  if (table === undefined) return [];
  if (!isObj(table)) throw fail(ctx, at, 'expected an object of matchers');
  const out: (readonly [string, Cond])[] = [];
  const seen = new Set<string>();
  for (const [name, p] of Object.entries(table)) {
    const c = stringCond(p, `${at}.${name}`, ctx, 'header');
    if (c === undefined) continue;
    const key = lower ? name.toLowerCase() : name;
    if (seen.has(key)) {
      leave(ctx, `${at}.${name}`, REASONS.notOnce);
      continue;
    }
    seen.add(key);
    out.push([key, c]);
  }
  return out;
}

/** `$.a.b[0].c` → `a.b.0.c`; undefined for anything beyond plain member and index steps */
export function simpleJsonPath(path: string): string | undefined {
  const m = /^\$((?:\.[A-Za-z_][\w-]*|\[\d+\]|\['[^']*'\])*)$/.exec(path.trim());
  if (m === null) return undefined;
  const parts: string[] = [];
  for (const step of m[1]!.matchAll(/\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['([^']*)'\]/g))
    parts.push(step[1] ?? step[2] ?? step[3]!);
  return parts.length === 0 ? undefined : parts.join('.');
}

/**
 * `$.items[?(@.sku == 'A1')]` (an item of the array with that field value): the array's dotted path and the item's
 * expected part, or undefined for another expression.
 */
export function filterJsonPath(path: string): { readonly path: string; readonly item: object } | undefined {
  const m =
    /^(\$[^[]*(?:\[\d+\][^[]*)*)\[\?\(@\.([A-Za-z_][\w-]*)\s*==\s*('[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|true|false|null)\s*\)\]$/.exec(
      path.trim(),
    );
  if (m === null) return undefined;
  const base = m[1] === '$' ? '' : simpleJsonPath(m[1]!);
  if (base === undefined) return undefined;
  const lit = m[3]!;
  const value: unknown = /^['"]/.test(lit) ? lit.slice(1, -1) : JSON.parse(lit);
  return { path: base, item: { [m[2]!]: value } };
}

/** `equalToJson` as a document condition on the whole body (or a JSONPath's value): its options pick the operator. */
export function jsonDocCond(p: Obj, at: string, ctx: Ctx): Cond {
  let v = p['equalToJson'];
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      throw fail(ctx, `${at}.equalToJson`, 'not valid JSON');
    }
  }
  const extra = p['ignoreExtraElements'] === true;
  const anyOrder = p['ignoreArrayOrder'] === true;
  const op = `${extra ? 'contains' : 'equal'}_json${anyOrder ? '_any_order' : ''}`;
  return { op, value: JSON.stringify(v) };
}

/** the operators of `body.text` */
const TEXT_OPS: ReadonlySet<string> = new Set(STRING_OPS);

const parseOr = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

export interface BodyConds {
  json: (readonly [string, Cond])[];
  text?: Cond;
}

function jsonPathCond(m: unknown, at: string, ctx: Ctx, out: BodyConds): void {
  const expr = typeof m === 'string' ? m : isObj(m) && typeof m['expression'] === 'string' ? m['expression'] : '';
  const path = simpleJsonPath(expr);
  if (path === undefined) {
    const filter = typeof m === 'string' ? filterJsonPath(expr) : undefined;
    if (filter !== undefined) {
      out.json.push([filter.path, { op: 'structural_contains', value: JSON.stringify(filter.item) }]);
      return;
    }
    leave(ctx, `${at}.matchesJsonPath`, REASONS.jsonPathFilter);
    return;
  }
  if (typeof m === 'string') {
    out.json.push([path, { op: 'exists', value: '' }]);
    return;
  }
  const rest = Object.fromEntries(Object.entries(m as Obj).filter(([k]) => k !== 'expression'));
  if ('equalToJson' in rest) {
    out.json.push([path, jsonDocCond(rest, `${at}.matchesJsonPath`, ctx)]);
    return;
  }
  const c = stringCond(rest, `${at}.matchesJsonPath`, ctx, 'body');
  if (c === undefined) return;
  out.json.push([path, { ...c, op: c.op === 'equal' ? 'equal_string' : c.op, value: c.value ?? '' }]);
}

/** `bodyPatterns`: JSON ones as `body.json` conditions (the whole body at the path `""`), the others on its text. */
export function bodyConds(patterns: unknown, ctx: Ctx): BodyConds {
  const out: BodyConds = { json: [] };
  if (patterns === undefined) return out;
  if (!Array.isArray(patterns)) throw fail(ctx, 'request.bodyPatterns', 'expected an array of matchers');
  patterns.forEach((p, i) => {
    const at = `request.bodyPatterns[${i}]`;
    if (!isObj(p)) throw fail(ctx, at, 'expected a matcher object');
    const before = out.json.length;
    if ('equalToJson' in p) out.json.push(['', jsonDocCond(p, at, ctx)]);
    else if ('matchesJsonSchema' in p) {
      const schema =
        typeof p['matchesJsonSchema'] === 'string' ? parseOr(p['matchesJsonSchema']) : p['matchesJsonSchema'];
      if (schema === undefined) throw fail(ctx, `${at}.matchesJsonSchema`, 'not valid JSON');
      out.json.push(['', { op: 'json_schema', value: JSON.stringify(schema) }]);
    } else if ('matchesJsonPath' in p) jsonPathCond(p['matchesJsonPath'], at, ctx, out);
    if (out.json.length > before) {
      const key = out.json[out.json.length - 1]![0];
      if (out.json.slice(0, -1).some(([k]) => k === key)) {
        out.json.pop();
        leave(ctx, at, REASONS.twoJson);
      }
      return;
    }
    if ('equalToJson' in p || 'matchesJsonPath' in p || 'matchesJsonSchema' in p) return;
    let c: Cond | undefined;
    if ('binaryEqualTo' in p && typeof p['binaryEqualTo'] === 'string') {
      const bytes = Buffer.from(p['binaryEqualTo'], 'base64');
      const text = bytes.toString('utf8');
      if (Buffer.from(text, 'utf8').equals(bytes)) c = { op: 'equal', value: text };
      else leave(ctx, `${at}.binaryEqualTo`, REASONS.binary);
    } else c = stringCond(p, at, ctx, 'body');
    if (c === undefined) return;
    if (!TEXT_OPS.has(c.op)) {
      leave(ctx, at, REASONS.textOp);
      return;
    }
    if (out.text !== undefined) {
      leave(ctx, at, REASONS.oneBody);
      return;
    }
    out.text = c;
  });
  return out;
}

/**
 * `multipartPatterns`: each part named by its `Content-Disposition` (`name="x"`) becomes a `body.form` condition on
 * that field: its one body pattern, else presence. Others are left out.
 */
export function multipartConds(patterns: unknown, ctx: Ctx): (readonly [string, Cond])[] {
  if (patterns === undefined) return [];
  if (!Array.isArray(patterns)) throw fail(ctx, 'request.multipartPatterns', 'expected an array of multipart patterns');
  const out: (readonly [string, Cond])[] = [];
  patterns.forEach((p, i) => {
    const at = `request.multipartPatterns[${i}]`;
    if (!isObj(p)) throw fail(ctx, at, 'expected a multipart pattern object');
    const headers = isObj(p['headers']) ? p['headers'] : {};
    const disposition = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-disposition')?.[1];
    const text = isObj(disposition) ? textOf(Object.values(disposition)[0]) : '';
    const name = /name="([^"]*)"/.exec(text)?.[1];
    const file = /filename=/.test(text);
    const bodies = Array.isArray(p['bodyPatterns']) ? p['bodyPatterns'] : [];
    if (name === undefined || bodies.length > 1 || (file && bodies.length > 0)) {
      leave(ctx, at, REASONS.multipart);
      return;
    }
    const c = bodies.length === 0 ? { op: 'exists' } : stringCond(bodies[0], `${at}.bodyPatterns[0]`, ctx, 'header');
    if (c !== undefined) out.push([name, c]);
  });
  return out;
}
