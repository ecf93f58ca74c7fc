// The whole-document JSON comparisons of the body operators `equal_json`, `equal_json_any_order`, `contains_json`
// and `contains_json_any_order` (docs/matching.md#json-documents): the way a team comparing whole request bodies
// expects, and the way WireMock's `equalToJson` compares. Numbers compare by value (`1` equals `1.0`), object keys
// in any order; `contains_…` lets the request hold more object fields and more array items (after the expected
// ones, or anywhere with `…_any_order`). A string value of the expected document may be a placeholder:
// `${json-unit.ignore}` (present, any value), `${json-unit.ignore-element}` (any value or none),
// `${json-unit.any-string}`, `${json-unit.any-number}`, `${json-unit.any-boolean}`, `${json-unit.regex}<pattern>`
// (the whole string matches).
import type { Json, JsonObject } from '../shared/json.js';

export interface JsonMatchOptions {
  /** more object fields and array items in the request are fine */
  readonly extra: boolean;
  /** array items in any order */
  readonly anyOrder: boolean;
}

const PREFIX = '${json-unit.';

/** compiled `${json-unit.regex}` patterns (rule values, so their number is bounded by the rule sets) */
const PATTERNS = new Map<string, RegExp | null>();

function placeholderPattern(source: string): RegExp | null {
  let re = PATTERNS.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${source})$`, 'u');
    } catch {
      re = null;
    }
    PATTERNS.set(source, re);
  }
  return re;
}

/** whether `actual` fits the placeholder string `p`; undefined when `p` is no placeholder */
function placeholder(p: string, actual: Json): boolean | undefined {
  if (!p.startsWith(PREFIX)) return undefined;
  const rest = p.slice(PREFIX.length);
  if (rest === 'ignore}' || rest === 'ignore-element}') return true;
  if (rest === 'any-string}') return typeof actual === 'string';
  if (rest === 'any-number}') return typeof actual === 'number' || typeof actual === 'bigint';
  if (rest === 'any-boolean}') return typeof actual === 'boolean';
  if (rest.startsWith('regex}')) {
    const re = placeholderPattern(rest.slice('regex}'.length));
    return typeof actual === 'string' && re !== null && re.test(actual);
  }
  return undefined;
}

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `actual` (from the request) matches `expected` (the rule's document). */
export function jsonMatches(actual: Json, expected: Json, o: JsonMatchOptions): boolean {
  if (typeof expected === 'string') {
    const p = placeholder(expected, actual);
    if (p !== undefined) return p;
    return actual === expected;
  }
  if (typeof expected === 'number' || typeof expected === 'bigint') {
    if (typeof actual !== 'number' && typeof actual !== 'bigint') return false;
    if (typeof actual === 'bigint' || typeof expected === 'bigint') {
      try {
        return BigInt(actual) === BigInt(expected);
      } catch {
        return false;
      }
    }
    return actual === expected;
  }
  if (expected === null || typeof expected === 'boolean') return actual === expected;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    return arrayMatches(actual as readonly Json[], expected as readonly Json[], o);
  }
  if (!isObject(actual)) return false;
  const want = expected as JsonObject;
  let needed = 0;
  for (const k of Object.keys(want)) {
    const w = want[k]!;
    if (!Object.hasOwn(actual, k)) {
      if (w === `${PREFIX}ignore-element}`) continue;
      return false;
    }
    needed++;
    if (!jsonMatches(actual[k]!, w, o)) return false;
  }
  return o.extra || Object.keys(actual).length === needed;
}

function arrayMatches(actual: readonly Json[], expected: readonly Json[], o: JsonMatchOptions): boolean {
  if (actual.length < expected.length || (!o.extra && actual.length !== expected.length)) return false;
  if (!o.anyOrder) {
    for (let i = 0; i < expected.length; i++) if (!jsonMatches(actual[i]!, expected[i]!, o)) return false;
    return true;
  }
  // each expected item takes a request item of its own (the first free one that fits)
  const taken = new Array<boolean>(actual.length).fill(false);
  for (const w of expected) {
    let found = false;
    for (let i = 0; i < actual.length && !found; i++)
      if (!taken[i] && jsonMatches(actual[i]!, w, o)) {
        taken[i] = true;
        found = true;
      }
    if (!found) return false;
  }
  return true;
}
