// The template helpers, under WireMock's names with Mockoon's names for the same idea as aliases, so templates
// written for either run unchanged (the table is docs/templates.md's). Randomness comes only from the runtime's
// generator (seeded by `service.seed`), time only from its clock: a seeded test run replays exactly.
import type { TemplateData, TemplateRuntime } from '../model/template.js';
import { applyOffset, formatDate } from './now.js';
import { ALIASES } from './names.js';
import { MOCKOON_HELPERS } from './helpers/mockoon.js';

/** What Handlebars hands a helper as its last argument (the parts used here). */
export interface HelperOptions {
  readonly hash: Readonly<Record<string, unknown>>;
  readonly data?: { readonly root?: TemplateData; readonly mockRuntime?: TemplateRuntime };
  readonly fn?: (context: unknown) => string;
  readonly inverse?: (context: unknown) => string;
}

type Helper = (...args: unknown[]) => unknown;

/** the most characters (or items) one helper call may be asked to make: `randomValue length=…`, faker's counts */
export const TEMPLATE_MAX_GENERATED = 1_000_000;
/** the most times one render may repeat a block (`{{#each}}` items, over all the loops of the render) */
export const TEMPLATE_MAX_REPEATS = 100_000;

/** A render asked for more than a template limit allows (the request set the size): the answer is 413. */
export class TemplateLimitError extends Error {}

/** Refuse a size over TEMPLATE_MAX_GENERATED before anything is made. */
function checkGenerated(what: string, n: number): void {
  if (n > TEMPLATE_MAX_GENERATED)
    throw new TemplateLimitError(
      `${what}: ${n} is over the limit of ${TEMPLATE_MAX_GENERATED} that one template helper may make (a fixed limit)`,
    );
}

function split(args: unknown[]): { params: unknown[]; options: HelperOptions } {
  return { params: args.slice(0, -1), options: args[args.length - 1] as HelperOptions };
}

function runtimeOf(options: HelperOptions): TemplateRuntime {
  const rt = options.data?.mockRuntime;
  if (rt === undefined) throw new Error('template rendered without its runtime');
  return rt;
}

/** How a value reads in text: strings as they are, absent as empty, objects and arrays as JSON. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && typeof (value as { toHTML?: unknown }).toHTML === 'function')
    return (value as { toHTML(): string }).toHTML();
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) ?? '';
}

/** A value as JSON text (`toJson`): absent is `null`. */
function toJson(value: unknown, pretty: boolean): string {
  if (value === undefined) return 'null';
  return (
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), pretty ? 2 : undefined) ?? 'null'
  );
}

/** The JSONPath subset WireMock templates use: `$`, `.name`, `['name']`, `[n]`, `[-n]`, `[*]` and `.*` (all items). */
export function jsonPath(value: unknown, path: string): unknown {
  let doc = value;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc) as unknown;
    } catch {
      return undefined;
    }
  }
  const steps: string[] = [];
  const re = /\.\*|\[\*\]|\.([^.[\]]+)|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]/gy;
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  else if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('[')) rest = '.' + rest;
  re.lastIndex = 0;
  while (re.lastIndex < rest.length) {
    const at = re.lastIndex;
    const m = re.exec(rest);
    if (m === null)
      throw new Error(`jsonPath: cannot read ${JSON.stringify(path)} at ${JSON.stringify(rest.slice(at))}`);
    steps.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '*');
  }
  let current: unknown[] = [doc];
  let many = false;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const c of current) {
      if (c === null || typeof c !== 'object') continue;
      if (step === '*') {
        const items: unknown[] = Array.isArray(c) ? (c as unknown[]) : Object.values(c);
        next.push(...items);
        many = true;
      } else if (Array.isArray(c) && /^-?\d+$/.test(step)) {
        const i = Number(step);
        const v: unknown = (c as unknown[])[i < 0 ? c.length + i : i];
        if (v !== undefined) next.push(v);
      } else if (Object.prototype.hasOwnProperty.call(c, step)) next.push((c as Record<string, unknown>)[step]);
    }
    current = next;
  }
  return many ? current : current[0];
}

function randomInt(rt: TemplateRuntime, lower: number, upper: number): number {
  const lo = Math.ceil(Math.min(lower, upper));
  const hi = Math.floor(Math.max(lower, upper));
  return lo + Math.floor(rt.random() * (hi - lo + 1));
}

const ALPHABETS: Readonly<Record<string, string>> = {
  ALPHANUMERIC: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  ALPHABETIC: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  NUMERIC: '0123456789',
  HEXADECIMAL: '0123456789abcdef',
  ALPHANUMERIC_AND_SYMBOLS:
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~',
};

