// Rule sets as loaded: conditions compiled once, at load (regex, wild_card, body paths).
import type { ExpectedDate } from '../shared/date-match.js';
import type { Json, TypedJson } from '../shared/json.js';
import type { Respond } from './answer.js';
import type { BodyOp, HeaderOp, Method, StringOp, UrlPathOp } from './operators.js';
import type { Strategy } from './strategy.js';

export interface RuleSet {
  /** 0-based position in service.rule_sets */
  readonly index: number;
  /** absolute path */
  readonly file: string;
  /** the entry as written in service.rule_sets (e.g. "mock-rule-set.toml") */
  readonly entry: string;
  /** canonical prefix, e.g. "/api"; "/" claims everything; undefined = no prefix */
  readonly prefix?: string;
  /** resolved: its own strategy, else service.strategy */
  readonly strategy: Strategy;
  readonly rules: readonly Rule[];
}

export interface Rule {
  /** 0-based within its rule set */
  readonly index: number;
  /** shown by match-test and --why: the url_path value as written, or "(any path)" */
  readonly label: string;
  /** ANDed, in the order written (the `when.state` ones after the request's) */
  readonly conditions: readonly Condition[];
  /** the scenarios its `when.state` conditions read (docs/state.md); absent when none */
  readonly scenarios?: readonly string[];
  readonly respond: Respond;
  /** default 0 */
  readonly priority: number;
  /** default 1 */
  readonly weight: number;
  /** at most `requests` answers per `perMs` window; past that, 429 (docs/faults.md) */
  readonly limit?: { readonly requests: number; readonly perMs: number };
}

export type Condition =
  | UrlPathCondition
  | MethodCondition
  | HeaderCondition
  | BodyCondition
  | FieldCondition
  | BodyTextCondition
  | UrlCondition
  | StateCondition;

/** `url`: the path and query as sent (`/search?q=a%20b`), still percent-encoded, compared as text. */
export interface UrlCondition {
  readonly on: 'url';
  readonly op: StringOp;
  readonly value: string;
  readonly pattern?: RegExp;
}

/**
 * `when.state.<scenario>`: the scenario's current state (docs/state.md), read from the state store under `key`;
 * a scenario nobody moved yet is `"started"`.
 */
export interface StateCondition {
  readonly on: 'state';
  /** the scenario's name as written */
  readonly name: string;
  readonly op: 'equal' | 'not_equal';
  readonly value: string;
  /** the store key, `scenario:<name>` (built once, at load) */
  readonly key: string;
}

export interface UrlPathCondition {
  readonly on: 'url_path';
  readonly op: UrlPathOp;
  /** as written */
  readonly value: string;
  /** written as a bare string (display: `equal "<value>"`) */
  readonly bare: boolean;
  /**
   * What the request path is compared with. For equal / starts_with and their negations: the rule set's
   * prefix joined with the value, one leading '/', one trailing '/' removed. For ends_with / contains and
   * their negations: the value as written. Unused for regex / not_regex / wild_card (see pattern).
   */
  readonly compareTo: string;
  /** compiled at load for regex, not_regex and wild_card; a wild card not starting with '/', '*' or '?' gets a '/' */
  readonly pattern?: RegExp;
  /** path_template: the template (compareTo) split into segments at load */
  readonly template?: PathTemplate;
}

/** A url_path template such as `/users/{id}/files/{rest*}`, parsed at load. */
export interface PathTemplate {
  /**
   * literal text, or a named capture: one non-empty segment, or (`rest`, last only) zero or more segments, or one
   * segment of literal text around captures (`docket.{format}`, `{base}...{head}`): `pattern` matches the whole
   * segment, its groups in the order of `names`
   */
  readonly segments: readonly (
    | { readonly literal: string }
    | { readonly name: string; readonly rest: boolean }
    | { readonly pattern: RegExp; readonly names: readonly string[] }
  )[];
}

/**
 * A template's shape, all a lookup needs of it: each literal segment as itself, 0 for a parameter, 1 for a last
 * rest parameter. (A lazy rule set's summary keeps it as text: routing/path-template.ts shapeText.)
 */
export type TemplateShape = readonly (string | 0 | 1)[];

/**
 * A named value of the request compared with a string operator: a query name (`query`), a cookie (`cookie`), a
 * path-template capture (`param`) or a form field (`form`). A repeated query name or form field holds a positive
 * operator when any value does and a negated one when none holds the positive one.
 */
export interface FieldCondition {
  readonly on: 'query' | 'cookie' | 'param' | 'form';
  /** as written, compared exactly */
  readonly name: string;
  readonly op: HeaderOp;
  /** default "" */
  readonly value: string;
  readonly pattern?: RegExp;
  /** before / after / equal_date_time: the expected moment, read at load */
  readonly date?: ExpectedDate;
  /** includes / has_exactly: the values, read at load from the JSON array `value` */
  readonly values?: readonly string[];
  /** param: the rule's url_path template, whose captures the condition tests */
  readonly template?: PathTemplate;
}

/** `body.text`: the whole body as UTF-8 text, whatever its type. */
export interface BodyTextCondition {
  readonly on: 'body_text';
  readonly op: StringOp;
  readonly value: string;
  readonly pattern?: RegExp;
}

export interface MethodCondition {
  readonly on: 'method';
  readonly value: Method;
}

export interface HeaderCondition {
  readonly on: 'header';
  /** lower-cased */
  readonly name: string;
  readonly op: HeaderOp;
  /** default "" */
  readonly value: string;
  readonly pattern?: RegExp;
  /** before / after / equal_date_time: the expected moment, read at load */
  readonly date?: ExpectedDate;
  /** includes / has_exactly: the values, read at load from the JSON array `value` (every value of the header) */
  readonly values?: readonly string[];
}

export interface BodyCondition {
  readonly on: 'body';
  /** dotted path as written, e.g. "items.0.sku" */
  readonly path: string;
  /** split on every '.'; '$' is not special */
  readonly segments: readonly string[];
  readonly op: BodyOp;
  /** as written (always a string in TOML) */
  readonly value: string;
  /** `value` parsed as JSON, numbers typed by their lexemes (`42` vs `42.0`), when it parses (equal_typed, array_contains, structural_contains) */
  readonly parsed?: TypedJson;
  /** `value` parsed as JSON for the document operators (equal_json, contains_json and their any_order forms) */
  readonly document?: Json;
  /** before / after / equal_date_time: the expected moment, read at load */
  readonly date?: ExpectedDate;
  readonly pattern?: RegExp;
}

/** The result of one condition check: the ONLY matcher's output, used for matching and explanations. */
export interface ConditionCheck {
  readonly ok: boolean;
  /** the actual value seen; undefined when absent (missing header, unresolved body path, no JSON body) */
  readonly actual: string | undefined;
}

export interface RuleCheck {
  readonly ruleIndex: number;
  readonly matched: boolean;
  readonly conditions: readonly { readonly condition: Condition; readonly check: ConditionCheck }[];
}
