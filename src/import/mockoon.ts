// A Mockoon environment (its JSON file) → the neutral import form. Pure. Per route, in Mockoon's own order: each
// response with rules (one rule per Mockoon rule when they are joined by OR, all together when by AND), then the
// default response (`default: true`, else the first) without conditions. Latency (environment plus response),
// headers (environment, then response), and templating (a body with `{{`, unless disabled) carry over.
// A CRUD route over a data bucket holding a JSON array of objects becomes a collection (its data a JSON file).
// A route in random or sequential mode answers from a rule set of its own (uniform_random, round_robin).
// Left out, each named: other data buckets, file bodies, rules on targets a rule set has no condition for, and
// disabled routes.
import { isMethod, type Method } from '../model/operators.js';
import { err, ok, type Result } from '../shared/result.js';
import { FEATURES, NOT_YET } from './features.js';
import { withCallbacks } from './mockoon-callbacks.js';
import type {
  Cond,
  LeftOut,
  SourceBody,
  SourceCollection,
  SourceGroup,
  SourceImport,
  SourceRule,
  UrlPath,
} from './plan.js';
import { simpleJsonPath } from './wiremock.js';

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export interface MockoonError {
  readonly place: string;
  readonly message: string;
}

function pairs(v: unknown): [string, string][] {
  if (!Array.isArray(v)) return [];
  const out: [string, string][] = [];
  for (const h of v)
    if (isObj(h) && typeof h['key'] === 'string' && h['key'] !== '')
      out.push([h['key'].toLowerCase(), str(h['value'])]);
  return out;
}

/**
 * A route's path as a rule's url_path: literal (`equal`), a path template (`:id` → `{id}`, literal text around
 * captures too: `docket.{format}`), or, for Mockoon's optional characters and wildcards without parameters
 * (`ab+c` is `abc` or `abbc` in Mockoon 9, `a?b`, `files/*`), a regex. Undefined: not expressible.
 */
function pathOf(prefix: string, endpoint: string): UrlPath | undefined {
  const joined = ('/' + [prefix, endpoint].filter((p) => p !== '').join('/')).replace(/\/{2,}/g, '/');
  const path = joined.length > 1 ? joined.replace(/\/$/, '') : joined;
  if (/[#{}]/.test(path)) return undefined;
  if (/[*()?+]/.test(path)) return /:[A-Za-z_$]/.test(path) ? undefined : regexPathOf(path);
  const templated = path.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');
  return templated === path ? { op: 'equal', value: path } : { op: 'path_template', value: templated };
}

/** Mockoon 9's reading of `*`, `(…)`, `(…)?`, `c?` and `c+` in a path without parameters, as an anchored regex. */
function regexPathOf(path: string): UrlPath | undefined {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    const next = path[i + 1];
    if (c === '*') out += '.*';
    else if (c === '(') {
      const close = path.indexOf(')', i);
      if (close < 0 || path.slice(i + 1, close).includes('(')) return undefined;
      out += `(?:${escapeRe(path.slice(i + 1, close))})`;
      i = close;
      if (path[i + 1] === '?') {
        out += '?';
        i++;
      }
    } else if (/\w/.test(c) && (next === '?' || next === '+')) {
      out += next === '?' ? `${escapeRe(c)}?` : `${escapeRe(c)}${escapeRe(c)}?`;
      i++;
    } else if (/[)?+]/.test(c)) return undefined;
    else out += escapeRe(c);
  }
  return { op: 'regex', value: `^${out}/?$` };
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, (m) => (m === '/' ? '/' : `\\${m}`));

type Where = 'query' | 'headers' | 'cookies' | 'params' | 'json' | 'text';

