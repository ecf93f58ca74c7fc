// The mapping `OpenAPI document → import plan`, pure: the rule set's text, the response files, and one report
// per operation (written, or skipped with the reason; parts left out are listed too). Names already taken
// (`taken`) or used earlier in the same import get `-2`, `-3`, …, so nothing is ever overwritten.
//
// Per operation, in this order: the 401 rules of its security requirement, then one rule per further
// documented response and named example, each selected by the request header `Prefer` (`code=<status>`,
// `example=<name>`, or both), then the default answer (its first 2xx response, else `default`, else the first
// documented one). Operations are ordered literal paths first, then templated ones by OpenAPI's precedence.
// A path key with a fragment (`/#X-Amz-Target=X.Y`, `/users#operation=create`, `/tags/{arn}#tagKeys`) is the
// path before `#` plus a condition on the parameter the fragment names. A document with more than
// SPLIT_OPERATIONS operations gets one rule set per tag (else per first path segment), in a folder named after
// the document, without a prefix (each rule names its whole path: a prefix claims its paths for one rule set).
// Left out: reading, resolving and validating the document, and writing (the CLI does those).
import { isMethod } from '../model/operators.js';
import { responseBody, responseHeaders, type ResponseBody } from './bodies.js';
import {
  deref,
  entriesOf,
  isObj,
  objAt,
  operationLabel,
  operationsOf,
  operationSummary,
  pointerOf,
  strAt,
  type Obj,
  type Operation,
} from './document.js';
import { REASONS } from './messages.js';
import {
  basePathOf,
  escapeRegex,
  operationFolder,
  orderOperations,
  safeName,
  splitPathKey,
  titleSlug,
  urlPathCondition,
  type PathKey,
} from './paths.js';
import {
  MARKER,
  renderRuleSet,
  ruleText,
  WRITABLE_PLACES,
  type ParamCondition,
  type RuleBody,
  type RuleSpec,
} from './render.js';
import { securityRules } from './security.js';

/** a document with more operations than this gets one rule set per tag */
export const SPLIT_OPERATIONS = 200;

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
  /** called after each operation (done of total) */
  readonly progress?: (done: number, total: number) => void;
}

export interface PlannedFile {
  /** workspace-relative, `/`-separated */
  readonly path: string;
  /** bytes for a binary response file */
  readonly text: string | Uint8Array;
}

