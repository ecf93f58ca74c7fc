// The `--why` explanation of `mock get` (reference §9.3), as text and as wire data. Everything here is a
// reshaping of what dispatch() and the real matcher reported (Outcome.stage, Outcome.explanation):
// no condition is re-checked.
import type { Outcome, Stage } from '../../dispatch/dispatch.js';
import type { RuleSetExplanation } from '../../dispatch/explain.js';
import type { ConditionCheck, RuleCheck } from '../../model/rule-set.js';
import type { Workspace } from '../../model/workspace.js';
import { describeCondition } from '../../routing/describe.js';
import { assertNever } from '../../shared/result.js';
import type { Wire } from '../envelope.js';

export const MARK_OK = '\u2713';
export const MARK_FAIL = '\u2717';
export const ABSENT = '(absent)';

export interface ShownPaths {
  /** the rule set's file as shown (and as `set rule --rule-set` takes it) */
  ruleSet(index: number): string;
  middleware(index: number): string;
}

export function whyNote(stage: Stage, ws: Workspace, shown: ShownPaths): string {
  switch (stage.kind) {
    case 'options':
      return 'OPTIONS request \u2014 handled directly, no rule-set matching involved.';
    case 'bad_request':
      return 'The request body is declared as JSON but does not parse \u2014 answered 400 before any script or rule set.';
    case 'middleware':
      return `Answered by middleware #${stage.index + 1} (${shown.middleware(stage.index)}), before any rule set.`;
    case 'rule_set':
      return 'Answered from a rule set.';
    case 'prefix_miss': {
      const prefix = ws.ruleSets[stage.ruleSetIndex]?.prefix ?? '';
      return `Rule set #${stage.ruleSetIndex + 1} claims this path by its prefix (${prefix}) and no rule matched \u2014 answered 404.`;
    }
    case 'fallback':
    case 'miss':
      return 'No rule set matched; answered from the fallback directory (dyn_route).';
    default:
      return assertNever(stage, 'stage');
  }
}

function actualText(check: ConditionCheck): string {
  return check.actual ?? ABSENT;
}

export function whyText(outcome: Outcome, ws: Workspace, shown: ShownPaths): string {
  let out = `\n-- Why --\n${whyNote(outcome.stage, ws, shown)}\n`;
  for (const rs of outcome.explanation?.ruleSets ?? []) {
    out += `\nRule set #${rs.ruleSetIndex + 1} (${shown.ruleSet(rs.ruleSetIndex)}):\n`;
    const prefix = ws.ruleSets[rs.ruleSetIndex]?.prefix;
    if (prefix !== undefined && !rs.underPrefix) {
      out += `  (prefix ${prefix} does not claim this path; its rules were not consulted)\n`;
      continue;
    }
    for (const rule of rs.rules) out += ruleText(rule);
  }
  return out;
}

function ruleText(rule: RuleCheck): string {
  let out = `  Rule #${rule.ruleIndex + 1}: ${rule.matched ? 'MATCH' : 'NO MATCH'}\n`;
  for (const { condition, check } of rule.conditions) {
    const d = describeCondition(condition);
    out += `    ${check.ok ? MARK_OK : MARK_FAIL}  ${d.name} ${d.expectation} (actual: ${actualText(check)})\n`;
  }
  return out;
}

export function whyWire(outcome: Outcome, ws: Workspace, shown: ShownPaths): Wire {
  return {
    note: whyNote(outcome.stage, ws, shown),
    rule_sets: (outcome.explanation?.ruleSets ?? []).map((rs) => ruleSetWire(rs, shown)),
  };
}

function ruleSetWire(rs: RuleSetExplanation, shown: ShownPaths): Wire {
  return {
    rule_set_index: rs.ruleSetIndex,
    rule_set_file: shown.ruleSet(rs.ruleSetIndex),
    rules: rs.rules.map(ruleWire),
  };
}

export function ruleWire(rule: RuleCheck): Wire {
  return {
    rule_index: rule.ruleIndex,
    matched: rule.matched,
    conditions: rule.conditions.map(({ condition, check }) => {
      const d = describeCondition(condition);
      return { name: d.name, expectation: d.expectation, actual: check.actual ?? null, matched: check.ok };
    }),
  };
}
