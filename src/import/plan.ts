// The neutral form every imported format decodes to (a WireMock mapping, a HAR entry, …): rules with their
// conditions and answers, and each part of the source that could not be expressed, with its place and reason.
// `planSource` turns it into the files the OpenAPI import writes too (one rule set, or one per group of rules
// with a strategy of their own and one for the rules around them; response files under responses/), so both go
// through the same checks and the same atomic write (cli/commands/init-openapi.ts).
// Names already taken (`taken`) or used earlier in the same import get `-2`, `-3`, …, so nothing is overwritten.
// Left out: decoding a format (wiremock.ts, …), reading and writing files (the CLI does those).
import type { Method } from '../model/operators.js';
import { safeName } from '../openapi/paths.js';
import { callbacksLine, tomlKey, tomlLiteral, tomlString, type CallbackText } from '../openapi/render.js';
import { parseTemplate } from '../config/path-template.js';
import { compileRustRegex } from '../shared/rust-regex.js';
import { sha256Hex } from '../shared/sha256.js';
import { FEATURES } from './features.js';
import type { ImportFormat } from './formats.js';

export type { ImportFormat };

export const FORMAT_NAMES: Readonly<Record<ImportFormat, string>> = {
  openapi: 'OpenAPI 3.x',
  swagger: 'Swagger 2.0',
  har: 'HAR 1.2',
  wiremock: 'WireMock',
  postman: 'Postman Collection v2',
  mockoon: 'Mockoon',
};

/** A condition as a rule set writes it: `op` is one of the operators the place accepts (docs/reference). */
export interface Cond {
  readonly op: string;
  readonly value?: string;
  /** further keys of the condition's table (a date operator's `truncate_actual`, `format`, …), written as strings */
  readonly options?: readonly (readonly [string, string])[];
}

export type UrlPath = { readonly op: 'equal' | 'regex' | 'path_template'; readonly value: string };

export type SourceBody =
  | { readonly kind: 'none' }
  /** written inline as `respond.text` */
  | { readonly kind: 'text'; readonly text: string }
  /** a response file: its bytes (or text) and extension (without the dot) */
  | { readonly kind: 'file'; readonly data: string | Uint8Array; readonly ext: string };

export type Delay =
  | number
  | { readonly min: number; readonly max: number }
  | { readonly median: number; readonly sigma: number };

function delayText(d: Delay): string {
  if (typeof d === 'number') return String(d);
  return 'min' in d ? `{ min = ${d.min}, max = ${d.max} }` : `{ median = ${d.median}, sigma = ${d.sigma} }`;
}

export interface SourceRule {
  /** where in the source (`mappings/orders.json`, `log.entries[3]`): the rule's comment and its files' names */
  readonly place: string;
  /** a further comment line (what the rule answers), '' for none */
  readonly title: string;
  readonly method?: Method;
  readonly urlPath?: UrlPath;
  readonly query?: readonly (readonly [string, Cond])[];
  readonly headers?: readonly (readonly [string, Cond])[];
  readonly cookies?: readonly (readonly [string, Cond])[];
  /** conditions on a path template's captures */
  readonly params?: readonly (readonly [string, Cond])[];
  /** `body.json` conditions, keyed by a dotted path */
  readonly bodyJson?: readonly (readonly [string, Cond])[];
  readonly bodyText?: Cond;
  /** `body.form` conditions: fields of a form body (url-encoded or multipart), by name */
  readonly form?: readonly (readonly [string, Cond])[];
  /** a condition on the path and query as sent (`when.request.url`) */
  readonly url?: Cond;
  /** scenario conditions and transitions (written only when FEATURES.scenarios) */
  readonly whenState?: readonly (readonly [string, string])[];
  readonly setState?: readonly (readonly [string, string])[];
  readonly status: number;
  readonly body: SourceBody;
  /** response headers as given, in order */
  readonly respondHeaders: readonly (readonly [string, string])[];
  /** `respond.delay_response_milliseconds`: milliseconds, or a uniform or log-normal spread */
  readonly delay?: Delay;
  readonly fault?: string;
  /** the body and headers are Handlebars templates; `wiremock`: WireMock's (docs/templates.md#wiremock-dialect) */
  readonly template?: boolean | 'wiremock';
  readonly priority?: number;
  /** `respond.callbacks`: WireMock's webhooks, Mockoon's callbacks */
  readonly callbacks?: readonly CallbackText[];
}

