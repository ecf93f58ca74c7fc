// Strategy values (docs/reference/operators.md#strategies), as written under `service.strategy` or a rule set's `strategy`:
//   "first_match" | "round_robin"                       bare names
//   "weighted_random" | "uniform_random"                 bare names accepted too (no seed)
//   { priority = { tiebreaker = "first_match" | "uniform_random" } }   table form only; bare "priority" is refused
//   { weighted_random = { seed = N } } | { uniform_random = { seed = N } }   seed optional, 0 ≤ N < 2^64
//   { first_match = {} } | { round_robin = {} }
// The shape (decodeStrategy) carries the schema of every form: a bare name, or a one-key table.
import { STRATEGY_NAMES, TIEBREAKERS, type Strategy, type StrategyName } from '../model/strategy.js';
import { suggest } from '../shared/did-you-mean.js';
import {
  bigInt,
  described,
  invalidValue,
  oneOf,
  record,
  report,
  strict,
  union,
  wrongType,
  type Decoder,
  type KeyPath,
  type DecodeContext,
  type Shape,
} from './decode.js';
import { MESSAGES } from './messages.js';
import type { TomlNode } from './toml.js';

const U64_MAX = (1n << 64n) - 1n;

/** Strategies that take parameters the bare name cannot give: only their table form is accepted. */
export const TABLE_ONLY_STRATEGIES: readonly StrategyName[] = ['priority'];
export const BARE_STRATEGIES = STRATEGY_NAMES.filter((n) => !TABLE_ONLY_STRATEGIES.includes(n));

const emptyTable = strict(record({}));
const priorityTable = strict(
  record({
    tiebreaker: described(oneOf(TIEBREAKERS), {
      doc: 'How rules of equal priority are chosen between.',
      default: 'first_match',
    }),
  }),
);
const randomTable = strict(
  record({
    seed: described(bigInt(0n, U64_MAX), {
      doc: 'Fixes the random sequence: the same seed picks the same rules in the same order.',
      example: '7',
    }),
  }),
);
/** The table form's inner table, per strategy name. */
const INNER: Readonly<Record<StrategyName, Shape<unknown>>> = {
  first_match: emptyTable,
  priority: priorityTable,
  weighted_random: randomTable,
  uniform_random: randomTable,
  round_robin: emptyTable,
};

const INNER_EXAMPLE: Readonly<Record<StrategyName, string>> = {
  first_match: '{}',
  priority: '{ tiebreaker = "uniform_random" }',
  weighted_random: '{ seed = 7 }',
  uniform_random: '{ seed = 7 }',
  round_robin: '{}',
};

const decode: Decoder<Strategy> = (node, path, ctx) => {
  if (node.kind === 'string') return fromName(node, node.value, path, ctx);
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a strategy name or table');
  const entries = [...node.entries];
  if (entries.length !== 1) {
    report(ctx, 'invalid_value', MESSAGES.strategyOneKey(), node.offset, path);
    return undefined;
  }
  const [name, entry] = entries[0]!;
  const inner: KeyPath = [...path, name];
  switch (name) {
    case 'first_match':
      return emptyTable(entry.node, inner, ctx) && { kind: 'first_match' };
    case 'round_robin':
      return emptyTable(entry.node, inner, ctx) && { kind: 'round_robin' };
    case 'priority': {
      const t = priorityTable(entry.node, inner, ctx);
      return t && { kind: 'priority', tiebreaker: t.tiebreaker ?? 'first_match' };
    }
    case 'weighted_random':
    case 'uniform_random': {
      const t = randomTable(entry.node, inner, ctx);
      if (t === undefined) return undefined;
      return t.seed === undefined ? { kind: name } : { kind: name, seed: t.seed };
    }
    default:
      report(ctx, 'invalid_value', MESSAGES.strategyUnknown(name, STRATEGY_NAMES), entry.keyOffset, inner, {
        suggestion: suggest(name, STRATEGY_NAMES),
      });
      return undefined;
  }
};

function fromName(node: TomlNode, name: string, path: KeyPath, ctx: DecodeContext): Strategy | undefined {
  if ((BARE_STRATEGIES as readonly string[]).includes(name)) return { kind: name } as Strategy;
  if ((STRATEGY_NAMES as readonly string[]).includes(name))
    return invalidValue(ctx, node, path, MESSAGES.strategyNeedsTable(name));
  return invalidValue(ctx, node, path, MESSAGES.strategyUnknown(name, STRATEGY_NAMES), suggest(name, STRATEGY_NAMES));
}

/** Every form the decoder takes: a bare name (not a table-only one) or a table naming exactly one strategy. */
export const decodeStrategy: Shape<Strategy> = union(
  [
    described(oneOf(BARE_STRATEGIES), { doc: 'A strategy by name.' }),
    ...STRATEGY_NAMES.map((name) =>
      described(
        record(
          {
            [name]: described(INNER[name], {
              doc: `The \`${name}\` strategy's parameters.`,
              example: INNER_EXAMPLE[name],
            }),
          },
          { required: [name] },
        ),
        {
          doc: `The table form of \`${name}\`.`,
        },
      ),
    ),
  ],
  decode,
  'strategy name or table',
);
