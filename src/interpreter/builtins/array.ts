// Array functions (Rhai's BasicArrayPackage). Callbacks (`map`, `filter`, `reduce`…) may take an
// extra index argument when the function accepts one. Items handed out or stored are copies,
// preserving value semantics.

import { toDisplay } from '../format.js';
import { equals, ordering } from '../operators.js';
import { TempRef } from '../refs.js';
import { isValidIdentifier } from '../token.js';
import { FnPtr, RangeValue, deepClone, tagOf, typeName, type Value } from '../values.js';
import {
  arity,
  asArray,
  asFn,
  asInt,
  asRange,
  asText,
  checkArray,
  checkTextOf,
  checkString,
  define,
  fail,
  mismatch,
  offsetLen,
  type CallContext,
} from './registry.js';

const arr = (a: Value[]): Value[] => a[0] as Value[];

/** Call with (args…) or (args…, index), whichever the function takes. `args` are handed over. */
function callDual(ctx: CallContext, fp: FnPtr, args: Value[], index: number): Value {
  if (!ctx.acceptsArgs(fp, args.length) && ctx.acceptsArgs(fp, args.length + 1)) {
    return ctx.callFn(fp, [...args, BigInt(index)]);
  }
  return ctx.callFn(fp, args);
}

/** Calls a callback for the item at `at` (its index is `index`, by default `at`). */
type ItemCall = (xs: Value[], at: number, index?: number) => Value;

/**
 * How to call `fp` for each item, decided once per array function, as Rhai does: a function that
 * takes no argument sees (a copy of) the item as `this`, else it gets a copy of the item (and its
 * index when it takes two).
 */
function itemCaller(ctx: CallContext, fp: FnPtr): ItemCall {
  if (ctx.acceptsArgs(fp, 0) && !ctx.acceptsArgs(fp, 1)) {
    return (xs, at) => ctx.callFnWithThis(fp, new TempRef(deepClone(xs[at] as Value)), []);
  }
  if (!ctx.acceptsArgs(fp, 1) && ctx.acceptsArgs(fp, 2)) {
    return (xs, at, index = at) => ctx.callFn(fp, [deepClone(xs[at] as Value), BigInt(index)]);
  }
  return (xs, at) => ctx.callFn(fp, [deepClone(xs[at] as Value)]);
}

/**
 * The callback argument of the functions Rhai also lets name their callback by a string
 * (`map("double")`): a function pointer, or a string naming a function.
 */
function callback(v: Value | undefined): FnPtr {
  if (typeof v === 'string') {
    if (!isValidIdentifier(v)) fail('ErrorFunctionNotFound', `Function not found: ${v}`);
    return new FnPtr(v, [], null);
  }
  return asFn(v);
}

const truthy = (v: Value): boolean => v === true;

/** (start, count) from (start, len) arguments or a range argument at position `at`. */
function span(len: number, a: Value[], at: number, defaultCount: bigint): [number, number] {
  const spec = a[at];
  if (spec instanceof RangeValue) {
    const r = asRange(spec);
    const start = r.start < 0n ? 0n : r.start;
    const end = r.end < start ? start : r.end;
    return offsetLen(len, start, end - start + (r.inclusive ? 1n : 0n));
  }
  const count = a.length > at + 1 ? asInt(a[at + 1]) : defaultCount;
  return offsetLen(len, asInt(spec), count);
}

function position(len: number, i: bigint): number | undefined {
  const at = i < 0n ? BigInt(len) + i : i;
  return at >= 0n && at < BigInt(len) ? Number(at) : undefined;
}