/** A part of the source that could not be expressed: `place: what: reason`. */
export interface LeftOut {
  readonly place: string;
  /** the part (`bodyPatterns[1].matchesXPath`); '' when the whole place is left out */
  readonly what: string;
  readonly reason: string;
}

export interface SourceImport {
  readonly format: ImportFormat;
  /** shown in the summary and the header comment, and the default rule-set name */
  readonly title: string;
  readonly rules: readonly SourceRule[];
  readonly leftOut: readonly LeftOut[];
  /** how many things of the source were read (mappings, entries, …), and what they are called */
  readonly read: { readonly count: number; readonly noun: string };
  /** `priority` when a rule has a priority: the highest wins (else first_match) */
  readonly strategy: 'first_match' | 'priority';
  /** extra header comment lines */
  readonly notes?: readonly string[];
  /** the source's own listener settings (Mockoon's `port`, `hostname`), used when the import writes a new mock.toml */
  readonly listener?: { readonly port?: number; readonly ipAddress?: string };
  /** `[[collections]]` after the rules (written only when FEATURES.collections) */
  readonly collections?: readonly SourceCollection[];
  /**
   * Rules that answer by a strategy of their own (Mockoon's random and sequential routes): each group is a rule set
   * of its own, placed after the first `after` rules, so the rule sets keep the source's order (the rules before it
   * in one rule set, the group, the rules after it in the next).
   */
  readonly groups?: readonly SourceGroup[];
}

export interface SourceGroup {
  /** how many of `rules` come before it */
  readonly after: number;
  readonly place: string;
  readonly title: string;
  readonly strategy: 'uniform_random' | 'round_robin';
  readonly rules: readonly SourceRule[];
}

/** A collection ([docs/state.md](../../docs/state.md#collections)): its data written as a JSON file of its own. */
export interface SourceCollection {
  /** where in the source, the comment above it */
  readonly place: string;
  readonly title: string;
  /** the URL path, e.g. `/api/users` */
  readonly path: string;
  /** the data file's name without `.json` */
  readonly name: string;
  /** the JSON text of an array of objects, written as it is */
  readonly data: string;
  /** the id field */
  readonly id: string;
  /** how many of `groups` come before it in the source (it goes in the rule set written between them) */
  readonly groupsBefore?: number;
  /** headers on every answer (a Mockoon environment's headers) */
  readonly headers?: readonly (readonly [string, string])[];
}

export function leftOutLine(l: LeftOut): string {
  const place = excerpt(l.place);
  const reason = excerpt(l.reason, 300);
  return l.what === '' ? `${place}: ${reason}` : `${place}: ${excerpt(l.what)}: ${reason}`;
}

export interface PlannedFile {
  readonly path: string;
  readonly text: string | Uint8Array;
}

export interface SourcePlan {
  readonly ruleSets: readonly PlannedFile[];
  readonly files: readonly PlannedFile[];
  readonly rules: number;
  /** per rule set, the source rule of each `[[rules]]` it writes, in order (what a load error's `rules[n]` names) */
  readonly written: readonly (readonly SourceRule[])[];
}

export interface SourcePlanOptions {
  readonly source: string;
  readonly command: string;
  /** the rule-set file name without `.toml` */
  readonly ruleSetName: string;
  readonly taken: (path: string) => boolean;
}

class Names {
  private readonly used = new Set<string>(['mock.toml']);
  constructor(private readonly taken: (path: string) => boolean) {}
  take(given: string, ext: string): string {
    const stem = fitStem(given);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? `${stem}${ext}` : `${stem}-${n}${ext}`;
      if (this.used.has(candidate) || this.taken(candidate)) continue;
      this.used.add(candidate);
      return candidate;
    }
  }
}

