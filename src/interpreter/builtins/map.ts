// Object map functions (Rhai's BasicMapPackage). Keys come out in Rhai's order (sorted, as in its
// BTreeMap); a missing property reads as `()`.

import { sortedKeys, deepClone, type RMap, type Value } from '../values.js';
import { arity, asFn, asMap, asText, type CallContext, checkMap, define } from './registry.js';

const map = (a: Value[]): RMap => a[0] as RMap;

define('len', 'map', (_c, a) => (arity(a, 1), BigInt(map(a).size)));
define('is_empty', 'map', (_c, a) => (arity(a, 1), map(a).size === 0));
define('contains', 'map', (_c, a) => (arity(a, 2), map(a).has(asText(a[1]))));
define('get', 'map', (_c, a) => {
  arity(a, 2);
  const v = map(a).get(asText(a[1]));
  return v === undefined ? null : deepClone(v);
});
define(
  'set',
  'map',
  (c, a) => (arity(a, 3), map(a).set(asText(a[1]), deepClone(a[2] as Value)), checkMap(c, map(a)), null),
  true,
);
define(
  'remove',
  'map',
  (_c, a) => {
    arity(a, 2);
    const key = asText(a[1]);
    const v = map(a).get(key);
    map(a).delete(key);
    return v === undefined ? null : v;
  },
  true,
);
define('clear', 'map', (_c, a) => (arity(a, 1), map(a).clear(), null), true);
define('keys', 'map', (_c, a) => (arity(a, 1), sortedKeys(map(a))));
define('values', 'map', (_c, a) => (arity(a, 1), sortedKeys(map(a)).map((k) => deepClone(map(a).get(k) ?? null))));
define(
  'mixin',
  'map',
  (c, a) => {
    arity(a, 2);
    for (const [k, v] of asMap(a[1])) map(a).set(k, deepClone(v));
    checkMap(c, map(a));
    return null;
  },
  true,
);
define(
  'fill_with',
  'map',
  (c, a) => {
    arity(a, 2);
    for (const [k, v] of asMap(a[1])) if (!map(a).has(k)) map(a).set(k, deepClone(v));
    checkMap(c, map(a));
    return null;
  },
  true,
);
define('filter', 'map', (c, a) => {
  arity(a, 2);
  const fp = asFn(a[1]);
  const out: RMap = new Map();
  for (const k of sortedKeys(map(a))) {
    const v = map(a).get(k) ?? null;
    if (c.callFn(fp, [k, deepClone(v)]) === true) out.set(k, deepClone(v));
  }
  return out;
});
/** Moves the entries whose callback result is (drain) or is not (retain) `true` out into a new map. */
function moveOut(c: CallContext, a: Value[], removeWhenTrue: boolean): RMap {
  arity(a, 2);
  const fp = asFn(a[1]);
  const out: RMap = new Map();
  for (const k of sortedKeys(map(a))) {
    const v = map(a).get(k) ?? null;
    if ((c.callFn(fp, [k, deepClone(v)]) === true) === removeWhenTrue) {
      out.set(k, v);
      map(a).delete(k);
    }
  }
  return out;
}
define('drain', 'map', (c, a) => moveOut(c, a, true), true);
define('retain', 'map', (c, a) => moveOut(c, a, false), true);
