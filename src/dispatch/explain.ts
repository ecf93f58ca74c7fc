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

/** One runtime override checked against the request (docs/library.md#overrides). */
export interface OverrideCheck {
  readonly id: number;
  /** the session whose override it is; undefined: a shared one */
  readonly session: string | undefined;
  readonly check: RuleCheck;
}

export interface Explanation {
  /** the rule sets consulted, in order, up to and including the one that answered */
  readonly ruleSets: readonly RuleSetExplanation[];
  /** the runtime overrides checked before them, in the order tried (absent when there were none) */
  readonly overrides?: readonly OverrideCheck[];
}
