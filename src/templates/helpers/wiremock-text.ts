// How WireMock's templates render values, for the `wiremock` dialect's helpers and wrappers: Java's toString of a
// list (`[1, 2]`) and a map (`{a=1}`), a marked value (a path, a multi-value) as it reads alone, Jackson's pretty
// JSON, an indented XML document, a date truncated to the first minute, hour, day of a month or a year.
import { formatDate } from '../now.js';
import { WM_TEXT, type Marked } from '../wiremock-data.js';

/** a marked value as WireMock shows it, or the value itself */
export function plain(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && WM_TEXT in v && Array.isArray(v)) return (v as unknown[])[0];
  return v;
}

/** How a value reads in WireMock's output: Java's toString of a list (`[1, 2]`) and a map (`{a=1}`). */
export function wireText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return formatDate(v, undefined, undefined);
  if (typeof v === 'object' && WM_TEXT in v) return (v as Marked)[WM_TEXT] ?? '';
  if (Array.isArray(v)) return `[${v.map(wireText).join(', ')}]`;
  if (typeof v === 'object') {
    if (typeof (v as { toHTML?: unknown }).toHTML === 'function') return (v as { toHTML(): string }).toHTML();
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}=${wireText(x)}`)
      .join(', ')}}`;
  }
  // a symbol or a function: nothing a request holds
  return '';
}

/** JSON as Jackson's default pretty printer writes it (`"a" : 1`, `[ 1, 2 ]`, two-space objects) */
export function jacksonJson(v: unknown, indent = ''): string {
  v = jsonable(v);
  if (Array.isArray(v)) return v.length === 0 ? '[ ]' : `[ ${v.map((x) => jacksonJson(x, indent)).join(', ')} ]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return '{ }';
    const inner = `${indent}  `;
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)} : ${jacksonJson(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** a multi-value of one value is that value; of more, the list */
export function jsonable(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && WM_TEXT in v && Array.isArray(v)) return v.length === 1 ? v[0] : [...v];
  return v;
}

export function formatXml(xml: string): string {
  const tokens = xml.replace(/>\s+</g, '><').match(/<[^>]+>|[^<]+/g) ?? [];
  let depth = 0;
  const lines: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startsWith('</')) {
      depth--;
      lines.push(`${'  '.repeat(depth)}${t}`);
    } else if (t.startsWith('<') && !t.endsWith('/>') && !t.startsWith('<?')) {
      const text = tokens[i + 1];
      const close = tokens[i + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</') === true) {
        lines.push(`${'  '.repeat(depth)}${t}${text}${close}`);
        i += 2;
      } else lines.push(`${'  '.repeat(depth++)}${t}`);
    } else lines.push(`${'  '.repeat(depth)}${t}`);
  }
  return lines.join('\n') + '\n';
}

export function truncate(d: Date, how: string): Date {
  const x = new Date(d.getTime());
  switch (how) {
    case 'first minute of hour':
      x.setUTCMinutes(0, 0, 0);
      return x;
    case 'first hour of day':
      x.setUTCHours(0, 0, 0, 0);
      return x;
    case 'first day of month':
      x.setUTCDate(1);
      x.setUTCHours(0, 0, 0, 0);
      return x;
    case 'first day of year':
      x.setUTCMonth(0, 1);
      x.setUTCHours(0, 0, 0, 0);
      return x;
    default:
      throw new Error(`truncateDate: unknown truncation ${JSON.stringify(how)}`);
  }
}
