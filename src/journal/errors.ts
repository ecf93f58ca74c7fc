// The journal's errors, each with a stable `code`: a `since` cursor whose successors were evicted (a silently
// partial answer would make a verification lie), and a wait that timed out (listing what did arrive).
import type { Entry } from './entry.js';
import { describeFilter, entryLine, type RequestFilter } from './filter.js';

export const JOURNAL_ERROR_CODES = ['journal_overflow', 'journal_timeout', 'journal_closed'] as const;
export type JournalErrorCode = (typeof JOURNAL_ERROR_CODES)[number];

/** how many of the newest entries a timeout message lists */
export const TIMEOUT_LISTED = 10;

export const JOURNAL_MESSAGES = {
  overflow: (dropped: number, exact: boolean, since: string, size: number) =>
    `${exact ? '' : 'at least '}${dropped} journal ${dropped === 1 ? 'entry' : 'entries'} after ${since} ` +
    `${dropped === 1 ? 'was' : 'were'} evicted before they were read (the journal keeps ${size}): raise the journal size ` +
    `(or maxBytes), or read more often`,
  timeout: (filter: string, timeoutMs: number, lines: readonly string[], total: number) =>
    `no request matching ${filter} arrived within ${timeoutMs} ms; ` +
    (lines.length === 0
      ? 'the journal is empty'
      : `the last ${lines.length} of ${total} ${total === 1 ? 'entry' : 'entries'}:\n` +
        lines.map((l) => `  ${l}`).join('\n')),
  closed: (filter: string) => `stopped waiting for a request matching ${filter}: the mock was closed`,
  badFilter: (problems: readonly string[]) => `invalid journal filter: ${problems.join('; ')}`,
} as const;

export class JournalOverflowError extends Error {
  readonly code = 'journal_overflow' as const;
  constructor(
    /** entries after the cursor that were evicted (a lower bound when `exact` is false) */
    readonly dropped: number,
    readonly exact: boolean,
    /** the cursor: an id, or a Date */
    readonly since: number | Date,
    /** the journal's size (entries) */
    readonly size: number,
  ) {
    super(JOURNAL_MESSAGES.overflow(dropped, exact, since instanceof Date ? since.toISOString() : `id ${since}`, size));
    this.name = 'JournalOverflowError';
  }
}

export class JournalTimeoutError extends Error {
  readonly code = 'journal_timeout' as const;
  constructor(
    readonly filter: RequestFilter,
    readonly timeoutMs: number,
    /** the newest entries (at most TIMEOUT_LISTED), oldest first */
    readonly recent: readonly Entry[],
    total: number,
  ) {
    super(JOURNAL_MESSAGES.timeout(describeFilter(filter), timeoutMs, recent.map(entryLine), total));
    this.name = 'JournalTimeoutError';
  }
}

export class JournalClosedError extends Error {
  readonly code = 'journal_closed' as const;
  constructor(readonly filter: RequestFilter) {
    super(JOURNAL_MESSAGES.closed(describeFilter(filter)));
    this.name = 'JournalClosedError';
  }
}
