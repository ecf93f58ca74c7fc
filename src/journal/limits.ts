// The journal's bounds: how many entries, how many bytes in all, how much of each body. Defaults and ranges
// live in one table; validation returns messages (the library and the CLI flags report them as usage errors).
import { err, ok, type Result } from '../shared/result.js';

export interface JournalLimits {
  /** at most this many entries (oldest evicted first) */
  readonly size: number;
  /** at most this many bytes in all, by the per-entry estimate (why included) */
  readonly maxBytes: number;
  /** each body is captured up to this many bytes */
  readonly bodyBytes: number;
}

export const JOURNAL_LIMIT_RANGES = {
  size: { min: 1, max: 100_000, default: 1_000 },
  maxBytes: { min: 64 * 1024, max: 4 * 1024 * 1024 * 1024, default: 32 * 1024 * 1024 },
  bodyBytes: { min: 0, max: 16 * 1024 * 1024, default: 64 * 1024 },
} as const satisfies Record<keyof JournalLimits, { min: number; max: number; default: number }>;

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = Object.freeze({
  size: JOURNAL_LIMIT_RANGES.size.default,
  maxBytes: JOURNAL_LIMIT_RANGES.maxBytes.default,
  bodyBytes: JOURNAL_LIMIT_RANGES.bodyBytes.default,
});

export const LIMIT_MESSAGES = {
  notInteger: (name: string, value: unknown) => `journal ${name} must be a whole number (got ${String(value)})`,
  outOfRange: (name: string, value: number, min: number, max: number) =>
    `journal ${name} must be between ${min.toLocaleString('en-US')} and ${max.toLocaleString('en-US')} (got ${value.toLocaleString('en-US')})`,
} as const;

/** The limits with defaults filled in, or every problem found (one message each). */
export function journalLimits(given: Partial<JournalLimits> = {}): Result<JournalLimits, readonly string[]> {
  const problems: string[] = [];
  const pick = (name: keyof JournalLimits): number => {
    const range = JOURNAL_LIMIT_RANGES[name];
    const v: unknown = given[name];
    if (v === undefined) return range.default;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      problems.push(LIMIT_MESSAGES.notInteger(name, v));
      return range.default;
    }
    if (v < range.min || v > range.max) problems.push(LIMIT_MESSAGES.outOfRange(name, v, range.min, range.max));
    return v;
  };
  const limits = { size: pick('size'), maxBytes: pick('maxBytes'), bodyBytes: pick('bodyBytes') };
  return problems.length > 0 ? err(problems) : ok(Object.freeze(limits));
}
