// The mapping `OpenAPI document → import plan`, pure: the rule set's text, the response files, and one report
// per operation (written, or skipped with the reason; parts left out are listed too). Names already taken
// (`taken`) or used earlier in the same import get `-2`, `-3`, …, so nothing is ever overwritten.
//
// Each operation's rules, files and report are operation.ts's planOperation. Operations are ordered literal
// paths first, then templated ones by OpenAPI's precedence.
// A path key with a fragment (`/#X-Amz-Target=X.Y`, `/users#operation=create`, `/tags/{arn}#tagKeys`) is the
// path before `#` plus a condition on the parameter the fragment names. A document with more than
// SPLIT_OPERATIONS operations gets one rule set per tag (else per first path segment), in a folder named after
// the document, without a prefix (each rule names its whole path: a prefix claims its paths for one rule set).
// Left out: reading, resolving and validating the document, and writing (the CLI does those).
import { objAt, operationsOf, strAt, type Obj } from './document.js';
import { importContext, Names, planOperation } from './operation.js';
import { basePathOf, orderOperations, safeName, titleSlug } from './paths.js';
import { MARKER, renderRuleSet, ruleText, type RuleSpec } from './render.js';

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

/** An import planned one operation at a time (the CLI yields between them, so that Ctrl-C is heard). */
export interface ImportPlanner {
  /** how many operations the document has */
  readonly total: number;
  /** plan the next operation; false when every one is planned */
  next(): boolean;
  /** the plan, once next() has returned false */
  finish(): ImportPlan;
}

export function planImport(doc: Obj, opts: ImportOptions): ImportPlan {
  const planner = startImport(doc, opts);
  while (planner.next());
  return planner.finish();
}

export function startImport(doc: Obj, opts: ImportOptions): ImportPlanner {
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
  const ctx = importContext(doc, names, basePath, split);
  const files: PlannedFile[] = [];
  const groups = new Map<string, RuleSpec[]>();
  const operations: OperationReport[] = [];
  let done = 0;
  const next = (): boolean => {
    if (opts.progress !== undefined) opts.progress(done, all.length);
    const o = all[done];
    if (o === undefined) return false;
    done++;
    const planned = planOperation(o, ctx);
    operations.push(planned.report);
    if (planned.rules === undefined) return true;
    let list = groups.get(planned.group);
    if (list === undefined) groups.set(planned.group, (list = []));
    list.push(...planned.rules);
    files.push(...planned.files);
    return true;
  };
  const finish = (): ImportPlan => {
    if (ctx.moved.size > 0)
      for (const [i, r] of operations.entries())
        if (r.files.some((f) => ctx.moved.has(f)))
          operations[i] = { ...r, files: r.files.map((f) => ctx.moved.get(f) ?? f) };
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
    const { ruleSets, planned } =
      ruleSetPath !== undefined
        ? oneRuleSet(ruleSetPath, header, basePath, groups.get('') ?? [])
        : splitRuleSets(names.take(stem, ''), header, groups, names);
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
  };
  return { total: all.length, next, finish };
}

interface RuleSetFiles {
  readonly ruleSets: PlannedFile[];
  readonly planned: PlannedRule[];
}

/** Every marked rule of a rule set, as `--update` finds it (update.ts). */
function plannedRules(ruleSet: string, rules: readonly RuleSpec[]): PlannedRule[] {
  const planned: PlannedRule[] = [];
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
  return planned;
}

function oneRuleSet(
  path: string,
  header: readonly string[],
  basePath: string | undefined,
  rules: readonly RuleSpec[],
): RuleSetFiles {
  return {
    ruleSets: [{ path, text: renderRuleSet({ header, ...(basePath === undefined ? {} : { basePath }), rules }) }],
    planned: plannedRules(path, rules),
  };
}

/** A split import: the groups packed into at most MAX_RULE_SETS rule sets, in a folder named after the document. */
function splitRuleSets(
  folder: string,
  header: readonly string[],
  groups: ReadonlyMap<string, RuleSpec[]>,
  names: Names,
): RuleSetFiles {
  const ruleSets: PlannedFile[] = [];
  const planned: PlannedRule[] = [];
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
    planned.push(...plannedRules(path, rules));
    ruleSets.push({
      path,
      text: renderRuleSet({ header: [...header.slice(0, 3), ...part, ...header.slice(3)], rules }),
    });
  }
  return { ruleSets, planned };
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

function normalizeBase(p: string): string | undefined {
  const t = p.trim().replace(/\/+$/, '');
  if (t === '') return undefined;
  return t.startsWith('/') ? t : '/' + t;
}
