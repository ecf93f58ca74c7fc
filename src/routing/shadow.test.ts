import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Condition, Rule, RuleSet } from '../model/rule-set.js';
import type { Method } from '../model/operators.js';
import type { Strategy } from '../model/strategy.js';
import { shadowedRules, shadowOf } from './shadow.js';

const path = (p: string, op: 'equal' | 'starts_with' = 'equal'): Condition => ({
  on: 'url_path',
  op,
  value: p,
  bare: op === 'equal',
  compareTo: p,
});
const method = (m: Method): Condition => ({ on: 'method', value: m });
const header = (name: string): Condition => ({ on: 'header', name, op: 'exists', value: '' });
const rule = (index: number, conditions: Condition[]): Rule => ({
  index,
  label: '',
  conditions,
  respond: {} as Rule['respond'],
  priority: 0,
  weight: 1,
});
const set = (index: number, rules: Rule[], o: { prefix?: string; strategy?: Strategy } = {}): RuleSet => ({
  index,
  file: `/w/s${index}.toml`,
  entry: `s${index}.toml`,
  strategy: o.strategy ?? { kind: 'first_match' },
  rules,
  ...(o.prefix === undefined ? {} : { prefix: o.prefix }),
});

test('an earlier rule with the same path and no other condition shadows, in the same or an earlier rule set', () => {
  const sets = [set(0, [rule(0, [path('/a')])]), set(1, [rule(0, [path('/a'), method('GET')])])];
  assert.deepEqual(shadowOf(sets, 1, 0), { kind: 'rule', ruleSetIndex: 0, ruleIndex: 0 });
  const same = [set(0, [rule(0, [path('/a'), method('POST')]), rule(1, [path('/a'), method('POST'), header('x')])])];
  assert.deepEqual(shadowedRules(same), [
    { ruleSetIndex: 0, ruleIndex: 1, by: { kind: 'rule', ruleSetIndex: 0, ruleIndex: 0 } },
  ]);
});

test('conservative: another method, an extra condition, another operator or a rotating strategy never shadows', () => {
  const cases: RuleSet[][] = [
    [set(0, [rule(0, [path('/a'), method('GET')]), rule(1, [path('/a'), method('POST')])])],
    [set(0, [rule(0, [path('/a'), method('GET')]), rule(1, [path('/a')])])],
    [set(0, [rule(0, [path('/a'), header('x')]), rule(1, [path('/a')])])],
    [set(0, [rule(0, [path('/a', 'starts_with')]), rule(1, [path('/a')])])],
    [set(0, [rule(0, [path('/a')]), rule(1, [path('/a')])], { strategy: { kind: 'round_robin' } as Strategy })],
    [set(0, [rule(0, [path('/b')]), rule(1, [path('/a')])])],
  ];
  for (const c of cases) assert.deepEqual(shadowedRules(c), [], JSON.stringify(c));
});

test('an earlier rule set whose prefix claims the path shadows every later rule for it', () => {
  const sets = [
    set(0, [rule(0, [path('/api/x')])], { prefix: '/api' }),
    set(1, [rule(0, [path('/api/users')]), rule(1, [path('/apix')])]),
  ];
  assert.deepEqual(shadowOf(sets, 1, 0), { kind: 'prefix', ruleSetIndex: 0, prefix: '/api' });
  assert.equal(shadowOf(sets, 1, 1), undefined);
});