define('len', 'array', (_c, a) => (arity(a, 1), BigInt(arr(a).length)));
define('is_empty', 'array', (_c, a) => (arity(a, 1), arr(a).length === 0));
define('get', 'array', (_c, a) => {
  arity(a, 2);
  const i = position(arr(a).length, asInt(a[1]));
  return i === undefined ? null : deepClone(arr(a)[i] as Value);
});
define(
  'set',
  'array',
  (_c, a) => {
    arity(a, 3);
    const i = position(arr(a).length, asInt(a[1]));
    if (i !== undefined) arr(a)[i] = deepClone(a[2] as Value);
    return null;
  },
  true,
);
define(
  'push',
  'array',
  (c, a) => (arity(a, 2), arr(a).push(deepClone(a[1] as Value)), checkArray(c, arr(a)), null),
  true,
);
define(
  'append',
  'array',
  (c, a) => {
    arity(a, 2);
    const extra = asArray(a[1]).slice();
    if (arr(a).length + extra.length > c.limits.maxArrayLength) fail('ErrorDataTooLarge', 'Size of array too large');
    for (const x of extra) arr(a).push(deepClone(x));
    checkArray(c, arr(a), extra.length);
    return null;
  },
  true,
);
define(
  'insert',
  'array',
  (c, a) => {
    arity(a, 3);
    const xs = arr(a);
    const [at] = offsetLen(xs.length, asInt(a[1]), 0n);
    xs.splice(at, 0, deepClone(a[2] as Value));
    checkArray(c, xs);
    return null;
  },
  true,
);
define(
  'pad',
  'array',
  (c, a) => {
    arity(a, 3);
    const xs = arr(a);
    const n = asInt(a[1]);
    if (n > BigInt(c.limits.maxArrayLength)) fail('ErrorDataTooLarge', 'Size of array too large');
    while (BigInt(xs.length) < n) xs.push(deepClone(a[2] as Value));
    return null;
  },
  true,
);
define('pop', 'array', (_c, a) => (arity(a, 1), arr(a).pop() ?? null), true);
define('shift', 'array', (_c, a) => (arity(a, 1), arr(a).shift() ?? null), true);
define(
  'remove',
  'array',
  (_c, a) => {
    arity(a, 2);
    const i = position(arr(a).length, asInt(a[1]));
    return i === undefined ? null : (arr(a).splice(i, 1)[0] as Value);
  },
  true,
);
define('clear', 'array', (_c, a) => (arity(a, 1), (arr(a).length = 0), null), true);
define(
  'truncate',
  'array',
  (_c, a) => {
    arity(a, 2);
    const n = asInt(a[1]);
    if (n <= 0n) arr(a).length = 0;
    else if (n < BigInt(arr(a).length)) arr(a).length = Number(n);
    return null;
  },
  true,
);
define(
  'chop',
  'array',
  (_c, a) => {
    arity(a, 2);
    const xs = arr(a);
    const n = asInt(a[1]);
    if (n <= 0n) xs.length = 0;
    else if (n < BigInt(xs.length)) xs.splice(0, xs.length - Number(n));
    return null;
  },
  true,
);
define('reverse', 'array', (_c, a) => (arity(a, 1), arr(a).reverse(), null), true);
define('extract', 'array', (_c, a) => {
  arity(a, 2, 3);
  const [st, n] = span(arr(a).length, a, 1, BigInt(Number.MAX_SAFE_INTEGER));
  return arr(a)
    .slice(st, st + n)
    .map(deepClone);
});
/** drain and retain with a callback: remove, in place, the items for which the callback's truthiness is
 * `removeWhen`, and return them in order; undefined when the arguments are a range instead */
function removeByCallback(c: CallContext, a: Value[], xs: Value[], removeWhen: boolean): Value[] | undefined {
  if (!(a[1] instanceof FnPtr || (a.length === 2 && typeof a[1] === 'string'))) return undefined;
  const call = itemCaller(c, callback(a[1]));
  const out: Value[] = [];
  for (let i = 0, x = 0; x < xs.length; i++) {
    if (truthy(call(xs, x, i)) === removeWhen) out.push(...xs.splice(x, 1));
    else x++;
  }
  return out;
}
define(
  'drain',
  'array',
  (c, a) => {
    arity(a, 2, 3);
    const xs = arr(a);
    const byCallback = removeByCallback(c, a, xs, true);
    if (byCallback !== undefined) return byCallback;
    const [st, n] = span(xs.length, a, 1, 0n);
    return xs.splice(st, n);
  },
  true,
);
define(
  'retain',
  'array',
  (c, a) => {
    arity(a, 2, 3);
    const xs = arr(a);
    const byCallback = removeByCallback(c, a, xs, false);
    if (byCallback !== undefined) return byCallback;
    const [st, n] = span(xs.length, a, 1, 0n);
    const kept = xs.slice(st, st + n);
    const removed = [...xs.slice(0, st), ...xs.slice(st + n)];
    xs.splice(0, xs.length, ...kept);
    return removed;
  },
  true,
);
define(
  'splice',
  'array',
  (c, a) => {
    arity(a, 3, 4);
    const xs = arr(a);
    const replacement = asArray(a[a.length - 1]).map(deepClone);
    const [st, n] = a.length === 3 ? span(xs.length, a, 1, 0n) : offsetLen(xs.length, asInt(a[1]), asInt(a[2]));
    xs.splice(st, n, ...replacement);
    checkArray(c, xs, replacement.length);
    return null;
  },
  true,
);
define(
  'split',
  'array',
  (_c, a) => {
    arity(a, 2);
    const xs = arr(a);
    const [st] = offsetLen(xs.length, asInt(a[1]), 0n);
    return xs.splice(st);
  },
  true,
);

