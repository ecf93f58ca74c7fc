// The wire form of `matched` and `why` (`mock get --format json`, and every request journal entry): types only,
// so the inspector's page (compiled by its own DOM tsconfig) reads the very shapes dispatch/explain-view.ts writes.
// Object types rather than interfaces: they stay assignable to the generic `Wire` JSON type.
import type { Wire } from '../shared/wire.js';

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

export type WhyOverrideWire = {
  readonly id: number;
  /** the session it belongs to; absent: a shared one */
  readonly session?: string;
  readonly matched: boolean;
  readonly conditions: readonly WhyConditionWire[];
};

export type WhyWire = {
  /** one sentence on which stage answered */
  readonly note: string;
  /** the fallback file that answered (or was denied), relative to the fallback directory */
  readonly file?: string;
  /** the service.deny pattern that kept `file` from being served */
  readonly denied_by?: string;
  /** the runtime overrides checked first, in the order tried (present only when there were any) */
  readonly overrides?: readonly WhyOverrideWire[];
  /** the rule sets consulted, in order, up to and including the one that answered */
  readonly rule_sets: readonly WhyRuleSetWire[];
  /** a templated rule's answer: its template sources and the values the paths they name had */
  readonly template?: TemplateWire;
};

/** A response template's use: the source of each templated part, and each data path it named with its value. */
export type TemplateWire = {
  readonly sources: readonly { readonly part: string; readonly source: string }[];
  readonly values: readonly { readonly path: string; readonly value: Wire }[];
};
