// Test-only builders for conditions, rules, rule sets and requests, standing in for the config loader
// and snapshotFrom. Kept free of non-routing imports so the folder's import rules hold for tests too.
import type { Respond } from '../../src/model/answer.js';
import type { BodyOp, HeaderOp, Method, UrlPathOp } from '../../src/model/operators.js';
import type { RequestBody, RequestSnapshot } from '../../src/model/request.js';
import type {
  BodyCondition,
  Condition,
  HeaderCondition,
  Rule,
  RuleSet,
  UrlPathCondition,
} from '../../src/model/rule-set.js';
import type { Strategy } from '../../src/model/strategy.js';
import { DATE_OPS, parseExpected } from '../../src/shared/date-match.js';
import { mayHoldIntegralFloat, parseJson, parseTypedJson, type Json, type TypedJson } from '../../src/shared/json.js';
import { LazyRequestParts } from '../../src/routing/request-parts.js';

/** What the loader does to a url_path value: prefix joined, one leading '/', one trailing '/' dropped, '..' deleted. */
export function normaliseRulePath(value: string, prefix = ''): string {
  const joined =
    (prefix.endsWith('/') ? prefix.slice(0, -1) : prefix) +
    (value.startsWith('/') || value === '' ? value : '/' + value);
  let p = joined.startsWith('/') ? joined : '/' + joined;
  p = p
    .split('/')
    .filter((s) => s !== '..')
    .join('/');
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p === '' ? '/' : p;
}

/** `*` any run (including '/'), `?` one character, the rest literal; the whole string must match. */
export function globToRegExp(glob: string): RegExp {
  let src = '';
  for (const ch of glob) {
    if (ch === '*') src += '[\\s\\S]*';
    else if (ch === '?') src += '[\\s\\S]';
    else src += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 'u');
}

function patternFor(op: string, value: string): RegExp | undefined {
  if (op === 'wild_card') return globToRegExp(value);
  if (op === 'regex' || op === 'not_regex') {
    try {
      return new RegExp(value, 'u');
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function urlPath(
  value: string,
  op: UrlPathOp = 'equal',
  opts: { bare?: boolean; prefix?: string } = {},
): UrlPathCondition {
  const asWritten =
    op === 'contains' ||
    op === 'not_contains' ||
    op === 'ends_with' ||
    op === 'not_ends_with' ||
    op === 'regex' ||
    op === 'not_regex';
  // a url_path wild card not starting with '/', '*' or '?' is anchored at the root
  const glob = op === 'wild_card' && !/^[/*?]/.test(value) ? '/' + value : value;
  const compareTo = op === 'wild_card' ? glob : asWritten ? value : normaliseRulePath(value, opts.prefix);
  const pattern = patternFor(op, glob);
  return { on: 'url_path', op, value, bare: opts.bare ?? false, compareTo, ...(pattern ? { pattern } : {}) };
}

export function method(value: Method): Condition {
  return { on: 'method', value };
}

export function header(name: string, op: HeaderOp = 'equal', value = ''): HeaderCondition {
  const pattern = patternFor(op, value);
  return { on: 'header', name: name.toLowerCase(), op, value, ...(pattern ? { pattern } : {}) };
}

export function body(path: string, op: BodyOp, value: string): BodyCondition {
  let parsed: TypedJson | undefined;
  try {
    parsed = parseTypedJson(value);
  } catch {
    parsed = undefined;
  }
  const pattern = patternFor(op, value);
  let document: Json | undefined;
  try {
    document = parseJson(value);
  } catch {
    document = undefined;
  }
  const date = DATE_OPS.has(op) ? parseExpected(value) : undefined;
  return {
    on: 'body',
    path,
    segments: path === '' ? [] : path.split('.'),
    op,
    value,
    ...(parsed !== undefined ? { parsed } : {}),
    ...(pattern ? { pattern } : {}),
    ...(document !== undefined && /json/.test(op) ? { document } : {}),
    ...(date !== undefined ? { date } : {}),
  };
}

const RESPOND: Respond = { body: { kind: 'empty' }, headers: [], delayMs: 0 };

export function rule(
  conditions: readonly Condition[],
  opts: { priority?: number; weight?: number; label?: string } = {},
): Omit<Rule, 'index'> {
  return {
    label: opts.label ?? '(any path)',
    conditions,
    respond: RESPOND,
    priority: opts.priority ?? 0,
    weight: opts.weight ?? 1,
  };
}

export function ruleSet(
  rules: readonly Omit<Rule, 'index'>[],
  opts: { strategy?: Strategy; prefix?: string; index?: number; file?: string } = {},
): RuleSet {
  return {
    index: opts.index ?? 0,
    file: opts.file ?? '/abs/rs.toml',
    entry: 'rs.toml',
    strategy: opts.strategy ?? { kind: 'first_match' },
    rules: rules.map((r, index) => ({ ...r, index })),
    ...(opts.prefix !== undefined ? { prefix: opts.prefix } : {}),
  };
}

export interface RequestParts {
  readonly path?: string;
  readonly method?: string;
  readonly headers?: readonly (readonly [string, string])[];
  /** JSON text; omitted = no body */
  readonly json?: string;
  /** a body that is present but not JSON */
  readonly bytes?: boolean;
  /** a body that is not JSON, as text */
  readonly text?: string;
  /** the raw query, without '?' */
  readonly query?: string;
}

export function req(parts: RequestParts = {}): RequestSnapshot {
  const path = parts.path ?? '/';
  const headers = (parts.headers ?? []).map(([k, v]) => [k.toLowerCase(), v] as const);
  let b: RequestBody = { kind: 'none' };
  if (parts.json !== undefined) {
    const typed = mayHoldIntegralFloat(parts.json) ? { typed: parseTypedJson(parts.json) } : {};
    b = { kind: 'json', value: parseJson(parts.json), byteLength: parts.json.length, ...typed };
  } else if (parts.bytes || parts.text !== undefined) b = { kind: 'bytes', byteLength: parts.text?.length ?? 3 };
  return {
    method: parts.method ?? 'GET',
    rawPath: path,
    segments: path.split('/').slice(1),
    path,
    query: parts.query ?? '',
    headers,
    body: b,
    httpVersion: '1.1',
    parts: new LazyRequestParts(
      parts.query ?? '',
      headers,
      parts.text !== undefined
        ? new TextEncoder().encode(parts.text)
        : parts.json !== undefined
          ? new TextEncoder().encode(parts.json)
          : undefined,
    ),
  };
}
