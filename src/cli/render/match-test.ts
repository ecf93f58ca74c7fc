// `mock match-test` output (docs/reference/cli.md): every rule with MATCH / NO MATCH, the winner starred, one
// marked line per condition, then the result. Marks come from the real matcher's checks.
import type { Condition, ConditionCheck, RuleCheck, RuleSet } from '../../model/rule-set.js';
import { debugQuote, describeCondition, FIELD_NAMES } from '../../routing/describe.js';
import { assertNever } from '../../shared/result.js';
import type { Wire } from '../../model/envelope.js';
import { editWithLine } from './edit-with.js';
import { ABSENT, MARK_FAIL, MARK_OK, ruleWire } from './why.js';

export const WINNER_STAR = '\u2605';

export interface MatchView {
  readonly ruleSet: RuleSet;
  readonly request: { readonly method: string; readonly path: string };
  /** the request path as matched (canonical), for the prefix line */
  readonly matchedPath: string;
  /** false when the rule set's prefix does not claim the path: no rule was consulted */
  readonly consulted: boolean;
  /** the rules shown (all, or the one --rule names), with the matcher's checks */
  readonly rules: readonly RuleCheck[];
  /** 0-based; undefined when nothing matched */
  readonly winner: number | undefined;
  /** the rule-set file as given to --rule-set, for the `edit with:` line */
  readonly ruleSetShown?: string;
}

function conditionLine(condition: Condition, check: ConditionCheck): string {
  const d = describeCondition(condition);
  switch (condition.on) {
    case 'url_path':
      return `url_path ${d.expectation}`;
    case 'method':
      return `method ${condition.value} (actual: ${check.actual ?? ABSENT})`;
    case 'header':
      return `header ${debugQuote(condition.name)} ${d.expectation}`;
    case 'body':
      return `body.json ${debugQuote(condition.path)} ${d.expectation}  (actual: ${check.actual ?? ABSENT})`;
    case 'query':
    case 'cookie':
    case 'param':
    case 'form':
      return `${FIELD_NAMES[condition.on]} ${debugQuote(condition.name)} ${d.expectation}  (actual: ${check.actual ?? ABSENT})`;
    case 'body_text':
      return `body.text ${d.expectation}  (actual: ${check.actual ?? ABSENT})`;
    case 'url':
      return `url ${d.expectation}  (actual: ${check.actual ?? ABSENT})`;
    case 'state':
      return `state ${debugQuote(condition.name)} ${d.expectation}  (actual: ${check.actual ?? ABSENT})`;
    default:
      return assertNever(condition, 'condition');
  }
}

export function matchTestText(view: MatchView): string {
  let out = '\n';
  for (const check of view.rules) {
    const label = view.ruleSet.rules[check.ruleIndex]?.label ?? '';
    const verdict = check.matched ? (check.ruleIndex === view.winner ? `MATCH ${WINNER_STAR}` : 'MATCH') : 'NO MATCH';
    out += `Rule #${check.ruleIndex + 1}: ${label}  ${verdict}\n`;
    if (!view.consulted) {
      const prefix = view.ruleSet.prefix ?? '';
      out += `  ${MARK_FAIL}  prefix ${debugQuote(prefix)} does not claim ${debugQuote(view.matchedPath)}\n`;
    }
    for (const { condition, check: c } of check.conditions) {
      out += `  ${c.ok ? MARK_OK : MARK_FAIL}  ${conditionLine(condition, c)}\n`;
    }
    out += '\n';
  }
  if (view.winner !== undefined && view.ruleSetShown !== undefined)
    out += `${editWithLine(view.ruleSetShown, view.winner)}\n`;
  out += view.winner !== undefined ? `Result: MATCH (rule #${view.winner + 1})\n` : 'Result: NO MATCH\n';
  return out;
}

export function matchTestResult(view: MatchView): Wire {
  return {
    request: { method: view.request.method, path: view.request.path },
    rules: view.rules.map(ruleWire),
    matched: view.winner !== undefined,
    match_rule_index: view.winner ?? null,
  };
}
