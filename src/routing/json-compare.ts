// Typed JSON comparisons for body conditions: exact equality (object key order irrelevant) and the
// structural "superset" used by structural_contains.
import { isJsonObject, type Json, type JsonObject } from '../shared/json.js';

/**
 * Structural equality with type: `42` ≠ `"42"`, objects compare by key set regardless of order,
 * arrays element by element. An integer held as bigint (beyond 2^53) equals only a bigint of the same
 * value: a float-written number never equals an integer-written one that needed a bigint.
 */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return false;
    const xs = a as readonly Json[];
    const ys = b as readonly Json[];
    if (xs.length !== ys.length) return false;
    for (let i = 0; i < xs.length; i++) if (!jsonEqual(xs[i]!, ys[i]!)) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const oa = a as JsonObject;
  const ob = b as JsonObject;
  for (const k of ka) if (!Object.hasOwn(ob, k) || !jsonEqual(oa[k]!, ob[k]!)) return false;
  return true;
}

/**
 * `candidate` is a recursive superset of `needle`: for an object needle every key is present in an
 * object candidate with an equal value, recursing into nested objects. Anything else (arrays inside the
 * needle included) must be equal.
 */
export function jsonSuperset(candidate: Json, needle: Json): boolean {
  if (!isJsonObject(needle)) return jsonEqual(candidate, needle);
  if (!isJsonObject(candidate)) return false;
  for (const k of Object.keys(needle)) {
    if (!Object.hasOwn(candidate, k) || !jsonSuperset(candidate[k]!, needle[k]!)) return false;
  }
  return true;
}
