// A rule set the server decodes on first need (docs/load-cache.md): the load cache found its file to hold the very
// bytes an earlier load decoded without error (read and hashed at start, or vouched for by the file's signature).
// Until a request whose path its summary admits (or anything else reading `rules`) needs it, only the summary is
// held; reading `rules` decodes it (config/load.ts says from which bytes). A decode that fails leaves it with no
// rules, never an exception (README.md beside this file).
import type { Rule, RuleSet } from '../model/rule-set.js';
import type { Strategy } from '../model/strategy.js';

/** What a rule set's rules need of a request path, for deciding without its rules that none can match. */
export interface PathSummary {
  /** the number of rules */
  readonly rules: number;
  /** the paths url_path `equal` rules need (the prefix joined), distinct */
  readonly paths: readonly string[];
  /**
   * the templates of url_path `path_template` rules, distinct, by shape (their parameters' names do not matter), as
   * text: `/users/{}/files/{*}` (routing/path-template.ts shapeText)
   */
  readonly templates: readonly string[];
  /** the texts the other rules need in the path (see routing/check.ts requiredText), distinct */
  readonly texts: readonly string[];
  /** some rule can match any path (then the rule set is decoded at start) */
  readonly any: boolean;
  /** every scenario a rule reads or moves, in file order */
  readonly scenarios: readonly string[];
}

export type LazyRuleSetParts = Omit<RuleSet, 'rules'> & {
  readonly summary: PathSummary;
  /** decodes the rules (throws when they no longer decode: the file changed since the cache vouched for it) */
  readonly decode: () => readonly Rule[];
};

export class LazyRuleSet implements RuleSet {
  readonly index: number;
  readonly file: string;
  readonly entry: string;
  readonly prefix?: string;
  readonly strategy: Strategy;
  readonly summary: PathSummary;
  #rules: readonly Rule[] | undefined;
  #decode: (() => readonly Rule[]) | undefined;
  #failure: string | undefined;

  constructor(parts: LazyRuleSetParts) {
    this.index = parts.index;
    this.file = parts.file;
    this.entry = parts.entry;
    if (parts.prefix !== undefined) this.prefix = parts.prefix;
    this.strategy = parts.strategy;
    this.summary = parts.summary;
    this.#decode = parts.decode;
    Object.freeze(this);
  }

  /**
   * The rules, decoded on the first read. A getter on the class (one for every instance, so the request path's
   * property lookups stay monomorphic); a copy made by spreading a rule set would not carry it, and none is made.
   */
  get rules(): readonly Rule[] {
    if (this.#rules === undefined) {
      try {
        this.#rules = this.#decode!();
      } catch (e) {
        // never thrown into the request that needed the rules: the rule set holds none until the live reload
        // (on its way: the file changed) replaces it, and dispatch logs why (decodeFailure)
        this.#failure = e instanceof Error ? e.message : String(e);
        this.#rules = NO_RULES;
      }
      this.#decode = undefined;
    }
    return this.#rules;
  }

  /** why the rules did not decode, once they were read and did not */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** true once the rules were decoded */
  get decoded(): boolean {
    return this.#rules !== undefined;
  }
}

const NO_RULES: readonly Rule[] = Object.freeze([]);

/** Why a rule set the load cache vouched for no longer decodes (its file changed since), once it was read. */
export function decodeFailure(rs: RuleSet): string | undefined {
  return rs instanceof LazyRuleSet ? rs.failure : undefined;
}

/** A rule set whose rules were not decoded yet (its summary stands in for them). */
export function undecoded(rs: RuleSet): rs is LazyRuleSet {
  return rs instanceof LazyRuleSet && !rs.decoded;
}

/** How many rules a rule set holds, without decoding a lazy one. */
export function ruleCount(rs: RuleSet): number {
  return undecoded(rs) ? rs.summary.rules : rs.rules.length;
}
