// selectWinner: the rule set's strategy picks one rule among those that matched (docs/reference/operators.md#strategies).
// Seeded strategies use a fresh xorshift64 per call, so they pick the same rule on every request;
// unseeded ones draw from the caller's `random`. Round-robin state lives in the caller's RotationState.
import type { RuleSet } from '../model/rule-set.js';
import { xorshift64 } from '../shared/prng.js';
import { assertNever } from '../shared/result.js';
import { matchGroupKey, type RotationState } from './rotation.js';

export interface StrategyContext {
  readonly rotation: RotationState;
  /** in [0, 1); used only when a random strategy has no seed */
  readonly random: () => number;
}

/** A source of random picks. */
interface Chooser {
  /** an integer in [0, bound) for a positive integer bound */
  below(bound: number): number;
  /** a number in [0, 1) */
  fraction(): number;
}

/**
 * The winning rule index among `matches` (rule indices in file order), or undefined when no rule can
 * answer: nothing matched, or weighted_random found only zero weights.
 */
export function selectWinner(matches: readonly number[], ruleSet: RuleSet, ctx: StrategyContext): number | undefined {
  if (matches.length === 0) return undefined;
  const s = ruleSet.strategy;
  switch (s.kind) {
    case 'first_match':
      return matches[0];
    case 'priority':
      return pickPriority(matches, ruleSet, s.tiebreaker === 'uniform_random' ? unseeded(ctx.random) : undefined);
    case 'weighted_random':
      return pickWeighted(matches, ruleSet, chooser(s.seed, ctx.random));
    case 'uniform_random':
      return matches[chooser(s.seed, ctx.random).below(matches.length)];
    case 'round_robin':
      return matches[ctx.rotation.next(matchGroupKey(ruleSet, matches), matches.length)];
    default:
      return assertNever(s, 'strategy');
  }
}

/** Highest priority wins; ties go to the earliest, or (tiebreaker uniform_random, never seeded) a random one. */
function pickPriority(matches: readonly number[], ruleSet: RuleSet, random: Chooser | undefined): number | undefined {
  let best = -Infinity;
  let tied: number[] = [];
  for (const i of matches) {
    const p = ruleSet.rules[i]?.priority ?? 0;
    if (p > best) {
      best = p;
      tied = [i];
    } else if (p === best) tied.push(i);
  }
  return random === undefined ? tied[0] : tied[random.below(tied.length)];
}

/**
 * Rules of weight 0 (or below, or not finite) are removed; with none left nobody answers.
 * `pick = draw % total`, then the cumulative weights are walked in file order.
 */
function pickWeighted(matches: readonly number[], ruleSet: RuleSet, random: Chooser): number | undefined {
  const candidates: number[] = [];
  const weights: number[] = [];
  let total = 0;
  for (const i of matches) {
    const w = ruleSet.rules[i]?.weight ?? 1;
    if (!(w > 0) || !Number.isFinite(w)) continue;
    candidates.push(i);
    weights.push(w);
    total += w;
  }
  if (candidates.length === 0) return undefined;
  const pick =
    Number.isSafeInteger(total) && weights.every(Number.isInteger) ? random.below(total) : random.fraction() * total;
  let cumulative = 0;
  for (let k = 0; k < candidates.length; k++) {
    cumulative += weights[k]!;
    if (pick < cumulative) return candidates[k];
  }
  return candidates[candidates.length - 1];
}

function chooser(seed: bigint | undefined, random: () => number): Chooser {
  return seed === undefined ? unseeded(random) : seeded(seed);
}

/** A fresh generator per call: a seeded pick is a pure function of the seed and the candidates. */
function seeded(seed: bigint): Chooser {
  const prng = xorshift64(seed);
  return {
    below: (bound) => prng.below(bound),
    fraction: () => Number(prng.next() >> 11n) / 2 ** 53,
  };
}

function unseeded(random: () => number): Chooser {
  const fraction = (): number => {
    const r = random();
    return r >= 0 && r < 1 ? r : 0;
  };
  return {
    below: (bound) => Math.min(bound - 1, Math.floor(fraction() * bound)),
    fraction,
  };
}
