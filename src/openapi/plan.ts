// The mapping `OpenAPI document → import plan`, pure: the rule set's text, the response files, and one report
// per operation (written, or skipped with the reason; parts left out are listed too). Names already taken
// (`taken`) or used earlier in the same import get `-2`, `-3`, …, so nothing is ever overwritten.
//
// Per operation, in this order: the 401 rules of its security requirement, then one rule per further
// documented response and named example, each selected by the request header `Prefer` (`code=<status>`,
// `example=<name>`, or both), then the default answer (its first 2xx response, else `default`, else the first
// documented one). Operations are ordered literal paths first, then templated ones by OpenAPI's precedence.
// Left out: reading, resolving and validating the document, and writing (the CLI does those).
import { isMethod } from '../model/operators.js';
import { responseBody, responseHeaders, type ResponseBody } from './bodies.js';
import { entriesOf, isObj, objAt, operationLabel, operationsOf, operationSummary, strAt, type Obj } from './document.js';
import { REASONS } from './messages.js';
import { basePathOf, escapeRegex, operationFolder, orderOperations, safeName, titleSlug, urlPathCondition } from './paths.js';
import { renderRuleSet, type RuleBody, type RuleSpec } from './render.js';
import { securityRules } from './security.js';

export interface ImportOptions {
  /** the document as named on the command line (shown in the header comment) */
  readonly source: string;
  /** the command that made the import (shown in the header comment) */
  readonly command: string;
  /** the rule-set file name without `.toml` (default: the title's slug) */
  readonly ruleSetName?: string;
  /** the rule set's prefix (default: the path of servers[0].url); '' or '/' for none */
  readonly basePath?: string;
  /** is this workspace-relative path taken already? */
  readonly taken: (path: string) => boolean;
}

export interface PlannedFile {
  /** workspace-relative, `/`-separated */
  readonly path: string;
  readonly text: string;
}

export const OPERATION_STATUSES = ['written', 'skipped'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export interface OperationReport {
  /** operationId, else `METHOD path` */
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly outcome: OperationStatus;
  readonly rules: number;
  readonly files: readonly string[];
  /** why the operation (outcome skipped) or a part of it was left out, or how it was answered */
  readonly notes: readonly string[];
}

export interface ImportPlan {
  readonly title: string;
  readonly version: string;
  readonly openapi: string;
  readonly basePath?: string;
  readonly ruleSet: PlannedFile;
  /** the response files, operation by operation (the default answer's first) */
  readonly files: readonly PlannedFile[];
  readonly operations: readonly OperationReport[];
}

/** The root config is never a rule-set name. */
const RESERVED = new Set(['mock.toml']);

class Names {
  private readonly used = new Set<string>();
  constructor(private readonly taken: (path: string) => boolean) {}
  /** `<stem><ext>`, else `<stem>-2<ext>`, `<stem>-3<ext>`, … */
  take(stem: string, ext: string): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? `${stem}${ext}` : `${stem}-${n}${ext}`;
      if (this.used.has(candidate) || RESERVED.has(candidate) || this.taken(candidate)) continue;
      this.used.add(candidate);
      return candidate;
    }
  }
}

interface Documented {
  readonly key: string;
  /** undefined for `default` */
  readonly status?: number;
  readonly response: Obj;
}

function statusOf(key: string): number | undefined {
  if (/^[1-5]\d\d$/.test(key)) return Number(key);
  if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  return undefined;
}

/** The default answer and the others; duplicates and an unselectable `default` are noted. */
function sortResponses(op: Obj, notes: string[]): { readonly main: Documented & { readonly status: number }; readonly others: readonly (Documented & { readonly status: number })[] } | undefined {
  const all: Documented[] = [];
  for (const [key, response] of entriesOf(objAt(op, 'responses'))) {
    if (!isObj(response) || key.startsWith('x-')) continue;
    const status = statusOf(key);
    all.push(status === undefined ? { key, response } : { key, status, response });
  }
  if (all.length === 0) return undefined;
  const numbered = all.filter((d): d is Documented & { status: number } => d.status !== undefined);
  const success = numbered.filter((d) => d.status >= 200 && d.status < 300).sort((a, b) => a.status - b.status)[0];
  const fallback = all.find((d) => d.key === 'default');
  const main = success ?? (fallback !== undefined ? { ...fallback, status: 200 } : numbered[0]);
  if (main === undefined) return undefined;
  const others: (Documented & { status: number })[] = [];
  const seen = new Set([main.status]);
  for (const d of all) {
    if (d.key === main.key) continue;
    if (d.status === undefined) {
      notes.push(REASONS.defaultNotReachable());
      continue;
    }
    if (seen.has(d.status)) {
      notes.push(REASONS.sameStatus(d.key, d.status));
      continue;
    }
    seen.add(d.status);
    others.push(d as Documented & { status: number });
  }
  return { main, others };
}

