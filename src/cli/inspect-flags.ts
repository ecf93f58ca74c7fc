// `--inspect[=<port>]`, `--journal-size <n>`, `--journal-max-bytes <n>` on `mock` / `mock serve`: the management
// listener's port (127.0.0.1 only: a host in the value is refused, 127.0.0.1 and localhost aside) and the journal's
// bounds, which mean nothing without it.
import { JOURNAL_LIMIT_RANGES, journalLimits, type JournalLimits } from '../journal/limits.js';
import { err, ok, type Result } from '../shared/result.js';
import { flagValue, hasFlag, parsePort, type ParsedArgs } from '../shared/args.js';

export interface InspectFlags {
  /** 0: the OS picks */
  readonly port: number;
  readonly journal: Partial<JournalLimits>;
}

export const INSPECT_MESSAGES = {
  listening: (url: string) => `Inspector: ${url} (loopback only)\n`,
  loopbackOnly: (prefix: string, value: string) =>
    `${prefix}: invalid value for --inspect: '${value}' (the inspector listens on 127.0.0.1 only: give a port, e.g. --inspect=4000)`,
  badPort: (prefix: string, value: string) =>
    `${prefix}: invalid value for --inspect: '${value}' (expected a port 0..65535)`,
  needsInspect: (prefix: string, flag: string) =>
    `${prefix}: --${flag} goes with --inspect (the journal is kept only for the inspector)`,
  badNumber: (prefix: string, flag: string, value: string, min: number, max: number) =>
    `${prefix}: invalid value for --${flag}: '${value}' (expected a whole number from ${min} to ${max})`,
} as const;

const LOOPBACK = /^(?:127\.0\.0\.1|localhost):(\d{1,5})$/;

/** undefined: no --inspect. */
export function parseInspectFlags(args: ParsedArgs, prefix: string): Result<InspectFlags | undefined, string> {
  const sizeText = flagValue(args, 'journal-size');
  const bytesText = flagValue(args, 'journal-max-bytes');
  if (!hasFlag(args, 'inspect')) {
    const stray = sizeText !== undefined ? 'journal-size' : bytesText !== undefined ? 'journal-max-bytes' : undefined;
    return stray === undefined ? ok(undefined) : err(INSPECT_MESSAGES.needsInspect(prefix, stray));
  }
  const value = flagValue(args, 'inspect') ?? '';
  let port = 0;
  if (value !== '') {
    const local = LOOPBACK.exec(value);
    const parsed = parsePort(local?.[1] ?? value);
    if (parsed === undefined)
      return err(
        value.includes(':') ? INSPECT_MESSAGES.loopbackOnly(prefix, value) : INSPECT_MESSAGES.badPort(prefix, value),
      );
    port = parsed;
  }
  const journal: { size?: number; maxBytes?: number } = {};
  const whole = (flag: string, text: string, range: { min: number; max: number }): Result<number, string> => {
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(n) && n >= range.min && n <= range.max
      ? ok(n)
      : err(INSPECT_MESSAGES.badNumber(prefix, flag, text, range.min, range.max));
  };
  if (sizeText !== undefined) {
    const n = whole('journal-size', sizeText, JOURNAL_LIMIT_RANGES.size);
    if (!n.ok) return n;
    journal.size = n.value;
  }
  if (bytesText !== undefined) {
    const n = whole('journal-max-bytes', bytesText, JOURNAL_LIMIT_RANGES.maxBytes);
    if (!n.ok) return n;
    journal.maxBytes = n.value;
  }
  const checked = journalLimits(journal);
  if (!checked.ok) return err(`${prefix}: ${checked.error.join('; ')}`);
  return ok({ port, journal });
}
