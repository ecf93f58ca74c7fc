// when.request.{url_path, method, headers, query, cookies, params, body.{json, form, text}} → Condition[]
// (docs/reference/operators.md, docs/matching.md).
// Every regex and wild card is compiled here, once; url_path operands are normalised here, once:
// equal / starts_with (and negations) join the prefix and get one leading '/'; ends_with, contains (and
// negations) and regex keep the value as written; a wild card not starting with '/', '*' or '?' gets a '/'.
// Conditions keep the order written. Unknown keys at every level are reported with the allowed list.
import type {
  BodyCondition,
  BodyTextCondition,
  Condition,
  FieldCondition,
  HeaderCondition,
  PathTemplate,
  StateCondition,
  UrlPathCondition,
} from '../model/rule-set.js';
import type { UrlPathOp } from '../model/operators.js';
import { DATE_OPS, parseExpected, type ExpectedDate, type Truncation } from '../shared/date-match.js';
import { parseJson, parseTypedJson, type TypedJson } from '../shared/json.js';
import { compileRustRegex } from '../shared/rust-regex.js';
import { wildcardToRegExp } from '../shared/wildcard.js';
import { report, unknownKey, wrongType, type DecodeContext, type KeyPath } from './decode.js';
import { MESSAGES } from './messages.js';
import {
  bodyTable,
  bodyTextTable,
  HEADER_NAME,
  headerTable,
  methodShape,
  requestShape,
  SCENARIO_NAME,
  stateTable,
  urlPathTable,
  urlTable,
} from './shapes/rule-set.js';
import { parseTemplate } from './path-template.js';
import type { TomlNode } from './toml.js';

export { HEADER_NAME };

/** the keys of `when.request`, in the order the shape declares them */
export const REQUEST_KEYS = Object.keys(requestShape.node.kind === 'record' ? requestShape.node.fields : {});
export const ANY_PATH_LABEL = '(any path)';

export interface DecodedRequest {
  readonly conditions: readonly Condition[];
  /** the url_path value as written, or "(any path)" */
  readonly label: string;
  /** false when the request table has no key at all */
  readonly nonEmpty: boolean;
}

/** Decode a `when.request` table. `prefix` is the rule set's canonical prefix, if any. */
export function decodeRequest(
  node: TomlNode,
  path: KeyPath,
  ctx: DecodeContext,
  prefix: string | undefined,
): DecodedRequest | undefined {
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table');
  const conditions: Condition[] = [];
  let label = ANY_PATH_LABEL;
  let template: PathTemplate | undefined;
  let params: { conditions: FieldCondition[]; keyOffset: number; names: Map<string, number> } | undefined;
  node.entries.forEach((entry, key) => {
    const at: KeyPath = [...path, key];
    switch (key) {
      case 'url_path': {
        const c = decodeUrlPath(entry.node, at, ctx, prefix);
        if (c !== undefined) {
          conditions.push(c);
          label = c.value;
          template = c.template;
        }
        break;
      }
      case 'query':
      case 'cookies':
        conditions.push(...decodeFields(key === 'query' ? 'query' : 'cookie', entry.node, at, ctx).conditions);
        break;
      case 'params': {
        const decoded = decodeFields('param', entry.node, at, ctx);
        params = { conditions: decoded.conditions, keyOffset: entry.keyOffset, names: decoded.offsets };
        conditions.push(...decoded.conditions);
        break;
      }
      case 'method': {
        const m = methodDecoder(entry.node, at, ctx);
        if (m !== undefined) conditions.push({ on: 'method', value: m });
        break;
      }
      case 'headers':
        conditions.push(...decodeHeaders(entry.node, at, ctx));
        break;
      case 'body':
        conditions.push(...decodeBody(entry.node, at, ctx));
        break;
      case 'url': {
        const c = decodeStringTable(entry.node, at, ctx, urlTable);
        if (c !== undefined) conditions.push({ on: 'url', ...c });
        break;
      }
      default:
        unknownKey(ctx, key, entry.keyOffset, path, REQUEST_KEYS);
    }
  });
  if (params !== undefined)
    return { conditions: withTemplate(conditions, params, template, path, ctx), label, nonEmpty: true };
  return { conditions, label, nonEmpty: node.entries.size > 0 };
}