/** one Mockoon rule as a condition; a string: why it is left out */
function condOf(rule: Obj): { where: Where; name: string; cond: Cond } | string {
  const target = str(rule['target']);
  const modifier = str(rule['modifier']);
  const operator = str(rule['operator']) || 'equals';
  const value = str(rule['value']);
  const invert = rule['invert'] === true;
  let where: Where;
  let name = modifier;
  switch (target) {
    case 'query':
      where = 'query';
      break;
    case 'header':
      where = 'headers';
      name = modifier.toLowerCase();
      break;
    case 'cookie':
      where = 'cookies';
      break;
    case 'params':
      where = 'params';
      break;
    case 'body': {
      if (modifier === '') {
        where = 'text';
        break;
      }
      const path = modifier.startsWith('$') ? simpleJsonPath(modifier) : modifier;
      if (path === undefined) return 'only simple JSONPath expressions ($.a.b[0]) are supported';
      where = 'json';
      name = path;
      break;
    }
    default:
      return `rules on \`${target}\` are not supported`;
  }
  if (where !== 'text' && name === '') return 'a rule without a name (modifier) is not supported';
  const json = where === 'json';
  switch (operator) {
    case 'equals':
      // body.json has no `not_equal`: a negated equality is a negated whole-value pattern there
      if (invert && json) return { where, name, cond: { op: 'not_regex', value: `^${escapeRe(value)}$` } };
      // Mockoon reads a null field as empty text: `equals ""` holds for it (a body's null reads "null" here)
      if (json && value === '') return { where, name, cond: { op: 'regex', value: '^(?:null)?$' } };
      return { where, name, cond: { op: invert ? 'not_equal' : json ? 'equal_string' : 'equal', value } };
    case 'regex':
    case 'regex_i': {
      let v = operator === 'regex_i' ? `(?i)${value}` : value;
      // a null field is empty text to Mockoon: a pattern that holds for "" holds for it
      if (json && matchesEmpty(value)) v = `(?:${v})|^null$`;
      return { where, name, cond: { op: invert ? 'not_regex' : 'regex', value: v } };
    }
    case 'null':
      return { where, name, cond: { op: invert ? 'exists' : 'absent', ...(json ? { value: '' } : {}) } };
    case 'empty_array':
      if (!json || invert) return 'this array test is not supported';
      return { where, name, cond: { op: 'array_length_equal', value: '0' } };
    case 'array_includes':
      if (!json || invert) return 'this array test is not supported';
      return { where, name, cond: { op: 'array_contains', value: JSON.stringify(value) } };
    default:
      return `the operator \`${operator}\` is not supported`;
  }
}

function matchesEmpty(pattern: string): boolean {
  try {
    return new RegExp(pattern).test('');
  } catch {
    return false;
  }
}

interface Bucket {
  readonly place: string;
  readonly name: string;
  readonly value: string;
  /** why it cannot be a collection; undefined when it holds a JSON array of objects */
  readonly unfit?: string;
}

/** The environment's data buckets by their id (what a route's `databucketID` names). */
function bucketsOf(v: unknown): Map<string, Bucket> {
  const out = new Map<string, Bucket>();
  if (!Array.isArray(v)) return out;
  v.forEach((b, i) => {
    if (!isObj(b) || typeof b['id'] !== 'string') return;
    const value = str(b['value']);
    let unfit: string | undefined;
    if (value.includes('{{')) unfit = 'a data bucket with templates is not supported (a collection holds plain JSON)';
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = undefined;
      }
      if (!Array.isArray(parsed) || !parsed.every(isObj))
        unfit = 'only a data bucket holding a JSON array of objects becomes a collection';
    }
    out.set(b['id'], {
      place: `data[${i}]`,
      name: str(b['name']) || b['id'],
      value,
      ...(unfit === undefined ? {} : { unfit }),
    });
  });
  return out;
}

/**
 * A response's status: Mockoon reads a status that is not a number from 100 to 999 (`99` in older files) as 200
 * when it loads the environment, so the import writes 200 too, and says so.
 */
function statusOf(r: Obj, place: string, notes: LeftOut[]): number {
  const raw =
    typeof r['statusCode'] === 'string' && /^\d+$/.test(r['statusCode']) ? Number(r['statusCode']) : r['statusCode'];
  if (raw === undefined) return 200;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 100 && raw <= 999) return raw;
  notes.push({
    place,
    what: 'statusCode',
    reason: `${JSON.stringify(raw)} is not a status from 100 to 999: served as 200, as Mockoon does`,
  });
  return 200;
}

/**
 * The environment's listener settings a new mock.toml takes (its port, and its hostname when it names one: an empty
 * one, all interfaces in Mockoon, stays loopback here); the settings no rule set expresses yet are named.
 */
function settingsOf(data: Obj, notes: LeftOut[]): SourceImport['listener'] {
  const port = data['port'];
  const host = str(data['hostname']);
  const tls = isObj(data['tlsOptions']) ? data['tlsOptions'] : undefined;
  if (tls?.['enabled'] === true)
    notes.push({
      place: 'tlsOptions',
      what: '',
      reason: `TLS is not imported yet: add a [listener.tls] with the certificate (${str(tls['certPath']) || str(tls['pfxPath']) || 'its files'}) to mock.toml`,
    });
  if (data['proxyMode'] === true)
    notes.push({
      place: 'proxyMode',
      what: '',
      reason: `proxy mode to ${str(data['proxyHost']) || 'its host'} is not imported yet: a request no route answers gets mock's 404`,
    });
  // route callbacks are imported with their responses (mockoon-callbacks.ts)
  const out: { port?: number; ipAddress?: string } = {};
  if (typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536) out.port = port;
  if (/^[\d.]+$|^[0-9a-fA-F:]+$/.test(host) && host !== '0.0.0.0') out.ipAddress = host;
  return Object.keys(out).length === 0 ? undefined : out;
}

