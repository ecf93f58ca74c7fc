// checkCondition: the ONLY matcher. Rule selection (conditionHolds, the decision alone, or its compiled form
// compileCondition, tested equal to it) and the explanations of `get --why` and `match-test` (checkCondition:
// the decision plus the actual value) share one decision, so a mark can never disagree with the match it
// explains.
//
// What it leaves out: prefixes (evaluate.ts), strategies (strategy.ts), and any compiling: regexes,
// wild cards, body paths and typed values all arrive compiled on the Condition.
import type { RequestSnapshot } from '../model/request.js';
import type {
  BodyCondition,
  Condition,
  ConditionCheck,
  FieldCondition,
  StateCondition,
  UrlPathCondition,
} from '../model/rule-set.js';
import { scenarioState } from '../state/scenarios.js';
import type { StateStore } from '../state/store.js';
import { NEGATED_STRING_OPS, type StringOp } from '../model/operators.js';
import { matchTemplate, templateMatches, templateSegments } from './path-template.js';
import { stringifyJson, type TypedJson } from '../shared/json.js';
import { assertNever } from '../shared/result.js';
import { comparesLexemeTypes, stringifyForCompare, testBody } from './body-ops.js';
import { resolveInBody, resolveTypedInBody } from './body-path.js';
import { allHeaderValues, firstHeaderValue, testHeader, testValue, testValues } from './header-ops.js';
import { testPattern, testString } from './string-ops.js';

/**
 * Check one condition against the request. `ok` is conditionHolds(cond, req); `actual` is the request's
 * value that was compared: the path, the method, the header's first value, or the compact JSON of the
 * resolved body value; undefined for a missing header, an unresolved body path, or no JSON body.
 */
export function checkCondition(cond: Condition, req: RequestSnapshot, state?: StateStore): ConditionCheck {
  return { ok: conditionHolds(cond, req, state), actual: actualValue(cond, req, state) };
}

/**
 * The decision alone: rule selection calls this on the hot path, so no actual value is built there
 * (a large body value is never printed just to be thrown away).
 */
export function conditionHolds(cond: Condition, req: RequestSnapshot, state?: StateStore): boolean {
  switch (cond.on) {
    case 'state':
      return stateHolds(cond, state);
    case 'url_path':
      return testUrlPath(cond, req);
    case 'method':
      return req.method === cond.value;
    case 'header':
      if (cond.values !== undefined) return testValues(cond, allHeaderValues(req.headers, cond.name));
      return testHeader(cond, firstHeaderValue(req.headers, cond.name));
    case 'body':
      return bodyHolds(cond, resolveBody(cond, req));
    case 'query':
    case 'cookie':
    case 'param':
    case 'form':
      return fieldHolds(cond, fieldValues(cond, req));
    case 'body_text': {
      const text = req.parts.bodyText;
      return text !== undefined && testString(cond.op, text, cond.value, cond.pattern);
    }
    case 'url':
      return testString(cond.op, sentUrl(req), cond.value, cond.pattern);
    default:
      return assertNever(cond, 'condition');
  }
}

/**
 * The values a query, cookie, param or form condition looks at: a query name's or form field's every value, a
 * cookie's value, a template capture; undefined when the request has none by that name.
 */
function fieldValues(cond: FieldCondition, req: RequestSnapshot): readonly string[] | undefined {
  switch (cond.on) {
    case 'query':
      return req.parts.query.get(cond.name);
    case 'cookie': {
      const v = req.parts.cookies.get(cond.name);
      return v === undefined ? undefined : [v];
    }
    case 'param': {
      const v =
        cond.template === undefined ? undefined : matchTemplate(cond.template, templateSegments(req))?.[cond.name];
      return v === undefined ? undefined : [v];
    }
    case 'form':
      return req.parts.form?.fields.get(cond.name);
    default:
      return assertNever(cond.on, 'field');
  }
}

/**
 * exists / absent look at presence only; a value operator on a missing name is false, negations included. A
 * positive operator holds when any value does; a negated one when no value holds its positive form.
 */
function fieldHolds(cond: FieldCondition, values: readonly string[] | undefined): boolean {
  if (cond.op === 'exists') return values !== undefined;
  if (cond.op === 'absent') return values === undefined;
  if (values === undefined) return false;
  if (cond.values !== undefined) return testValues(cond, values);
  const positive = (NEGATED_STRING_OPS as Readonly<Record<string, StringOp>>)[cond.op];
  if (positive !== undefined) {
    for (const v of values) if (testString(positive, v, cond.value, cond.pattern)) return false;
    return true;
  }
  for (const v of values) if (testValue(cond, v)) return true;
  return false;
}