export const OPERATION_STATUSES = ['written', 'skipped'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export interface OperationReport {
  /** operationId, else `METHOD path` */
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  /** the operation's JSON pointer in the document (`#/paths/~1pets/get`) */
  readonly pointer: string;
  readonly outcome: OperationStatus;
  readonly rules: number;
  readonly files: readonly string[];
  /** why the operation (outcome skipped) or a part of it was left out, or how it was answered */
  readonly notes: readonly string[];
  /** JSON pointers of the document's examples that contradict their schema (served all the same) */
  readonly contradictions: readonly string[];
}

export interface ImportPlan {
  readonly title: string;
  readonly version: string;
  readonly openapi: string;
  /** the prefix of the single rule set (a split import has none) */
  readonly basePath?: string;
  /** the rule sets, in the order service.rule_sets lists them (one, unless the document was split) */
  readonly ruleSets: readonly PlannedFile[];
  /** the response files, operation by operation (the default answer's first) */
  readonly files: readonly PlannedFile[];
  readonly operations: readonly OperationReport[];
  /** every rule with its marker, in match order, for `--update` (update.ts) */
  readonly rules: readonly PlannedRule[];
}

export interface PlannedRule {
  /** the rule set it is planned in */
  readonly ruleSet: string;
  readonly operation: string;
  readonly response: string;
  /** its text as generated, marker included */
  readonly text: string;
  /** the marker's hash */
  readonly hash: string;
  /** the response file it answers with */
  readonly file?: string;
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
function sortResponses(
  op: Obj,
  notes: string[],
):
  | {
      readonly main: Documented & { readonly status: number };
      readonly others: readonly (Documented & { readonly status: number })[];
    }
  | undefined {
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
/**
 * `Prefer` holds `code=<anything but value>`: the other documented codes have their rules earlier, so this one
 * catches the undocumented ones. Spelled without look-ahead, which not every regex engine has: at the first
 * character that differs, or a token that goes on after `value`.
 */
function codeOtherThan(value: string): string {
  const alts: string[] = [];
  for (let i = 0; i < value.length; i++)
    alts.push(`${escapeRegex(value.slice(0, i))}(?:[^${escapeRegex(value[i]!)}\\s,;]|${SEP}|$)`);
  alts.push(`${escapeRegex(value)}[^\\s,;]`);
  return `(?:^|${SEP})code=(?:${alts.join('|')})`;
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
  const stem = safeName(opts.ruleSetName ?? titleSlug(doc), 'openapi');
  const all = orderOperations(operationsOf(doc));
  const split = all.length > SPLIT_OPERATIONS;
  const ruleSetPath = split ? undefined : names.take(stem, '.toml');
  const folders = new Names(() => false);
  const files: PlannedFile[] = [];
  const groups = new Map<string, RuleSpec[]>();
  const operations: OperationReport[] = [];
  // JSON bodies by their text: an identical body is written once (docs/openapi.md); `moved`: first paths → shared
  const bodies = new Map<
    string,
    { file: { path: string; text: string }; body: { kind: 'file'; path: string }; shared: boolean; sharedStem: string }
  >();
  const moved = new Map<string, string>();

  let done = 0;
  for (const o of all) {
    if (opts.progress !== undefined) opts.progress(done++, all.length);
    const label = operationLabel(o);
    const pointer = pointerOf(['paths', o.path, o.method.toLowerCase()]);
    const base = { operation: label, method: o.method, path: o.path, pointer, contradictions: [] };
    const skip = (why: string): void =>
      void operations.push({ ...base, outcome: 'skipped', rules: 0, files: [], notes: [why] });
    if (o.method === 'OPTIONS') {
      skip(REASONS.optionsMethod());
      continue;
    }
    if (!isMethod(o.method)) {
      skip(REASONS.unsupportedMethod(o.method));
      continue;
    }
    const key = splitPathKey(o.path);
    if (key.path.includes('?')) {
      skip(REASONS.queryInPath());
      continue;
    }
    const fragment = fragmentConditions(o, key, doc);
    if (typeof fragment === 'string') {
      skip(fragment);
      continue;
    }
    const notes: string[] = [];
    const contradictions: string[] = [];
    const at = (k: string): string[] => ['paths', o.path, o.method.toLowerCase(), 'responses', k];
    const sorted = sortResponses(o.op, notes);
    if (sorted === undefined) {
      skip(REASONS.noResponses());
      continue;
    }
    const mainBody = responseBody(sorted.main.response, doc, at(sorted.main.key));
    if (mainBody.body === undefined) {
      skip(REASONS.responseUnanswerable(sorted.main.key, mainBody.skipped.join('; ')));
      continue;
    }
    notes.push(...mainBody.skipped.map((s) => `response \`${sorted.main.key}\`: ${s}`));
    contradictions.push(...(mainBody.contradictions ?? []));
    const folder = folders.take(operationFolder(o), '');
    const opFiles: PlannedFile[] = [];
    const answersOf = (
      status: number,
      body: ResponseBody,
      documented: readonly (readonly [string, string])[],
    ): readonly Answer[] => {
      if (body.kind === 'none') return [{ status, body: { kind: 'none' }, headers: documented }];
      const headers: (readonly [string, string])[] = [...documented];
      if (body.kind === 'binary') {
        const path = names.take(`responses/${folder}/${status}`, body.ext);
        opFiles.push({ path, text: body.bytes });
        return [{ status, body: { kind: 'file', path }, headers: [...headers, ['content-type', body.mediaType]] }];
      }
      if (body.kind === 'text' || body.mediaType.split(';')[0]!.trim().toLowerCase() !== APPLICATION_JSON)
        headers.push(['content-type', body.mediaType]);
      return body.variants.map((v) => {
        const extra = v.name === undefined ? {} : { example: v.name };
        if (body.kind === 'text') return { status, body: { kind: 'text', text: String(v.value) }, headers, ...extra };
        const name = `${status}${v.name === undefined ? '' : '-' + safeName(v.name, 'example')}`;
        const text = jsonText(v.value);
        const seen = bodies.get(text);
        if (seen !== undefined) {
          // the same body again: one file under responses/shared/ answers every rule that has it
          if (!seen.shared) {
            seen.shared = true;
            moved.set(seen.file.path, (seen.file.path = seen.body.path = names.take(seen.sharedStem, '.json')));
          }
          return { status, body: seen.body, headers, ...extra };
        }
        const path = names.take(`responses/${folder}/${name}`, '.json');
        const file = { path, text };
        const ref = { kind: 'file' as const, path };
        opFiles.push(file);
        bodies.set(text, { file, body: ref, shared: false, sharedStem: `responses/shared/${folder}-${name}` });
        return { status, body: ref, headers, ...extra };
      });
    };

    const urlPath = urlPathCondition(key.path, basePath, split);
    const summary = operationSummary(o);
    const markOperation = label.replace(/\s+/g, ' ');
    const head = summary === '' ? label : `${label}: ${summary}`;
    const method = o.method;
    const rule = (
      response: string,
      what: string,
      a: Answer,
      extra: {
        prefer?: string;
        absent?: readonly string[];
        headers?: readonly (readonly [string, string])[];
        params?: readonly ParamCondition[];
      } = {},
    ): RuleSpec => ({
      comment: [head, what],
      mark: { operation: markOperation, response },
      method,
      urlPath,
      ...(extra.prefer === undefined ? {} : { prefer: extra.prefer }),
      ...(fragment.length === 0 && extra.params === undefined
        ? {}
        : { params: [...fragment, ...(extra.params ?? [])] }),
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
      const b = responseBody(d.response, doc, at(d.key));
      notes.push(...b.skipped.map((s) => `response \`${d.key}\`: ${s}`));
      contradictions.push(...(b.contradictions ?? []));
      if (b.body === undefined) continue;
      otherAnswers.push({ key: d.key, answers: answersOf(d.status, b.body, headersOf(d.key, d.response)) });
    }

    const opRules: RuleSpec[] = [];
    const security = securityRules(o, doc);
    notes.push(...security.skipped);
    const unauthorized = otherAnswers.find((x) => x.answers[0]!.status === 401)?.answers[0] ?? {
      status: 401,
      body: { kind: 'none' },
      headers: [],
    };
    for (const s of security.rules) {
      const pending = (s.elsewhere ?? []).find((c) => !WRITABLE_PLACES.has(c.in));
      if (pending !== undefined) {
        notes.push(REASONS.needsConditions('the 401 rule', pending.in, pending.name));
        continue;
      }
      const challenge: (readonly [string, string])[] =
        s.challenge === undefined ? [] : [['www-authenticate', s.challenge]];
      // an API key in the query or a cookie: the 401 rule asks for it to be absent there
      const elsewhere: ParamCondition[] = (s.elsewhere ?? []).map((c) => ({ in: c.in, name: c.name, op: 'absent' }));
      const missing = [...s.absent.map((h) => `\`${h}\``), ...elsewhere.map((c) => `the ${c.in} \`${c.name}\``)];
      opRules.push(
        rule(
          `401 auth ${[...s.absent, ...elsewhere.map((c) => c.name)].join('+')}`,
          `401 when ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} absent`,
          unauthorized,
          {
            absent: s.absent,
            headers: challenge,
            ...(elsewhere.length === 0 ? {} : { params: elsewhere }),
          },
        ),
      );
    }
    // code and example together, then code alone, then an example of the default answer, then the default
    for (const x of otherAnswers) {
      for (const a of x.answers.slice(1)) {
        if (a.example === undefined) continue;
        opRules.push(
          rule(
            `${a.status} ${a.example}`,
            `${a.status}, example ${a.example} (Prefer: code=${a.status}, example=${a.example})`,
            a,
            {
              prefer: preferBoth(a.status, a.example),
            },
          ),
        );
      }
    }
    for (const x of otherAnswers) {
      const a = x.answers[0]!;
      opRules.push(
        rule(
          `${a.status}`,
          `${a.status}${a.example === undefined ? '' : `, example ${a.example}`} (Prefer: code=${a.status})`,
          a,
          {
            prefer: preferToken('code', String(a.status)),
          },
        ),
      );
    }
    for (const a of mainAnswers.slice(1)) {
      if (a.example === undefined) continue;
      opRules.push(
        rule(`${a.status} ${a.example}`, `${a.status}, example ${a.example} (Prefer: example=${a.example})`, a, {
          prefer: preferToken('example', a.example),
        }),
      );
    }
    // a code the operation does not document is an error naming the documented ones, never the default success
    const first = mainAnswers[0]!;
    const documented = [...new Set([first.status, ...otherAnswers.map((x) => x.answers[0]!.status)])].sort(
      (a, b) => a - b,
    );
    const undocumented = {
      status: 400,
      body: { kind: 'text', text: REASONS.undocumentedCode(`${method} ${key.path}`, documented) },
      headers: [],
    } as const;
    opRules.push(
      rule('400 other-codes', `400 for any other Prefer: code=… (documented: ${documented.join(', ')})`, undocumented, {
        prefer: codeOtherThan(String(first.status)),
      }),
    );
    opRules.push(
      rule(
        `${first.status}`,
        `${first.status}${first.example === undefined ? '' : `, example ${first.example}`} (the default answer)`,
        first,
      ),
    );

    const group = split ? groupOf(o, key) : '';
    let list = groups.get(group);
    if (list === undefined) groups.set(group, (list = []));
    list.push(...uniqueMarks(opRules));
    files.push(...opFiles);
    notes.push(...contradictions.map((c) => REASONS.exampleContradicts(c)));
    operations.push({
      ...base,
      outcome: 'written',
      rules: opRules.length,
      files: opFiles.map((f) => f.path),
      notes,
      contradictions,
    });
  }
  if (opts.progress !== undefined) opts.progress(all.length, all.length);
  if (moved.size > 0)
    for (const [i, r] of operations.entries())
      if (r.files.some((f) => moved.has(f))) operations[i] = { ...r, files: r.files.map((f) => moved.get(f) ?? f) };

  const header = [
    `${title}${version === '' ? '' : ` ${version}`}: imported from ${opts.source} (OpenAPI ${openapi})`,
    `by \`${opts.command}\`.`,
    '',
    'One rule per operation and documented response, in match order (first_match). Each operation answers',
    'its first 2xx response by default; send `Prefer: code=<status>` (or `Prefer: example=<name>`) for the',
    'others. Bodies are the JSON files under responses/ (one written once for every operation that answers it',
    'is under responses/shared/). This file is yours: edit it, add conditions, reorder; importing again beside it',
    'writes new files (with -2, -3, …); `mock --init --from <document> --update` updates the rules and files you',
    'have not edited (their `# openapi:` markers say which: docs/openapi.md).',
  ];
  const ruleSets: PlannedFile[] = [];
  const planned: PlannedRule[] = [];
  const note = (ruleSet: string, rules: readonly RuleSpec[]): void => {
    for (const r of rules) {
      if (r.mark === undefined) continue;
      const text = ruleText(r);
      const m = MARKER.exec(text.split('\n').find((l) => MARKER.test(l)) ?? '');
      planned.push({
        ruleSet,
        operation: r.mark.operation,
        response: r.mark.response,
        text,
        hash: m?.[3] ?? '',
        ...(r.body.kind === 'file' ? { file: r.body.path } : {}),
      });
    }
  };
  if (ruleSetPath !== undefined) {
    note(ruleSetPath, groups.get('') ?? []);
    ruleSets.push({
      path: ruleSetPath,
      text: renderRuleSet({ header, ...(basePath === undefined ? {} : { basePath }), rules: groups.get('') ?? [] }),
    });
  } else {
    const folder = names.take(stem, '');
    const parts = packGroups([...groups].map(([name, rules]) => ({ names: [name], rules })));
    let n = 0;
    for (const { names: members, rules } of parts) {
      n++;
      const first = members[0]!;
      const what = (g: string): string => (g.startsWith('/') ? `under ${g}` : `tagged ${g}`);
      const title =
        members.length === 1 ? what(first) : `${what(first)} to ${what(members.at(-1)!)} (${members.length} groups)`;
      const stemOf =
        members.length === 1
          ? safeName(first, 'root')
          : `${safeName(first, 'root')}--${safeName(members.at(-1)!, 'root')}`;
      const part = [`Part ${n} of ${parts.length}: the operations ${title}.`, ''];
      const path = names.take(`${folder}/${stemOf}`, '.toml');
      note(path, rules);
      ruleSets.push({
        path,
        text: renderRuleSet({ header: [...header.slice(0, 3), ...part, ...header.slice(3)], rules }),
      });
    }
  }
  return {
    title,
    version,
    openapi,
    ...(basePath === undefined || split ? {} : { basePath }),
    ruleSets,
    files,
    operations,
    rules: planned,
  };
}

/** Two rules of one operation never share a marker: a repeat gets ` #2`, ` #3`, … */
function uniqueMarks(rules: readonly RuleSpec[]): RuleSpec[] {
  const seen = new Set<string>();
  return rules.map((r) => {
    if (r.mark === undefined) return r;
    let response = r.mark.response;
    for (let n = 2; seen.has(response); n++) response = `${r.mark.response} #${n}`;
    seen.add(response);
    return response === r.mark.response ? r : { ...r, mark: { ...r.mark, response } };
  });
}

/** at most this many rule sets: beyond it, neighbouring groups share one (a document without tags and with a
 * first path segment per resource would otherwise give a file per resource) */
const MAX_RULE_SETS = 100;

/** Neighbouring groups merged, in order, until there are at most MAX_RULE_SETS, each of about the same size. */
function packGroups(
  groups: readonly { readonly names: readonly string[]; readonly rules: readonly RuleSpec[] }[],
): { names: string[]; rules: RuleSpec[] }[] {
  const total = groups.reduce((n, g) => n + g.rules.length, 0);
  for (let size = Math.ceil(total / MAX_RULE_SETS); ; size *= 2) {
    const out: { names: string[]; rules: RuleSpec[] }[] = [];
    for (const g of groups) {
      const last = out.at(-1);
      if (groups.length > MAX_RULE_SETS && last !== undefined && last.rules.length + g.rules.length <= size) {
        last.names.push(...g.names);
        last.rules.push(...g.rules);
      } else out.push({ names: [...g.names], rules: [...g.rules] });
    }
    if (out.length <= MAX_RULE_SETS) return out;
  }
}

/** A split import's group: the first tag, else the first path segment (`/pets`, `/` for the root). */
function groupOf(o: Operation, key: PathKey): string {
  const tags = o.op['tags'];
  if (Array.isArray(tags) && typeof tags[0] === 'string' && tags[0].trim() !== '') return tags[0];
  const first = key.path.split('/').find((s) => s !== '');
  return first === undefined ? '/' : '/' + first;
}

/**
 * The conditions a path key's fragment stands for: `#Name=Value` an `equal` on the parameter of that name the
 * operation declares (header or query), a bare `#name` an `exists` on that query parameter (or header, when the
 * operation declares a header of that name). A string: why the operation is left out.
 */
function fragmentConditions(o: Operation, key: PathKey, doc: Obj): readonly ParamCondition[] | string {
  if (key.fragment === undefined) return [];
  const declared = [
    ...(o.shared ?? []),
    ...(Array.isArray(o.op['parameters']) ? (o.op['parameters'] as unknown[]) : []),
  ]
    .map((p) => deref(doc, p))
    .filter(isObj);
  const out: ParamCondition[] = [];
  for (const part of key.fragment) {
    const found = declared.find((p) => {
      const n = strAt(p, 'name');
      const where = strAt(p, 'in');
      if (n === undefined) return false;
      if (where === 'header') return n.toLowerCase() === part.name.toLowerCase();
      return where === 'query' && n === part.name;
    });
    const place =
      found === undefined
        ? part.value === undefined
          ? 'query'
          : undefined
        : (strAt(found, 'in') as 'header' | 'query');
    if (place === undefined) return REASONS.fragmentUnknown(part.name);
    const name = place === 'header' ? part.name.toLowerCase() : part.name;
    out.push(
      part.value === undefined
        ? { in: place, name, op: 'exists' }
        : { in: place, name, op: 'equal', value: part.value },
    );
  }
  const pending = out.find((c) => !WRITABLE_PLACES.has(c.in));
  if (pending !== undefined) return REASONS.needsConditions('the operation', pending.in, pending.name);
  return out;
}

function normalizeBase(p: string): string | undefined {
  const t = p.trim().replace(/\/+$/, '');
  if (t === '') return undefined;
  return t.startsWith('/') ? t : '/' + t;
}
