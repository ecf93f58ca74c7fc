// The journal as WireMock's admin API shows it: an entry as a serve event (`{id, request, response, wasMatched,
// stubMapping?}`) or a logged request, and WireMock request patterns (`requests/count`, `find`, `remove`) tested
// against what the journal kept of a request. A pattern is read here, against the journal's record (method,
// target, headers, body as captured), not through the rule matcher: the record is not a request the matcher takes.
import type { CapturedBody, Entry } from '../journal/entry.js';
import { isObj, type Obj } from './wiremock-mapping.js';

/** WireMock's ids are UUIDs; the journal's are counters: entry 7 is `00000000-0000-4000-8000-000000000007`. */
export function entryUuid(id: number): string {
  return `00000000-0000-4000-8000-${id.toString(16).padStart(12, '0')}`;
}

export function entryIdOf(uuid: string): number | undefined {
  const m = /^00000000-0000-4000-8000-([0-9a-f]{12})$/i.exec(uuid);
  return m === null ? undefined : parseInt(m[1]!, 16);
}

function bodyText(b: CapturedBody): string {
  if (b.kind === 'json') return JSON.stringify(b.value);
  if (b.kind === 'text') return b.text;
  return '';
}

/** `name → value` with WireMock's header-name case (`content-type` → `Content-Type`); repeated names joined */
function headerObject(headers: Entry['request']['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) {
    const name = k.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
    out[name] = name in out ? `${out[name]}, ${v}` : v;
  }
  return out;
}

function queryPairs(query: string): [string, string][] {
  return [...new URLSearchParams(query)];
}

