import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Condition, Rule, RuleSet } from '../model/rule-set.js';
import type { Method } from '../model/operators.js';
import type { Strategy } from '../model/strategy.js';
import { shadowedRules, shadowOf } from './shadow.js';
import { cases } from '../../test/helpers/test-loop.js';

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

/** The definition, rule against every earlier rule (what the indexed check must agree with). */
function naive(sets: readonly RuleSet[]): { ruleSetIndex: number; ruleIndex: number; by: unknown }[] {
  const answers = (earlier: Rule, p: string, m: string | undefined): boolean => {
    let seen = false;
    for (const c of earlier.conditions) {
      if (c.on === 'url_path' && c.op === 'equal' && c.compareTo === p && !seen) seen = true;
      else if (c.on === 'method' && m !== undefined && c.value === m) continue;
      else return false;
    }
    return seen;
  };
  const out: { ruleSetIndex: number; ruleIndex: number; by: unknown }[] = [];
  for (const s of sets)
    for (const r of s.rules) {
      const pc = r.conditions.find((c) => c.on === 'url_path' && c.op === 'equal');
      if (pc === undefined || pc.on !== 'url_path') continue;
      const mc = r.conditions.find((c) => c.on === 'method');
      const m = mc?.on === 'method' ? mc.value : undefined;
      let by: unknown;
      for (const e of sets.slice(0, s.index)) {
        if (e.prefix !== undefined && (pc.compareTo === e.prefix || pc.compareTo.startsWith(`${e.prefix}/`))) {
          by = { kind: 'prefix', ruleSetIndex: e.index, prefix: e.prefix };
          break;
        }
        const hit = e.rules.find((x) => answers(x, pc.compareTo, m));
        if (hit !== undefined) {
          by = { kind: 'rule', ruleSetIndex: e.index, ruleIndex: hit.index };
          break;
        }
      }
      if (by === undefined && s.strategy.kind === 'first_match') {
        const hit = s.rules.slice(0, r.index).find((x) => answers(x, pc.compareTo, m));
        if (hit !== undefined) by = { kind: 'rule', ruleSetIndex: s.index, ruleIndex: hit.index };
      }
      if (by !== undefined) out.push({ ruleSetIndex: s.index, ruleIndex: r.index, by });
    }
  return out;
}

test('the indexed check finds exactly what comparing every earlier rule finds (random workspaces)', () => {
  const cond = fc.oneof(
    fc.constantFrom('/a', '/b', '/api/a').map((p) => path(p)),
    fc.constant(path('/a', 'starts_with')),
    fc.constantFrom<Method>('GET', 'POST').map((m) => method(m)),
    fc.constant(header('x')),
  );
  const workspace = fc
    .array(
      fc.record({
        rules: fc.array(fc.array(cond, { maxLength: 4 }), { maxLength: 8 }),
        robin: fc.boolean(),
        prefix: fc.constantFrom(undefined, '/api', '/zzz'),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((ss) =>
      ss.map((s, i) =>
        set(
          i,
          s.rules.map((cs, j) => rule(j, cs)),
          {
            strategy: { kind: s.robin ? 'round_robin' : 'first_match' } as Strategy,
            ...(s.prefix === undefined ? {} : { prefix: s.prefix }),
          },
        ),
      ),
    );
  fc.assert(
    fc.property(workspace, (sets) => {
      assert.deepEqual(shadowedRules(sets), naive(sets));
    }),
    cases(500),
  );
});
