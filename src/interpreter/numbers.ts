// Number semantics that differ from JavaScript's: Rhai's float operators, whose comparisons treat
// values within a relative epsilon as equal (`0.1 + 0.2 == 0.3`, `1.0e-16 == 0`), and i64 shifts,
// where a shift by the width or more gives 0 (or the sign for `>>`) instead of wrapping, and a
// negative count shifts the other way.

import { INT_MAX, type Value } from './values.js';
import type { BinaryOp } from './token.js';

/** f64::EPSILON */
const EPSILON = Number.EPSILON;
const U32_MAX = 4294967295n;

/**
 * The scale Rhai divides a difference by: 1 when either side is zero (an absolute comparison),
 * else the larger magnitude. (Rhai also answers for a zero scale, which cannot occur: with a NaN
 * operand every comparison is false either way, and Rust's NaN-ignoring `max` changes nothing.)
 */
function scale(x: number, y: number): number {
  return x * y === 0 ? 1 : Math.max(Math.abs(x), Math.abs(y));
}

export function floatEquals(x: number, y: number): boolean {
  return Math.abs(x - y) / scale(x, y) <= EPSILON;
}

type FloatOp = Exclude<BinaryOp, '&&' | '||' | '??'>;

/** `l op r` for two numbers (ints already converted); undefined for operators floats lack. */
export function floatOp(op: FloatOp, l: number, r: number): Value | undefined {
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return l / r;
    case '%':
      return l % r;
    case '**':
      return Math.pow(l, r);
    case '==':
      return Math.abs(l - r) / scale(l, r) <= EPSILON;
    case '!=':
      return Math.abs(l - r) / scale(l, r) > EPSILON;
    case '>':
      return (l - r) / scale(l, r) > EPSILON;
    case '>=':
      return (l - r) / scale(l, r) > -EPSILON;
    case '<':
      return (r - l) / scale(l, r) > EPSILON;
    case '<=':
      return (r - l) / scale(l, r) > -EPSILON;
    default:
      return undefined;
  }
}

export function shiftLeft(x: bigint, y: bigint): bigint {
  if (y > U32_MAX) return 0n;
  if (y < 0n) return shiftRight(x, y === -(INT_MAX + 1n) ? INT_MAX : -y);
  if (y >= 64n) return 0n;
  return BigInt.asIntN(64, x << y);
}

export function shiftRight(x: bigint, y: bigint): bigint {
  if (y > U32_MAX) return x >> 63n;
  if (y < 0n) return shiftLeft(x, y === -(INT_MAX + 1n) ? INT_MAX : -y);
  if (y >= 64n) return x >> 63n;
  return x >> y;
}