function cookiesOf(headers: Entry['request']['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers)
    if (k === 'cookie')
      for (const part of v.split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
      }
  return out;
}

/** the request as WireMock logs it */
export function loggedRequest(e: Entry): Obj {
  const host = e.request.headers.find(([k]) => k === 'host')?.[1] ?? '127.0.0.1';
  const body = bodyText(e.request.body);
  const queryParams: Record<string, { key: string; values: string[] }> = {};
  for (const [k, v] of queryPairs(e.request.query)) (queryParams[k] ??= { key: k, values: [] }).values.push(v);
  const colon = host.lastIndexOf(':');
  return {
    url: e.request.target,
    absoluteUrl: `http://${host}${e.request.target}`,
    method: e.request.method,
    clientIp: '127.0.0.1',
    headers: headerObject(e.request.headers),
    cookies: cookiesOf(e.request.headers),
    browserProxyRequest: false,
    loggedDate: e.receivedAt.getTime(),
    bodyAsBase64: Buffer.from(body).toString('base64'),
    body,
    protocol: 'HTTP/1.1',
    scheme: 'http',
    host: colon > 0 ? host.slice(0, colon) : host,
    port: colon > 0 ? Number(host.slice(colon + 1)) : 80,
    loggedDateString: e.receivedAt.toISOString(),
    queryParams,
    formParams: {},
  };
}

/** a request no rule, file or override answered (WireMock's "unmatched") */
export function wasMatched(e: Entry): boolean {
  const k = e.answeredBy.kind;
  return k !== 'miss' && k !== 'prefix_miss' && k !== 'refused';
}

/** the override that answered, when one did */
export function overrideIdOf(e: Entry): number | undefined {
  return e.answeredBy.kind === 'override' ? e.answeredBy.id : undefined;
}

export function serveEvent(e: Entry, stub: Obj | undefined): Obj {
  const body = bodyText(e.response.body);
  const matched = wasMatched(e);
  return {
    id: entryUuid(e.id),
    request: loggedRequest(e),
    responseDefinition: { status: e.response.status, ...(matched ? {} : { fromConfiguredStub: false }) },
    response: {
      status: e.response.status,
      headers: headerObject(e.response.headers),
      bodyAsBase64: Buffer.from(body).toString('base64'),
      body,
    },
    wasMatched: matched,
    timing: {
      addedDelay: 0,
      processTime: Math.round(e.latencyMs),
      responseSendTime: 0,
      serveTime: Math.round(e.latencyMs),
      totalTime: Math.round(e.latencyMs),
    },
    subEvents: [],
    ...(stub === undefined ? {} : { stubMapping: stub }),
  };
}

// ---- request patterns --------------------------------------------------------------------------------------

const URL_KEYS = ['url', 'urlPath', 'urlPattern', 'urlPathPattern', 'urlPathTemplate'] as const;
const PATTERN_KEYS = new Set<string>([
  ...URL_KEYS,
  'method',
  'headers',
  'queryParameters',
  'cookies',
  'bodyPatterns',
  'basicAuthCredentials',
  'basicAuth',
]);

export const PATTERN_MESSAGES = {
  notObject: 'a request pattern must be a JSON object',
  key: (k: string) => `the request pattern key \`${k}\` is not one mock reads`,
  matcher: (at: string) =>
    `${at}: mock reads equalTo, contains, doesNotContain, matches, doesNotMatch, absent, equalToJson and matchesJsonPath here`,
} as const;

/** A check of a request record, or why the pattern cannot be read. */
export type RecordTest = (e: Entry) => boolean;

export function compilePattern(p: unknown): RecordTest | string {
  if (!isObj(p)) return PATTERN_MESSAGES.notObject;
  const tests: RecordTest[] = [];
  for (const key of Object.keys(p)) if (!PATTERN_KEYS.has(key)) return PATTERN_MESSAGES.key(key);
  const method = typeof p['method'] === 'string' ? p['method'].toUpperCase() : 'ANY';
  if (method !== 'ANY') tests.push((e) => e.request.method === method);
  const url = urlTest(p);
  if (url !== undefined) tests.push(url);
  for (const [place, read] of [
    ['headers', (e: Entry, n: string) => headerValue(e, n)],
    ['queryParameters', (e: Entry, n: string) => queryPairs(e.request.query).find(([k]) => k === n)?.[1]],
    ['cookies', (e: Entry, n: string) => cookiesOf(e.request.headers)[n]],
  ] as const) {
    const table = p[place];
    if (table === undefined) continue;
    if (!isObj(table)) return PATTERN_MESSAGES.matcher(place);
    for (const [name, vp] of Object.entries(table)) {
      const t = valueTest(vp);
      if (typeof t === 'string') return PATTERN_MESSAGES.matcher(`${place}.${name}`);
      tests.push((e) => t(read(e, name)));
    }
  }
  const auth = p['basicAuthCredentials'] ?? p['basicAuth'];
  if (isObj(auth)) {
    const want = `Basic ${Buffer.from(`${String(auth['username'])}:${String(auth['password'])}`).toString('base64')}`;
    tests.push((e) => headerValue(e, 'authorization') === want);
  }
  if (Array.isArray(p['bodyPatterns']))
    for (const [i, bp] of p['bodyPatterns'].entries()) {
      const t = valueTest(bp);
      if (typeof t === 'string') return PATTERN_MESSAGES.matcher(`bodyPatterns[${i}]`);
      tests.push((e) => t(bodyText(e.request.body)));
    }
  return (e) => tests.every((t) => t(e));
}

function headerValue(e: Entry, name: string): string | undefined {
  const n = name.toLowerCase();
  return e.request.headers.find(([k]) => k === n)?.[1];
}

function urlTest(p: Obj): RecordTest | undefined {
  const whole = (re: string): RegExp => new RegExp(`^(?:${re})$`);
  const pathOf = (e: Entry): string => e.request.target.split('?', 1)[0]!;
  if (typeof p['url'] === 'string') {
    const url = p['url'];
    return (e) => e.request.target === url;
  }
  if (typeof p['urlPath'] === 'string') {
    const path = p['urlPath'];
    return (e) => pathOf(e) === path;
  }
  if (typeof p['urlPattern'] === 'string') {
    const re = whole(p['urlPattern']);
    return (e) => re.test(e.request.target);
  }
  if (typeof p['urlPathPattern'] === 'string') {
    const re = whole(p['urlPathPattern']);
    return (e) => re.test(pathOf(e));
  }
  if (typeof p['urlPathTemplate'] === 'string') {
    const re = whole(p['urlPathTemplate'].replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+'));
    return (e) => re.test(pathOf(e));
  }
  return undefined;
}

/** one WireMock value pattern (`{"equalTo": "x", "caseInsensitive": true}`) as a test of a value */
export function valueTest(vp: unknown): ((v: string | undefined) => boolean) | string {
  if (!isObj(vp)) return 'bad';
  const ci = vp['caseInsensitive'] === true;
  const norm = (s: string): string => (ci ? s.toLowerCase() : s);
  if (vp['absent'] === true) return (v) => v === undefined;
  if (typeof vp['equalTo'] === 'string') {
    const want = norm(vp['equalTo']);
    return (v) => v !== undefined && norm(v) === want;
  }
  if (typeof vp['contains'] === 'string') {
    const want = vp['contains'];
    return (v) => v !== undefined && v.includes(want);
  }
  if (typeof vp['doesNotContain'] === 'string') {
    const want = vp['doesNotContain'];
    return (v) => v !== undefined && !v.includes(want);
  }
  if (typeof vp['matches'] === 'string') {
    const re = new RegExp(`^(?:${vp['matches']})$`, 's');
    return (v) => v !== undefined && re.test(v);
  }
  if (typeof vp['doesNotMatch'] === 'string') {
    const re = new RegExp(`^(?:${vp['doesNotMatch']})$`, 's');
    return (v) => v !== undefined && !re.test(v);
  }
  if (vp['equalToJson'] !== undefined) return jsonTest(vp);
  const jp = vp['matchesJsonPath'];
  if (typeof jp === 'string') return (v) => jsonAt(v, jp) !== undefined;
  // `{"expression": "$.a", "equalTo": "1"}`: the value there, as text, tested by the pattern beside it
  if (isObj(jp) && typeof jp['expression'] === 'string') {
    const path = jp['expression'];
    const { expression: _e, ...rest } = jp;
    const inner = valueTest(rest);
    if (typeof inner === 'string') return inner;
    return (v) => {
      const at = jsonAt(v, path);
      return at !== undefined && inner(typeof at === 'string' ? at : JSON.stringify(at));
    };
  }
  return 'unknown';
}

function parsed(v: string | undefined): unknown {
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

function jsonTest(vp: Obj): (v: string | undefined) => boolean {
  const want = typeof vp['equalToJson'] === 'string' ? parsed(vp['equalToJson']) : vp['equalToJson'];
  const extra = vp['ignoreExtraElements'] === true;
  const order = vp['ignoreArrayOrder'] === true;
  return (v) => jsonMatches(parsed(v), want, extra, order);
}

function jsonMatches(got: unknown, want: unknown, extra: boolean, order: boolean): boolean {
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return false;
    if (!order) return want.every((w, i) => jsonMatches(got[i], w, extra, order));
    const left: unknown[] = [...(got as unknown[])];
    return want.every((w) => {
      const i = left.findIndex((g) => jsonMatches(g, w, extra, order));
      return i >= 0 && left.splice(i, 1).length === 1;
    });
  }
  if (isObj(want)) {
    if (!isObj(got)) return false;
    if (!extra && Object.keys(got).length !== Object.keys(want).length) return false;
    return Object.entries(want).every(([k, w]) => k in got && jsonMatches(got[k], w, extra, order));
  }
  return got === want;
}

/** `$.a.b[0]`-style paths only */
function jsonAt(v: string | undefined, path: string): unknown {
  let cur = parsed(v);
  const parts = path.replace(/^\$\.?/, '').match(/[^.[\]]+|\[\d+\]/g) ?? [];
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}