/** the most bytes one name of a written path has before it is shortened: file systems allow 255 (with room for `-<n>` and an extension) */
export const MAX_NAME_BYTES = 120;

/**
 * Each `/`-separated name of a stem, at most MAX_NAME_BYTES bytes: a longer one keeps its start (cut at a character
 * boundary) and ends in a short hash of the whole name, so that two long names with one start stay apart.
 */
export function fitStem(stem: string): string {
  return stem
    .split('/')
    .map((name) => {
      if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
      const hash = sha256Hex(name).slice(0, 10);
      let cut = '';
      for (const ch of name) {
        if (Buffer.byteLength(cut + ch) > MAX_NAME_BYTES - hash.length - 1) break;
        cut += ch;
      }
      return `${cut}-${hash}`;
    })
    .join('/');
}

function isJsonText(data: string | Uint8Array): boolean {
  try {
    JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** At most `max` characters of an input value, for a message: a long one is cut and says how long it was. */
export function excerpt(value: string, max = 80): string {
  if (value.length <= max) return value;
  return `${value.slice(0, max)}… (${value.length} characters)`;
}

function comment(line: string): string {
  return line === '' ? '#' : `# ${excerpt(line, 200).replace(/[\r\n]+/g, ' ')}`;
}

function condText(c: Cond): string {
  const value =
    c.value === undefined ? '""' : /regex|wild_card/.test(c.op) ? tomlLiteral(c.value) : tomlString(c.value);
  const options = (c.options ?? []).map(([k, v]) => `, ${k} = ${tomlString(v)}`).join('');
  return `{ value = ${value}, op = "${c.op}"${options} }`;
}

/** The file a rule's body is written to: named after its place and status. */
function bodyStem(r: SourceRule): string {
  const place = r.place
    .replace(/^mappings\//, '')
    .replace(/\.json$/i, '')
    .split('/')
    .map((p) => safeName(p, 'body'))
    .join('/');
  return `responses/${place}-${r.status}`;
}

/** a header name as HTTP allows it: letters, digits and !#$%&'*+-.^_`|~, nothing else */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** a field value as HTTP allows it: no control character but tab, nothing beyond one byte */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Why a rule cannot be written as the source states it (a pattern the rule set's regex engine refuses), or undefined. */
function unwritable(r: SourceRule): string | undefined {
  const patterns: string[] = [];
  if (r.urlPath !== undefined && r.urlPath.op === 'regex') patterns.push(r.urlPath.value);
  if (r.url?.op === 'regex' && r.url.value !== undefined) patterns.push(r.url.value);
  for (const list of [r.query, r.headers, r.cookies, r.params, r.bodyJson, r.form])
    for (const [, c] of list ?? []) if (c.op === 'regex' && c.value !== undefined) patterns.push(c.value);
  if (r.bodyText?.op === 'regex' && r.bodyText.value !== undefined) patterns.push(r.bodyText.value);
  for (const p of patterns) {
    const compiled = compileRustRegex(p);
    if (!compiled.ok) return `the pattern ${excerpt(p)} is not a regular expression mock reads (${compiled.error})`;
  }
  if (r.urlPath?.op === 'path_template') {
    const parsed = parseTemplate(r.urlPath.value);
    if (!parsed.ok) return `the path ${excerpt(r.urlPath.value)} is not a path template mock reads (${parsed.error})`;
  }
  if (r.fault === undefined && !(Number.isInteger(r.status) && r.status >= 100 && r.status <= 999))
    return `the status ${r.status} is not one an HTTP answer can have (100 to 999)`;
  return undefined;
}

/**
 * The conditions of one place (query, headers, body.json …) with one per key: a rule holds one condition on a key
 * (TOML allows a key once), so a second one on the same key (WireMock's `equalToJson` beside a `matchesJsonPath` on
 * the same field) is left out, and said so in a comment.
 */
function onePerKey(
  list: readonly (readonly [string, Cond])[] | undefined,
  keyOf: (k: string) => string,
  place: string,
  lines: string[],
): (readonly [string, Cond])[] {
  const seen = new Set<string>();
  const out: (readonly [string, Cond])[] = [];
  for (const entry of list ?? []) {
    const key = keyOf(entry[0]);
    if (seen.has(key)) {
      lines.push(
        comment(
          `left out: a second condition on ${place} ${excerpt(JSON.stringify(entry[0]))} (a rule holds one per key)`,
        ),
      );
      continue;
    }
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/** the rule's text; a rule left out is a comment saying why (counted in `skipped`) */
function ruleText(
  r: SourceRule,
  names: Names,
  files: PlannedFile[],
  skipped: { count: number },
  written: SourceRule[],
): string {
  const lines = [comment(r.place)];
  if (r.title !== '') lines.push(comment(r.title));
  const why = unwritable(r);
  if (why !== undefined) {
    skipped.count++;
    return [...lines, comment(`left out: ${why}`)].join('\n') + '\n';
  }
  written.push(r);
  const badName = (k: string): boolean => !HEADER_NAME.test(k);
  for (const [k] of r.headers ?? [])
    if (badName(k))
      lines.push(comment(`left out: the condition on header ${excerpt(JSON.stringify(k))} (not a valid header name)`));
  for (const [k, v] of r.respondHeaders)
    if (badName(k) || !HEADER_VALUE.test(v))
      lines.push(
        comment(`left out: the answer's header ${excerpt(JSON.stringify(k))} (not a valid header name or value)`),
      );
  const query = onePerKey(r.query, (k) => k, 'query', lines);
  const headers = onePerKey(r.headers, (k) => k.toLowerCase(), 'header', lines);
  const cookies = onePerKey(r.cookies, (k) => k, 'cookie', lines);
  const params = onePerKey(r.params, (k) => k, 'path parameter', lines);
  const bodyJson = onePerKey(r.bodyJson, (k) => k, 'body.json', lines);
  const form = onePerKey(r.form, (k) => k, 'form field', lines);
  lines.push('[[rules]]');
  if (r.method !== undefined) lines.push(`when.request.method = ${tomlString(r.method)}`);
  if (r.urlPath !== undefined)
    lines.push(
      r.urlPath.op === 'equal'
        ? `when.request.url_path = ${tomlString(r.urlPath.value)}`
        : `when.request.url_path = { value = ${tomlLiteral(r.urlPath.value)}, op = "${r.urlPath.op}" }`,
    );
  for (const [k, c] of query) lines.push(`when.request.query.${tomlKey(k)} = ${condText(c)}`);
  for (const [k, c] of headers)
    if (!badName(k)) lines.push(`when.request.headers.${tomlKey(k.toLowerCase())} = ${condText(c)}`);
  for (const [k, c] of cookies) lines.push(`when.request.cookies.${tomlKey(k)} = ${condText(c)}`);
  for (const [k, c] of params) lines.push(`when.request.params.${tomlKey(k)} = ${condText(c)}`);
  for (const [k, c] of bodyJson) lines.push(`when.request.body.json.${tomlString(k)} = ${condText(c)}`);
  for (const [k, c] of form) lines.push(`when.request.body.form.${tomlKey(k)} = ${condText(c)}`);
  if (r.bodyText !== undefined) lines.push(`when.request.body.text = ${condText(r.bodyText)}`);
  if (r.url !== undefined) lines.push(`when.request.url = ${condText(r.url)}`);
  if (FEATURES.scenarios)
    for (const [k, s] of r.whenState ?? []) lines.push(`when.state.${tomlKey(k)} = ${tomlString(s)}`);
  // a source mapping with no condition (WireMock's `"request": {}`) answers every request; a rule needs one
  if (!lines.some((l) => l.startsWith('when.')))
    lines.push('when.request.url_path = { value = "/", op = "starts_with" }  # any request');
  if (r.priority !== undefined) lines.push(`priority = ${r.priority}`);
  if (r.fault !== undefined) lines.push(`respond.fault = ${tomlString(r.fault)}`);
  else {
    if (r.status !== 200 || r.body.kind === 'none') lines.push(`respond.status = ${r.status}`);
    if (r.body.kind === 'text') lines.push(`respond.text = ${tomlString(r.body.text)}`);
    else if (r.body.kind === 'file') {
      // a body declared JSON that is not JSON is served as written: a .json file would not load
      const ext =
        r.body.ext === 'json' && (r.template ?? false) === false && !isJsonText(r.body.data) ? 'txt' : r.body.ext;
      const path = names.take(bodyStem(r), `.${ext}`);
      files.push({ path, text: r.body.data });
      lines.push(`respond.file_path = ${tomlString(path)}`);
    }
    const respondHeaders = r.respondHeaders.filter(([k, v]) => !badName(k) && HEADER_VALUE.test(v));
    if (respondHeaders.length > 0)
      lines.push(
        `respond.headers = { ${respondHeaders.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(', ')} }`,
      );
    if (r.template === true || r.template === 'wiremock') {
      lines.push(r.template === true ? 'respond.template = true' : 'respond.template_dialect = "wiremock"');
      if (r.body.kind === 'file') lines.push('respond.template_file = true');
    }
  }
  if (r.delay !== undefined && r.delay !== 0) lines.push(`respond.delay_response_milliseconds = ${delayText(r.delay)}`);
  if (FEATURES.scenarios && (r.setState ?? []).length > 0)
    lines.push(`respond.set_state = { ${r.setState!.map(([k, s]) => `${tomlKey(k)} = ${tomlString(s)}`).join(', ')} }`);
  if (r.callbacks !== undefined && r.callbacks.length > 0) lines.push(callbacksLine(r.callbacks));
  return lines.join('\n') + '\n';
}

/** The rule set and response files of a decoded source. Pure; the same import gives the same bytes. */
export function planSource(imp: SourceImport, o: SourcePlanOptions): SourcePlan {
  const names = new Names(o.taken);
  const skipped = { count: 0 };
  const ruleSetPath = names.take(safeName(o.ruleSetName, 'imported'), '.toml');
  const stem = ruleSetPath.replace(/\.toml$/, '');
  const files: PlannedFile[] = [];
  const header = [
    `${imp.title}: imported from ${o.source} (${FORMAT_NAMES[imp.format]})`,
    `by \`${o.command}\`.`,
    '',
    'One rule per source mapping, in the order read. Parts the rule set cannot express are listed in the',
    "import's summary and left out. This file is yours: edit it, add conditions, reorder; importing again",
    'writes new files (with -2, -3, …) and never changes this one.',
    ...(imp.notes ?? []),
  ];
  let out = header.map(comment).join('\n') + '\n\n';
  out +=
    imp.strategy === 'priority'
      ? 'strategy = { priority = { tiebreaker = "first_match" } }\n'
      : 'strategy = "first_match"\n';
  const groups = imp.groups ?? [];
  const ruleSets: PlannedFile[] = [];
  const writtenBySet: SourceRule[][] = [];
  let written: SourceRule[] = [];
  // the first rule set written takes the chosen name; the ones continuing after a group take -2, -3, …
  const nextPath = (): string => (ruleSets.length === 0 ? ruleSetPath : names.take(stem, '.toml'));
  let at = 0;
  /** where the rule set being written starts in imp.rules */
  let from = 0;
  const collections = FEATURES.collections ? (imp.collections ?? []) : [];
  /** the collections of the rule set written k-th (between group k-1 and group k) */
  const collectionsText = (k: number): string => {
    let text = '';
    for (const c of collections.filter((x) => (x.groupsBefore ?? 0) === k)) {
      const path = names.take(safeName(c.name, 'collection'), '.json');
      files.push({ path, text: c.data });
      text += `\n${comment(c.place)}\n${c.title === '' ? '' : comment(c.title) + '\n'}[[collections]]\n`;
      text += `path = ${tomlString(c.path)}\ndata = ${tomlString(path)}\n`;
      if (c.id !== 'id') text += `id = ${tomlString(c.id)}\n`;
      const headers = (c.headers ?? []).filter(([k, v]) => HEADER_NAME.test(k) && HEADER_VALUE.test(v));
      if (headers.length > 0)
        text += `headers = { ${headers.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(', ')} }\n`;
    }
    return text;
  };
  for (const [k, g] of groups.entries()) {
    for (; at < g.after; at++) out += '\n' + ruleText(imp.rules[at]!, names, files, skipped, written);
    const own = collectionsText(k);
    out += own;
    // the rules so far end this rule set; the group answers next, then the rest in a rule set of their own
    if (ruleSets.length === 0 || at > from || own !== '') {
      ruleSets.push({ path: nextPath(), text: out });
      writtenBySet.push(written);
    }
    written = [];
    from = at;
    const groupPath = names.take(`${stem}-${safeName(g.title, 'route')}`, '.toml');
    let text = [
      `${g.title}: imported from ${o.source} (${FORMAT_NAMES[imp.format]})`,
      `by \`${o.command}\`.`,
      '',
      `${g.place}: ${g.strategy === 'round_robin' ? 'sequential' : 'random'} responses, one rule each.`,
    ]
      .map(comment)
      .join('\n');
    text += `\n\nstrategy = ${g.strategy === 'round_robin' ? '"round_robin"' : '{ uniform_random = {} }'}\n`;
    const inGroup: SourceRule[] = [];
    for (const r of g.rules) text += '\n' + ruleText(r, names, files, skipped, inGroup);
    ruleSets.push({ path: groupPath, text });
    writtenBySet.push(inGroup);
    out = `${comment(`${imp.title}: imported from ${o.source} (${FORMAT_NAMES[imp.format]}), continued`)}\n\n`;
    out += 'strategy = "first_match"\n';
  }
  for (; at < imp.rules.length; at++) out += '\n' + ruleText(imp.rules[at]!, names, files, skipped, written);
  const own = collectionsText(groups.length);
  out += own;
  if (ruleSets.length === 0 || at > from || own !== '') {
    ruleSets.push({ path: nextPath(), text: out });
    writtenBySet.push(written);
  }
  return {
    ruleSets,
    files,
    written: writtenBySet,
    rules: imp.rules.length + groups.reduce((n, g) => n + g.rules.length, 0) - skipped.count,
  };
}

/**
 * The import without these rules, each named in `leftOut` with why (the rule it made did not load): an import whose
 * own output does not load leaves out the offending rule instead of refusing the whole source.
 */
export function withoutRules(imp: SourceImport, drop: ReadonlyMap<SourceRule, string>): SourceImport {
  const keep = (r: SourceRule): boolean => !drop.has(r);
  const groups = (imp.groups ?? []).map((g) => ({
    ...g,
    after: imp.rules.slice(0, g.after).filter(keep).length,
    rules: g.rules.filter(keep),
  }));
  const leftOut = [...imp.leftOut];
  for (const [r, why] of drop)
    leftOut.push({ place: r.place, what: '', reason: `the rule made from it does not load: ${why}` });
  return { ...imp, rules: imp.rules.filter(keep), groups, leftOut };
}

/** The import with each rule it cannot write (written as a comment saying why) named in `leftOut` too. */
export function nameUnwritable(imp: SourceImport): SourceImport {
  const named: LeftOut[] = [];
  for (const r of [...imp.rules, ...(imp.groups ?? []).flatMap((g) => g.rules)]) {
    const why = unwritable(r);
    if (why !== undefined) named.push({ place: r.place, what: '', reason: why });
  }
  return named.length === 0 ? imp : { ...imp, leftOut: [...imp.leftOut, ...named] };
}
