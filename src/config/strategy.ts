// Strategy values (SPEC 2.3, reference §11), as written under `service.strategy` or a rule set's `strategy`:
//   "first_match" | "round_robin"                       bare names
//   "weighted_random" | "uniform_random"                 bare names accepted too (no seed)
//   { priority = { tiebreaker = "first_match" | "uniform_random" } }   table form only; bare "priority" is refused
//   { weighted_random = { seed = N } } | { uniform_random = { seed = N } }   seed optional, 0 ≤ N < 2^64
//   { first_match = {} } | { round_robin = {} }
import { STRATEGY_NAMES, TIEBREAKERS, type Strategy } from '../model/strategy.js';
import { suggest } from '../shared/did-you-mean.js';
import { bigInt, invalidValue, oneOf, record, report, strict, wrongType, type Decoder, type KeyPath, type DecodeContext } from './decode.js';
import { MESSAGES } from './messages.js';
import type { TomlNode } from './toml.js';

const U64_MAX = (1n << 64n) - 1n;

const emptyTable = strict(record({}));
const priorityTable = strict(record({ tiebreaker: oneOf(TIEBREAKERS) }));
const randomTable = strict(record({ seed: bigInt(0n, U64_MAX) }));

export const decodeStrategy: Decoder<Strategy> = (node, path, ctx) => {
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
  switch (name) {
    case 'first_match':
    case 'round_robin':
    case 'weighted_random':
    case 'uniform_random':
      return { kind: name };
    case 'priority':
      return invalidValue(ctx, node, path, MESSAGES.strategyNeedsTable(name));
    default:
      return invalidValue(ctx, node, path, MESSAGES.strategyUnknown(name, STRATEGY_NAMES), suggest(name, STRATEGY_NAMES));
  }
}
