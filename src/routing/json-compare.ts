// Typed JSON comparisons for body conditions: exact equality (object key order irrelevant) and the
// structural "superset" used by structural_contains. Numbers are typed by their lexemes, as serde_json's are:
// an integer (`42`) never equals a float (`42.0`), whatever their values.
import { isTypedJsonObject, JsonFloat, type TypedJson, type TypedJsonObject } from '../shared/json.js';

/**
 * Structural equality with type: `42` ≠ `"42"`, objects compare by key set regardless of order,
 * arrays element by element. An integer held as bigint (beyond 2^53) equals only a bigint of the same
 * value: a float-written number never equals an integer-written one that needed a bigint. A JsonFloat
 * (`42.0`) equals only a JsonFloat of the same value; a plain number with a fraction is a float on both sides.
 */
export function jsonEqual(a: TypedJson, b: TypedJson): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof JsonFloat || b instanceof JsonFloat)
    return a instanceof JsonFloat && b instanceof JsonFloat && a.valueOf() === b.valueOf();
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return false;
    const xs = a as readonly TypedJson[];
    const ys = b as readonly TypedJson[];
    if (xs.length !== ys.length) return false;
    for (let i = 0; i < xs.length; i++) if (!jsonEqual(xs[i]!, ys[i]!)) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const oa = a as TypedJsonObject;
  const ob = b as TypedJsonObject;
  for (const k of ka) if (!Object.hasOwn(ob, k) || !jsonEqual(oa[k]!, ob[k]!)) return false;
  return true;
}

/**
 * `candidate` is a recursive superset of `needle`: for an object needle every key is present in an
 * object candidate with an equal value, recursing into nested objects. Anything else (arrays inside the
 * needle included) must be equal.
 */
export function jsonSuperset(candidate: TypedJson, needle: TypedJson): boolean {
  if (!isTypedJsonObject(needle)) return jsonEqual(candidate, needle);
  if (!isTypedJsonObject(candidate)) return false;
  for (const k of Object.keys(needle)) {
    if (!Object.hasOwn(candidate, k) || !jsonSuperset(candidate[k]!, needle[k]!)) return false;
  }
  return true;
}