define('map', 'array', (c, a) => {
  arity(a, 2);
  const call = itemCaller(c, callback(a[1]));
  const xs = arr(a);
  return xs.map((_x, i) => call(xs, i));
});
define('filter', 'array', (c, a) => {
  arity(a, 2);
  const call = itemCaller(c, callback(a[1]));
  const xs = arr(a);
  return xs.filter((_x, i) => truthy(call(xs, i))).map(deepClone);
});
define('find', 'array', (c, a) => {
  arity(a, 2);
  const call = itemCaller(c, asFn(a[1]));
  const xs = arr(a);
  const hit = xs.find((_x, i) => truthy(call(xs, i)));
  return hit === undefined ? null : deepClone(hit);
});
define('find_map', 'array', (c, a) => {
  arity(a, 2);
  const call = itemCaller(c, asFn(a[1]));
  const xs = arr(a);
  for (let i = 0; i < xs.length; i++) {
    const r = call(xs, i);
    if (r !== null) return r;
  }
  return null;
});
define('some', 'array', (c, a) => {
  arity(a, 2);
  const call = itemCaller(c, callback(a[1]));
  return arr(a).some((_x, i, xs) => truthy(call(xs, i)));
});
define('all', 'array', (c, a) => {
  arity(a, 2);
  const call = itemCaller(c, callback(a[1]));
  return arr(a).every((_x, i, xs) => truthy(call(xs, i)));
});
define('contains', 'array', (_c, a) => (arity(a, 2), arr(a).some((x) => equals(x, a[1] as Value))));
define('index_of', 'array', (c, a) => {
  arity(a, 2, 3);
  const xs = arr(a);
  const [start] = a.length === 3 ? offsetLen(xs.length, asInt(a[2]), 0n) : [0];
  let target = a[1] as Value;
  // a string names the callback when a script function of that name exists; else it is a value
  if (typeof target === 'string' && (c.hasFunction(target, 1) || c.hasFunction(target, 2))) target = callback(target);
  const call = target instanceof FnPtr ? itemCaller(c, target) : null;
  for (let i = start; i < xs.length; i++) {
    const hit = call !== null ? truthy(call(xs, i)) : equals(xs[i] as Value, target);
    if (hit) return BigInt(i);
  }
  return -1n;
});
define(
  'dedup',
  'array',
  (c, a) => {
    arity(a, 1, 2);
    const xs = arr(a);
    const fp = a.length === 2 ? callback(a[1]) : null;
    const same = (x: Value, y: Value): boolean =>
      fp !== null ? truthy(c.callFn(fp, [deepClone(x), deepClone(y)])) : equals(x, y);
    const out: Value[] = [];
    for (const x of xs) if (out.length === 0 || !same(out[out.length - 1] as Value, x)) out.push(x);
    xs.splice(0, xs.length, ...out);
    return null;
  },
  true,
);

