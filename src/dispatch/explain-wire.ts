// The wire form of `matched` and `why` (`mock get --format json`, and every request journal entry): types only,
// so the inspector's page (compiled by its own DOM tsconfig) reads the very shapes dispatch/explain-view.ts writes.
// Object types rather than interfaces: they stay assignable to the generic `Wire` JSON type.

/** The rule that answered (0-based indices); keys in alphabetical order, as `get` prints them. */
export type MatchedWire = {
  readonly rule_index: number;
  readonly rule_set_file: string;
  readonly rule_set_index: number;
};

export type WhyConditionWire = {
  /** `url_path`, `method`, `header:<name>`, `body.json:<path>` */
  readonly name: string;
  readonly expectation: string;
  /** the value the matcher saw; null when absent */
  readonly actual: string | null;
  readonly matched: boolean;
};

export type WhyRuleWire = {
  readonly rule_index: number;
  readonly matched: boolean;
  readonly conditions: readonly WhyConditionWire[];
};

export type WhyRuleSetWire = {
  readonly rule_set_index: number;
  readonly rule_set_file: string;
  /** empty when the rule set's prefix did not claim the path */
  readonly rules: readonly WhyRuleWire[];
};

export type WhyWire = {
  /** one sentence on which stage answered */
  readonly note: string;
  /** the rule sets consulted, in order, up to and including the one that answered */
  readonly rule_sets: readonly WhyRuleSetWire[];
};
