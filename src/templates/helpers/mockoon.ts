// Mockoon's template helpers under Mockoon's names and with its readings (docs/coming-from-mockoon.md): request
// helpers that answer objects as JSON, `switch`/`case`, `repeat`, arrays, strings, numbers, dates, global variables
// (on the state store, so sessions and reset cover them) and environment variables with Mockoon's `MOCKOON_`
// prefix. Randomness comes from the runtime's generator, time from its clock, as for every helper.
import type { TemplateData, TemplateRuntime } from '../../model/template.js';
import { formatDate } from '../now.js';

type Helper = (...args: unknown[]) => unknown;

interface Options {
  readonly hash: Readonly<Record<string, unknown>>;
  readonly data?: {
    readonly root?: TemplateData;
    readonly mockRuntime?: TemplateRuntime;
    switchValue?: unknown;
    found?: boolean;
    [k: string]: unknown;
  };
  readonly fn?: (context: unknown, o?: { data: unknown }) => string;
  readonly inverse?: (context: unknown) => string;
}

/** the most items `repeat` and `array`-making helpers make in one call */
const MAX_REPEAT = 100_000;
/** environment variables a template may read: only those with this prefix (Mockoon's convention) */
export const ENV_PREFIX = 'MOCKOON_';
/** the state store's key of a global variable (`setGlobalVar`) */
export const GLOBAL_VAR_KEY = 'mockoon-global:';

const split = (args: unknown[]): { p: unknown[]; o: Options } => ({
  p: args.slice(0, -1),
  o: args[args.length - 1] as Options,
});
const runtime = (o: Options): TemplateRuntime | undefined => o.data?.mockRuntime;
const request = (o: Options): TemplateData['request'] | undefined => o.data?.root?.request;
const str = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
const isOptions = (v: unknown): boolean => typeof v === 'object' && v !== null && 'hash' in v;
const numberOf = (v: unknown): number => (typeof v === 'number' ? v : Number(str(v)));

/**
 * A value at a path the way Mockoon reads one: `$…` as JSONPath, else dotted with `\.` for a dot inside a key and
 * numbers for array items (`items.0.id`); the default when nothing is there.
 */
export function valueAt(value: unknown, path: string, fallback: unknown): unknown {
  if (path === '') return value ?? fallback;
  if (path.startsWith('$')) return jsonPathValue(value, path) ?? fallback;
  const keys = path.split(/(?<!\\)\./).map((k) => k.replace(/\\\./g, '.'));
  let v = value;
  for (const k of keys) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) return fallback;
    v = (v as Record<string, unknown>)[k];
  }
  return v === undefined ? fallback : v;
}

/** `$.a.b[0]`, `$['a']`, `$.a[*].b` (all items) */
function jsonPathValue(value: unknown, path: string): unknown {
  const re = /\.\*|\[\*\]|\.([^.[\]]+)|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]/gy;
  const rest = path.slice(1);
  let current: unknown[] = [value];
  let many = false;
  re.lastIndex = 0;
  for (let guard = 0; re.lastIndex < rest.length && guard <= rest.length; guard++) {
    const m = re.exec(rest);
    if (m === null) return undefined;
    const step = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '*';
    const next: unknown[] = [];
    for (const c of current) {
      if (c === null || typeof c !== 'object') continue;
      if (step === '*') {
        next.push(...(Array.isArray(c) ? (c as unknown[]) : (Object.values(c) as unknown[])));
        many = true;
      } else if (Array.isArray(c) && /^-?\d+$/.test(step)) {
        const i = Number(step);
        const item: unknown = (c as unknown[])[i < 0 ? c.length + i : i];
        if (item !== undefined) next.push(item);
      } else if (Object.prototype.hasOwnProperty.call(c, step)) next.push((c as Record<string, unknown>)[step]);
    }
    current = next;
  }
  return many ? current : current[0];
}

