// Bit fields (Rhai's BitFieldPackage and the `bits` iterator): get_bit, set_bit, get_bits,
// set_bits (by start and length or by range), and `bits`, which gives the bits as an array of bools
// (what a `for` loop over Rhai's bit iterator sees). Position rules live in ../bit-field.ts.

import { bitBounds, bitPosition, bitSpan } from '../bit-field.js';
import { INT_MAX, RangeValue, type Value } from '../values.js';
import { arity, asBool, asInt, define, writeBack } from './registry.js';

/** (start, bits) from (start, bits) arguments, or from a range argument, as Rhai converts ranges. */
function startAndBits(a: Value[], at: number, rangeBits = false): [bigint, bigint] {
  const r = a[at];
  if (!(r instanceof RangeValue)) return [asInt(r), asInt(a[at + 1])];
  const from = r.start < 0n ? 0n : r.start;
  if (!r.inclusive) return [from, (r.end > from ? r.end : from) - from];
  let to = r.end > from - 1n ? r.end : from - 1n;
  if (rangeBits) to = to < INT_MAX - 1n ? to : INT_MAX - 1n;
  else if (to >= 64n) throw bitBounds(to, -1);
  return [from, to - from + 1n];
}

function getBits(value: bigint, start: bigint, bits: bigint): bigint {
  if (bits <= 0n) return 0n;
  const [bit, count] = bitSpan(start, bits);
  const mask = (1n << BigInt(count)) - 1n;
  return BigInt.asIntN(64, (BigInt.asUintN(64, value) >> BigInt(bit)) & mask);
}

function setBits(value: bigint, start: bigint, bits: bigint, v: bigint): bigint {
  if (bits <= 0n) return value;
  const [bit, count] = bitSpan(start, bits);
  const mask = ((1n << BigInt(count)) - 1n) << BigInt(bit);
  const u = BigInt.asUintN(64, value);
  return BigInt.asIntN(64, (u & ~mask & 0xffffffffffffffffn) | ((BigInt.asUintN(64, v) << BigInt(bit)) & mask));
}

define('get_bit', 'int', (_c, a) => {
  arity(a, 2);
  const bit = bitPosition(asInt(a[1]), true);
  if (bit === undefined) throw bitBounds(asInt(a[1]), -1);
  return ((BigInt.asUintN(64, a[0] as bigint) >> BigInt(bit)) & 1n) === 1n;
});
define(
  'set_bit',
  'int',
  (_c, a, self) => {
    arity(a, 3);
    const bit = bitPosition(asInt(a[1]), true);
    if (bit === undefined) throw bitBounds(asInt(a[1]), -1);
    writeBack(self, setBits(a[0] as bigint, BigInt(bit), 1n, asBool(a[2]) ? 1n : 0n));
    return null;
  },
  true,
);
define('get_bits', 'int', (_c, a) => {
  arity(a, 2, 3);
  const [start, bits] = startAndBits(a, 1);
  return getBits(a[0] as bigint, start, bits);
});
define(
  'set_bits',
  'int',
  (_c, a, self) => {
    arity(a, 3, 4);
    const [start, bits] = startAndBits(a, 1);
    writeBack(self, setBits(a[0] as bigint, start, bits, asInt(a[a.length - 1])));
    return null;
  },
  true,
);
define('bits', 'int', (_c, a) => {
  arity(a, 1, 2, 3);
  const value = a[0] as bigint;
  let start = 0n;
  let bits = INT_MAX;
  if (a[1] instanceof RangeValue) [start, bits] = startAndBits(a, 1, true);
  else if (a.length >= 2) [start, bits] = [asInt(a[1]), a.length === 3 ? asInt(a[2]) : INT_MAX];
  const [bit, count] = bitSpan(start, bits);
  const u = BigInt.asUintN(64, value);
  const out: Value[] = [];
  for (let i = 0; i < count; i++) out.push(((u >> BigInt(bit + i)) & 1n) === 1n);
  return out;
});
