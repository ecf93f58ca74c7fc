// WireMock stub mappings (a `mappings/` folder, or one file holding a mapping or `{ "mappings": [...] }`, with the
// `__files/` folder beside it) → the neutral import form. Pure: the CLI reads the files and hands their parsed
// JSON and a lookup into `__files/` in. A matcher WireMock does not know is an error at its place; one it knows
// that a rule set cannot express (XPath, JSON schema, dates, `and`/`or`) leaves that part out, named in the summary.
// docs/import.md lists what maps to what.
import { isMethod, type Method } from '../model/operators.js';
import { err, ok, type Result } from '../shared/result.js';
import { FEATURES, NOT_YET } from './features.js';
import { withWebhooks } from './wiremock-webhooks.js';
import type { Cond, Delay, LeftOut, SourceBody, SourceImport, SourceRule, UrlPath } from './plan.js';
import {
  bodyConds,
  Failed,
  isObj,
  leave,
  multipartConds,
  namedConds,
  type Ctx,
  type DecodeError,
  type Obj,
} from './wiremock-patterns.js';

export { simpleJsonPath, type DecodeError } from './wiremock-patterns.js';

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

const FAULTS: Readonly<Record<string, string>> = {
  CONNECTION_RESET_BY_PEER: 'connection_reset',
  EMPTY_RESPONSE: 'empty_response',
  MALFORMED_RESPONSE_CHUNK: 'malformed_chunk',
  RANDOM_DATA_THEN_CLOSE: 'malformed_response',
};

/** WireMock's priority when a mapping names none */
const DEFAULT_PRIORITY = 5;

const RESPONSE_REASONS = {
  proxy: 'proxying is not supported',
  statusMessage: 'a custom reason phrase is not supported',
  dribble: 'dribbled delays are not supported',
  transformer: (t: string) => `the transformer \`${t}\` is not supported (only response-template)`,
  noFile: (n: string) => `\`__files/${n}\` does not exist`,
  method: (m: string) => `the method ${m} cannot be matched by a rule`,
  customMatcher: 'custom matchers are not supported',
  pathParameters: 'path parameters need a `urlPathTemplate`',
} as const;

interface UrlConds {
  path?: UrlPath;
  query: (readonly [string, Cond])[];
  /** the path and query as sent */
  url?: Cond;
}

function urlOf(req: Obj): UrlConds {
  const str = (k: string): string | undefined => (typeof req[k] === 'string' ? req[k] : undefined);
  const url = str('url');
  if (url !== undefined) {
    // WireMock compares the path and query as sent, exactly: the url_path is there for the rule set's path index
    const q = url.indexOf('?');
    return { path: { op: 'equal', value: q < 0 ? url : url.slice(0, q) }, query: [], url: { op: 'equal', value: url } };
  }
  const urlPath = str('urlPath');
  if (urlPath !== undefined) return { path: { op: 'equal', value: urlPath }, query: [] };
  const template = str('urlPathTemplate');
  if (template !== undefined) return { path: { op: 'path_template', value: template }, query: [] };
  const pathPattern = str('urlPathPattern');
  if (pathPattern !== undefined) return { path: { op: 'regex', value: `^(?:${pathPattern})$` }, query: [] };
  const pattern = str('urlPattern');
  // WireMock matches it against the path and query together
  if (pattern !== undefined) return { query: [], url: { op: 'regex', value: `^(?:${pattern})$` } };
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
  if (res['chunkedDribbleDelay'] !== undefined) leave(ctx, 'response.chunkedDribbleDelay', RESPONSE_REASONS.dribble);
  return undefined;
}

type Answer = 'status' | 'body' | 'respondHeaders' | 'delay' | 'fault' | 'template';

function responseOf(res: Obj, ctx: Ctx, bodyFile: WireMockInput['bodyFile']): Pick<SourceRule, Answer> | undefined {
  if (typeof res['proxyBaseUrl'] === 'string') {
    leave(ctx, 'response.proxyBaseUrl', RESPONSE_REASONS.proxy);
    return undefined;
  }
  const status = typeof res['status'] === 'number' ? res['status'] : 200;
  if (res['statusMessage'] !== undefined) leave(ctx, 'response.statusMessage', RESPONSE_REASONS.statusMessage);
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
      leave(ctx, 'response.bodyFileName', RESPONSE_REASONS.noFile(name));
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
      else leave(ctx, 'response.transformers', RESPONSE_REASONS.transformer(String(t)));
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
      leave(ctx, '', RESPONSE_REASONS.method(rawMethod));
      return undefined;
    }
    method = rawMethod;
  }
  const url = urlOf(req);
  const query = [...url.query, ...namedConds(req['queryParameters'], 'request.queryParameters', ctx, false)];
  const headers = namedConds(req['headers'], 'request.headers', ctx, true);
  const cookies = namedConds(req['cookies'], 'request.cookies', ctx, false);
  // `basicAuth` is the spelling of WireMock's documentation, `basicAuthCredentials` the one it writes
  const auth = req['basicAuthCredentials'] ?? req['basicAuth'];
  if (isObj(auth) && typeof auth['username'] === 'string' && typeof auth['password'] === 'string')
    headers.push([
      'authorization',
      { op: 'equal', value: `Basic ${Buffer.from(`${auth['username']}:${auth['password']}`).toString('base64')}` },
    ]);
  const form = [
    ...namedConds(req['formParameters'], 'request.formParameters', ctx, false),
    ...multipartConds(req['multipartPatterns'], ctx),
  ];
  if (req['customMatcher'] !== undefined) leave(ctx, 'request.customMatcher', RESPONSE_REASONS.customMatcher);
  let params: (readonly [string, Cond])[] = [];
  if (req['pathParameters'] !== undefined) {
    if (url.path?.op === 'path_template')
      params = namedConds(req['pathParameters'], 'request.pathParameters', ctx, false);
    else leave(ctx, 'request.pathParameters', RESPONSE_REASONS.pathParameters);
  }
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
    ...(params.length === 0 ? {} : { params }),
    ...(form.length === 0 ? {} : { form }),
    ...(url.url === undefined ? {} : { url: url.url }),
    ...(body.json.length === 0 ? {} : { bodyJson: body.json }),
    ...(body.text === undefined ? {} : { bodyText: body.text }),
    ...(whenState.length === 0 ? {} : { whenState }),
    ...(setState.length === 0 ? {} : { setState }),
    ...(priorities ? { priority: -p } : {}),
    ...answer,
  };
}

const ORDER_NOTE = [
  '',
  'WireMock tries the mapping read last first: the rules are in the reverse of the order read (files by name).',
];

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
      if (r !== undefined) rules.push(withWebhooks(r, m, place, leftOut));
    }
    // WireMock tries the stub added last first (among equal priorities): the rules are written last mapping first
    rules.reverse();
    return ok({
      format: 'wiremock',
      title: input.title,
      rules,
      leftOut,
      read: { count: all.length, noun: all.length === 1 ? 'mapping' : 'mappings' },
      strategy: priorities ? 'priority' : 'first_match',
      notes: [
        ...ORDER_NOTE,
        ...(priorities
          ? ['', "WireMock's lowest priority number wins, here the highest: `priority = -p` (5 when unset)."]
          : []),
        ...(renamed.length === 0
          ? []
          : ['', 'WireMock scenarios renamed (a name here holds letters, digits, `_`, `.` and `-`):']),
        ...renamed.map((n) => `  ${JSON.stringify(n)} is ${scenarios.get(n)!}`),
      ],
    });
  } catch (e) {
    if (e instanceof Failed) return err(e.decode);
    throw e;
  }
}