const SEP = '[\\s,;]';
/** `Prefer` holds `key=value` among other preferences (comma- or semicolon-separated). */
function preferToken(key: string, value: string): string {
  return `(?:^|${SEP})${key}=${escapeRegex(value)}(?:${SEP}|$)`;
}
function preferBoth(code: number, example: string): string {
  const c = `code=${code}`;
  const e = `example=${escapeRegex(example)}`;
  return `(?:^|${SEP})(?:${c}${SEP}(?:.*${SEP})?${e}|${e}${SEP}(?:.*${SEP})?${c})(?:${SEP}|$)`;
}

interface Answer {
  readonly status: number;
  readonly body: RuleBody;
  readonly headers: readonly (readonly [string, string])[];
  readonly example?: string;
}

const APPLICATION_JSON = 'application/json';

function jsonText(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value, null, 2) + '\n';
}

export function planImport(doc: Obj, opts: ImportOptions): ImportPlan {
  const info = objAt(doc, 'info') ?? {};
  const title = strAt(info, 'title') ?? 'API';
  const version = strAt(info, 'version') ?? '';
  const openapi = strAt(doc, 'openapi') ?? '';
  const basePath = opts.basePath === undefined ? basePathOf(doc) : normalizeBase(opts.basePath);
  const names = new Names(opts.taken);
  const ruleSetPath = names.take(safeName(opts.ruleSetName ?? titleSlug(doc), 'openapi'), '.toml');
  const folders = new Names(() => false);
  const files: PlannedFile[] = [];
  const rules: RuleSpec[] = [];
  const operations: OperationReport[] = [];

  for (const o of orderOperations(operationsOf(doc))) {
    const label = operationLabel(o);
    const base = { operation: label, method: o.method, path: o.path };
    const skip = (why: string): void => void operations.push({ ...base, outcome: 'skipped', rules: 0, files: [], notes: [why] });
    if (o.method === 'OPTIONS') {
      skip(REASONS.optionsMethod());
      continue;
    }
    if (!isMethod(o.method)) {
      skip(REASONS.unsupportedMethod(o.method));
      continue;
    }
    if (o.path.includes('?')) {
      skip(REASONS.queryInPath());
      continue;
    }
    const notes: string[] = [];
    const sorted = sortResponses(o.op, notes);
    if (sorted === undefined) {
      skip(REASONS.noResponses());
      continue;
    }
    const mainBody = responseBody(sorted.main.response, doc);
    if (mainBody.body === undefined) {
      skip(REASONS.responseUnanswerable(sorted.main.key, mainBody.skipped.join('; ')));
      continue;
    }
    notes.push(...mainBody.skipped.map((s) => `response \`${sorted.main.key}\`: ${s}`));
    const folder = folders.take(operationFolder(o), '');
    const opFiles: PlannedFile[] = [];
    const answersOf = (status: number, body: ResponseBody, documented: readonly (readonly [string, string])[]): readonly Answer[] => {
      if (body.kind === 'none') return [{ status, body: { kind: 'none' }, headers: documented }];
      const headers: (readonly [string, string])[] = [...documented];
      if (body.kind === 'text' || body.mediaType.split(';')[0]!.trim().toLowerCase() !== APPLICATION_JSON) headers.push(['content-type', body.mediaType]);
      return body.variants.map((v) => {
        const extra = v.name === undefined ? {} : { example: v.name };
        if (body.kind === 'text') return { status, body: { kind: 'text', text: String(v.value) }, headers, ...extra };
        const stem = `responses/${folder}/${status}${v.name === undefined ? '' : '-' + safeName(v.name, 'example')}`;
        const path = names.take(stem, '.json');
        opFiles.push({ path, text: jsonText(v.value) });
        return { status, body: { kind: 'file', path }, headers, ...extra };
      });
    };

    const urlPath = urlPathCondition(o.path, basePath);
    const summary = operationSummary(o);
    const head = summary === '' ? label : `${label}: ${summary}`;
    const method = o.method;
    const rule = (what: string, a: Answer, extra: { prefer?: string; absent?: readonly string[]; headers?: readonly (readonly [string, string])[] } = {}): RuleSpec => ({
      comment: [head, what],
      method,
      urlPath,
      ...(extra.prefer === undefined ? {} : { prefer: extra.prefer }),
      absent: extra.absent ?? [],
      status: a.status,
      body: a.body,
      headers: [...a.headers, ...(extra.headers ?? [])],
    });

    const headersOf = (key: string, response: Obj): readonly (readonly [string, string])[] => {
      const h = responseHeaders(response, doc);
      notes.push(...h.skipped.map((s) => `response \`${key}\`: ${s}`));
      return h.headers;
    };
    const mainAnswers = answersOf(sorted.main.status, mainBody.body, headersOf(sorted.main.key, sorted.main.response));
    const otherAnswers: { readonly key: string; readonly answers: readonly Answer[] }[] = [];
    for (const d of sorted.others) {
      const b = responseBody(d.response, doc);
      notes.push(...b.skipped.map((s) => `response \`${d.key}\`: ${s}`));
      if (b.body === undefined) continue;
      otherAnswers.push({ key: d.key, answers: answersOf(d.status, b.body, headersOf(d.key, d.response)) });
    }

    const opRules: RuleSpec[] = [];
    const security = securityRules(o, doc);
    notes.push(...security.skipped);
    const unauthorized = otherAnswers.find((x) => x.answers[0]!.status === 401)?.answers[0] ?? { status: 401, body: { kind: 'none' }, headers: [] };
    for (const s of security.rules) {
      const challenge: (readonly [string, string])[] = s.challenge === undefined ? [] : [['www-authenticate', s.challenge]];
      opRules.push(rule(`401 when ${s.absent.map((h) => `\`${h}\``).join(' and ')} ${s.absent.length === 1 ? 'is' : 'are'} absent`, unauthorized, { absent: s.absent, headers: challenge }));
    }
    // code and example together, then code alone, then an example of the default answer, then the default
    for (const x of otherAnswers) {
      for (const a of x.answers.slice(1)) {
        if (a.example === undefined) continue;
        opRules.push(rule(`${a.status}, example ${a.example} (Prefer: code=${a.status}, example=${a.example})`, a, { prefer: preferBoth(a.status, a.example) }));
      }
    }
    for (const x of otherAnswers) {
      const a = x.answers[0]!;
      opRules.push(rule(`${a.status}${a.example === undefined ? '' : `, example ${a.example}`} (Prefer: code=${a.status})`, a, { prefer: preferToken('code', String(a.status)) }));
    }
    for (const a of mainAnswers.slice(1)) {
      if (a.example === undefined) continue;
      opRules.push(rule(`${a.status}, example ${a.example} (Prefer: example=${a.example})`, a, { prefer: preferToken('example', a.example) }));
    }
    const first = mainAnswers[0]!;
    opRules.push(rule(`${first.status}${first.example === undefined ? '' : `, example ${first.example}`} (the default answer)`, first));

    rules.push(...opRules);
    files.push(...opFiles);
    operations.push({ ...base, outcome: 'written', rules: opRules.length, files: opFiles.map((f) => f.path), notes });
  }

  const header = [
    `${title}${version === '' ? '' : ` ${version}`}: imported from ${opts.source} (OpenAPI ${openapi})`,
    `by \`${opts.command}\`.`,
    '',
    'One rule per operation and documented response, in match order (first_match). Each operation answers',
    'its first 2xx response by default; send `Prefer: code=<status>` (or `Prefer: example=<name>`) for the',
    'others. Bodies are the JSON files under responses/. This file is yours: edit it, add conditions, reorder;',
    'importing again writes new files (with -2, -3, …) and never changes this one.',
  ];
  const text = renderRuleSet({ header, ...(basePath === undefined ? {} : { basePath }), rules });
  return {
    title,
    version,
    openapi,
    ...(basePath === undefined ? {} : { basePath }),
    ruleSet: { path: ruleSetPath, text },
    files,
    operations,
  };
}

function normalizeBase(p: string): string | undefined {
  const t = p.trim().replace(/\/+$/, '');
  if (t === '') return undefined;
  return t.startsWith('/') ? t : '/' + t;
}