export function decodeMockoon(data: unknown, title?: string): Result<SourceImport, MockoonError> {
  if (!isObj(data) || !Array.isArray(data['routes']))
    return err({ place: 'routes', message: 'a Mockoon environment needs a `routes` array' });
  const prefix = str(data['endpointPrefix']).replace(/^\/+|\/+$/g, '');
  const envLatency = typeof data['latency'] === 'number' ? data['latency'] : 0;
  const envHeaders = pairs(data['headers']);
  const crudHeaders = envHeaders.filter(([k]) => k !== 'content-type');
  const rules: SourceRule[] = [];
  const leftOut: LeftOut[] = [];
  const collections: SourceCollection[] = [];
  const groups: SourceGroup[] = [];
  const buckets = bucketsOf(data['data']);
  /** the buckets a CRUD route serves as a collection */
  const served = new Set<string>();
  let read = 0;
  (data['routes'] as unknown[]).forEach((route, i) => {
    if (!isObj(route)) return;
    read++;
    const method = str(route['method']).toUpperCase();
    const endpoint = str(route['endpoint']);
    const place = `routes[${i}]`;
    const shown = `${method} /${endpoint}`;
    if (route['enabled'] === false) return void leftOut.push({ place, what: '', reason: 'the route is disabled' });
    const crud = route['type'] === 'crud';
    if (route['type'] !== undefined && route['type'] !== 'http' && !crud)
      return void leftOut.push({ place, what: 'type', reason: `${str(route['type'])} routes are not supported` });
    let m: Method | undefined;
    if (method !== 'ALL' && !crud) {
      if (!isMethod(method))
        return void leftOut.push({ place, what: 'method', reason: `the method ${method} cannot be matched by a rule` });
      m = method;
    }
    const urlPath = pathOf(prefix, endpoint);
    if (urlPath === undefined)
      return void leftOut.push({
        place,
        what: 'endpoint',
        reason: 'a route with wildcards, regex groups, `#`, `?` or braces is not supported',
      });
    const responses = Array.isArray(route['responses']) ? route['responses'].filter(isObj) : [];
    if (responses.length === 0) return void leftOut.push({ place, what: '', reason: 'the route has no response' });
    const mode = route['responseMode'];
    const modal = mode === 'RANDOM' || mode === 'SEQUENTIAL';
    // "disable rules": the default response answers every request, whatever the others' rules
    const rulesOff = mode === 'DISABLE_RULES';
    const main = responses.find((r) => r['default'] === true) ?? responses[0]!;
    if (crud) {
      // a CRUD route serves its data bucket (GET, POST, PUT, PATCH, DELETE on the path and path/:id): a collection,
      // which answers after the rule set's rules, so the route's responses with rules still come first
      const j = responses.indexOf(main);
      const id = str(main['databucketID']);
      const bucket = buckets.get(id);
      const why = !FEATURES.collections
        ? NOT_YET.collections
        : urlPath.op !== 'equal'
          ? 'a CRUD route with path parameters is not supported'
          : bucket === undefined
            ? `no data bucket \`${id}\``
            : bucket.unfit;
      if (why !== undefined)
        return void leftOut.push({ place, what: `responses[${j}].databucketID`, reason: `CRUD route: ${why}` });
      served.add(id);
      collections.push({
        place,
        title: `CRUD ${urlPath.value} (data bucket ${JSON.stringify(bucket!.name)})`,
        path: urlPath.value,
        name: bucket!.name,
        data: bucket!.value,
        id: str(main['crudKey']) || 'id',
        // Mockoon's environment headers are on its CRUD answers too (a collection answers JSON whatever they say)
        ...(crudHeaders.length === 0 ? {} : { headers: crudHeaders }),
        ...(groups.length === 0 ? {} : { groupsBefore: groups.length }),
      });
    }
    const answer = (r: Obj, j: number): Omit<SourceRule, 'place' | 'title'> | undefined => {
      const at = `responses[${j}]`;
      const bodyType = str(r['bodyType']) || 'INLINE';
      if (bodyType !== 'INLINE') {
        leftOut.push({
          place,
          what: `${at}.bodyType`,
          reason: bodyType === 'DATABUCKET' ? `data buckets: ${NOT_YET.collections}` : 'file bodies are not supported',
        });
        return undefined;
      }
      const headers = [
        ...envHeaders.filter(([k]) => !pairs(r['headers']).some(([x]) => x === k)),
        ...pairs(r['headers']),
      ];
      const type = headers.find(([k]) => k === 'content-type')?.[1];
      const text = str(r['body']);
      const body: SourceBody =
        text === ''
          ? { kind: 'none' }
          : type !== undefined && /json/i.test(type) && parsesAsJson(text)
            ? { kind: 'file', data: text, ext: 'json' }
            : // not JSON as written (a template, a sketch): inline, with its content type from the headers
              { kind: 'text', text };
      const latency = envLatency + (typeof r['latency'] === 'number' ? r['latency'] : 0);
      const template = r['disableTemplating'] !== true && text.includes('{{');
      const answered = {
        ...(m === undefined ? {} : { method: m }),
        urlPath,
        status: statusOf(r, `${place} ${at}`, leftOut),
        body,
        respondHeaders: headers,
        ...(latency > 0 ? { delay: latency } : {}),
        ...(template ? { template: true } : {}),
      };
      return withCallbacks(answered, data, r, place, at, leftOut);
    };
    if (modal && !crud) {
      // every response in turn (or at random), whatever its rules, as Mockoon does: a rule set of its own with the
      // strategy, placed between the routes before it and after it
      const group: SourceRule[] = [];
      responses.forEach((r, j) => {
        const a = answer(r, j);
        const label = str(r['label']);
        if (a !== undefined)
          group.push({ place: `${place} responses[${j}]`, title: label === '' ? shown : `${shown}: ${label}`, ...a });
      });
      if (group.length > 0)
        groups.push({
          after: rules.length,
          place,
          title: shown,
          strategy: mode === 'RANDOM' ? 'uniform_random' : 'round_robin',
          rules: group,
        });
      return;
    }
    if (!modal && !rulesOff)
      responses.forEach((r, j) => {
        const list = Array.isArray(r['rules']) ? r['rules'].filter(isObj) : [];
        if (r === main || list.length === 0) return;
        const conds: { where: Where; name: string; cond: Cond }[] = [];
        for (const [k, rule] of list.entries()) {
          const c = condOf(rule);
          if (typeof c === 'string') leftOut.push({ place, what: `responses[${j}].rules[${k}]`, reason: c });
          else conds.push(c);
        }
        if (conds.length === 0) return;
        const a = answer(r, j);
        if (a === undefined) return;
        const label = str(r['label']);
        const groups = r['rulesOperator'] === 'AND' ? [conds] : conds.map((c) => [c]);
        for (const g of groups) {
          const by = (w: Where): (readonly [string, Cond])[] =>
            g.filter((c) => c.where === w).map((c) => [c.name, c.cond]);
          const text = g.find((c) => c.where === 'text')?.cond;
          const extra: Partial<SourceRule> = {
            ...(by('query').length > 0 ? { query: by('query') } : {}),
            ...(by('headers').length > 0 ? { headers: by('headers') } : {}),
            ...(by('cookies').length > 0 ? { cookies: by('cookies') } : {}),
            ...(by('params').length > 0 ? { params: by('params') } : {}),
            ...(by('json').length > 0 ? { bodyJson: by('json') } : {}),
            ...(text === undefined ? {} : { bodyText: text }),
          };
          rules.push({ place: `${place} responses[${j}]`, title: `${shown}: ${label}`, ...a, ...extra });
        }
      });
    if (crud) return;
    const j = responses.indexOf(main);
    const a = answer(main, j);
    if (a !== undefined)
      rules.push({
        place: `${place} responses[${j}]`,
        title: `${shown}: ${str(main['label'])} (the default response)`,
        ...a,
      });
  });
  for (const [id, b] of buckets)
    if (!served.has(id))
      leftOut.push({
        place: b.place,
        what: '',
        reason: `data bucket ${JSON.stringify(b.name)}: ${b.unfit ?? 'no CRUD route serves it, so it has no path to be a collection at'}`,
      });
  const listener = settingsOf(data, leftOut);
  return ok({
    format: 'mockoon',
    ...(listener === undefined ? {} : { listener }),
    title: title ?? (str(data['name']) || 'mockoon'),
    rules,
    leftOut,
    ...(collections.length === 0 ? {} : { collections }),
    ...(groups.length === 0 ? {} : { groups }),
    read: { count: read, noun: read === 1 ? 'route' : 'routes' },
    strategy: 'first_match',
  });
}
