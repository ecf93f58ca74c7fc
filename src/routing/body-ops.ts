// The body.json operators (docs/reference/operators.md), applied to a value already resolved from the body.
// No JSON body, or an unresolved path, is decided in check.ts: there every operator is false except
// `absent` on an unresolved path. The operators that tell 42 from 42.0 (LEXEME_TYPED) get the value with its
// numbers typed by their lexemes; the others compare text or f64, where 42 and 42.0 are the same.
import type { BodyCondition } from '../model/rule-set.js';
import type { BodyOp } from '../model/operators.js';
import { stringifyJson, isTypedJsonObject, type Json, type TypedJson } from '../shared/json.js';
import { assertNever } from '../shared/result.js';
import { bodyAsF64, bodyAsI64, parseF64, parseI64 } from './body-numbers.js';
import { parseUsize } from './body-path.js';
import { jsonEqual, jsonSuperset } from './json-compare.js';
import { jsonMatches } from './json-match.js';
import { schemaValid } from './json-schema.js';
import { dateHolds } from '../shared/date-match.js';
import { testString } from './string-ops.js';

/** The operators whose value is resolved with its numbers typed by their lexemes (`42` is not `42.0`). */
export function comparesLexemeTypes(op: BodyOp): boolean {
  return op === 'equal_typed' || op === 'equal_integer' || op === 'array_contains' || op === 'structural_contains';
}

/** The string form several operators compare: a JSON string without quotes, anything else as compact JSON. */
export function stringifyForCompare(v: TypedJson): string {
  if (typeof v === 'string') return v;
  // the common scalars without a trip through JSON.stringify (same text for finite numbers)
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return stringifyJson(v);
}

/** Test a body operator on a resolved value. */
export function testBody(cond: BodyCondition, actual: TypedJson): boolean {
  const op = cond.op;
  switch (op) {
    case 'equal':
    case 'equal_string':
      return stringifyForCompare(actual) === cond.value;
    case 'contains':
    case 'not_contains':
    case 'starts_with':
    case 'not_starts_with':
    case 'ends_with':
    case 'not_ends_with':
    case 'regex':
    case 'not_regex':
      return testString(op, stringifyForCompare(actual), cond.value, cond.pattern);
    case 'equal_typed':
      return cond.parsed !== undefined && jsonEqual(actual, cond.parsed);
    case 'equal_number':
      return compareF64(actual, cond.value, (a, b) => Math.abs(a - b) < Number.EPSILON);
    case 'greater_than':
      return compareF64(actual, cond.value, (a, b) => a > b);
    case 'less_than':
      return compareF64(actual, cond.value, (a, b) => a < b);
    case 'greater_or_equal':
      return compareF64(actual, cond.value, (a, b) => a >= b);
    case 'less_or_equal':
      return compareF64(actual, cond.value, (a, b) => a <= b);
    case 'exists':
      return true;
    case 'absent':
      return false;
    case 'array_length_equal':
      return arrayLength(actual, cond.value, (len, n) => len === n);
    case 'array_length_at_least':
      return arrayLength(actual, cond.value, (len, n) => len >= n);
    case 'array_contains': {
      const needle = needleOf(cond);
      return Array.isArray(actual) && (actual as readonly TypedJson[]).some((e) => jsonEqual(e, needle));
    }
    case 'equal_integer': {
      const a = bodyAsI64(actual);
      const b = parseI64(cond.value);
      return a !== undefined && b !== undefined && a === b;
    }
    case 'map_has_key':
      return isTypedJsonObject(actual) && Object.hasOwn(actual, cond.value);
    case 'map_does_not_have_key':
      return isTypedJsonObject(actual) && !Object.hasOwn(actual, cond.value);
    case 'structural_contains': {
      const needle = needleOf(cond);
      return Array.isArray(actual) && (actual as readonly TypedJson[]).some((e) => jsonSuperset(e, needle));
    }
    case 'equal_json':
    case 'equal_json_any_order':
    case 'contains_json':
    case 'contains_json_any_order':
      return (
        cond.document !== undefined &&
        jsonMatches(actual as Json, cond.document, {
          extra: op.startsWith('contains'),
          anyOrder: op.endsWith('any_order'),
        })
      );
    case 'json_schema':
      return cond.document !== undefined && schemaValid(actual as Json, cond.document);
    case 'before':
    case 'after':
    case 'equal_date_time':
      return cond.date !== undefined && dateHolds(op, stringifyForCompare(actual), cond.date, Date.now());
    default:
      return assertNever(op, 'body operator');
  }
}

function compareF64(actual: TypedJson, value: string, cmp: (a: number, b: number) => boolean): boolean {
  const a = bodyAsF64(actual);
  const b = parseF64(value);
  return a !== undefined && b !== undefined && cmp(a, b);
}

function arrayLength(actual: TypedJson, value: string, cmp: (len: number, n: number) => boolean): boolean {
  const n = parseUsize(value);
  return Array.isArray(actual) && n !== undefined && cmp(actual.length, n);
}

/** `value` parsed as JSON when it parses, else the text itself as a JSON string (`x` finds `"x"`). */
function needleOf(cond: BodyCondition): TypedJson {
  return cond.parsed !== undefined ? cond.parsed : cond.value;
}