/**
 * A scenario condition: the scenario's state in the store (`started` when absent, and without a store: `mock get`
 * and `match-test` pass one of their own).
 */
function stateHolds(cond: StateCondition, state: StateStore | undefined): boolean {
  const current = state === undefined ? STARTED_STATE : scenarioState(state, cond.name);
  return cond.op === 'equal' ? current === cond.value : current !== cond.value;
}

const STARTED_STATE = 'started';

/** A condition as a function of the request: the same decision as conditionHolds (tests hold them equal). */
export type CompiledCondition = (req: RequestSnapshot, state?: StateStore) => boolean;

/**
 * conditionHolds with the condition's kind and operator decided once, at load, instead of on every request:
 * the url_path and method checks (the ones long rule lists are made of) become a single comparison or
 * pattern test. Every other condition calls conditionHolds itself.
 */
export function compileCondition(cond: Condition): CompiledCondition {
  if (cond.on === 'method') {
    const want = cond.value;
    return (req) => req.method === want;
  }
  if (cond.on === 'body') return compileBody(cond);
  if (cond.on === 'query' && cond.op === 'equal') {
    // the common query condition (rules told apart by `?page=2`), without the operator switch
    const name = cond.name;
    const want = cond.value;
    return (req) => req.parts.query.get(name)?.includes(want) ?? false;
  }
  if (cond.on === 'state') return (req, state) => stateHolds(cond, state);
  if (cond.on !== 'url_path') return (req) => conditionHolds(cond, req);
  if (cond.op === 'path_template') {
    const template = cond.template;
    if (template === undefined) return () => false;
    return (req) => templateMatches(template, templateSegments(req));
  }
  const operand = cond.op === 'contains' || cond.op === 'not_contains' ? cond.value : cond.compareTo;
  const pattern = cond.pattern;
  switch (cond.op) {
    case 'equal':
      return (req) => req.path === operand;
    case 'not_equal':
      return (req) => req.path !== operand;
    case 'starts_with':
      return (req) => req.path.startsWith(operand);
    case 'ends_with':
      return (req) => req.path.endsWith(operand);
    case 'contains':
      return (req) => req.path.includes(operand);
    case 'regex': {
      if (pattern === undefined) return () => false;
      // a text every match contains: checking for it first is cheaper than running the pattern on a miss
      const literal = requiredLiteral(pattern);
      if (literal !== undefined) return (req) => req.path.includes(literal) && testPattern(pattern, req.path);
      return (req) => testPattern(pattern, req.path);
    }
    case 'wild_card':
      if (pattern === undefined) return () => false;
      return (req) => testPattern(pattern, req.path);
    default:
      return (req) => conditionHolds(cond, req);
  }
}

/**
 * The body `equal` (rules told apart by a value in the body, the common case) with its path and value at hand;
 * any other body operator calls conditionHolds.
 */
function compileBody(cond: BodyCondition): CompiledCondition {
  if (cond.op !== 'equal' && cond.op !== 'equal_string') return (req) => conditionHolds(cond, req);
  const segments = cond.segments;
  const want = cond.value;
  return (req) => {
    const body = req.body;
    if (body.kind !== 'json') return false;
    const found = resolveInBody(body, segments);
    if (found === undefined) return false;
    return typeof found === 'string' ? found === want : stringifyForCompare(found) === want;
  };
}

/**
 * A text that every request path this condition accepts contains, when there is one worth indexing (at least one
 * character): starts_with / ends_with their operand, contains its value, regex its required literal. Used by the
 * path index to skip rules whose text a path lacks; it only ever narrows the rules that are then checked in full.
 */
export function requiredText(cond: Condition): string | undefined {
  if (cond.on !== 'url_path') return undefined;
  switch (cond.op) {
    case 'starts_with':
    case 'ends_with':
      return cond.compareTo.length > 0 ? cond.compareTo : undefined;
    case 'contains':
      return cond.value.length > 0 ? cond.value : undefined;
    case 'regex':
      return cond.pattern === undefined ? undefined : requiredLiteral(cond.pattern);
    default:
      return undefined;
  }
}

