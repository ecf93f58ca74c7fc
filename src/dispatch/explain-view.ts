// What a dispatch Outcome says about who answered and why, as data: the `stage`, `matched` and `why` of
// `mock get --format json` (docs/output.md#the-json-envelope---format-json), and of every request journal entry. One encoder for both,
// so an entry's why is, field for field, what `get` prints for the same request. The views are camelCase data
// (the journal hands them to library callers); the *ToWire functions give the snake_case wire form, in the
// field order `get` prints. Everything is reshaped from what dispatch() and the real matcher reported
// (Outcome.stage, Outcome.explanation): no condition is re-checked. Text rendering stays in cli/render/why.ts.
import type { RuleCheck } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { describeCondition } from '../routing/describe.js';
import { assertNever } from '../shared/result.js';
import type { Wire } from '../shared/wire.js';
import type { MatchedWire, TemplateWire, WhyRuleWire, WhyWire } from './explain-wire.js';
import type { Outcome, Stage } from './dispatch.js';
import type { RuleSetExplanation } from './explain.js';
import type { TemplateUse } from './templated.js';

/** How rule set and middleware files are shown (`get`: relative to the current directory, as `set rule --rule-set` takes them). */
export interface ShownPaths {
  ruleSet(index: number): string;
  middleware(index: number): string;
}

/** The wire values of `stage`; a fallback hit and a miss are both `dyn_route`, as the reference reports them. */
export const STAGE_NAMES = [
  'options',
  'bad_request',
  'contract',
  'override',
  'middleware',
  'rule_set',
  'prefix_miss',
  'collection',
  'dyn_route',
] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** The rule that answered (0-based indices), or null in views when no rule did. */
export interface MatchedView {
  readonly ruleSetIndex: number;
  readonly ruleSetFile: string;
  readonly ruleIndex: number;
}

export interface WhyConditionView {
  /** `url_path`, `method`, `header:<name>`, `body.json:<path>` */
  readonly name: string;
  readonly expectation: string;
  /** the value the matcher saw; null when absent */
  readonly actual: string | null;
  readonly matched: boolean;
}

export interface WhyRuleView {
  readonly ruleIndex: number;
  readonly matched: boolean;
  readonly conditions: readonly WhyConditionView[];
}

export interface WhyRuleSetView {
  readonly ruleSetIndex: number;
  readonly ruleSetFile: string;
  /** empty when the rule set's prefix did not claim the path */
  readonly rules: readonly WhyRuleView[];
}

/** A runtime override as checked against the request. */
export interface WhyOverrideView {
  readonly id: number;
  /** the session it belongs to; absent: a shared one */
  readonly session?: string;
  readonly matched: boolean;
  readonly conditions: readonly WhyConditionView[];
}

export interface WhyView {
  /** one sentence on which stage answered */
  readonly note: string;
  /** the fallback file that answered (or was denied), relative to the fallback directory */
  readonly file?: string;
  /** the service.deny pattern that kept `file` from being served */
  readonly deniedBy?: string;
  /** the runtime overrides checked first (newest first; a session's before the shared ones), when there were any */
  readonly overrides?: readonly WhyOverrideView[];
  /** the rule sets consulted, in order, up to and including the one that answered */
  readonly ruleSets: readonly WhyRuleSetView[];
  /** a templated rule's answer: its template sources and the values the request gave the paths they name */
  readonly template?: TemplateUse;
}

export function stageName(stage: Stage): StageName {
  switch (stage.kind) {
    case 'fallback':
    case 'miss':
      return 'dyn_route';
    default:
      return stage.kind;
  }
}

export function matchedView(stage: Stage, shown: ShownPaths): MatchedView | null {
  if (stage.kind !== 'rule_set') return null;
  return {
    ruleSetIndex: stage.ruleSetIndex,
    ruleSetFile: shown.ruleSet(stage.ruleSetIndex),
    ruleIndex: stage.ruleIndex,
  };
}

