// Built-in properties of non-map values that need no builtin call: `len`, `bytes` and `is_empty`
// of strings and arrays, `name`/`is_anonymous` of function pointers, the bounds of ranges. Other
// getters (`n.is_odd`, `t.elapsed`...) are builtins listed in builtins/registry.ts's GETTERS.

import { FnPtr, RangeValue, charLength, type Value } from './values.js';

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The property's value, or undefined when the value has no such built-in property. */
export function getter(obj: Value, name: string): Value | undefined {
  if (typeof obj === 'string') {
    if (name === 'len') return BigInt(charLength(obj));
    if (name === 'bytes') return BigInt(utf8Length(obj));
    if (name === 'is_empty') return obj.length === 0;
  } else if (Array.isArray(obj)) {
    if (name === 'len') return BigInt(obj.length);
    if (name === 'is_empty') return obj.length === 0;
  } else if (obj instanceof FnPtr) {
    if (name === 'name') return obj.name;
    if (name === 'is_anonymous') return obj.closure !== null;
  } else if (obj instanceof RangeValue) {
    if (name === 'start') return obj.start;
    if (name === 'end') return obj.end;
    if (name === 'is_inclusive') return obj.inclusive;
    if (name === 'is_exclusive') return !obj.inclusive;
    if (name === 'is_empty') return obj.inclusive ? obj.start > obj.end : obj.start >= obj.end;
  }
  return undefined;
}
