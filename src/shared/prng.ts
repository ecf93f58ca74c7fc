// A small seeded PRNG (xorshift64). Pure: a fresh generator per call makes a seeded pick a function of its inputs.

const MASK = (1n << 64n) - 1n;
const ZERO_SEED_REPLACEMENT = 0xdeadbeefcafebaben;

export interface Prng {
  /** next 64-bit value */
  next(): bigint;
  /** an integer in [0, bound) */
  below(bound: number): number;
}

export function xorshift64(seed: bigint | number): Prng {
  let x = BigInt.asUintN(64, BigInt(seed));
  if (x === 0n) x = ZERO_SEED_REPLACEMENT;
  const next = (): bigint => {
    x ^= (x << 13n) & MASK;
    x ^= x >> 7n;
    x ^= (x << 17n) & MASK;
    return x;
  };
  return {
    next,
    below(bound: number): number {
      if (bound <= 0) return 0;
      return Number(next() % BigInt(bound));
    },
  };
}

/**
 * A float generator in [0, 1) over xorshift64 (53 bits per draw), for the workspace's one generator: seeded, it gives
 * the same sequence on every run.
 */
export function seededFloats(seed: bigint | number): () => number {
  const g = xorshift64(BigInt(seed) ^ 0x9e3779b97f4a7c15n);
  return () => Number(g.next() >> 11n) / 2 ** 53;
}
