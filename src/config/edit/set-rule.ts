// planSetRule: decide the text edits for `mock set rule`, purely, from the flags and the current file texts.
//
// A new rule is appended as a `[[rules]]` table at the end of the rule-set file (never inserted), so every
// existing address (rule-set file, 0-based index) stays valid. An existing rule is changed key by key:
// only what a flag names is touched, values are replaced where they are written (dotted keys, inline
// tables, `[rules.respond]` sub-tables alike), and a body kind swap (`text` → `json`) renames the key in
// place. Every result is re-parsed and compared with the expected data before it is offered, so an edit
// that would change anything else is refused instead of written.
// Left out: reading and writing files, checking that the result loads (its I/O half, config/edit/io/set-rule.ts, does both).
import { dirname, relative, sep } from 'node:path';
import { err, ok, type Result } from '../../shared/result.js';
import { planConfig } from './config-edit.js';
import {
  SET_RULE_MESSAGES,
  type Change,
  type FileState,
  type FileWrite,
  type PlanFailure,
  type SetRuleArgs,
} from './plan-types.js';
import { planRuleSet } from './rule-edit.js';

export interface SetRuleInput {
  readonly config: FileState;
  readonly ruleSet: FileState;
  /** a bootstrapped config's service.fallback_respond_dir (relative to its folder; default ".") */
  readonly bootstrapFallbackDir?: string;
  /** a bootstrapped config's listener.port (default 3001) */
  readonly bootstrapPort?: number;
  /** what the rule matches once edited (`GET /b`), from the edited rule-set text; shown in the summary */
  readonly describeRule?: (afterText: string, ruleIndex: number) => string | undefined;
}

export interface SetRulePlan {
  /** only files whose text changes; the rule set comes first, so a config never lists a file not yet written */
  readonly files: readonly FileWrite[];
  readonly changes: readonly Change[];
  /** 0-based index of the rule added or edited */
  readonly ruleIndex: number;
  /** 0-based position of the rule set in service.rule_sets */
  readonly ruleSetIndex: number;
  readonly added: boolean;
  /** rule keys that were written, e.g. `respond.status` */
  readonly fields: readonly string[];
  /** the service.rule_sets entry for the rule set (relative to the config's folder) */
  readonly ruleSetEntry: string;
}

/** Flag combinations that can never succeed, before any file is looked at. */
export function checkArgs(args: SetRuleArgs): PlanFailure | undefined {
  const usage = (message: string): PlanFailure => ({ kind: 'usage', message });
  const respond =
    args.status !== undefined ||
    args.body !== undefined ||
    args.stream !== undefined ||
    args.websocketScript !== undefined;
  const condition =
    args.urlPath !== undefined ||
    args.method !== undefined ||
    args.headers.length > 0 ||
    (args.fields ?? []).length > 0 ||
    args.bodyContains !== undefined;
  if (args.ruleIndex !== undefined) {
    if (args.stream !== undefined || args.websocketScript !== undefined)
      return usage(SET_RULE_MESSAGES.streamOnNewRule());
    if (!respond && !condition && args.delayMs === undefined && (args.respondHeaders ?? []).length === 0)
      return usage(SET_RULE_MESSAGES.nothingToChange());
    return undefined;
  }
  if (!respond) return usage(SET_RULE_MESSAGES.nothingToRespond());
  if (!condition) return usage(SET_RULE_MESSAGES.nothingToMatch());
  return undefined;
}

/** The service.rule_sets entry naming `ruleSetAbs`, relative to the config's folder, with '/' separators. */
export function ruleSetEntryFor(configAbs: string, ruleSetAbs: string): string {
  return relative(dirname(configAbs), ruleSetAbs).split(sep).join('/');
}

const q = (s: string): string => '`' + s + '`';

export function planSetRule(args: SetRuleArgs, input: SetRuleInput): Result<SetRulePlan, PlanFailure> {
  const bad = checkArgs(args);
  if (bad !== undefined) return err(bad);
  const entry = ruleSetEntryFor(input.config.abs, input.ruleSet.abs);

  const cfg = planConfig(
    args.ruleIndex,
    input.config,
    input.ruleSet,
    entry,
    input.bootstrapFallbackDir,
    input.bootstrapPort,
  );
  if (!cfg.ok) return cfg;
  const rs = planRuleSet(args, input.ruleSet);
  if (!rs.ok) return rs;

  const { ruleIndex, added, fields } = rs.value;
  const k = cfg.value.ruleSetIndex;
  const ruleTarget = `rule set ${q(input.ruleSet.shown)}, rule #${ruleIndex + 1}`;
  const changes: Change[] = [];
  const described = input.describeRule?.(rs.value.after, ruleIndex);
  const matches = described === undefined ? '' : ` (${described})`;
  if (added)
    changes.push({
      kind: 'Added',
      target: ruleTarget,
      summary: `added rule #${ruleIndex + 1} in rule set #${k + 1}${matches}`,
    });
  else if (fields.length > 0) {
    changes.push({
      kind: 'Updated',
      target: ruleTarget,
      summary: `rule #${ruleIndex + 1} in rule set #${k + 1}${matches}: ${fields.join(', ')}`,
    });
  }
  if (input.ruleSet.text === undefined) {
    changes.push({
      kind: 'Added',
      target: `rule set ${q(input.ruleSet.shown)}`,
      summary: `new file, rule set #${k + 1} (${entry})`,
    });
  }
  if (cfg.value.change !== undefined) changes.push(cfg.value.change);

  const files: FileWrite[] = [];
  if (rs.value.after !== input.ruleSet.text) files.push(write(input.ruleSet, rs.value.after));
  if (cfg.value.after !== undefined && cfg.value.after !== input.config.text)
    files.push(write(input.config, cfg.value.after));
  return ok({ files, changes, ruleIndex, ruleSetIndex: k, added, fields, ruleSetEntry: entry });
}

function write(f: FileState, after: string): FileWrite {
  return { abs: f.abs, shown: f.shown, before: f.text, after };
}