const SYNTAX = new Set('\\^$.|?*+()[]{}/-');

/**
 * The literal text at the start of a pattern (after an optional `^`), which every match therefore contains;
 * undefined when there is none worth checking or the pattern is not simple enough to be sure: a case-insensitive
 * pattern, any `|`, or fewer than two literal characters. A character followed by a quantifier is not required.
 */
export function requiredLiteral(pattern: RegExp): string | undefined {
  const src = pattern.source;
  if (pattern.ignoreCase || src.includes('|')) return undefined;
  let i = src.startsWith('^') ? 1 : 0;
  let out = '';
  /** the length before the last character added (that character is dropped when a quantifier follows it) */
  let before = 0;
  for (; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      const next = src[i + 1];
      if (next === undefined || !SYNTAX.has(next)) break;
      before = out.length;
      out += next;
      i++;
    } else if (SYNTAX.has(c) && c !== '/' && c !== '-') break;
    else {
      before = out.length;
      out += c;
    }
  }
  if (i < src.length && '?*+{'.includes(src[i]!)) out = out.slice(0, before);
  return out.length >= 2 ? out : undefined;
}

function actualValue(cond: Condition, req: RequestSnapshot, state: StateStore | undefined): string | undefined {
  switch (cond.on) {
    case 'state':
      return state === undefined ? STARTED_STATE : scenarioState(state, cond.name);
    case 'url_path':
      return req.path;
    case 'method':
      return req.method;
    case 'header': {
      if (cond.values === undefined) return firstHeaderValue(req.headers, cond.name);
      const all = allHeaderValues(req.headers, cond.name);
      return all === undefined ? undefined : JSON.stringify(all);
    }
    case 'body': {
      const resolved = resolveBody(cond, req);
      return resolved === undefined || resolved === NO_JSON_BODY ? undefined : stringifyJson(resolved);
    }
    case 'query':
    case 'cookie':
    case 'param':
    case 'form': {
      const values = fieldValues(cond, req);
      if (values === undefined) return undefined;
      return values.length === 1 ? values[0] : JSON.stringify(values);
    }
    case 'url':
      return sentUrl(req);
    case 'body_text': {
      const text = req.parts.bodyText;
      return text === undefined || text.length <= ACTUAL_TEXT_MAX ? text : text.slice(0, ACTUAL_TEXT_MAX) + '…';
    }
    default:
      return assertNever(cond, 'condition');
  }
}

/** the path and query as sent, still percent-encoded */
function sentUrl(req: RequestSnapshot): string {
  return req.query === '' ? req.rawPath : `${req.rawPath}?${req.query}`;
}

/**
 * equal / starts_with and their negations compare with `compareTo` (prefix joined, slashes normalised at
 * load); ends_with / contains and their negations with the value as written; regex / wild_card use the pattern.
 */
function testUrlPath(cond: UrlPathCondition, req: RequestSnapshot): boolean {
  if (cond.op === 'path_template')
    return cond.template !== undefined && templateMatches(cond.template, templateSegments(req));
  const path = req.path;
  const operand = cond.op === 'contains' || cond.op === 'not_contains' ? cond.value : cond.compareTo;
  return testString(cond.op, path, operand, cond.pattern);
}

/** how much of a body's text an explanation shows as its actual value */
const ACTUAL_TEXT_MAX = 200;

const NO_JSON_BODY: unique symbol = Symbol('no JSON body');

/**
 * The body value the condition's path resolves to (numbers typed by their lexemes for the operators that tell
 * 42 from 42.0); undefined when unresolved; NO_JSON_BODY without a JSON body.
 */
function resolveBody(cond: BodyCondition, req: RequestSnapshot): TypedJson | undefined | typeof NO_JSON_BODY {
  if (req.body.kind !== 'json') return NO_JSON_BODY;
  return comparesLexemeTypes(cond.op)
    ? resolveTypedInBody(req.body, cond.segments)
    : resolveInBody(req.body, cond.segments);
}

function bodyHolds(cond: BodyCondition, resolved: TypedJson | undefined | typeof NO_JSON_BODY): boolean {
  // No JSON body: every body condition is false, `absent` included.
  if (resolved === NO_JSON_BODY) return false;
  // Unresolved path: every operator is false except `absent`, negations included.
  if (resolved === undefined) return cond.op === 'absent';
  return testBody(cond, resolved);
}
