// `--inspect[=<port>]`, `--journal-size <n>`, `--journal-max-bytes <n>` on `mock` / `mock serve`: the management
// listener's port (127.0.0.1 only: a host in the value is refused, 127.0.0.1 and localhost aside) and the journal's
// bounds, which mean nothing without it.
import { JOURNAL_LIMIT_RANGES, journalLimits, type JournalLimits } from '../journal/limits.js';
import { err, ok, type Result } from '../shared/result.js';
import { flagValue, hasFlag, parsePort, type ParsedArgs } from '../shared/args.js';
import { isIpAddress } from '../config/ip-address.js';

export interface InspectFlags {
  /** 0: the OS picks */
  readonly port: number;
  readonly journal: Partial<JournalLimits>;
  /** `--inspect-host`; absent: 127.0.0.1 */
  readonly host?: string;
  /** `--inspect-token`, else $MOCK_INSPECT_TOKEN */
  readonly token?: string;
}

/** the environment variable that gives the token when --inspect-token does not */
export const INSPECT_TOKEN_ENV = 'MOCK_INSPECT_TOKEN';

export const INSPECT_MESSAGES = {
  listening: (url: string, guarded = false) =>
    `Inspector: ${url} (${guarded ? 'bearer token required' : 'loopback only'})\n`,
  needsToken: (prefix: string, host: string) =>
    `${prefix}: --inspect-host ${host} is beyond loopback: give --inspect-token <token> (or set ${INSPECT_TOKEN_ENV}), which every management request must then carry`,
  badHost: (prefix: string, value: string) =>
    `${prefix}: invalid value for --inspect-host: '${value}' (expected an IP address, e.g. 0.0.0.0 or 127.0.0.1)`,
  emptyToken: (prefix: string) => `${prefix}: --inspect-token must not be empty`,
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

/** 127.0.0.0/8 and ::1 */
export function isLoopback(ip: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip) || ip === '::1';
}

/** undefined: no --inspect. */
export function parseInspectFlags(
  args: ParsedArgs,
  prefix: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Result<InspectFlags | undefined, string> {
  const sizeText = flagValue(args, 'journal-size');
  const bytesText = flagValue(args, 'journal-max-bytes');
  const hostText = flagValue(args, 'inspect-host');
  const tokenText = flagValue(args, 'inspect-token');
  if (!hasFlag(args, 'inspect')) {
    const stray =
      sizeText !== undefined
        ? 'journal-size'
        : bytesText !== undefined
          ? 'journal-max-bytes'
          : hostText !== undefined
            ? 'inspect-host'
            : tokenText !== undefined
              ? 'inspect-token'
              : undefined;
    return stray === undefined ? ok(undefined) : err(INSPECT_MESSAGES.needsInspect(prefix, stray));
  }
  const token = tokenText ?? (env[INSPECT_TOKEN_ENV] === '' ? undefined : env[INSPECT_TOKEN_ENV]);
  if (tokenText !== undefined && tokenText.trim() === '') return err(INSPECT_MESSAGES.emptyToken(prefix));
  let host: string | undefined;
  if (hostText !== undefined) {
    const h = hostText.startsWith('[') && hostText.endsWith(']') ? hostText.slice(1, -1) : hostText;
    if (h !== 'localhost' && !isIpAddress(h)) return err(INSPECT_MESSAGES.badHost(prefix, hostText));
    host = h === 'localhost' ? '127.0.0.1' : h;
    if (!isLoopback(host) && token === undefined) return err(INSPECT_MESSAGES.needsToken(prefix, hostText));
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
  return ok({
    port,
    journal,
    ...(host !== undefined ? { host } : {}),
    ...(token !== undefined ? { token: token.trim() } : {}),
  });
}