function reduce(c: CallContext, a: Value[], reverse: boolean): Value {
  arity(a, 2, 3);
  const xs = arr(a);
  const fp = callback(a[1]);
  // a one-parameter reducer gets the accumulator and sees the item as `this`
  const withThis = c.acceptsArgs(fp, 1) && !c.acceptsArgs(fp, 2);
  let acc: Value = a.length === 3 ? deepClone(a[2] as Value) : null;
  for (let k = 0; k < xs.length; k++) {
    const i = reverse ? xs.length - 1 - k : k;
    if (withThis) acc = c.callFnWithThis(fp, new TempRef(deepClone(xs[i] as Value)), [acc]);
    else acc = callDual(c, fp, [acc, deepClone(xs[i] as Value)], i);
  }
  return acc;
}
define('reduce', 'array', (c, a) => reduce(c, a, false));
define('reduce_rev', 'array', (c, a) => reduce(c, a, true));

/** Sorts in place with a comparer: an integer (its sign) or a boolean (`true`: the first goes first). */
function sortWith(c: CallContext, xs: Value[], fp: FnPtr): void {
  xs.sort((x, y) => {
    const r = c.callFn(fp, [deepClone(x), deepClone(y)]);
    if (typeof r === 'bigint') return r > 0n ? 1 : r < 0n ? -1 : 0;
    if (typeof r === 'boolean') return r ? -1 : 1;
    return 0;
  });
}

/** Sorts in place by the natural order of one type (numbers, chars, strings, booleans, `()`). */
function sortNatural(xs: Value[], descending: boolean): void {
  if (xs.length <= 1) return;
  const tag = tagOf(xs[0] as Value);
  if (xs.some((x) => tagOf(x) !== tag))
    fail('ErrorFunctionNotFound', 'Function not found: elements of different types cannot be sorted');
  if (tag === 'unit') return;
  if (!['int', 'float', 'char', 'string', 'bool'].includes(tag))
    fail('ErrorFunctionNotFound', `Function not found: elements of ${typeName(xs[0] as Value)} cannot be sorted`);
  const sign = descending ? -1 : 1;
  xs.sort((x, y) => sign * (ordering(x, y) ?? 0));
}

// `sort` / `sort_by` / `sort_desc` sort in place; `order` / `order_by` / `order_desc` return a sorted copy
// (Rhai 1.24 added all but `sort`; `sort_by` and `order_by` are the comparer forms' other names).
function sortArray(c: CallContext, a: Value[], descending: boolean, comparerRequired: boolean): Value[] {
  const xs = arr(a);
  if (a.length === 2) sortWith(c, xs, callback(a[1]));
  else if (comparerRequired) mismatch();
  else sortNatural(xs, descending);
  return xs;
}
define('sort', 'array', (c, a) => (arity(a, 1, 2), sortArray(c, a, false, false), null), true);
define('sort_by', 'array', (c, a) => (arity(a, 2), sortArray(c, a, false, true), null), true);
define('sort_desc', 'array', (c, a) => (arity(a, 1), sortArray(c, a, true, false), null), true);
define(
  'order',
  'array',
  (c, a) => (arity(a, 1, 2), sortArray(c, [deepClone(a[0] as Value), ...a.slice(1)], false, false)),
);
define(
  'order_by',
  'array',
  (c, a) => (arity(a, 2), sortArray(c, [deepClone(a[0] as Value), ...a.slice(1)], false, true)),
);
define(
  'order_desc',
  'array',
  (c, a) => (arity(a, 1), sortArray(c, [deepClone(a[0] as Value), ...a.slice(1)], true, false)),
);

define('join', 'array', (c, a) => {
  arity(a, 1, 2);
  const sep = a.length === 2 ? asText(a[1]) : '';
  checkTextOf(c, arr(a));
  if (sep.length * arr(a).length > 2 * c.limits.maxStringLength)
    fail('ErrorDataTooLarge', 'Length of string too large');
  return checkString(c, arr(a).map(toDisplay).join(sep));
});
define('for_each', 'array', (c, a) => {
  arity(a, 2);
  const fp = asFn(a[1]);
  const xs = arr(a);
  // the item is always `this` here (and may be changed); a one-parameter closure gets the index
  const args = (i: number): Value[] => (c.acceptsArgs(fp, 0) ? [] : [BigInt(i)]);
  for (let i = 0; i < xs.length; i++) {
    const self = new TempRef(xs[i] as Value);
    c.callFnWithThis(fp, self, args(i));
    xs[i] = self.get();
  }
  return null;
});
