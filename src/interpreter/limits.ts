// Sandbox limits. Defaults follow Rhai's engine defaults where Rhai has one (call depth 64) and
// the mock server's configuration otherwise.

export interface Limits {
  readonly maxOperations: number;
  readonly maxCallDepth: number;
  /** in characters */
  readonly maxStringLength: number;
  readonly maxArrayLength: number;
  readonly maxMapSize: number;
  /** wall-clock budget; checked every 1024 operations */
  readonly timeLimitMs: number;
  /** bytes of values one run may make, counted approximately by what builtins and operators allocate */
  readonly maxMemoryBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxOperations: 10_000_000,
  maxCallDepth: 64,
  maxStringLength: 1_000_000,
  maxArrayLength: 100_000,
  maxMapSize: 10_000,
  timeLimitMs: Number.POSITIVE_INFINITY,
  maxMemoryBytes: Number.POSITIVE_INFINITY,
};

/** Bytes charged to a run between two clock reads: a builtin copying a lot reads the clock in the middle of a loop. */
export const CLOCK_BYTES = 256 * 1024;

/** Operations between two clock reads. A power of two: the check is a mask. */
export const CLOCK_INTERVAL = 1024;
