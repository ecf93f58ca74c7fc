// Runtime overrides (docs/library.md#overrides): rules a test adds for as long as it needs them (`m.use(...)`,
// `POST /__mock/api/overrides`), tried before everything the workspace declares, newest first. A list is
// runtime state like the round-robin counters: the server keeps one shared list and one per session, and hands
// dispatch the lists that apply to a request in its env (`DispatchEnv.overrides`: absent when there are none, so a
// server without overrides does no work for them). A `once` override steps aside after its first answer.
//
// The lists hold decoded rules (config/overrides.ts decodes them with the rule-set decoder); matching them is the
// rule-set matcher's, over a first-match rule set rebuilt on every change (adding and removing are rare, matching
// is per request).
import type { Rule, RuleSet } from '../model/rule-set.js';
import { prepareRuleSet } from '../routing/evaluate.js';

export interface Override {
  /** unique over the server's lifetime */
  readonly id: number;
  readonly rule: Rule;
  /** answers once, then is removed */
  readonly once: boolean;
  /** as given (JSON), for listing */
  readonly source: unknown;
  /** the session it belongs to; absent: every request */
  readonly session?: string;
  readonly addedAt: Date;
}

export interface OverrideInput {
  readonly rule: Rule;
  readonly source: unknown;
}

const FIRST_MATCH = Object.freeze({ kind: 'first_match' as const });

/** the file name overrides are shown under */
export const OVERRIDES_FILE = '(overrides)';

export class OverrideList {
  /** oldest first */
  private held: Override[] = [];
  private built: RuleSet | undefined;
  private ordered: readonly Override[] | undefined;

  constructor(
    private readonly ids: { next(): number },
    /** told after every change (the env of the requests it applies to is remade) */
    private readonly onChange: () => void,
    readonly session?: string,
  ) {}

  get size(): number {
    return this.held.length;
  }

  /** adds `rules` (in the order given; the last given is tried first); returns what was added */
  add(rules: readonly OverrideInput[], once: boolean, now: Date): readonly Override[] {
    const added = rules.map(
      ({ rule, source }): Override => ({
        id: this.ids.next(),
        rule,
        once,
        source,
        ...(this.session !== undefined ? { session: this.session } : {}),
        addedAt: now,
      }),
    );
    this.held = [...this.held, ...added];
    this.changed();
    return added;
  }

  /** removes one override; false when it is not in this list */
  remove(id: number): boolean {
    const before = this.held.length;
    this.held = this.held.filter((o) => o.id !== id);
    if (this.held.length === before) return false;
    this.changed();
    return true;
  }

  /** removes every override; returns how many went */
  clear(): number {
    const n = this.held.length;
    if (n === 0) return 0;
    this.held = [];
    this.changed();
    return n;
  }

  /**
   * the order they are tried in: newest first, and a rule's `priority` (0 unless given) before that, highest first
   * (WireMock's admin API adds its stubs here with their priorities, docs/coming-from-wiremock.md)
   */
  list(): readonly Override[] {
    if (this.ordered === undefined) {
      const newest = [...this.held].reverse();
      this.ordered = newest.some((o) => o.rule.priority !== 0)
        ? newest.sort((a, b) => b.rule.priority - a.rule.priority)
        : newest;
    }
    return this.ordered;
  }

  /** the overrides as one first-match rule set, newest first (rule i of it is `list()[i]`) */
  ruleSet(): RuleSet {
    if (this.built === undefined) {
      const rules = this.list().map((o, i) => (o.rule.index === i ? o.rule : { ...o.rule, index: i }));
      this.built = { index: -1, file: OVERRIDES_FILE, entry: OVERRIDES_FILE, strategy: FIRST_MATCH, rules };
      prepareRuleSet(this.built);
    }
    return this.built;
  }

  /** rule `index` of ruleSet() answered: its override (removed now when it answers once) */
  answered(index: number): Override {
    const o = this.list()[index]!;
    if (o.once) this.remove(o.id);
    return o;
  }

  private changed(): void {
    this.built = undefined;
    this.ordered = undefined;
    this.onChange();
  }
}