/** What the fallback directory was asked for, in file names a user knows: `nothing`, `nothing.json`, … */
export function triedFiles(requestPath: string): string {
  const rel = requestPath.split('?')[0]!.replace(/^\/+|\/+$/g, '');
  if (rel === '') return 'index.json, index.json5, index.csv, index.html';
  const last = rel.slice(rel.lastIndexOf('/') + 1);
  if (last.includes('.')) return `${rel}, ${rel}/index.*`;
  return `${rel}, ${rel}.json, ${rel}.json5, ${rel}.csv, ${rel}/index.* (case-insensitively)`;
}

/** A file that answered (or was denied), relative to the fallback directory, '/'-separated. */
export function fallbackFile(ws: Workspace, file: string): string {
  const root = ws.fallbackDir;
  const rest = file.startsWith(root) ? file.slice(root.length) : file;
  return rest.replace(/\\/g, '/').replace(/^\/+/, '');
}

/** What each collection route does, as `--why` says it. */
const COLLECTION_ACTIONS = {
  list: 'list, with json-server query parameters',
  show: 'one item by id, or the single resource',
  create: 'create an item',
  replace: 'replace an item',
  update: 'update an item',
  delete: 'delete an item',
} as const;

export function whyNote(stage: Stage, ws: Workspace, shown: ShownPaths, requestPath?: string): string {
  switch (stage.kind) {
    case 'options':
      return 'OPTIONS request \u2014 handled directly, no rule-set matching involved.';
    case 'bad_request':
      return 'The request body is declared as JSON but does not parse \u2014 answered 400 before any script or rule set.';
    case 'contract':
      return 'The request breaks the API contract (--contract, enforce mode) \u2014 answered 400 before any script or rule set.';
    case 'override':
      return `Answered by runtime override #${stage.id}${stage.session === undefined ? '' : ` of session ${stage.session}`}, before the workspace's scripts and rule sets.`;
    case 'middleware':
      return `Answered by middleware #${stage.index + 1} (${shown.middleware(stage.index)}), before any rule set.`;
    case 'rule_set':
      return 'Answered from a rule set.';
    case 'prefix_miss': {
      const prefix = ws.ruleSets[stage.ruleSetIndex]?.prefix ?? '';
      return `Rule set #${stage.ruleSetIndex + 1} claims this path by its prefix (${prefix}) and no rule matched \u2014 answered 404.`;
    }
    case 'collection': {
      const owner =
        stage.ruleSetIndex === undefined
          ? `the db file ${fallbackFile(ws, stage.file)}, after every rule set`
          : `rule set #${stage.ruleSetIndex + 1}, after none of its rules matched`;
      return `Answered by the collection at ${stage.path} (${COLLECTION_ACTIONS[stage.action]}) from ${owner}; its data lives in the server's state, seeded from ${fallbackFile(ws, stage.file)}.`;
    }
    case 'fallback':
      return `No rule set matched; answered from the fallback directory by the file ${fallbackFile(ws, stage.file)}.`;
    case 'miss': {
      if (stage.denied !== undefined) {
        const by = ws.deny?.isDefault === false ? 'service.deny' : 'the default service.deny list';
        return `No rule set matched; the file ${fallbackFile(ws, stage.denied.file)} is never served: denied by ${stage.denied.pattern === 'the TLS files this config names' ? stage.denied.pattern : `the pattern ${stage.denied.pattern}`} (${by}) \u2014 answered 404.`;
      }
      const tried = requestPath === undefined ? '' : `: tried ${triedFiles(requestPath)}`;
      return `No rule set matched and no file in the fallback directory answers${tried} \u2014 answered 404.`;
    }
    default:
      return assertNever(stage, 'stage');
  }
}

