// The date operators `before`, `after` and `equal_date_time` (docs/matching.md#dates): the expected moment as
// written in a rule (an ISO 8601 date-time or date, or `now`, each with an optional offset such as `+3 days`),
// read once at load, and the request's value read per request (ISO 8601, an HTTP date, or the `format` given).
// Both sides may be truncated (`first day of month`, …). Every moment is milliseconds since the epoch, UTC.

const UNIT_MS: Readonly<Record<string, number>> = {
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};

export interface DateOffset {
  readonly amount: number;
  /** millisecond … week, month, year (singular) */
  readonly unit: string;
}

/** The expected moment of a date condition, as read at load. */
export interface ExpectedDate {
  /** `now` (read per request), else a fixed moment */
  readonly base: 'now' | number;
  readonly offset?: DateOffset;
  readonly truncateExpected?: Truncation;
  readonly truncateActual?: Truncation;
  /** how the request writes its value (`yyyy-MM-dd`, `unix`, `epoch`); default ISO 8601 or an HTTP date */
  readonly format?: string;
}

export const TRUNCATIONS = [
  'first minute of hour',
  'first hour of day',
  'first day of month',
  'first day of next month',
  'last day of month',
  'first day of year',
  'first day of next year',
  'last day of year',
] as const;
export type Truncation = (typeof TRUNCATIONS)[number];
export const isTruncation = (s: string): s is Truncation => (TRUNCATIONS as readonly string[]).includes(s);

const OFFSET = /^([+-]?\d+)\s*(millisecond|second|minute|hour|day|week|month|year)s?$/i;

/** `+3 days`, `-1 hours` */
export function parseOffset(text: string): DateOffset | undefined {
  const m = OFFSET.exec(text.trim());
  if (m === null) return undefined;
  return { amount: Number(m[1]), unit: m[2]!.toLowerCase() };
}

/** `now`, `now +3 days`, `2021-06-14T12:13:14Z`, `2021-06-14 -1 days`; undefined when it is none of these. */
export function parseExpected(value: string): { base: 'now' | number; offset?: DateOffset } | undefined {
  const text = value.trim();
  const m = /^(\S+)(?:\s+(.+))?$/.exec(text);
  if (m === null) return undefined;
  const base = m[1]!.toLowerCase() === 'now' ? 'now' : parseIsoDate(m[1]!);
  if (base === undefined) return undefined;
  if (m[2] === undefined) return { base };
  const offset = parseOffset(m[2]);
  return offset === undefined ? undefined : { base, offset };
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?(?:\[[^\]]+\])?$/i;

/** An ISO 8601 date-time or date (no zone: UTC) as milliseconds since the epoch. */
export function parseIsoDate(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  if (frac !== undefined) ms += Math.floor(Number(`0.${frac}`) * 1000);
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const minutes = Number(z[2]) * 60 + Number(z[3] ?? 0);
    ms -= (z[1] === '-' ? -1 : 1) * minutes * 60_000;
  }
  return Number.isNaN(ms) ? undefined : ms;
}

/** `Tue, 15 Nov 1994 08:12:31 GMT` */
const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const FORMAT_PARTS: readonly (readonly [string, string, number])[] = [
  ['yyyy', '(\\d{4})', 0],
  ['MM', '(\\d{2})', 1],
  ['dd', '(\\d{2})', 2],
  ['HH', '(\\d{2})', 3],
  ['mm', '(\\d{2})', 4],
  ['ss', '(\\d{2})', 5],
  ['SSS', '(\\d{3})', 6],
];

/** a Java-style pattern of yyyy, MM, dd, HH, mm, ss and SSS (other letters and text literal, '…' quoted) */
function parseWithFormat(text: string, format: string): number | undefined {
  let re = '^';
  const order: number[] = [];
  for (let i = 0; i < format.length; ) {
    const part = FORMAT_PARTS.find(([p]) => format.startsWith(p, i));
    if (part !== undefined) {
      re += part[1];
      order.push(part[2]);
      i += part[0].length;
    } else if (format[i] === "'") {
      const end = format.indexOf("'", i + 1);
      const lit = format.slice(i + 1, end < 0 ? undefined : end);
      re += lit.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
      i = end < 0 ? format.length : end + 1;
    } else {
      re += format[i]!.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
      i++;
    }
  }
  const m = new RegExp(re + '$').exec(text.trim());
  if (m === null) return undefined;
  const f = [1970, 1, 1, 0, 0, 0, 0];
  order.forEach((slot, k) => (f[slot] = Number(m[k + 1])));
  return Date.UTC(f[0]!, f[1]! - 1, f[2], f[3], f[4], f[5], f[6]);
}

/** The request's value as a moment; undefined when it is not a date in the expected format. */
export function parseActual(text: string, format: string | undefined): number | undefined {
  if (format === 'unix') return /^-?\d+$/.test(text.trim()) ? Number(text) * 1000 : undefined;
  if (format === 'epoch') return /^-?\d+$/.test(text.trim()) ? Number(text) : undefined;
  if (format !== undefined) return parseWithFormat(text, format);
  const iso = parseIsoDate(text);
  if (iso !== undefined) return iso;
  if (HTTP_DATE.test(text.trim())) return Date.parse(text);
  return undefined;
}

export function addOffset(ms: number, o: DateOffset): number {
  const perUnit = UNIT_MS[o.unit];
  if (perUnit !== undefined) return ms + o.amount * perUnit;
  const d = new Date(ms);
  if (o.unit === 'month') d.setUTCMonth(d.getUTCMonth() + o.amount);
  else d.setUTCFullYear(d.getUTCFullYear() + o.amount);
  return d.getTime();
}

export function truncate(ms: number, t: Truncation): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  switch (t) {
    case 'first minute of hour':
      return Date.UTC(y, mo, d.getUTCDate(), d.getUTCHours());
    case 'first hour of day':
      return Date.UTC(y, mo, d.getUTCDate());
    case 'first day of month':
      return Date.UTC(y, mo, 1);
    case 'first day of next month':
      return Date.UTC(y, mo + 1, 1);
    case 'last day of month':
      return Date.UTC(y, mo + 1, 0);
    case 'first day of year':
      return Date.UTC(y, 0, 1);
    case 'first day of next year':
      return Date.UTC(y + 1, 0, 1);
    case 'last day of year':
      return Date.UTC(y, 11, 31);
  }
}

/** `before`, `after` or `equal_date_time` on the request's text. */
export function dateHolds(op: string, actualText: string, e: ExpectedDate, now: number): boolean {
  let actual = parseActual(actualText, e.format);
  if (actual === undefined) return false;
  let expected = e.base === 'now' ? now : e.base;
  // a written moment is taken as written: only `now` is rounded (then the offset added), as WireMock does
  if (e.truncateExpected !== undefined && e.base === 'now') expected = truncate(expected, e.truncateExpected);
  if (e.offset !== undefined) expected = addOffset(expected, e.offset);
  if (e.truncateActual !== undefined) actual = truncate(actual, e.truncateActual);
  if (op === 'before') return actual < expected;
  if (op === 'after') return actual > expected;
  return actual === expected;
}

export const DATE_OPS: ReadonlySet<string> = new Set(['before', 'after', 'equal_date_time']);