/** Mockoon's `body`/`queryParam`: an object or array (or `stringify`) as JSON, other values as they are */
function asText(value: unknown, stringify: unknown): unknown {
  if ((typeof value === 'object' && value !== null) || value === null || stringify === true)
    return JSON.stringify(value);
  return value;
}

/**
 * The query as Mockoon's `qs` reading gives it: `obj[prop]=1` an object, `arr[]=a&arr[]=b` an array, `a[0]=x` an
 * array item; a name without brackets as it is (a repeated one an array).
 */
export function qsQuery(query: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query ?? {})) {
    const open = name.indexOf('[');
    if (open <= 0 || !name.endsWith(']')) {
      out[name] = value;
      continue;
    }
    const keys = [name.slice(0, open), ...name.slice(open + 1, -1).split('][')];
    let at: Record<string, unknown> | unknown[] = out;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const last = i === keys.length - 1;
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') break;
      if (Array.isArray(at) && key === '') {
        if (last) at.push(...(Array.isArray(value) ? (value as unknown[]) : [value]));
        else at.push((at = {}));
        if (last) break;
        continue;
      }
      const holder = at as Record<string, unknown>;
      if (last) holder[key] = value;
      else {
        const nextIsArray = keys[i + 1] === '' || /^\d+$/.test(keys[i + 1]!);
        if (typeof holder[key] !== 'object' || holder[key] === null) holder[key] = nextIsArray ? [] : {};
        at = holder[key] as Record<string, unknown> | unknown[];
      }
    }
  }
  return out;
}

/**
 * The body as Mockoon parses it: JSON when the request says a JSON type (`application/json`, `…+json`), form
 * fields when urlencoded or multipart; other bodies (JSON sent as `text/plain`) are only text.
 */
function parsedBody(r: TemplateData['request'] | undefined): unknown {
  if (r === undefined) return undefined;
  const type = (r.headers['content-type'] ?? '').toLowerCase();
  if (/json/.test(type)) return r.body;
  if (/x-www-form-urlencoded|multipart\/form-data/.test(type)) return qsQuery(r.form);
  return undefined;
}

function hostOf(o: Options): string {
  const host = request(o)?.headers['host'] ?? '';
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
}

function randomInt(rt: TemplateRuntime | undefined, min: number, max: number): number {
  const lo = Math.ceil(Math.min(min, max));
  const hi = Math.floor(Math.max(min, max));
  return lo + Math.floor((rt?.random() ?? 0) * (hi - lo + 1));
}

function jwtPart(token: unknown, part: 0 | 1, path: unknown): unknown {
  const text = str(token).replace(/^Bearer\s+/i, '');
  const piece = text.split('.')[part];
  if (piece === undefined) return '';
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(piece, 'base64url').toString('utf8'));
  } catch {
    return '';
  }
  return typeof path === 'string' && path !== '' ? valueAt(decoded, path, '') : decoded;
}

function shifted(date: Date, hash: Readonly<Record<string, unknown>>): Date {
  const d = new Date(date.getTime());
  const by = (k: string): number => (hash[k] === undefined ? NaN : numberOf(hash[k]));
  if (!isNaN(by('years'))) d.setUTCFullYear(d.getUTCFullYear() + by('years'));
  if (!isNaN(by('months'))) d.setUTCMonth(d.getUTCMonth() + by('months'));
  if (!isNaN(by('days'))) d.setUTCDate(d.getUTCDate() + by('days'));
  if (!isNaN(by('hours'))) d.setUTCHours(d.getUTCHours() + by('hours'));
  if (!isNaN(by('minutes'))) d.setUTCMinutes(d.getUTCMinutes() + by('minutes'));
  if (!isNaN(by('seconds'))) d.setUTCSeconds(d.getUTCSeconds() + by('seconds'));
  return d;
}

const dateOf = (v: unknown, rt: TemplateRuntime | undefined): Date =>
  v === undefined || v === null || v === '' ? (rt?.now() ?? new Date()) : v instanceof Date ? v : new Date(str(v));

