// One operation of an OpenAPI document → its rules, response files and report (plan.ts's planImport calls it for
// each operation in match order; update.ts's planUpdate matches what it planned by the rules' markers). Per
// operation, in this order: the 401 rules of its security requirement, then one rule per further documented
// response and named example, each selected by the request header `Prefer` (`code=<status>`, `example=<name>`,
// or both), then the 400 for an undocumented code, then the default answer (its first 2xx response, else
// `default`, else the first documented one). Pure: names and shared bodies are the import's (ImportContext).
import { isMethod, type Method } from '../model/operators.js';
import { responseBody, responseHeaders, type ResponseBody } from './bodies.js';
import { withOpenApiCallbacks } from './callbacks.js';
import {
  deref,
  entriesOf,
  isObj,
  operationLabel,
  operationSummary,
  pointerOf,
  strAt,
  type Obj,
  type Operation,
} from './document.js';
import { REASONS } from './messages.js';
import { escapeRegex, operationFolder, safeName, splitPathKey, urlPathCondition, type PathKey } from './paths.js';
import type { OperationReport, PlannedFile } from './plan.js';
import { WRITABLE_PLACES, type ParamCondition, type RuleBody, type RuleSpec } from './render.js';
import { securityRules } from './security.js';

/** The root config is never a rule-set name. */
const RESERVED = new Set(['mock.toml']);

export class Names {
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
  doc: Obj,
  notes: string[],
):
  | {
      readonly main: Documented & { readonly status: number };
      readonly others: readonly (Documented & { readonly status: number })[];
    }
  | undefined {
  const all: Documented[] = [];
  for (const [key, written] of entriesOf(deref(doc, op['responses']) as Obj | undefined)) {
    const response = deref(doc, written);
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

export function jsonText(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value, null, 2) + '\n';
}

/** the text of a body value, made once per value object (a sampled value is shared by every operation that has
 * its schema: sample.ts's sampleSchemaOnce) */
const texts = new WeakMap<object, string>();
function bodyText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return jsonText(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = jsonText(value)));
  return text;
}

/** What every operation of one import shares: the document, the names taken so far, the bodies written. */
export interface ImportContext {
  readonly doc: Obj;
  /** file names (rule sets and response files) */
  readonly names: Names;
  /** one response folder per operation */
  readonly folders: Names;
  readonly basePath: string | undefined;
  /** one rule set per group (a large document) */
  readonly split: boolean;
  /** JSON bodies by their text: an identical body is written once (docs/openapi.md) */
  readonly bodies: Map<string, SharedBody>;
  /** a body's first path → its path under responses/shared/, once a second operation answers it */
  readonly moved: Map<string, string>;
}

interface SharedBody {
  file: { path: string; text: string };
  body: { kind: 'file'; path: string };
  shared: boolean;
  sharedStem: string;
}

export function importContext(doc: Obj, names: Names, basePath: string | undefined, split: boolean): ImportContext {
  return { doc, names, folders: new Names(() => false), basePath, split, bodies: new Map(), moved: new Map() };
}

/** An operation planned: its report, and when written, its rules (in match order), files and rule-set group. */
export type OperationPlan =
  | { readonly report: OperationReport; readonly rules?: undefined }
  | {
      readonly report: OperationReport;
      readonly rules: readonly RuleSpec[];
      readonly files: readonly PlannedFile[];
      /** the rule set's group ('' unless the import is split) */
      readonly group: string;
    };

export function planOperation(o: Operation, ctx: ImportContext): OperationPlan {
  const { doc } = ctx;
  const label = operationLabel(o);
  const pointer = pointerOf(['paths', o.path, o.method.toLowerCase()]);
  const base = { operation: label, method: o.method, path: o.path, pointer, contradictions: [] };
  const skip = (why: string): OperationPlan => ({
    report: { ...base, outcome: 'skipped', rules: 0, files: [], notes: [why] },
  });
  const gate = operationGate(o, doc);
  if (typeof gate === 'string') return skip(gate);
  const { key, fragment, method } = gate;
  const notes: string[] = [];
  const contradictions: string[] = [];
  const at = (k: string): string[] => ['paths', o.path, o.method.toLowerCase(), 'responses', k];
  const sorted = sortResponses(o.op, doc, notes);
  if (sorted === undefined) return skip(REASONS.noResponses());
  const mainBody = responseBody(sorted.main.response, doc, at(sorted.main.key));
  if (mainBody.body === undefined)
    return skip(REASONS.responseUnanswerable(sorted.main.key, mainBody.skipped.join('; ')));
  notes.push(...mainBody.skipped.map((s) => `response \`${sorted.main.key}\`: ${s}`));
  contradictions.push(...(mainBody.contradictions ?? []));
  const opFiles: PlannedFile[] = [];
  const answersOf = answerMaker(ctx, ctx.folders.take(operationFolder(o), ''), opFiles);
  const headersOf = (key: string, response: Obj): readonly (readonly [string, string])[] => {
    const h = responseHeaders(response, doc);
    notes.push(...h.skipped.map((s) => `response \`${key}\`: ${s}`));
    return h.headers;
  };
  const mainAnswers = answersOf(sorted.main.status, mainBody.body, headersOf(sorted.main.key, sorted.main.response));
  const otherAnswers: OtherAnswers[] = [];
  for (const d of sorted.others) {
    const b = responseBody(d.response, doc, at(d.key));
    notes.push(...b.skipped.map((s) => `response \`${d.key}\`: ${s}`));
    contradictions.push(...(b.contradictions ?? []));
    if (b.body === undefined) continue;
    otherAnswers.push({ key: d.key, answers: answersOf(d.status, b.body, headersOf(d.key, d.response)) });
  }
  const rule = ruleMaker(o, method, label, urlPathCondition(key.path, ctx.basePath, ctx.split), fragment);
  const opRules = [
    ...securityRuleSpecs(o, doc, otherAnswers, rule, notes),
    ...preferRules(otherAnswers, mainAnswers, rule),
    ...defaultRules(`${o.method} ${key.path}`, otherAnswers, mainAnswers, rule),
  ];
  notes.push(...contradictions.map((c) => REASONS.exampleContradicts(c)));
  return {
    report: {
      ...base,
      outcome: 'written',
      rules: opRules.length,
      files: opFiles.map((f) => f.path),
      notes,
      contradictions,
    },
    rules: uniqueMarks(withOpenApiCallbacks(opRules, o.op, doc, notes)),
    files: opFiles,
    group: ctx.split ? groupOf(o, key) : '',
  };
}

