// WireMock stub mappings (a `mappings/` folder, or one file holding a mapping or `{ "mappings": [...] }`, with the
// `__files/` folder beside it) → the neutral import form. Pure: the CLI reads the files and hands their parsed
// JSON and a lookup into `__files/` in. A matcher WireMock does not know is an error at its place; one it knows
// that a rule set cannot express (XPath, JSON schema, dates, `and`/`or`) leaves that part out, named in the summary.
// docs/import.md lists what maps to what.
import { isMethod, type Method } from '../model/operators.js';
import { err, ok, type Result } from '../shared/result.js';
import { FEATURES, NOT_YET } from './features.js';
import type { Cond, Delay, LeftOut, SourceBody, SourceImport, SourceRule, UrlPath } from './plan.js';

export interface WireMockFile {
  /** as shown in the summary (`mappings/orders.json`) */
  readonly name: string;
  readonly data: unknown;
}

export interface WireMockInput {
  readonly title: string;
  /** in the order to import (sorted by name) */
  readonly files: readonly WireMockFile[];
  /** the bytes of `__files/<name>`, undefined when there is no such file */
  readonly bodyFile: (name: string) => Uint8Array | undefined;
}

export interface DecodeError {
  /** `mappings/orders.json: request.headers.Accept` */
  readonly place: string;
  readonly message: string;
}

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every matcher WireMock accepts in a value pattern; any other key is a mistake in the mapping. */
const KNOWN_MATCHERS = new Set([
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
/** options that go with a matcher */
const MATCHER_OPTIONS = new Set([
  'caseInsensitive',
  'ignoreArrayOrder',
  'ignoreExtraElements',
  'xPathNamespaces',
  'enablePlaceholders',
  'placeholderOpeningDelimiterRegex',
  'placeholderClosingDelimiterRegex',
  'exemptedComparisons',
  'actualFormat',
  'expectedOffset',
  'expectedOffsetUnit',
  'truncateExpected',
  'truncateActual',
  'applyTruncationLast',
  'schemaVersion',
  'expression',
]);

const FAULTS: Readonly<Record<string, string>> = {
  CONNECTION_RESET_BY_PEER: 'connection_reset',
  EMPTY_RESPONSE: 'empty_response',
  MALFORMED_RESPONSE_CHUNK: 'malformed_chunk',
  RANDOM_DATA_THEN_CLOSE: 'malformed_response',
};

/** WireMock's priority when a mapping names none */
const DEFAULT_PRIORITY = 5;

const REASONS = {
  xpath: 'XPath is not supported',
  xml: 'XML comparison is not supported',
  jsonSchema: 'JSON schema matching is not supported',
  dates: 'date matching is not supported',
  logic: 'combined matchers (and, or, not) are not supported',
  multi: 'multi-value matchers (hasExactly, includes) are not supported',
  binary: 'binary body matching is not supported',
  jsonPathFilter: 'only simple JSONPath expressions ($.a.b[0]) are supported',
  oneBody: 'a rule holds one text condition on the body; only the first is kept',
  urlQuery: 'a regex over the path and query is not supported; write a query condition',
  multipart: 'multipart patterns are not supported',
  proxy: 'proxying is not supported',
  statusMessage: 'a custom reason phrase is not supported',
  dribble: 'dribbled delays are not supported',
  transformer: (t: string) => `the transformer \`${t}\` is not supported (only response-template)`,
  noFile: (n: string) => `\`__files/${n}\` does not exist`,
  method: (m: string) => `the method ${m} cannot be matched by a rule`,
  customMatcher: 'custom matchers are not supported',
  notOnce: 'the same matcher is given twice for one name; only the first is kept',
} as const;

class Failed extends Error {
  constructor(readonly decode: DecodeError) {
    super(decode.message);
  }
}

const escapeRegex = (s: string): string => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

interface Ctx {
  readonly file: string;
  readonly leftOut: LeftOut[];
  /** WireMock scenario name → the scenario name written here */
  readonly scenarios?: ReadonlyMap<string, string>;
}

function leave(ctx: Ctx, what: string, reason: string): void {
  ctx.leftOut.push({ place: ctx.file, what, reason });
}

/** A WireMock string pattern as a condition; undefined when left out (noted). */
function stringCond(p: unknown, at: string, ctx: Ctx, place: 'header' | 'body'): Cond | undefined {
  if (!isObj(p)) throw new Failed({ place: `${ctx.file}: ${at}`, message: 'expected a matcher object' });
  const keys = Object.keys(p).filter((k) => !MATCHER_OPTIONS.has(k));
  const unknown = keys.find((k) => !KNOWN_MATCHERS.has(k));
  if (unknown !== undefined)
    throw new Failed({
      place: `${ctx.file}: ${at}.${unknown}`,
      message: `unknown matcher \`${unknown}\` (WireMock's are ${[...KNOWN_MATCHERS].join(', ')})`,
    });
  const key = keys[0];
  if (key === undefined) throw new Failed({ place: `${ctx.file}: ${at}`, message: 'no matcher given' });
  const v = p[key];
  const s = typeof v === 'string' ? v : JSON.stringify(v);
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
      return place === 'body' ? undefined : { op: 'exists' };
  }
  const reason =
    key === 'matchesXPath'
      ? REASONS.xpath
      : key === 'equalToXml'
        ? REASONS.xml
        : key === 'matchesJsonSchema'
          ? REASONS.jsonSchema
          : key === 'before' || key === 'after' || key === 'equalToDateTime'
            ? REASONS.dates
            : key === 'and' || key === 'or' || key === 'not'
              ? REASONS.logic
              : key === 'hasExactly' || key === 'includes'
                ? REASONS.multi
                : key === 'binaryEqualTo'
                  ? REASONS.binary
                  : `\`${key}\` is not supported here`;
  leave(ctx, `${at}.${key}`, reason);
  return undefined;
}

/** name → pattern tables (headers, queryParameters, cookies) */
function namedConds(table: unknown, at: string, ctx: Ctx, lower: boolean): (readonly [string, Cond])[] {
  if (table === undefined) return [];
  if (!isObj(table)) throw new Failed({ place: `${ctx.file}: ${at}`, message: 'expected an object of matchers' });
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

/** a JSON value as `equal_typed` conditions on its leaves (objects and arrays walked) */
function jsonLeaves(v: unknown, prefix: string, out: (readonly [string, Cond])[]): void {
  if (isObj(v) && Object.keys(v).length > 0) {
    for (const [k, x] of Object.entries(v)) jsonLeaves(x, prefix === '' ? k : `${prefix}.${k}`, out);
  } else if (Array.isArray(v) && v.length > 0) {
    out.push([prefix, { op: 'array_length_equal', value: String(v.length) }]);
    v.forEach((x, i) => jsonLeaves(x, `${prefix}.${i}`, out));
  } else out.push([prefix, { op: 'equal_typed', value: JSON.stringify(v) }]);
}

interface BodyConds {
  json: (readonly [string, Cond])[];
  text?: Cond;
}

function bodyConds(patterns: unknown, ctx: Ctx): BodyConds {
  const out: BodyConds = { json: [] };
  if (patterns === undefined) return out;
  if (!Array.isArray(patterns))
    throw new Failed({ place: `${ctx.file}: request.bodyPatterns`, message: 'expected an array of matchers' });
  patterns.forEach((p, i) => {
    const at = `request.bodyPatterns[${i}]`;
    if (!isObj(p)) throw new Failed({ place: `${ctx.file}: ${at}`, message: 'expected a matcher object' });
    if ('equalToJson' in p) {
      let v = p['equalToJson'];
      if (typeof v === 'string') {
        try {
          v = JSON.parse(v) as unknown;
        } catch {
          throw new Failed({ place: `${ctx.file}: ${at}.equalToJson`, message: 'not valid JSON' });
        }
      }
      if (!isObj(v) || Object.keys(v).length === 0) {
        leave(ctx, `${at}.equalToJson`, 'only a JSON object is compared field by field');
        return;
      }
      jsonLeaves(v, '', out.json);
      return;
    }
    if ('matchesJsonPath' in p) {
      const m = p['matchesJsonPath'];
      const expr = typeof m === 'string' ? m : isObj(m) && typeof m['expression'] === 'string' ? m['expression'] : '';
      const path = simpleJsonPath(expr);
      if (path === undefined) {
        leave(ctx, `${at}.matchesJsonPath`, REASONS.jsonPathFilter);
        return;
      }
      if (typeof m === 'string') {
        out.json.push([path, { op: 'exists', value: '' }]);
        return;
      }
      const rest = Object.fromEntries(Object.entries(m as Obj).filter(([k]) => k !== 'expression'));
      const c = stringCond(rest, `${at}.matchesJsonPath`, ctx, 'body');
      if (c === undefined) return;
      const op = c.op === 'equal' ? 'equal_string' : c.op;
      out.json.push([path, { op, value: c.value ?? '' }]);
      return;
    }
    const c = stringCond(p, at, ctx, 'body');
    if (c === undefined) return;
    if (out.text !== undefined) {
      leave(ctx, at, REASONS.oneBody);
      return;
    }
    out.text = c;
  });
  return out;
}

function urlOf(req: Obj, ctx: Ctx): { path?: UrlPath; query: (readonly [string, Cond])[]; skip?: true } {
  const str = (k: string): string | undefined => (typeof req[k] === 'string' ? req[k] : undefined);
  const url = str('url');
  if (url !== undefined) {
    const q = url.indexOf('?');
    if (q < 0) return { path: { op: 'equal', value: url }, query: [] };
    const query = [...new URLSearchParams(url.slice(q + 1))].map(([k, v]): readonly [string, Cond] => [
      k,
      { op: 'equal', value: v },
    ]);
    return { path: { op: 'equal', value: url.slice(0, q) }, query };
  }
  const urlPath = str('urlPath');
  if (urlPath !== undefined) return { path: { op: 'equal', value: urlPath }, query: [] };
  const template = str('urlPathTemplate');
  if (template !== undefined) return { path: { op: 'path_template', value: template }, query: [] };
  const pathPattern = str('urlPathPattern');
  if (pathPattern !== undefined) return { path: { op: 'regex', value: `^(?:${pathPattern})$` }, query: [] };
  const pattern = str('urlPattern');
  if (pattern !== undefined) {
    // WireMock matches it against the path and query; a pattern that spells out a query cannot be split
    if (pattern.includes('\\?')) {
      leave(ctx, 'request.urlPattern', REASONS.urlQuery);
      return { query: [], skip: true };
    }
    return { path: { op: 'regex', value: `^(?:${pattern})$` }, query: [] };
  }
  return { query: [] };
}

function headerPairs(h: unknown, at: string, ctx: Ctx): (readonly [string, string])[] {
  if (h === undefined) return [];
  if (!isObj(h)) throw new Failed({ place: `${ctx.file}: ${at}`, message: 'expected an object of header values' });
  return Object.entries(h).map(([k, v]): readonly [string, string] => [
    k.toLowerCase(),
    Array.isArray(v) ? v.map(String).join(', ') : String(v),
  ]);
}

const EXT_BY_TYPE: readonly (readonly [RegExp, string])[] = [
  [/json/, 'json'],
  [/xml/, 'xml'],
  [/html/, 'html'],
  [/^text\//, 'txt'],
];

function extOf(name: string, type: string | undefined): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  if (m !== null) return m[1]!.toLowerCase();
  for (const [re, ext] of EXT_BY_TYPE) if (type !== undefined && re.test(type.toLowerCase())) return ext;
  return 'bin';
}

function delayOf(res: Obj, ctx: Ctx): Delay | undefined {
  const fixed = res['fixedDelayMilliseconds'];
  if (typeof fixed === 'number') return Math.max(0, Math.round(fixed));
  const d = res['delayDistribution'];
  if (isObj(d)) {
    if (d['type'] === 'uniform' && typeof d['lower'] === 'number' && typeof d['upper'] === 'number')
      return { min: d['lower'], max: d['upper'] };
    if (d['type'] === 'lognormal' && typeof d['median'] === 'number' && typeof d['sigma'] === 'number')
      return { median: d['median'], sigma: d['sigma'] };
    if (d['type'] === 'fixed' && typeof d['milliseconds'] === 'number') return d['milliseconds'];
    leave(ctx, 'response.delayDistribution', 'only fixed, uniform and lognormal delays are supported');
  }
  if (res['chunkedDribbleDelay'] !== undefined) leave(ctx, 'response.chunkedDribbleDelay', REASONS.dribble);
  return undefined;
}

type Answer = 'status' | 'body' | 'respondHeaders' | 'delay' | 'fault' | 'template';

function responseOf(res: Obj, ctx: Ctx, bodyFile: WireMockInput['bodyFile']): Pick<SourceRule, Answer> | undefined {
  if (typeof res['proxyBaseUrl'] === 'string') {
    leave(ctx, 'response.proxyBaseUrl', REASONS.proxy);
    return undefined;
  }
  const status = typeof res['status'] === 'number' ? res['status'] : 200;
  if (res['statusMessage'] !== undefined) leave(ctx, 'response.statusMessage', REASONS.statusMessage);
  const respondHeaders = headerPairs(res['headers'], 'response.headers', ctx);
  const type = respondHeaders.find(([k]) => k === 'content-type')?.[1];
  let body: SourceBody = { kind: 'none' };
  if (typeof res['body'] === 'string') body = { kind: 'text', text: res['body'] };
  else if (res['jsonBody'] !== undefined) {
    body = { kind: 'file', data: JSON.stringify(res['jsonBody']), ext: 'json' };
  } else if (typeof res['base64Body'] === 'string')
    body = { kind: 'file', data: Buffer.from(res['base64Body'], 'base64'), ext: extOf('', type) };
  else if (typeof res['bodyFileName'] === 'string') {
    const name = res['bodyFileName'];
    const bytes = bodyFile(name);
    if (bytes === undefined) {
      leave(ctx, 'response.bodyFileName', REASONS.noFile(name));
      return undefined;
    }
    body = { kind: 'file', data: bytes, ext: extOf(name, type) };
  }
  const out: { -readonly [K in Answer]?: SourceRule[K] } & Pick<SourceRule, 'status' | 'body' | 'respondHeaders'> = {
    status,
    body,
    respondHeaders,
  };
  const delay = delayOf(res, ctx);
  if (delay !== undefined) out.delay = delay;
  const fault = res['fault'];
  if (typeof fault === 'string') {
    const f = FAULTS[fault];
    if (f === undefined) leave(ctx, 'response.fault', `the fault ${fault} is not known`);
    else out.fault = f;
  }
  const transformers = res['transformers'];
  if (Array.isArray(transformers))
    for (const t of transformers) {
      // WireMock's request model and helpers, as WireMock renders them
      if (t === 'response-template') out.template = 'wiremock';
      else leave(ctx, 'response.transformers', REASONS.transformer(String(t)));
    }
  return out;
}

/** what a scenario name may hold here (docs/state.md); WireMock's are free text */
const SCENARIO_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * The name each WireMock scenario gets here: itself when it fits, otherwise its other characters turned into `_`
 * (`To do list` → `To_do_list`), with `_2`, `_3`… when two names would meet.
 */
export function scenarioKeys(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const n of names)
    if (SCENARIO_NAME.test(n)) {
      out.set(n, n);
      taken.add(n);
    }
  for (const n of names) {
    if (out.has(n)) continue;
    const base = n.replace(/[^A-Za-z0-9_.-]+/g, '_') || 'scenario';
    let key = base;
    for (let i = 2; taken.has(key); i++) key = `${base}_${i}`;
    out.set(n, key);
    taken.add(key);
  }
  return out;
}

function mappingRule(m: Obj, ctx: Ctx, input: WireMockInput, priorities: boolean): SourceRule | undefined {
  const req = m['request'];
  const res = m['response'];
  if (!isObj(req)) throw new Failed({ place: `${ctx.file}: request`, message: 'a mapping needs a `request` object' });
  if (!isObj(res)) throw new Failed({ place: `${ctx.file}: response`, message: 'a mapping needs a `response` object' });
  const rawMethod = typeof req['method'] === 'string' ? req['method'].toUpperCase() : 'ANY';
  let method: Method | undefined;
  if (rawMethod !== 'ANY') {
    if (!isMethod(rawMethod)) {
      leave(ctx, '', REASONS.method(rawMethod));
      return undefined;
    }
    method = rawMethod;
  }
  const url = urlOf(req, ctx);
  if (url.skip === true) return undefined;
  const query = [...url.query, ...namedConds(req['queryParameters'], 'request.queryParameters', ctx, false)];
  const headers = namedConds(req['headers'], 'request.headers', ctx, true);
  const cookies = namedConds(req['cookies'], 'request.cookies', ctx, false);
  const auth = req['basicAuthCredentials'];
  if (isObj(auth) && typeof auth['username'] === 'string' && typeof auth['password'] === 'string')
    headers.push([
      'authorization',
      { op: 'equal', value: `Basic ${Buffer.from(`${auth['username']}:${auth['password']}`).toString('base64')}` },
    ]);
  if (req['multipartPatterns'] !== undefined) leave(ctx, 'request.multipartPatterns', REASONS.multipart);
  if (req['customMatcher'] !== undefined) leave(ctx, 'request.customMatcher', REASONS.customMatcher);
  if (req['pathParameters'] !== undefined)
    leave(ctx, 'request.pathParameters', 'path parameter matchers are not supported');
  const body = bodyConds(req['bodyPatterns'], ctx);

  const scenario = typeof m['scenarioName'] === 'string' ? m['scenarioName'] : undefined;
  const whenState: (readonly [string, string])[] = [];
  const setState: (readonly [string, string])[] = [];
  if (scenario !== undefined) {
    const stateName = (s: string): string => (s === 'Started' ? 'started' : s);
    const required = typeof m['requiredScenarioState'] === 'string' ? m['requiredScenarioState'] : undefined;
    const next = typeof m['newScenarioState'] === 'string' ? m['newScenarioState'] : undefined;
    if (FEATURES.scenarios) {
      const key = ctx.scenarios?.get(scenario) ?? scenario;
      if (required !== undefined) whenState.push([key, stateName(required)]);
      if (next !== undefined) setState.push([key, stateName(next)]);
    } else {
      // without scenarios the first state is the only one: its mappings answer, the others are left out
      if (required !== undefined && required !== 'Started') {
        leave(ctx, 'requiredScenarioState', NOT_YET.scenarios);
        return undefined;
      }
      if (next !== undefined) leave(ctx, 'newScenarioState', NOT_YET.scenarios);
    }
  }
  const answer = responseOf(res, ctx, input.bodyFile);
  if (answer === undefined) return undefined;
  const name = typeof m['name'] === 'string' ? m['name'] : '';
  const p = typeof m['priority'] === 'number' ? m['priority'] : DEFAULT_PRIORITY;
  return {
    place: ctx.file,
    title: name,
    ...(method === undefined ? {} : { method }),
    ...(url.path === undefined ? {} : { urlPath: url.path }),
    ...(query.length === 0 ? {} : { query }),
    ...(headers.length === 0 ? {} : { headers }),
    ...(cookies.length === 0 ? {} : { cookies }),
    ...(body.json.length === 0 ? {} : { bodyJson: body.json }),
    ...(body.text === undefined ? {} : { bodyText: body.text }),
    ...(whenState.length === 0 ? {} : { whenState }),
    ...(setState.length === 0 ? {} : { setState }),
    ...(priorities ? { priority: -p } : {}),
    ...answer,
  };
}

/** The mappings of one file: a mapping, or `{ "mappings": [...] }` (each placed as `file: mappings[i]`). */
function mappingsOf(f: WireMockFile): { readonly place: string; readonly m: Obj }[] {
  if (!isObj(f.data))
    throw new Failed({ place: f.name, message: 'expected a mapping object or { "mappings": [...] }' });
  const list = f.data['mappings'];
  if (Array.isArray(list))
    return list.map((m, i) => {
      if (!isObj(m)) throw new Failed({ place: `${f.name}: mappings[${i}]`, message: 'expected a mapping object' });
      return { place: list.length === 1 ? f.name : `${f.name}: mappings[${i}]`, m };
    });
  return [{ place: f.name, m: f.data }];
}

export function decodeWireMock(input: WireMockInput): Result<SourceImport, DecodeError> {
  try {
    const all = input.files.flatMap(mappingsOf);
    const priorities = all.some(({ m }) => typeof m['priority'] === 'number');
    const leftOut: LeftOut[] = [];
    const rules: SourceRule[] = [];
    const names = [
      ...new Set(all.flatMap(({ m }) => (typeof m['scenarioName'] === 'string' ? [m['scenarioName']] : []))),
    ];
    const scenarios = scenarioKeys(names);
    const renamed = FEATURES.scenarios ? names.filter((n) => scenarios.get(n) !== n) : [];
    for (const { place, m } of all) {
      const r = mappingRule(m, { file: place, leftOut, scenarios }, input, priorities);
      if (r !== undefined) rules.push(r);
    }
    return ok({
      format: 'wiremock',
      title: input.title,
      rules,
      leftOut,
      read: { count: all.length, noun: all.length === 1 ? 'mapping' : 'mappings' },
      strategy: priorities ? 'priority' : 'first_match',
      ...(priorities || renamed.length > 0
        ? {
            notes: [
              ...(priorities
                ? ['', "WireMock's lowest priority number wins, here the highest: `priority = -p` (5 when unset)."]
                : []),
              ...(renamed.length === 0
                ? []
                : ['', 'WireMock scenarios renamed (a name here holds letters, digits, `_`, `.` and `-`):']),
              ...renamed.map((n) => `  ${JSON.stringify(n)} is ${scenarios.get(n)!}`),
            ],
          }
        : {}),
    });
  } catch (e) {
    if (e instanceof Failed) return err(e.decode);
    throw e;
  }
}
