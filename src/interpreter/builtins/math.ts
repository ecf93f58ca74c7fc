// Numbers: abs, sign, min/max, rounding (floats), sqrt/exp/ln/log and trigonometry, the parity
// checks, PI and E, and radix formatting (to_hex, to_octal, to_binary).

import { INT_MIN, type Value } from '../values.js';
import { arity, asFloat, asInt, asNumber, define, fail } from './registry.js';

define('abs', 'int', (_c, a) => {
  arity(a, 1);
  const x = a[0] as bigint;
  if (x === INT_MIN) fail('ErrorArithmetic', `Negation overflow: -${x}`);
  return x < 0n ? -x : x;
});
define('abs', 'float', (_c, a) => (arity(a, 1), Math.abs(a[0] as number)));
define('sign', 'int', (_c, a) => {
  arity(a, 1);
  const x = a[0] as bigint;
  return x > 0n ? 1n : x < 0n ? -1n : 0n;
});
define('sign', 'float', (_c, a) => {
  arity(a, 1);
  const x = a[0] as number;
  if (Number.isNaN(x)) fail('ErrorArithmetic', 'Sign of NaN is undefined');
  return x > 0 ? 1n : x < 0 ? -1n : 0n;
});

function minMax(a: Value[], max: boolean): Value {
  arity(a, 2);
  const [x, y] = [a[0] as Value, a[1] as Value];
  if (typeof x === 'bigint' && typeof y === 'bigint') return max === x >= y ? x : y;
  const fx = asNumber(x);
  const fy = asNumber(y);
  return max === fx >= fy ? fx : fy;
}
define('max', ['int', 'float'], (_c, a) => minMax(a, true));
define('min', ['int', 'float'], (_c, a) => minMax(a, false));

const float1 =
  (f: (x: number) => number) =>
  (_c: unknown, a: Value[]): Value => (arity(a, 1), f(asFloat(a[0])));
const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

define('floor', 'float', float1(Math.floor));
define('ceiling', 'float', float1(Math.ceil));
define('round', 'float', float1(roundHalfAway));
define('int', 'float', float1(Math.trunc));
define(
  'fraction',
  'float',
  float1((x) => x - Math.trunc(x)),
);
define('sqrt', ['float', 'int'], (_c, a) => (arity(a, 1), Math.sqrt(asNumber(a[0]))));
define('exp', ['float', 'int'], (_c, a) => (arity(a, 1), Math.exp(asNumber(a[0]))));
define('ln', ['float', 'int'], (_c, a) => (arity(a, 1), Math.log(asNumber(a[0]))));
define('log', ['float', 'int'], (_c, a) => {
  arity(a, 1, 2);
  const x = asNumber(a[0]);
  return a.length === 1 ? Math.log10(x) : Math.log(x) / Math.log(asNumber(a[1]));
});
for (const name of ['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh'] as const) {
  define(name, ['float', 'int'], (_c, a) => (arity(a, 1), Math[name](asNumber(a[0]))));
}
define('PI', 'none', (_c, a) => (arity(a, 0), Math.PI));
define('E', 'none', (_c, a) => (arity(a, 0), Math.E));
define('is_nan', 'float', (_c, a) => (arity(a, 1), Number.isNaN(a[0])));
define('is_finite', 'float', (_c, a) => (arity(a, 1), Number.isFinite(a[0])));
define('is_infinite', 'float', (_c, a) => (arity(a, 1), a[0] === Infinity || a[0] === -Infinity));
define('is_odd', 'int', (_c, a) => (arity(a, 1), (a[0] as bigint) % 2n !== 0n));
define('is_even', 'int', (_c, a) => (arity(a, 1), (a[0] as bigint) % 2n === 0n));
define('is_zero', ['int', 'float'], (_c, a) => (arity(a, 1), Number(a[0]) === 0));

for (const [name, radix] of [
  ['to_hex', 16],
  ['to_octal', 8],
  ['to_binary', 2],
] as const) {
  define(name, 'int', (_c, a) => (arity(a, 1), BigInt.asUintN(64, asInt(a[0])).toString(radix)));
}