/** Whether an operation can be imported at all: its path key and the fragment's conditions, or why not. */
function operationGate(
  o: Operation,
  doc: Obj,
): { key: PathKey; fragment: readonly ParamCondition[]; method: Method } | string {
  if (o.method === 'OPTIONS') return REASONS.optionsMethod();
  if (!isMethod(o.method)) return REASONS.unsupportedMethod(o.method);
  const key = splitPathKey(o.path);
  if (key.path.includes('?')) return REASONS.queryInPath();
  const fragment = fragmentConditions(o, key, doc);
  return typeof fragment === 'string' ? fragment : { key, fragment, method: o.method };
}

interface OtherAnswers {
  readonly key: string;
  readonly answers: readonly Answer[];
}

type AnswersOf = (
  status: number,
  body: ResponseBody,
  documented: readonly (readonly [string, string])[],
) => readonly Answer[];

/** An operation's answers to one documented response: its body (a file, shared when another has it) and headers. */
function answerMaker(ctx: ImportContext, folder: string, opFiles: PlannedFile[]): AnswersOf {
  const { names, bodies, moved } = ctx;
  return (status, body, documented) => {
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
      const text = bodyText(v.value);
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
}

interface RuleExtra {
  prefer?: string;
  absent?: readonly string[];
  headers?: readonly (readonly [string, string])[];
  params?: readonly ParamCondition[];
}

type MakeRule = (response: string, what: string, a: Answer, extra?: RuleExtra) => RuleSpec;

/** The rules of one operation: its comment, marker, method, path and fragment conditions, and what each adds. */
function ruleMaker(
  o: Operation,
  method: Method,
  label: string,
  urlPath: ReturnType<typeof urlPathCondition>,
  fragment: readonly ParamCondition[],
): MakeRule {
  const summary = operationSummary(o);
  const markOperation = label.replace(/\s+/g, ' ');
  const head = summary === '' ? label : `${label}: ${summary}`;
  return (response, what, a, extra = {}) => ({
    comment: [head, what],
    mark: { operation: markOperation, response },
    method,
    urlPath,
    ...(extra.prefer === undefined ? {} : { prefer: extra.prefer }),
    ...(fragment.length === 0 && extra.params === undefined ? {} : { params: [...fragment, ...(extra.params ?? [])] }),
    absent: extra.absent ?? [],
    status: a.status,
    body: a.body,
    headers: [...a.headers, ...(extra.headers ?? [])],
  });
}

/** The 401 rules of the operation's security requirement, answered as its documented 401 (else an empty 401). */
function securityRuleSpecs(
  o: Operation,
  doc: Obj,
  otherAnswers: readonly OtherAnswers[],
  rule: MakeRule,
  notes: string[],
): RuleSpec[] {
  const out: RuleSpec[] = [];
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
    out.push(
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
  return out;
}

/** Code and example together, then code alone, then an example of the default answer. */
function preferRules(
  otherAnswers: readonly OtherAnswers[],
  mainAnswers: readonly Answer[],
  rule: MakeRule,
): RuleSpec[] {
  const out: RuleSpec[] = [];
  for (const x of otherAnswers) {
    for (const a of x.answers.slice(1)) {
      if (a.example === undefined) continue;
      out.push(
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
    out.push(
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
    out.push(
      rule(`${a.status} ${a.example}`, `${a.status}, example ${a.example} (Prefer: example=${a.example})`, a, {
        prefer: preferToken('example', a.example),
      }),
    );
  }
  return out;
}

/** A code the operation does not document is an error naming the documented ones; then the default answer. */
function defaultRules(
  what: string,
  otherAnswers: readonly OtherAnswers[],
  mainAnswers: readonly Answer[],
  rule: MakeRule,
): RuleSpec[] {
  const first = mainAnswers[0]!;
  const documented = [...new Set([first.status, ...otherAnswers.map((x) => x.answers[0]!.status)])].sort(
    (a, b) => a - b,
  );
  const undocumented = {
    status: 400,
    body: { kind: 'text', text: REASONS.undocumentedCode(what, documented) },
    headers: [],
  } as const;
  return [
    rule('400 other-codes', `400 for any other Prefer: code=… (documented: ${documented.join(', ')})`, undocumented, {
      prefer: codeOtherThan(String(first.status)),
    }),
    rule(
      `${first.status}`,
      `${first.status}${first.example === undefined ? '' : `, example ${first.example}`} (the default answer)`,
      first,
    ),
  ];
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