/** A version-4 UUID from the runtime's generator (so a seed makes it repeat). */
function uuid(rt: TemplateRuntime): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(rt.random() * 16).toString(16);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function num(v: unknown, fallback: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const n = Number(v);
  if (Number.isNaN(n)) throw new Error(`${JSON.stringify(v)} is not a number`);
  return n;
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function compare(a: unknown, b: unknown): number {
  const x = typeof a === 'string' && typeof b === 'number' ? Number(a) : a;
  const y = typeof b === 'string' && typeof a === 'number' ? Number(b) : b;
  return (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
}

/** `==` as a template user means it: `{{#if (eq request.query.page 2)}}` holds for the text "2". */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}

/** A comparison: in `#if (eq a b)` a boolean; used as a block (`{{#eq a b}}…{{else}}…{{/eq}}`), the branch it picks. */
function block(fn: (params: unknown[], options: HelperOptions) => boolean): Helper {
  return function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    const result = fn(params, options);
    if (options.fn === undefined) return result;
    return result ? options.fn(this) : (options.inverse?.(this) ?? '');
  };
}

/** The faker method at a dotted path (`person.firstName`), called with the helper's arguments or its hash. */
function callFaker(
  rt: TemplateRuntime,
  path: string,
  params: unknown[],
  hash: Readonly<Record<string, unknown>>,
): unknown {
  const faker = rt.faker as Record<string, unknown> | undefined;
  if (faker === undefined) throw new Error('faker is not loaded');
  let target: unknown = faker;
  let owner: unknown = faker;
  for (const part of path.split('.')) {
    if (
      target === null ||
      typeof target !== 'object' ||
      !(part in target) ||
      part.startsWith('_') ||
      part === 'constructor'
    ) {
      throw new Error(`faker: no method ${JSON.stringify(path)}`);
    }
    owner = target;
    target = (target as Record<string, unknown>)[part];
  }
  if (typeof target !== 'function') throw new Error(`faker: ${JSON.stringify(path)} is not a method`);
  const args = Object.keys(hash).length > 0 ? [...params, hash] : params;
  if (SIZED_FAKER.has(path.split('.')[0]!)) for (const a of args) checkSizes(`faker ${path}`, a, 0);
  return (target as (...a: unknown[]) => unknown).apply(owner, args);
}

/** faker's modules whose numbers (positional or `length`, `count`, `min`, `max`) are how much to make */
const SIZED_FAKER = new Set(['string', 'lorem', 'helpers', 'word', 'git', 'system', 'image', 'internet']);

function checkSizes(what: string, v: unknown, depth: number): void {
  if (typeof v === 'number') checkGenerated(what, v);
  else if (v !== null && typeof v === 'object' && depth < 2)
    for (const k of ['length', 'count', 'min', 'max'])
      if (k in v) checkSizes(what, (v as Record<string, unknown>)[k], depth + 1);
}

/**
 * Handlebars' `{{#each}}`, counting the items of every loop of one render against TEMPLATE_MAX_REPEATS before it
 * runs: a loop over request data inside another can otherwise repeat a block billions of times.
 */
export function countedEach(each: Helper): Helper {
  return function (this: unknown, ...args: unknown[]) {
    const options = args[args.length - 1] as HelperOptions & { data?: { mockRepeats?: { n: number } } };
    const context = args[0];
    let items = 0;
    if (Array.isArray(context) || typeof context === 'string') items = context.length;
    else if (context instanceof Map || context instanceof Set) items = context.size;
    else if (context !== null && typeof context === 'object') items = Object.keys(context).length;
    const budget = options.data?.mockRepeats;
    if (budget !== undefined && (budget.n += items) > TEMPLATE_MAX_REPEATS)
      throw new TemplateLimitError(
        `each: the render repeats blocks more than the limit of ${TEMPLATE_MAX_REPEATS} times (a fixed limit)`,
      );
    return each.apply(this, args);
  };
}

