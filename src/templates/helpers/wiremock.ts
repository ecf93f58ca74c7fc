// WireMock's template helpers (docs/templates.md#wiremock-dialect), for templates of the `wiremock` dialect: the
// names and arguments of WireMock 3's documentation, with its renderings (Jackson's pretty JSON, `[1, 2]` for a
// list, `{a=1}` for a map, a multi-value as its first value). Randomness and time come from the runtime, as for
// the other helpers, so `service.seed` replays them too. Helpers WireMock documents that are not here are named
// in WIREMOCK_NOT_YET: a template using one is a load error saying so.
import type { TemplateRuntime } from '../../model/template.js';
import { HELPERS, jsonPath as basicJsonPath, TemplateLimitError, TEMPLATE_MAX_GENERATED } from '../helpers.js';
import { applyOffset, formatDate } from '../now.js';
import { formatXml, jacksonJson, jsonable, plain, truncate, wireText } from './wiremock-text.js';

export { wireText };

interface Options {
  readonly hash: Readonly<Record<string, unknown>>;
  readonly data?: { readonly mockRuntime?: TemplateRuntime; readonly root?: Record<string, unknown> };
  readonly fn?: (context: unknown) => string;
  readonly inverse?: (context: unknown) => string;
}
type Helper = (...args: unknown[]) => unknown;

function split(args: unknown[]): { params: unknown[]; options: Options } {
  return { params: args.slice(0, -1), options: args[args.length - 1] as Options };
}
function runtime(o: Options): TemplateRuntime {
  const rt = o.data?.mockRuntime;
  if (rt === undefined) throw new Error('template rendered without its runtime');
  return rt;
}

/** what JSON text may start with: anything else is not JSON, known without the cost of a parse error */
const JSON_START = /^\s*[[{"\d\-tfn]/;

function parsedJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (!JSON_START.test(v)) return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

/** a JSONPath result as WireMock renders it: text as is, an object as pretty JSON, a list compact */
function pathResult(v: unknown): unknown {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return JSON.stringify(v);
  if (v !== null && typeof v === 'object') return jacksonJson(v);
  return v;
}

function num(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : Number(wireText(plain(v)));
  return Number.isFinite(n) ? n : fallback;
}

function checkCount(what: string, n: number): void {
  if (n > TEMPLATE_MAX_GENERATED)
    throw new TemplateLimitError(`${what}: ${n} is over the limit of ${TEMPLATE_MAX_GENERATED} (a fixed limit)`);
}

/** `$.a.b[0]` or a dotted path (`ids.1`) into a value */
function lookupPath(v: unknown, path: string): unknown {
  let cur = v;
  for (const part of path.replace(/^\$\.?/, '').match(/[^.[\]]+/g) ?? []) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) {
      if (Array.isArray(cur) && /^\d+$/.test(part)) return cur[Number(part)];
      return undefined;
    }
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (typeof a !== typeof b) return false;
  return a === b;
}
function truthy(v: unknown): boolean {
  return !(v === undefined || v === null || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0));
}
function compare(a: unknown, b: unknown): number {
  const x = num(a, NaN);
  const y = num(b, NaN);
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return wireText(a) < wireText(b) ? -1 : wireText(a) > wireText(b) ? 1 : 0;
}
function cond(fn: (params: unknown[]) => boolean): Helper {
  return function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    const r = fn(params);
    if (options.fn === undefined) return r;
    return r ? options.fn(this) : (options.inverse?.(this) ?? '');
  };
}

/** the text of a block (`{{#formatJson}}…{{/formatJson}}`) or of the first argument */
function blockOr(params: unknown[], options: Options, self: unknown): string {
  return params.length > 0 ? wireText(params[0]) : (options.fn?.(self) ?? '');
}

const dateOf = (v: unknown, rt: TemplateRuntime): Date => {
  if (v instanceof Date) return v;
  if (v === undefined) return rt.now();
  const d = new Date(wireText(plain(v)));
  if (Number.isNaN(d.getTime())) throw new Error(`not a date: ${wireText(v)}`);
  return d;
};

