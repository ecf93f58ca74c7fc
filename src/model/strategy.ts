// Strategy values (docs/reference/operators.md#strategies). A rule set's strategy is resolved at load: its own, else service.strategy.

export const STRATEGY_NAMES = ['first_match', 'priority', 'weighted_random', 'uniform_random', 'round_robin'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];
export const TIEBREAKERS = ['first_match', 'uniform_random'] as const;
export type Tiebreaker = (typeof TIEBREAKERS)[number];

export type Strategy =
  | { readonly kind: 'first_match' }
  | { readonly kind: 'priority'; readonly tiebreaker: Tiebreaker }
  | { readonly kind: 'weighted_random'; readonly seed?: bigint }
  | { readonly kind: 'uniform_random'; readonly seed?: bigint }
  | { readonly kind: 'round_robin' };

export const DEFAULT_STRATEGY: Strategy = { kind: 'first_match' };
