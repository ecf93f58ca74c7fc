// The explanation behind `get --why`: the rule checks the real matcher kept, reshaped. No second matcher.
import type { RuleCheck } from '../model/rule-set.js';

export interface RuleSetExplanation {
  readonly ruleSetIndex: number;
  /** absolute */
  readonly file: string;
  readonly underPrefix: boolean;
  readonly winner: number | undefined;
  readonly rules: readonly RuleCheck[];
}

export interface Explanation {
  /** the rule sets consulted, in order, up to and including the one that answered */
  readonly ruleSets: readonly RuleSetExplanation[];
}