const fromOurs = (name: string): Helper => HELPERS[name]!;

/** name → helper; the dialect's engine registers exactly these (with Handlebars' own if, unless, each, with, lookup) */
export const WIREMOCK_HELPERS: Readonly<Record<string, Helper>> = {
  jsonPath: (...args) => {
    const { params, options } = split(args);
    const doc = parsedJson(plain(params[0]));
    const path = wireText(params[1] ?? '$');
    const at = doc === undefined ? undefined : basicJsonPath(doc, path);
    return pathResult(at) ?? options.hash['default'];
  },
  regexExtract: (...args) => {
    const { params, options } = split(args);
    const m = new RegExp(wireText(params[1])).exec(wireText(plain(params[0])));
    if (m === null) return options.hash['default'] ?? '[ERROR: Nothing matched ' + wireText(params[1]) + ']';
    return params[2] === undefined ? m[0] : [...m.slice(1)];
  },
  formatJson: function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    const text = blockOr(params, options, this);
    const v = parsedJson(text);
    if (v === undefined) throw new Error(`formatJson: not JSON: ${text.slice(0, 80)}`);
    return options.hash['format'] === 'compact' ? JSON.stringify(v) : jacksonJson(v);
  },
  formatXml: function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    return formatXml(blockOr(params, options, this));
  },
  toJson: (...args) => jacksonJson(split(args).params[0] ?? null),
  parseJson: function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    return parsedJson(params.length > 0 ? plain(params[0]) : options.fn?.(this));
  },
  size: (...args) => {
    const v = jsonable(split(args).params[0]);
    if (typeof v === 'string' || Array.isArray(v)) return v.length;
    return v !== null && typeof v === 'object' ? Object.keys(v).length : 0;
  },
  array: (...args) => split(args).params,
  arrayAdd: (...args) => {
    const { params, options } = split(args);
    const list = [...((params[0] as unknown[] | undefined) ?? [])];
    const at = options.hash['position'];
    if (at === 'start') list.unshift(params[1]);
    else if (typeof at === 'number') list.splice(at, 0, params[1]);
    else list.push(params[1]);
    return list;
  },
  arrayRemove: (...args) => {
    const { params, options } = split(args);
    const list = [...((params[0] as unknown[] | undefined) ?? [])];
    // only `position=` moves it (a second argument is not read, as WireMock reads none)
    const at = options.hash['position'] ?? 'end';
    if (at === 'start') list.shift();
    else if (at === 'end') list.pop();
    else list.splice(num(at, list.length), 1);
    return list;
  },
  arrayJoin: (...args) => {
    const { params, options } = split(args);
    const sep = wireText(params[0]);
    const items = params.length === 2 && Array.isArray(params[1]) ? params[1] : params.slice(1);
    const text = items.map((x) => wireText(plain(x))).join(sep);
    const pre = wireText(options.hash['prefix']);
    const post = wireText(options.hash['suffix']);
    return `${pre}${text}${post}`;
  },
  join: (...args) => {
    const { params } = split(args);
    const sep = wireText(params[params.length - 1]);
    const items = params.length === 2 && Array.isArray(params[0]) ? params[0] : params.slice(0, -1);
    return items.map((x) => wireText(plain(x))).join(sep);
  },
  range: (...args) => {
    const { params } = split(args);
    const lo = num(params[0], 0);
    const hi = num(params[1], lo);
    checkCount('range', hi - lo + 1);
    const out: number[] = [];
    for (let i = lo; i <= hi; i++) out.push(i);
    return out;
  },
  val: (...args) => {
    const { params, options } = split(args);
    const v = plain(params[0]);
    const d = options.hash['or'] ?? options.hash['default'];
    const r = v === undefined || v === null ? d : v;
    const assign = options.hash['assign'];
    if (typeof assign === 'string' && options.data?.root !== undefined) options.data.root[assign] = r;
    return typeof assign === 'string' ? '' : r;
  },
  assign: function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    if (options.data?.root !== undefined) options.data.root[wireText(params[0])] = options.fn?.(this) ?? '';
    return '';
  },
  math: (...args) => {
    const { params } = split(args);
    const a = num(params[0], NaN);
    const b = num(params[2], NaN);
    const r: Record<string, number> = { '+': a + b, '-': a - b, '*': a * b, '/': a / b, '%': a % b };
    const v = r[wireText(params[1])];
    if (v === undefined) throw new Error(`math: unknown operator ${wireText(params[1])}`);
    return v;
  },
  base64: function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    const text = blockOr(params.map(plain), options, this);
    if (options.hash['decode'] === true) return Buffer.from(text, 'base64').toString('utf8');
    const out = Buffer.from(text, 'utf8').toString('base64');
    return options.hash['padding'] === false ? out.replace(/=+$/, '') : out;
  },
  urlEncode: function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    const text = blockOr(params.map(plain), options, this);
    if (options.hash['decode'] === true) return decodeURIComponent(text.replace(/\+/g, ' '));
    // Java's URLEncoder: a space is `+`, and `*`, `-`, `.`, `_` stay
    return encodeURIComponent(text)
      .replace(/%20/g, '+')
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  },
  formData: (...args) => {
    const { params, options } = split(args);
    const out: Record<string, unknown> = {};
    const decode = options.hash['urlDecode'] === true;
    for (const pair of wireText(plain(params[0])).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const k = eq < 0 ? pair : pair.slice(0, eq);
      const raw = eq < 0 ? '' : pair.slice(eq + 1);
      const v = decode ? decodeURIComponent(raw.replace(/\+/g, ' ')) : raw;
      out[k] = out[k] === undefined ? v : out[k];
    }
    if (options.data?.root !== undefined) options.data.root[wireText(params[1])] = out;
    return '';
  },
  pickRandom: (...args) => {
    const { params, options } = split(args);
    const list = params.length === 1 && Array.isArray(params[0]) ? [...(params[0] as unknown[])] : params;
    const rt = runtime(options);
    const count = options.hash['count'];
    if (count === undefined) return list.length === 0 ? '' : list[Math.floor(rt.random() * list.length)];
    const picked: unknown[] = [];
    for (let n = Math.min(num(count, 1), list.length); n > 0; n--)
      picked.push(list.splice(Math.floor(rt.random() * list.length), 1)[0]);
    return picked;
  },
  hostname: () => 'localhost',
  now: (...args) => {
    const { options } = split(args);
    let d = runtime(options).now();
    const offset = options.hash['offset'];
    if (typeof offset === 'string' && offset !== '') d = applyOffset(d, offset);
    const format = options.hash['format'];
    if (format === undefined) return d;
    return formatDate(d, wireText(format), options.hash['timezone'] as string | undefined);
  },
  parseDate: (...args) => {
    const { params, options } = split(args);
    return dateOf(params[0], runtime(options));
  },
  date: (...args) => {
    const { params, options } = split(args);
    let d = dateOf(params[0], runtime(options));
    const offset = options.hash['offset'];
    if (typeof offset === 'string' && offset !== '') d = applyOffset(d, offset);
    const format = options.hash['format'];
    return format === undefined ? d : formatDate(d, wireText(format), options.hash['timezone'] as string | undefined);
  },
  dateFormat: (...args) => {
    const { params, options } = split(args);
    const format = options.hash['format'] ?? params[1];
    return formatDate(dateOf(params[0], runtime(options)), wireText(format), undefined);
  },
  truncateDate: (...args) => {
    const { params, options } = split(args);
    return truncate(dateOf(params[0], runtime(options)), wireText(params[1]));
  },
  // WireMock's letters are lower case unless `uppercase=true`
  randomValue: (...args) => {
    const { options } = split(args);
    const v = wireText(fromOurs('randomValue')(...args));
    const type = wireText(options.hash['type'] ?? 'ALPHANUMERIC').toUpperCase();
    return options.hash['uppercase'] === true || type === 'UUID' ? v : v.toLowerCase();
  },
  // WireMock's upper bound is not included (and a range with nothing in it is an error)
  randomInt: (...args) => {
    const { options } = split(args);
    const lo = num(options.hash['lower'], -2147483648);
    const hi = num(options.hash['upper'], 2147483647);
    if (hi <= lo) throw new Error('randomInt: bound must be greater than origin');
    return lo + Math.floor(runtime(options).random() * (hi - lo));
  },
  randomDecimal: fromOurs('randomDecimal'),
  // the process's environment and properties stay out of answers: WireMock's own default denies every key too
  systemValue: (...args) => `[ERROR: Access to ${wireText(split(args).options.hash['key'])} is denied]`,
  upper: (...args) => wireText(plain(split(args).params[0])).toUpperCase(),
  lower: (...args) => wireText(plain(split(args).params[0])).toLowerCase(),
  capitalize: (...args) => wireText(plain(split(args).params[0])).replace(/\b\p{L}/gu, (c) => c.toUpperCase()),
  capitalizeFirst: (...args) => {
    const t = wireText(plain(split(args).params[0]));
    return t.charAt(0).toUpperCase() + t.slice(1);
  },
  trim: (...args) => wireText(plain(split(args).params[0])).trim(),
  abbreviate: (...args) => {
    const { params } = split(args);
    const t = wireText(plain(params[0]));
    const n = num(params[1], t.length);
    return t.length <= n ? t : `${t.slice(0, Math.max(0, n - 3))}...`;
  },
  replace: (...args) => {
    const { params } = split(args);
    return wireText(plain(params[0])).split(wireText(params[1])).join(wireText(params[2]));
  },
  substring: (...args) => {
    const { params } = split(args);
    const t = wireText(plain(params[0]));
    return t.substring(num(params[1], 0), params[2] === undefined ? t.length : num(params[2], t.length));
  },
  defaultIfEmpty: (...args) => {
    const { params } = split(args);
    const v = plain(params[0]);
    return truthy(v) ? v : params[1];
  },
  contains: cond(([a, b]) => (Array.isArray(a) ? a.some((x) => same(x, b)) : wireText(plain(a)).includes(wireText(b)))),
  matches: cond(([a, b]) => new RegExp(`^(?:${wireText(b)})$`).test(wireText(plain(a)))),
  eq: cond(([a, b]) => same(a, b)),
  neq: cond(([a, b]) => !same(a, b)),
  gt: cond(([a, b]) => compare(a, b) > 0),
  gte: cond(([a, b]) => compare(a, b) >= 0),
  lt: cond(([a, b]) => compare(a, b) < 0),
  lte: cond(([a, b]) => compare(a, b) <= 0),
  and: cond((ps) => ps.every(truthy)),
  or: cond((ps) => ps.some(truthy)),
  not: cond(([a]) => !truthy(a)),
  isOdd: cond(([a]) => num(a, 0) % 2 === 1),
  isEven: cond(([a]) => num(a, 1) % 2 === 0),
};

/** WireMock's `lookup` reads a dotted path (`lookup request.query 'ids.1'`) */
export const wiremockLookup: Helper = (...args) => {
  const { params } = split(args);
  return lookupPath(params[0], wireText(params[1]));
};

/** helpers WireMock documents that this dialect does not have yet: a template naming one is a load error */
export const WIREMOCK_NOT_YET = [
  'xPath',
  'soapXPath',
  'jsonArrayAdd',
  'jsonMerge',
  'jsonRemove',
  'jsonSort',
  'numberFormat',
  'center',
  'cut',
  'ljust',
  'rjust',
  'slugify',
  'stripTags',
  'wordWrap',
  'yesno',
  'stripes',
  'first',
  'last',
  'split',
] as const;
