import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Strategy } from '../model/strategy.js';
import type { DecodeContext } from './decode.js';
import { decodeStrategy } from './strategy.js';
import { parseToml } from './toml.js';

function decode(text: string): { value: Strategy | undefined; messages: string[] } {
  const parsed = parseToml(text);
  assert.ok(parsed.ok, text);
  const ctx: DecodeContext = { file: '/w/rs.toml', text, diagnostics: [] };
  const node = parsed.value.entries.get('strategy')!.node;
  return {
    value: decodeStrategy(node, ['strategy'], ctx),
    messages: ctx.diagnostics.map((d) => d.message + (d.suggestion ? ` ~${d.suggestion}` : '')),
  };
}

test('every accepted strategy spelling', () => {
  const cases: [string, Strategy][] = [
    ['strategy = "first_match"', { kind: 'first_match' }],
    ['strategy = { first_match = {} }', { kind: 'first_match' }],
    ['strategy = "round_robin"', { kind: 'round_robin' }],
    ['strategy = { round_robin = {} }', { kind: 'round_robin' }],
    ['strategy = { priority = {} }', { kind: 'priority', tiebreaker: 'first_match' }],
    ['strategy = { priority = { tiebreaker = "first_match" } }', { kind: 'priority', tiebreaker: 'first_match' }],
    ['strategy = { priority = { tiebreaker = "uniform_random" } }', { kind: 'priority', tiebreaker: 'uniform_random' }],
    ['[strategy]\npriority = { tiebreaker = "uniform_random" }', { kind: 'priority', tiebreaker: 'uniform_random' }],
    ['strategy = { weighted_random = {} }', { kind: 'weighted_random' }],
    ['strategy = { weighted_random = { seed = 7 } }', { kind: 'weighted_random', seed: 7n }],
    [
      'strategy = { weighted_random = { seed = 9223372036854775807 } }',
      { kind: 'weighted_random', seed: 9223372036854775807n },
    ],
    ['strategy = "weighted_random"', { kind: 'weighted_random' }],
    ['strategy = { uniform_random = { seed = 0 } }', { kind: 'uniform_random', seed: 0n }],
    ['strategy = "uniform_random"', { kind: 'uniform_random' }],
  ];
  for (const [text, want] of cases) {
    const r = decode(text);
    assert.deepEqual(r.messages, [], text);
    assert.deepEqual(r.value, want, text);
  }
});

test('every refused strategy form says why', () => {
  const cases: [string, RegExp][] = [
    ['strategy = "priority"', /strategy `priority` needs the table form/],
    [
      'strategy = "random"',
      /unknown strategy `random`; expected one of `first_match`, `priority`, `weighted_random`, `uniform_random`, `round_robin`/,
    ],
    ['strategy = "FIRST_MATCH"', /unknown strategy `FIRST_MATCH`.* ~first_match/],
    ['strategy = { priorty = {} }', /unknown strategy `priorty`.* ~priority/],
    [
      'strategy = { priority = { tiebreaker = "round_robin" } }',
      /`strategy\.priority\.tiebreaker` has an unknown value `round_robin`; expected one of `first_match`, `uniform_random`/,
    ],
    ['strategy = { priority = { tie = "first_match" } }', /unknown key `tie` in `strategy\.priority`/],
    [
      'strategy = { weighted_random = { seed = -7 } }',
      /`strategy\.weighted_random\.seed` must be an integer from 0 to 18446744073709551615, found -7/,
    ],
    ['strategy = { weighted_random = { seed = "7" } }', /must be an integer, found a string/],
    ['strategy = { weighted_random = { sed = 7 } }', /unknown key `sed`.* ~seed/],
    ['strategy = { first_match = { x = 1 } }', /unknown key `x` in `strategy\.first_match`/],
    ['strategy = { priority = "first_match" }', /`strategy\.priority` must be a table, found a string/],
    ['strategy = {}', /exactly one strategy/],
    ['strategy = { first_match = {}, round_robin = {} }', /exactly one strategy/],
    ['strategy = 3', /`strategy` must be a strategy name or table, found an integer/],
  ];
  for (const [text, want] of cases) {
    const r = decode(text);
    assert.equal(r.value, undefined, text);
    assert.equal(r.messages.length, 1, `${text}: ${r.messages.join(' | ')}`);
    assert.match(r.messages[0]!, want, text);
  }
});