/** name → helper; aliases point at the same function (listed by HELPER_NAMES for the docs and the schema). */
export const HELPERS: Readonly<Record<string, Helper>> = {
  toJson: (...args) => {
    const { params, options } = split(args);
    return toJson(params[0], options.hash['pretty'] === true);
  },
  stringify: (...args) => {
    const { params } = split(args);
    return toJson(params[0], true);
  },
  jsonPath: (...args) => {
    const { params } = split(args);
    return jsonPath(params[0], params[1] === undefined || params[1] === null ? '$' : textOf(params[1]));
  },
  now: (...args) => {
    const { params, options } = split(args);
    const rt = runtimeOf(options);
    let date = rt.now();
    const offset = options.hash['offset'];
    if (typeof offset === 'string' && offset !== '') date = applyOffset(date, offset);
    const format = (options.hash['format'] ?? params[0]) as string | undefined;
    return formatDate(
      date,
      format === undefined ? undefined : String(format),
      options.hash['timezone'] as string | undefined,
    );
  },
  randomValue: (...args) => {
    const { options } = split(args);
    const rt = runtimeOf(options);
    const type = (options.hash['type'] === undefined ? 'ALPHANUMERIC' : textOf(options.hash['type'])).toUpperCase();
    if (type === 'UUID') return uuid(rt);
    const alphabet = ALPHABETS[type];
    if (alphabet === undefined)
      throw new Error(
        `randomValue: unknown type ${JSON.stringify(type)}; expected one of UUID, ${Object.keys(ALPHABETS).join(', ')}`,
      );
    const length = num(options.hash['length'], 36);
    checkGenerated('randomValue length', length);
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(rt.random() * alphabet.length)];
    return options.hash['uppercase'] === true ? out.toUpperCase() : out;
  },
  uuid: (...args) => uuid(runtimeOf(split(args).options)),
  collection: (...args) => {
    const { params, options } = split(args);
    const id = options.hash['id'];
    return runtimeOf(options).collection?.(textOf(params[0]), id === undefined || id === null ? undefined : textOf(id));
  },
  randomInt: (...args) => {
    const { params, options } = split(args);
    return randomInt(
      runtimeOf(options),
      num(options.hash['lower'] ?? options.hash['min'] ?? params[0], 0),
      num(options.hash['upper'] ?? options.hash['max'] ?? params[1], 100),
    );
  },
  randomDecimal: (...args) => {
    const { params, options } = split(args);
    const lo = num(options.hash['lower'] ?? options.hash['min'] ?? params[0], 0);
    const hi = num(options.hash['upper'] ?? options.hash['max'] ?? params[1], 1);
    const v = lo + runtimeOf(options).random() * (hi - lo);
    const places = params[2] ?? options.hash['decimals'];
    return places === undefined ? v : Number(v.toFixed(num(places, 2)));
  },
  pickRandom: (...args) => {
    const { params, options } = split(args);
    const list = params.length === 1 && Array.isArray(params[0]) ? (params[0] as unknown[]) : params;
    if (list.length === 0) return '';
    return list[Math.floor(runtimeOf(options).random() * list.length)];
  },
  base64: (...args) => {
    const { params, options } = split(args);
    const text = textOf(params[0] ?? options.fn?.(undefined) ?? '');
    return options.hash['decode'] === true
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text, 'utf8').toString('base64');
  },
  urlEncode: (...args) => {
    const { params, options } = split(args);
    const text = textOf(params[0]);
    return options.hash['decode'] === true ? decodeURIComponent(text.replace(/\+/g, ' ')) : encodeURIComponent(text);
  },
  size: (...args) => {
    const { params } = split(args);
    const v = params[0];
    if (typeof v === 'string' || Array.isArray(v)) return v.length;
    if (v !== null && typeof v === 'object') return Object.keys(v).length;
    return 0;
  },
  default: (...args) => {
    const { params } = split(args);
    return isEmpty(params[0]) ? params[1] : params[0];
  },
  faker: (...args) => {
    const { params, options } = split(args);
    return callFaker(runtimeOf(options), textOf(params[0]), params.slice(1), options.hash);
  },
  eq: block(([a, b]) => same(a, b)),
  ne: block(([a, b]) => !same(a, b)),
  gt: block(([a, b]) => compare(a, b) > 0),
  gte: block(([a, b]) => compare(a, b) >= 0),
  lt: block(([a, b]) => compare(a, b) < 0),
  lte: block(([a, b]) => compare(a, b) <= 0),
  and: block((ps) => ps.every((p) => !isEmpty(p) && p !== false)),
  or: block((ps) => ps.some((p) => !isEmpty(p) && p !== false)),
  not: block(([a]) => isEmpty(a) || a === false),
  contains: block(([a, b]) =>
    typeof a === 'string' ? a.includes(textOf(b)) : Array.isArray(a) ? a.some((x) => same(x, b)) : false,
  ),
  matches: block(([a, b]) => new RegExp(textOf(b)).test(textOf(a))),
};

/** Mockoon's helpers (helpers/mockoon.ts) first: a name both have keeps this file's helper. */
export const ALL_HELPERS: Readonly<Record<string, Helper>> = {
  ...MOCKOON_HELPERS,
  ...HELPERS,
  ...Object.fromEntries(Object.entries(ALIASES).map(([alias, name]) => [alias, HELPERS[name]!])),
};
