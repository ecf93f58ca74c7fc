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
 * else the larger magnitude. Rust's `max` ignores a NaN operand, so this does too.
 */
function scale(x: number, y: number): number {
  if (x * y === 0) return 1;
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (Number.isNaN(ax)) return ay;
  if (Number.isNaN(ay)) return ax;
  return ax > ay ? ax : ay;
}

export function floatEquals(x: number, y: number): boolean {
  const max = scale(x, y);
  if (max === 0) return true;
  return Math.abs(x - y) / max <= EPSILON;
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
      return floatEquals(l, r);
    case '!=': {
      const max = scale(l, r);
      return max === 0 ? false : Math.abs(l - r) / max > EPSILON;
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return floatCompare(op, l, r);
    default:
      return undefined;
  }
}

function floatCompare(op: '<' | '<=' | '>' | '>=', x: number, y: number): boolean {
  const max = scale(x, y);
  if (max === 0) return op === '<=' || op === '>=';
  switch (op) {
    case '>':
      return (x - y) / max > EPSILON;
    case '>=':
      return (x - y) / max > -EPSILON;
    case '<':
      return (y - x) / max > EPSILON;
    case '<=':
      return (y - x) / max > -EPSILON;
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