/** Mockoon's date formats are date-fns' (`yyyy-MM-dd`, `YYYY` read as `yyyy`); the ISO text without one */
const formatted = (d: Date, format: unknown): string =>
  typeof format === 'string' && format !== ''
    ? formatDate(d, format.replace(/Y/g, 'y').replace(/D/g, 'd'), undefined)
    : d.toISOString();

/** a faker method by its dotted path, for Mockoon's older shortcut helpers (`{{firstName}}`) */
function fake(o: Options, path: string, ...args: unknown[]): unknown {
  let target: unknown = runtime(o)?.faker;
  let owner: unknown = target;
  for (const part of path.split('.')) {
    owner = target;
    target = (target as Record<string, unknown> | undefined)?.[part];
  }
  return typeof target === 'function' ? (target as (...a: unknown[]) => unknown).apply(owner, args) : '';
}

const math =
  (fn: (a: number, b: number) => number): Helper =>
  (...args) => {
    const { p } = split(args);
    if (p.length === 0) return '';
    return p.slice(1).reduce<number>((acc, v) => fn(acc, numberOf(v)), numberOf(p[0]));
  };

/** Mockoon's faker shortcuts (older environments): helper name → faker path */
const SHORTCUTS: Readonly<Record<string, string>> = {
  firstName: 'person.firstName',
  lastName: 'person.lastName',
  company: 'company.name',
  domain: 'internet.domainName',
  tld: 'internet.domainSuffix',
  email: 'internet.email',
  street: 'location.streetAddress',
  city: 'location.city',
  country: 'location.country',
  countryCode: 'location.countryCode',
  zipcode: 'location.zipCode',
  postcode: 'location.zipCode',
  lat: 'location.latitude',
  long: 'location.longitude',
  phone: 'phone.number',
  color: 'color.human',
  hexColor: 'color.rgb',
  ipv4: 'internet.ipv4',
  ipv6: 'internet.ipv6',
  objectId: 'database.mongodbObjectId',
};

/** the helpers that draw on faker: the workspace loads it when a template names one */
export const MOCKOON_FAKER_HELPERS: ReadonlySet<string> = new Set([...Object.keys(SHORTCUTS), 'lorem', 'date']);