/**
 * `params` conditions test the captures of the rule's url_path template, which they carry from here on: without a
 * template, or naming a parameter the template lacks, they are refused (at the `params` key or the name).
 */
function withTemplate(
  conditions: Condition[],
  params: { conditions: FieldCondition[]; keyOffset: number; names: Map<string, number> },
  template: PathTemplate | undefined,
  path: KeyPath,
  ctx: DecodeContext,
): Condition[] {
  if (template === undefined) {
    report(
      ctx,
      'invalid_value',
      '`params` tests the captures of a `url_path` with `op = "path_template"`, and this rule has none',
      params.keyOffset,
      [...path, 'params'],
    );
    return conditions;
  }
  const known = template.segments.flatMap((s) => ('name' in s ? [s.name] : 'names' in s ? [...s.names] : []));
  for (const c of params.conditions) {
    if (!known.includes(c.name)) {
      const offset = params.names.get(c.name) ?? params.keyOffset;
      unknownKey(ctx, c.name, offset, [...path, 'params'], known);
    }
  }
  return conditions.map((c) => (c.on === 'param' ? { ...c, template } : c));
}

// ---- url_path --------------------------------------------------------------------------------------

const methodDecoder = methodShape.decode;

function decodeUrlPath(
  node: TomlNode,
  path: KeyPath,
  ctx: DecodeContext,
  prefix: string | undefined,
): UrlPathCondition | undefined {
  let value: string;
  let op: UrlPathOp = 'equal';
  let bare = false;
  let valueNode = node;
  if (node.kind === 'string') {
    value = node.value;
    bare = true;
  } else if (node.kind === 'table') {
    const t = urlPathTable(node, path, ctx);
    if (t?.value === undefined) return undefined;
    value = t.value;
    op = t.op ?? 'equal';
    valueNode = node.entries.get('value')!.node;
  } else {
    return wrongType(ctx, node, path, 'a string or a table such as { value = "/api", op = "starts_with" }');
  }
  const base = { on: 'url_path', op, value, bare } as const;
  switch (op) {
    case 'contains':
    case 'not_contains':
    case 'ends_with':
    case 'not_ends_with':
      return { ...base, compareTo: value };
    case 'regex':
    case 'not_regex': {
      const pattern = compileRegex(value, valueNode, bare ? path : [...path, 'value'], ctx);
      return pattern && { ...base, compareTo: value, pattern };
    }
    case 'path_template': {
      const compareTo = joinUrlPath(prefix, value);
      const parsed = parseTemplate(compareTo);
      if (!parsed.ok) {
        report(
          ctx,
          'invalid_value',
          `invalid path template ${JSON.stringify(value)}: ${parsed.error}`,
          valueNode.offset,
          bare ? path : [...path, 'value'],
        );
        return undefined;
      }
      return { ...base, compareTo, template: parsed.template };
    }
    case 'wild_card': {
      // A value written without its leading slash (`api/*`) is a path like `equal`'s: rooted, and joined to the
      // rule set's prefix (`prefix.url_path = "/rule-op/"` with `wild-card/???/*` means `/rule-op/wild-card/???/*`).
      // A value starting with `/`, `*` or `?` is a pattern as written. See docs/matching.md.
      const anchored = /^[/*?]/.test(value) ? value : joinPrefix(prefix, value);
      return { ...base, compareTo: anchored, pattern: wildcardToRegExp(anchored) };
    }
    default:
      return { ...base, compareTo: joinUrlPath(prefix, value) };
  }
}

/** The prefix (if any) and a slash-less wild-card value, with one '/' between; the value's own ending kept. */
function joinPrefix(prefix: string | undefined, value: string): string {
  return (prefix === undefined || prefix === '/' ? '' : '/' + prefix.replace(/^\/+|\/+$/g, '')) + '/' + value;
}

/** The rule set's prefix joined with a rule value: one leading '/', one trailing '/' removed ("" and "/" → "/"). */
export function joinUrlPath(prefix: string | undefined, value: string): string {
  const joined =
    prefix === undefined || prefix === '/' ? value : prefix.replace(/\/$/, '') + '/' + value.replace(/^\//, '');
  return canonicalPath(joined);
}

/** One leading '/', one trailing '/' removed; "" and "/" become "/". */
export function canonicalPath(p: string): string {
  let out = p.startsWith('/') ? p : '/' + p;
  if (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

function compileRegex(pattern: string, node: TomlNode, path: KeyPath, ctx: DecodeContext): RegExp | undefined {
  const r = compileRustRegex(pattern);
  if (r.ok) return r.value;
  report(ctx, 'invalid_regex', MESSAGES.invalidRegex(pattern, r.error), node.offset, path);
  return undefined;
}

// ---- headers ---------------------------------------------------------------------------------------

const HEADER_SHAPE = 'a table such as { value = "…", op = "equal" }';

function decodeHeaders(node: TomlNode, path: KeyPath, ctx: DecodeContext): HeaderCondition[] {
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table of header names') ?? [];
  const out: HeaderCondition[] = [];
  for (const [name, entry] of node.entries) {
    const at: KeyPath = [...path, name];
    if (!HEADER_NAME.test(name)) {
      report(ctx, 'invalid_value', MESSAGES.invalidHeaderName(name), entry.keyOffset, at);
      continue;
    }
    if (entry.node.kind !== 'table') {
      wrongType(ctx, entry.node, at, HEADER_SHAPE);
      continue;
    }
    const t = headerTable(entry.node, at, ctx);
    if (t === undefined) continue;
    const op = t.op ?? 'equal';
    const value = t.value ?? '';
    const more = valueExtras(op, value, t, entry.node, at, ctx);
    if (more === undefined) continue;
    const c: HeaderCondition = { on: 'header', name: name.toLowerCase(), op, value, ...more };
    if (op === 'regex' || op === 'not_regex') {
      const pattern = compileRegex(value, entry.node.entries.get('value')?.node ?? entry.node, [...at, 'value'], ctx);
      if (pattern !== undefined) out.push({ ...c, pattern });
    } else if (op === 'wild_card') out.push({ ...c, pattern: wildcardToRegExp(value) });
    else out.push(c);
  }
  return out;
}

/** what a date operator's or a multi-value operator's value holds, read once; undefined (reported) when it is wrong */
function valueExtras(
  op: string,
  value: string,
  t: { truncate_expected?: Truncation; truncate_actual?: Truncation; format?: string },
  node: TomlNode,
  at: KeyPath,
  ctx: DecodeContext,
): { date?: ExpectedDate; values?: readonly string[] } | undefined {
  const offset = node.kind === 'table' ? (node.entries.get('value')?.node ?? node).offset : node.offset;
  if (DATE_OPS.has(op)) {
    const e = parseExpected(value);
    if (e === undefined) {
      report(ctx, 'invalid_value', MESSAGES.notADate(value), offset, [...at, 'value']);
      return undefined;
    }
    const date: { -readonly [K in keyof ExpectedDate]: ExpectedDate[K] } = { ...e };
    if (t.truncate_expected !== undefined) date.truncateExpected = t.truncate_expected;
    if (t.truncate_actual !== undefined) date.truncateActual = t.truncate_actual;
    if (t.format !== undefined) date.format = t.format;
    return { date };
  }
  if (op === 'includes' || op === 'has_exactly') {
    const list = tryParseJson(value);
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
      report(ctx, 'invalid_value', MESSAGES.notStringList(op), offset, [...at, 'value']);
      return undefined;
    }
    return { values: list };
  }
  return {};
}

// ---- query, cookies, params, body.form ----------------------------------------------------------------

const FIELD_SHAPE = 'a string or a table such as { value = "…", op = "equal" }';

/** A table of names to a string (op `equal`) or `{ value, op }`; `offsets` has each name's key offset. */
function decodeFields(
  on: FieldCondition['on'],
  node: TomlNode,
  path: KeyPath,
  ctx: DecodeContext,
): { conditions: FieldCondition[]; offsets: Map<string, number> } {
  const offsets = new Map<string, number>();
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table of names') ?? { conditions: [], offsets };
  const out: FieldCondition[] = [];
  for (const [name, entry] of node.entries) {
    const at: KeyPath = [...path, name];
    offsets.set(name, entry.keyOffset);
    if (entry.node.kind === 'string') {
      out.push({ on, name, op: 'equal', value: entry.node.value });
      continue;
    }
    if (entry.node.kind !== 'table') {
      wrongType(ctx, entry.node, at, FIELD_SHAPE);
      continue;
    }
    const t = headerTable(entry.node, at, ctx);
    if (t === undefined) continue;
    const op = t.op ?? 'equal';
    const value = t.value ?? '';
    const more = valueExtras(op, value, t, entry.node, at, ctx);
    if (more === undefined) continue;
    const c: FieldCondition = { on, name, op, value, ...more };
    if (op === 'regex' || op === 'not_regex') {
      const pattern = compileRegex(value, entry.node.entries.get('value')?.node ?? entry.node, [...at, 'value'], ctx);
      if (pattern !== undefined) out.push({ ...c, pattern });
    } else if (op === 'wild_card') out.push({ ...c, pattern: wildcardToRegExp(value) });
    else out.push(c);
  }
  return { conditions: out, offsets };
}

// ---- when.state ------------------------------------------------------------------------------------

/** Decode a `when.state` table: one condition per scenario, in the order written. */
export function decodeState(node: TomlNode, path: KeyPath, ctx: DecodeContext): StateCondition[] {
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table of scenario names') ?? [];
  const out: StateCondition[] = [];
  for (const [name, entry] of node.entries) {
    const at: KeyPath = [...path, name];
    if (!SCENARIO_NAME.test(name)) {
      report(ctx, 'invalid_value', MESSAGES.invalidScenarioName(name), entry.keyOffset, at);
      continue;
    }
    const key = 'scenario:' + name; // the state store's key layout (state/scenarios.ts)
    if (entry.node.kind === 'string') {
      out.push({ on: 'state', name, op: 'equal', value: entry.node.value, key });
      continue;
    }
    if (entry.node.kind !== 'table') {
      wrongType(ctx, entry.node, at, 'a string or a table such as { value = "paid", op = "not_equal" }');
      continue;
    }
    const t = stateTable(entry.node, at, ctx);
    if (t?.value === undefined) continue;
    out.push({ on: 'state', name, op: t.op ?? 'equal', value: t.value, key });
  }
  return out;
}

// ---- body.json -------------------------------------------------------------------------------------

const BODY_KEYS = ['json', 'form', 'text'] as const;
const BODY_SHAPE = 'a table such as { value = "gold", op = "equal" }';

/** `when.request.body`'s conditions; also a WebSocket reply's `when`, on the message (config/websocket.ts) */
export function decodeBody(node: TomlNode, path: KeyPath, ctx: DecodeContext): Condition[] {
  if (node.kind !== 'table')
    return wrongType(ctx, node, path, 'a table with a `json`, `form` or `text` table inside') ?? [];
  const out: Condition[] = [];
  for (const [key, entry] of node.entries) {
    const at: KeyPath = [...path, key];
    if (key === 'form') {
      out.push(...decodeFields('form', entry.node, at, ctx).conditions);
      continue;
    }
    if (key === 'text') {
      const c = decodeBodyText(entry.node, at, ctx);
      if (c !== undefined) out.push(c);
      continue;
    }
    if (key !== 'json') {
      unknownKey(ctx, key, entry.keyOffset, path, BODY_KEYS);
      continue;
    }
    if (entry.node.kind !== 'table') {
      wrongType(ctx, entry.node, at, 'a table of dotted paths');
      continue;
    }
    for (const [bodyPath, cond] of entry.node.entries)
      out.push(...decodeBodyCondition(bodyPath, cond, [...at, bodyPath], ctx));
  }
  return out;
}

/** the body operators whose value is a JSON document (`document` on the condition) */
const DOCUMENT_OPS: ReadonlySet<string> = new Set([
  'equal_json',
  'equal_json_any_order',
  'contains_json',
  'contains_json_any_order',
  'json_schema',
]);

function decodeBodyCondition(
  bodyPath: string,
  entry: { keyOffset: number; node: TomlNode },
  at: KeyPath,
  ctx: DecodeContext,
): BodyCondition[] {
  const node = entry.node;
  if (node.kind !== 'table') return wrongType(ctx, node, at, BODY_SHAPE) ?? [];
  // `customer.tier = { … }` unquoted makes nested tables: say so instead of "unknown key `tier`"
  if (!node.entries.has('value') && !node.entries.has('op')) {
    const nested = [...node.entries].find(([, e]) => e.node.kind === 'table');
    if (nested !== undefined) {
      report(ctx, 'body_path', MESSAGES.bodyPathNested(bodyPath, nested[0]), nested[1].keyOffset, [...at, nested[0]]);
      return [];
    }
  }
  const t = bodyTable(node, at, ctx);
  if (t?.value === undefined) return [];
  if (bodyPath.startsWith('$')) {
    report(ctx, 'body_path', MESSAGES.bodyPathNotJsonPath(bodyPath), entry.keyOffset, at, { severity: 'warning' });
  }
  const op = t.op ?? 'equal';
  const value = t.value;
  const c: { -readonly [K in keyof BodyCondition]: BodyCondition[K] } = {
    on: 'body',
    path: bodyPath,
    // the empty path is the whole body (a document operator compares it all)
    segments: bodyPath === '' ? [] : bodyPath.split('.'),
    op,
    value,
  };
  const parsed = tryParseJson(value);
  if (parsed !== undefined) c.parsed = parsed;
  const more = valueExtras(op, value, t, node, at, ctx);
  if (more === undefined) return [];
  if (more.date !== undefined) c.date = more.date;
  if (DOCUMENT_OPS.has(op)) {
    try {
      c.document = parseJson(value);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      report(ctx, 'invalid_value', MESSAGES.notJsonDocument(op, why), node.entries.get('value')!.node.offset, [
        ...at,
        'value',
      ]);
      return [];
    }
  }
  if (op === 'regex' || op === 'not_regex') {
    const pattern = compileRegex(value, node.entries.get('value')!.node, [...at, 'value'], ctx);
    if (pattern === undefined) return [];
    c.pattern = pattern;
  }
  return [c];
}

function decodeBodyText(node: TomlNode, path: KeyPath, ctx: DecodeContext): BodyTextCondition | undefined {
  const c = decodeStringTable(node, path, ctx, bodyTextTable);
  return c && { on: 'body_text', ...c };
}

/** `{ value, op }` with a string operator (body.text, url), its pattern compiled */
function decodeStringTable(
  node: TomlNode,
  path: KeyPath,
  ctx: DecodeContext,
  table: typeof bodyTextTable,
): Omit<BodyTextCondition, 'on'> | undefined {
  if (node.kind !== 'table')
    return wrongType(ctx, node, path, 'a table such as { value = "<GetQuote>", op = "contains" }');
  const t = table(node, path, ctx);
  if (t?.value === undefined) return undefined;
  const op = t.op ?? 'equal';
  const c = { op, value: t.value };
  if (op === 'regex' || op === 'not_regex') {
    const pattern = compileRegex(t.value, node.entries.get('value')!.node, [...path, 'value'], ctx);
    return pattern && { ...c, pattern };
  }
  if (op === 'wild_card') return { ...c, pattern: wildcardToRegExp(t.value) };
  return c;
}

/** The rule's value as JSON, numbers typed by their lexemes as the request body's are (`42` vs `42.0`). */
function tryParseJson(text: string): TypedJson | undefined {
  try {
    return parseTypedJson(text);
  } catch {
    return undefined;
  }
}