/** The why of an Outcome dispatched with `{ explain: true }` (without it, `ruleSets` is empty). */
export function whyView(outcome: Outcome, ws: Workspace, shown: ShownPaths, requestPath?: string): WhyView {
  const file =
    outcome.stage.kind === 'fallback'
      ? outcome.stage.file
      : outcome.stage.kind === 'miss'
        ? outcome.stage.denied?.file
        : undefined;
  return {
    note: whyNote(outcome.stage, ws, shown, requestPath),
    ...(file === undefined ? {} : { file: fallbackFile(ws, file) }),
    ...(outcome.stage.kind === 'miss' && outcome.stage.denied !== undefined
      ? { deniedBy: outcome.stage.denied.pattern }
      : {}),
    ...(outcome.explanation?.overrides === undefined
      ? {}
      : {
          overrides: outcome.explanation.overrides.map(
            (o): WhyOverrideView => ({
              id: o.id,
              ...(o.session === undefined ? {} : { session: o.session }),
              matched: o.check.matched,
              conditions: whyRuleView(o.check).conditions,
            }),
          ),
        }),
    ruleSets: (outcome.explanation?.ruleSets ?? []).map((rs) => whyRuleSetView(rs, shown)),
    ...(outcome.template !== undefined ? { template: outcome.template } : {}),
  };
}

function whyRuleSetView(rs: RuleSetExplanation, shown: ShownPaths): WhyRuleSetView {
  return {
    ruleSetIndex: rs.ruleSetIndex,
    ruleSetFile: shown.ruleSet(rs.ruleSetIndex),
    rules: rs.rules.map(whyRuleView),
  };
}

export function whyRuleView(rule: RuleCheck): WhyRuleView {
  return {
    ruleIndex: rule.ruleIndex,
    matched: rule.matched,
    conditions: rule.conditions.map(({ condition, check }) => {
      const d = describeCondition(condition);
      return { name: d.name, expectation: d.expectation, actual: check.actual ?? null, matched: check.ok };
    }),
  };
}

/** `matched` as `get` prints it: keys in alphabetical order. */
export function matchedToWire(m: MatchedView | null): MatchedWire | null {
  return m === null ? null : { rule_index: m.ruleIndex, rule_set_file: m.ruleSetFile, rule_set_index: m.ruleSetIndex };
}

export function whyToWire(why: WhyView): WhyWire {
  return {
    note: why.note,
    ...(why.file === undefined ? {} : { file: why.file }),
    ...(why.deniedBy === undefined ? {} : { denied_by: why.deniedBy }),
    ...(why.overrides === undefined
      ? {}
      : {
          overrides: why.overrides.map((o) => ({
            id: o.id,
            ...(o.session === undefined ? {} : { session: o.session }),
            matched: o.matched,
            conditions: whyRuleToWire({ ruleIndex: 0, matched: o.matched, conditions: o.conditions }).conditions,
          })),
        }),
    rule_sets: why.ruleSets.map((rs) => ({
      rule_set_index: rs.ruleSetIndex,
      rule_set_file: rs.ruleSetFile,
      rules: rs.rules.map(whyRuleToWire),
    })),
    ...(why.template !== undefined ? { template: templateToWire(why.template) } : {}),
  };
}

/** A template's use on the wire: the sources by part, and each named path with the value it had (JSON; null when absent). */
export function templateToWire(t: TemplateUse): TemplateWire {
  return {
    sources: t.sources.map((s) => ({ part: s.part, source: s.source })),
    values: t.values.map((v) => ({ path: v.path, value: toWireValue(v.value) })),
  };
}

function toWireValue(v: unknown): Wire {
  if (v === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)) ?? 'null') as Wire;
  } catch {
    // a value JSON cannot hold (a cycle): shown by its type
    return Object.prototype.toString.call(v);
  }
}

export function whyRuleToWire(rule: WhyRuleView): WhyRuleWire {
  return {
    rule_index: rule.ruleIndex,
    matched: rule.matched,
    conditions: rule.conditions.map((c) => ({
      name: c.name,
      expectation: c.expectation,
      actual: c.actual,
      matched: c.matched,
    })),
  };
}
