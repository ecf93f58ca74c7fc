// What a run has made so far, for its memory budget. Builtins and operators that allocate or copy report the bytes
// they add (approximately: one byte per string unit, a few words per array item or map entry); the running Machine
// counts them against its budget and reads the clock once enough work has been done between two operations, so the
// time limit also holds inside a builtin that copies a lot. Runs are synchronous, so one module-level meter (the
// innermost run) is enough; outside a run nothing is counted.

export interface Meter {
  charge(bytes: number): void;
}

let active: Meter | null = null;

/** Make `m` the meter builtins report to; returns the previous one, to restore. */
export function useMeter(m: Meter | null): Meter | null {
  const prev = active;
  active = m;
  return prev;
}

/** Report `bytes` made by the running script. */
export function charge(bytes: number): void {
  if (active !== null && bytes > 0) active.charge(bytes);
}

/** the approximate size of one array item or map entry beyond its contents */
export const SLOT_BYTES = 16;
