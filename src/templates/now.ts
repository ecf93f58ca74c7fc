// The `now` helper's date arithmetic and formatting: WireMock's `offset='3 days'`, `format='yyyy-MM-dd'` (Java
// date-pattern letters; `epoch` and `unix` for numbers) and `timezone='Europe/Paris'`, with Mockoon's
// `{{now 'YYYY-MM-DD'}}` (its `YYYY`/`DD` read as year and day of month). Without a format: ISO 8601 in UTC.

const UNIT_MS: Readonly<Record<string, number>> = {
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/** `'3 days'`, `'-1 hours'`, `'2 months'` → the date moved by it; an offset it cannot read is an error. */
export function applyOffset(date: Date, offset: string): Date {
  const m = /^\s*([+-]?\d+)\s*([a-zA-Z]+?)s?\s*$/.exec(offset);
  if (m === null)
    throw new Error(
      `now: offset ${JSON.stringify(offset)} is not "<number> <unit>" (seconds, minutes, hours, days, weeks, months, years)`,
    );
  const n = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  const out = new Date(date.getTime());
  if (unit === 'month') out.setUTCMonth(out.getUTCMonth() + n);
  else if (unit === 'year') out.setUTCFullYear(out.getUTCFullYear() + n);
  else if (UNIT_MS[unit] !== undefined) out.setTime(out.getTime() + n * UNIT_MS[unit]);
  else throw new Error(`now: unknown offset unit ${JSON.stringify(m[2])}`);
  return out;
}

interface Parts {
  y: number;
  M: number;
  d: number;
  H: number;
  m: number;
  s: number;
  S: number;
  offsetMin: number;
}

function partsIn(date: Date, timezone: string | undefined): Parts {
  if (timezone === undefined || timezone === 'UTC' || timezone === 'Z') {
    return {
      y: date.getUTCFullYear(),
      M: date.getUTCMonth() + 1,
      d: date.getUTCDate(),
      H: date.getUTCHours(),
      m: date.getUTCMinutes(),
      s: date.getUTCSeconds(),
      S: date.getUTCMilliseconds(),
      offsetMin: 0,
    };
  }
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new Error(`now: unknown timezone ${JSON.stringify(timezone)}`);
  }
  const p: Record<string, number> = {};
  for (const part of fmt.formatToParts(date)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p['year']!, p['month']! - 1, p['day'], p['hour'], p['minute'], p['second']);
  const offsetMin = Math.round((local - (date.getTime() - date.getUTCMilliseconds())) / 60_000);
  return {
    y: p['year']!,
    M: p['month']!,
    d: p['day']!,
    H: p['hour']!,
    m: p['minute']!,
    s: p['second']!,
    S: date.getUTCMilliseconds(),
    offsetMin,
  };
}

const pad = (n: number, w: number): string => String(Math.abs(n)).padStart(w, '0');
const zone = (min: number, colon: boolean): string =>
  min === 0 && colon
    ? 'Z'
    : (min < 0 ? '-' : '+') + pad(Math.trunc(Math.abs(min) / 60), 2) + (colon ? ':' : '') + pad(Math.abs(min) % 60, 2);

/** Java/date-fns pattern letters; text in single quotes is literal (`''` is a quote). */
export function formatDate(date: Date, format: string | undefined, timezone: string | undefined): string {
  if (format === 'epoch') return String(date.getTime());
  if (format === 'unix') return String(Math.floor(date.getTime() / 1000));
  const p = partsIn(date, timezone);
  if (format === undefined || format === '') {
    return `${pad(p.y, 4)}-${pad(p.M, 2)}-${pad(p.d, 2)}T${pad(p.H, 2)}:${pad(p.m, 2)}:${pad(p.s, 2)}${zone(p.offsetMin, true)}`;
  }
  return format.replace(/'([^']*)'|y+|Y+|M+|d+|D+|H+|h+|m+|s+|S+|a|X+|Z+/g, (tok, quoted: string | undefined) => {
    if (quoted !== undefined) return quoted === '' ? "'" : quoted;
    const c = tok[0]!;
    const w = tok.length;
    switch (c) {
      case 'y':
      case 'Y':
        return w === 2 ? pad(p.y % 100, 2) : pad(p.y, w);
      case 'M':
        return w >= 3 ? MONTHS[p.M - 1]!.slice(0, w === 3 ? 3 : undefined) : pad(p.M, w);
      case 'd':
      case 'D':
        return pad(p.d, w);
      case 'H':
        return pad(p.H, w);
      case 'h':
        return pad(p.H % 12 === 0 ? 12 : p.H % 12, w);
      case 'm':
        return pad(p.m, w);
      case 's':
        return pad(p.s, w);
      case 'S':
        return pad(p.S, 3).slice(0, w);
      case 'a':
        return p.H < 12 ? 'AM' : 'PM';
      case 'X':
        return zone(p.offsetMin, w >= 3);
      default:
        return zone(p.offsetMin, false);
    }
  });
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