export const MOCKOON_HELPERS: Readonly<Record<string, Helper>> = {
  ...Object.fromEntries(
    Object.entries(SHORTCUTS).map(([name, path]) => [name, (...a: unknown[]) => fake(split(a).o, path)]),
  ),
  lorem: (...args) => {
    const { p, o } = split(args);
    return fake(o, 'lorem.sentence', p[0] === undefined ? undefined : numberOf(p[0]));
  },
  // request
  body: (...args) => {
    const { p, o } = split(args);
    const r = request(o);
    const path = str(p[0]);
    if (path === '') return r?.text ?? '';
    return asText(valueAt(parsedBody(r), path, p[1] ?? ''), p[2]);
  },
  bodyRaw: (...args) => {
    const { p, o } = split(args);
    const source = parsedBody(request(o));
    if (source === undefined) return p[1] ?? '';
    return valueAt(source, str(p[0]), p[1] ?? '');
  },
  urlParam: (...args) => request(split(args).o)?.params[str(split(args).p[0])] ?? '',
  urlParams: (...args) => request(split(args).o)?.params ?? {},
  queryParam: (...args) => {
    const { p, o } = split(args);
    return asText(valueAt(qsQuery(request(o)?.query), str(p[0]), p[1] ?? ''), p[2]);
  },
  queryParamRaw: (...args) => {
    const { p, o } = split(args);
    return valueAt(qsQuery(request(o)?.query), str(p[0]), p[1] ?? '');
  },
  queryParams: (...args) => qsQuery(request(split(args).o)?.query),
  header: (...args) => {
    const { p, o } = split(args);
    const fallback = isOptions(p[1]) || p[1] === undefined ? '' : p[1];
    return (request(o)?.headers[str(p[0]).toLowerCase()] ?? '') || fallback;
  },
  headers: (...args) => request(split(args).o)?.headers ?? {},
  cookie: (...args) => {
    const { p, o } = split(args);
    return (request(o)?.cookies[str(p[0])] ?? '') || (p[1] ?? '');
  },
  hostname: (...args) => hostOf(split(args).o),
  baseUrl: (...args) => `http://${request(split(args).o)?.headers['host'] ?? ''}`,
  method: (...args) => request(split(args).o)?.method ?? '',
  // global variables and environment variables
  setGlobalVar: (...args) => {
    const { p, o } = split(args);
    runtime(o)?.state?.set(GLOBAL_VAR_KEY + str(p[0]), p[1] ?? null);
    return '';
  },
  getGlobalVar: (...args) => {
    const { p, o } = split(args);
    const v = runtime(o)?.state?.get(GLOBAL_VAR_KEY + str(p[0]));
    return p[1] === undefined ? v : valueAt(v, str(p[1]), '');
  },
  getEnvVar: (...args) => {
    const { p } = split(args);
    const name = str(p[0]);
    const full = name.startsWith(ENV_PREFIX) ? name : ENV_PREFIX + name;
    return process.env[full] ?? p[1] ?? '';
  },
  setVar: function (this: unknown, ...args) {
    const { p, o } = split(args);
    if (o.data !== undefined) o.data[str(p[0])] = p[1];
    return '';
  },
  getVar: (...args) => {
    const { p, o } = split(args);
    return o.data?.[str(p[0])];
  },
  // blocks
  switch: function (this: unknown, ...args) {
    const { p, o } = split(args);
    if (o.data !== undefined) {
      o.data.found = false;
      o.data.switchValue = p[0];
    }
    return o.fn?.(this) ?? '';
  },
  case: function (this: unknown, ...args) {
    const { p, o } = split(args);
    if (o.data === undefined || o.data.found === true) return '';
    if (p.some((v) => v === o.data!.switchValue || (typeof v !== 'object' && str(v) === str(o.data!.switchValue)))) {
      o.data.found = true;
      return o.fn?.(this) ?? '';
    }
    return '';
  },
  repeat: function (this: unknown, ...args) {
    const { p, o } = split(args);
    if (p.length === 0) throw new Error('repeat: a count is needed (`{{#repeat 5}}` or `{{#repeat 2 5}}`)');
    const count = p.length >= 2 ? randomInt(runtime(o), numberOf(p[0]), numberOf(p[1])) : numberOf(p[0]);
    if (!(count <= MAX_REPEAT)) throw new Error(`repeat: ${count} is over the limit of ${MAX_REPEAT}`);
    let out = '';
    // one frame for the whole loop, a copy of the caller's as Handlebars' own blocks make them
    const data: Record<string, unknown> = { ...o.data, _parent: o.data, total: count };
    for (let i = 0; i < count; i++) {
      data['index'] = i;
      data['first'] = i === 0;
      data['last'] = i === count - 1;
      out += o.fn?.(this, { data }) ?? '';
      if (o.hash['comma'] !== false) {
        out = out.trimEnd();
        if (i < count - 1 && !out.endsWith(',')) out += ',';
        else if (i === count - 1 && out.endsWith(',')) out = out.slice(0, -1);
        out += '\n';
      }
    }
    return out;
  },
  // arrays and objects
  array: (...args) => split(args).p,
  someOf: (...args) => {
    const { p, o } = split(args);
    const list = Array.isArray(p[0]) ? [...(p[0] as unknown[])] : [];
    const rt = runtime(o);
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor((rt?.random() ?? 0) * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    const picked = list.slice(0, randomInt(rt, numberOf(p[1] ?? 1), numberOf(p[2] ?? p[1] ?? 1)));
    return p[3] === true ? JSON.stringify(picked) : picked;
  },
  includes: (...args) => {
    const { p } = split(args);
    const text = (v: unknown): string => (typeof v === 'object' || v === undefined ? '' : str(v));
    return text(p[0]).includes(text(p[1]));
  },
  concat: (...args) => {
    const { p } = split(args);
    if (Array.isArray(p[0])) return p.flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v]));
    return p.map((v) => str(v)).join('');
  },
  join: (...args) => {
    const { p } = split(args);
    return Array.isArray(p[0]) ? (p[0] as unknown[]).map(str).join(typeof p[1] === 'string' ? p[1] : ',') : '';
  },
  slice: (...args) => {
    const { p } = split(args);
    if (!Array.isArray(p[0])) return '';
    return (p[0] as unknown[]).slice(
      p[1] === undefined ? undefined : numberOf(p[1]),
      p[2] === undefined ? undefined : numberOf(p[2]),
    );
  },
  reverse: (...args) => {
    const { p } = split(args);
    return Array.isArray(p[0]) ? [...(p[0] as unknown[])].reverse() : str(p[0]).split('').reverse().join('');
  },
  sort: (...args) => {
    const { p } = split(args);
    if (!Array.isArray(p[0])) return p[0];
    const sorted = [...(p[0] as unknown[])].sort((a, b) =>
      typeof a === 'number' && typeof b === 'number' ? a - b : str(a).localeCompare(str(b)),
    );
    return p[1] === 'desc' ? sorted.reverse() : sorted;
  },
  sortBy: (...args) => {
    const { p } = split(args);
    if (!Array.isArray(p[0])) return p[0];
    const key = str(p[1]);
    const sorted = [...(p[0] as unknown[])].sort((a, b) => {
      const x = valueAt(a, key, undefined);
      const y = valueAt(b, key, undefined);
      return typeof x === 'number' && typeof y === 'number' ? x - y : str(x).localeCompare(str(y));
    });
    return p[2] === 'desc' ? sorted.reverse() : sorted;
  },
  filter: (...args) => {
    const { p } = split(args);
    if (!Array.isArray(p[0])) return [];
    const conditions = p.slice(1);
    const holds = (item: unknown, c: unknown): boolean =>
      typeof c === 'object' && c !== null
        ? Object.entries(c).every(([k, v]) => valueAt(item, k, undefined) === v)
        : item === c;
    return (p[0] as unknown[]).filter((item) => conditions.length === 0 || conditions.some((c) => holds(item, c)));
  },
  find: (...args) => {
    const { p } = split(args);
    if (!Array.isArray(p[0])) return undefined;
    return (p[0] as unknown[]).find((item) =>
      p
        .slice(1)
        .some((c) =>
          typeof c === 'object' && c !== null
            ? Object.entries(c).every(([k, v]) => valueAt(item, k, undefined) === v)
            : item === c,
        ),
    );
  },
  object: (...args) => ({ ...split(args).o.hash }),
  objectMerge: (...args): unknown =>
    Object.assign({}, ...split(args).p.filter((v): v is object => typeof v === 'object' && v !== null)) as unknown,
  jsonParse: (...args) => {
    try {
      return JSON.parse(str(split(args).p[0])) as unknown;
    } catch {
      return undefined;
    }
  },
  len: (...args) => {
    const v = split(args).p[0];
    return typeof v === 'string' || Array.isArray(v) ? v.length : 0;
  },
  indexOf: (...args) => {
    const { p } = split(args);
    const from = p[2] === undefined ? undefined : numberOf(p[2]);
    return Array.isArray(p[0]) ? (p[0] as unknown[]).indexOf(p[1], from) : str(p[0]).indexOf(str(p[1]), from);
  },
  // strings
  split: (...args) => {
    const { p } = split(args);
    return str(p[0]).split(typeof p[1] === 'string' ? p[1] : ' ');
  },
  lowercase: (...args) => str(split(args).p[0]).toLowerCase(),
  uppercase: (...args) => str(split(args).p[0]).toUpperCase(),
  padStart: (...args) => {
    const { p } = split(args);
    return str(p[0]).padStart(numberOf(p[1]), typeof p[2] === 'string' ? p[2] : ' ');
  },
  padEnd: (...args) => {
    const { p } = split(args);
    return str(p[0]).padEnd(numberOf(p[1]), typeof p[2] === 'string' ? p[2] : ' ');
  },
  replace: (...args) => {
    const { p } = split(args);
    return str(p[0]).replace(str(p[1]), str(p[2]));
  },
  replaceAll: (...args) => {
    const { p } = split(args);
    return str(p[0]).split(str(p[1])).join(str(p[2]));
  },
  substr: (...args) => {
    const { p } = split(args);
    const from = numberOf(p[1] ?? 0);
    return p[2] === undefined ? str(p[0]).slice(from) : str(p[0]).slice(from, from + numberOf(p[2]));
  },
  newline: () => '\n',
  parseInt: (...args) => parseInt(str(split(args).p[0]), 10),
  boolean: (...args) => {
    const v = split(args).p[0];
    return v === true || v === 'true' || v === 1 || v === '1';
  },
  base64Decode: (...args) => Buffer.from(str(split(args).p[0]), 'base64').toString('utf8'),
  base64url: (...args) => Buffer.from(str(split(args).p[0]), 'utf8').toString('base64url'),
  base64urlDecode: (...args) => Buffer.from(str(split(args).p[0]), 'base64url').toString('utf8'),
  guid: (...args) => fake(split(args).o, 'string.uuid'),
  // numbers
  add: math((a, b) => a + b),
  subtract: math((a, b) => a - b),
  multiply: math((a, b) => a * b),
  divide: math((a, b) => a / b),
  modulo: math((a, b) => a % b),
  ceil: (...args) => Math.ceil(numberOf(split(args).p[0])),
  floor: (...args) => Math.floor(numberOf(split(args).p[0])),
  round: (...args) => Math.round(numberOf(split(args).p[0])),
  toFixed: (...args) => {
    const { p } = split(args);
    return numberOf(p[0]).toFixed(p[1] === undefined ? 0 : numberOf(p[1]));
  },
  // dates
  date: (...args) => {
    const { p, o } = split(args);
    if (p.length < 2) return '';
    const from = new Date(str(p[0])).getTime();
    const to = new Date(str(p[1])).getTime();
    const d = new Date(from + Math.floor((runtime(o)?.random() ?? 0) * (to - from)));
    return p[2] === undefined ? d.toString() : formatted(d, p[2]);
  },
  dateFormat: (...args) => {
    const { p, o } = split(args);
    return formatted(dateOf(p[0], runtime(o)), p[1]);
  },
  dateTimeShift: (...args) => {
    const { o } = split(args);
    const d = shifted(dateOf(o.hash['date'], runtime(o)), o.hash);
    return o.hash['format'] === undefined ? d.toISOString() : formatted(d, o.hash['format']);
  },
  isValidDate: (...args) => {
    const v = split(args).p[0];
    return v !== undefined && v !== null && v !== '' && !isNaN(new Date(str(v)).getTime());
  },
  time: (...args) => {
    const { p, o } = split(args);
    const d = new Date(Date.UTC(2000, 0, 1) + Math.floor((runtime(o)?.random() ?? 0) * 86_400_000));
    return formatted(d, typeof p[2] === 'string' ? p[2] : 'HH:mm');
  },
  // JWT
  jwtPayload: (...args) => {
    const { p } = split(args);
    return jwtPart(p[0], 1, p[1]);
  },
  jwtHeader: (...args) => {
    const { p } = split(args);
    return jwtPart(p[0], 0, p[1]);
  },
};

/** Mockoon's helper names, for the docs and the import's check of which helpers a template names. */
export const MOCKOON_HELPER_NAMES: readonly string[] = Object.keys(MOCKOON_HELPERS);
