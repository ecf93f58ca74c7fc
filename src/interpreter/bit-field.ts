// Integers as 64-bit fields, as Rhai's BitFieldPackage and indexers have them: `n[a..b]` and
// `n[a..=b]` read and write a run of bits (negative positions count from the top), and the shared
// position rules of get_bits/set_bits/bits. Bit arithmetic is done on the unsigned 64-bit pattern.

import { RuntimeFault } from './errors.js';
import { INT_MAX, type RangeValue } from './values.js';

const BITS = 64;

export function bitBounds(idx: bigint, offset: number): RuntimeFault {
  return new RuntimeFault(
    'ErrorBitFieldBounds',
    `Bit-field index ${idx} out of bounds: only 64 bits in bit-field`,
    offset,
  );
}

/** Rhai's calc_index over the 64 bits: negative counts from the top when `fromEnd`; undefined when outside. */
export function bitPosition(idx: bigint, fromEnd: boolean): number | undefined {
  if (idx < 0n) return fromEnd && -idx <= BigInt(BITS) ? BITS + Number(idx) : undefined;
  return idx < BigInt(BITS) ? Number(idx) : undefined;
}

/** [shift, mask] of `n[range]`; a mask of -1 is every bit. */
function fieldOf(r: RangeValue, offset: number): [bigint, bigint] {
  const start = bitPosition(r.start, false);
  if (start === undefined) throw bitBounds(r.start, offset);
  const rawEnd = r.end === INT_MAX ? BigInt(r.inclusive ? BITS - 1 : BITS) : r.end;
  let end = bitPosition(rawEnd, false);
  if (end === undefined) {
    if (r.inclusive || rawEnd !== BigInt(BITS)) throw bitBounds(rawEnd, offset);
    end = BITS;
  }
  const last = r.inclusive ? end : end - 1;
  if (last < start) return [0n, 0n];
  const width = BigInt(last - start + 1);
  return [BigInt(start), ((1n << width) - 1n) << BigInt(start)];
}

export function readBits(n: bigint, r: RangeValue, offset: number): bigint {
  const [shift, mask] = fieldOf(r, offset);
  return BigInt.asIntN(64, (BigInt.asUintN(64, n) & mask) >> shift);
}

export function writeBits(n: bigint, r: RangeValue, v: bigint, offset: number): bigint {
  const [shift, mask] = fieldOf(r, offset);
  const u = BigInt.asUintN(64, n);
  return BigInt.asIntN(64, (u & ~mask & 0xffffffffffffffffn) | ((BigInt.asUintN(64, v) << shift) & mask));
}

/** (first bit, number of bits) for get_bits/set_bits/bits(value, start, bits). */
export function bitSpan(start: bigint, bits: bigint): [number, number] {
  const bit = bitPosition(start, true);
  if (bit === undefined) throw bitBounds(start, -1);
  const count = bits < 0n ? 0 : bits > BigInt(BITS - bit) ? BITS - bit : Number(bits);
  return [bit, count];
}
