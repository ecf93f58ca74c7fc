// The `--why` explanation of `mock get` (docs/reference/cli.md), as text and as wire data. Everything here is a
// reshaping of what dispatch() and the real matcher reported (Outcome.stage, Outcome.explanation):
// no condition is re-checked. The data and wire forms live in dispatch/explain-view.ts (the request journal
// uses them too); this file adds the text.
import type { Outcome } from '../../dispatch/dispatch.js';
import type { TemplateUse } from '../../dispatch/templated.js';
import {
  type ShownPaths,
  whyNote,
  whyRuleToWire,
  whyRuleView,
  whyToWire,
  whyView,
} from '../../dispatch/explain-view.js';
import type { ConditionCheck, RuleCheck } from '../../model/rule-set.js';
import type { Workspace } from '../../model/workspace.js';
import { describeCondition } from '../../routing/describe.js';
import type { Wire } from '../../model/envelope.js';

export type { ShownPaths };

export const MARK_OK = '\u2713';
export const MARK_FAIL = '\u2717';
export const ABSENT = '(absent)';

function actualText(check: ConditionCheck): string {
  return check.actual ?? ABSENT;
}

export function whyText(outcome: Outcome, ws: Workspace, shown: ShownPaths, requestPath?: string): string {
  let out = `\n-- Why --\n${whyNote(outcome.stage, ws, shown, requestPath)}\n`;
  for (const rs of outcome.explanation?.ruleSets ?? []) {
    out += `\nRule set #${rs.ruleSetIndex + 1} (${shown.ruleSet(rs.ruleSetIndex)}):\n`;
    const prefix = ws.ruleSets[rs.ruleSetIndex]?.prefix;
    if (prefix !== undefined && !rs.underPrefix) {
      out += `  (prefix ${prefix} does not claim this path; its rules were not consulted)\n`;
      continue;
    }
    for (const rule of rs.rules) out += ruleText(rule);
  }
  if (outcome.template !== undefined) out += templateText(outcome.template);
  return out;
}

/** Under the rendered answer: each template's source, and the values the request gave the paths it names. */
function templateText(t: TemplateUse): string {
  let out = '\nTemplate:\n';
  for (const s of t.sources) out += `  ${s.part}: ${s.source.replace(/\n/g, '\n    ')}\n`;
  if (t.values.length > 0) out += 'Values used:\n';
  for (const v of t.values) out += `  ${v.path} = ${v.value === undefined ? ABSENT : JSON.stringify(v.value)}\n`;
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

export function whyWire(outcome: Outcome, ws: Workspace, shown: ShownPaths, requestPath?: string): Wire {
  return whyToWire(whyView(outcome, ws, shown, requestPath));
}

export function ruleWire(rule: RuleCheck): Wire {
  return whyRuleToWire(whyRuleView(rule));
}
