import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Condition } from '../model/rule-set.js';
import type { Strategy } from '../model/strategy.js';
import { xorshift64 } from '../shared/prng.js';
import { evaluateRuleSet, prepareRuleSet, type EvaluateContext } from './evaluate.js';
import { body, header, method, req, rule, ruleSet, urlPath } from '../../test/helpers/routing-fixtures.js';
import { candidateRules } from './path-index.js';
import { RotationState } from './rotation.js';
import { parseTemplate } from '../config/path-template.js';

function never(): number {
  throw new Error('random must not be used');
}
const ctx = (explain = false): EvaluateContext => ({ rotation: new RotationState(), random: never, explain });

/** A url_path regex condition whose pattern counts how often it is tested. */
function counted(re: RegExp): { cond: Condition; calls: () => number } {
  let n = 0;
  const pattern = new RegExp(re.source, re.flags);
  const test = pattern.test.bind(pattern);
  pattern.test = (s: string) => {
    n++;
    return test(s);
  };
  return { cond: { ...urlPath(re.source, 'regex'), pattern }, calls: () => n };
}

test('prefix: a path outside it is not claimed and its rules are not consulted', () => {
  const probe = counted(/./);
  const rs = ruleSet([rule([probe.cond])], { prefix: '/api' });
  for (const path of ['/apixyz', '/', '/other/api']) {
    assert.deepEqual(
      evaluateRuleSet(rs, req({ path }), ctx()),
      { underPrefix: false, winner: undefined, matches: [] },
      path,
    );
    assert.deepEqual(evaluateRuleSet(rs, req({ path }), ctx(true)).checks, [], path);
  }
  assert.equal(probe.calls(), 0);
});

test('prefix: a claimed path answers or misses under the prefix', () => {
  const rs = ruleSet([rule([urlPath('/users', 'equal', { prefix: '/api' })])], { prefix: '/api' });
  assert.deepEqual(evaluateRuleSet(rs, req({ path: '/api/users' }), ctx()), {
    underPrefix: true,
    winner: 0,
    matches: [0],
  });
  assert.deepEqual(evaluateRuleSet(rs, req({ path: '/api/nothing' }), ctx()), {
    underPrefix: true,
    winner: undefined,
    matches: [],
  });
  assert.equal(evaluateRuleSet(rs, req({ path: '/api' }), ctx()).underPrefix, true);
  const root = ruleSet([rule([urlPath('/x')])], { prefix: '/' });
  assert.equal(evaluateRuleSet(root, req({ path: '/anything' }), ctx()).underPrefix, true);
  const none = ruleSet([rule([urlPath('/x')])]);
  assert.equal(evaluateRuleSet(none, req({ path: '/y' }), ctx()).underPrefix, false);
});

test('conditions are ANDed', () => {
  const rs = ruleSet([rule([urlPath('/o'), method('POST'), header('x-k', 'exists')]), rule([urlPath('/o')])]);
  assert.equal(evaluateRuleSet(rs, req({ path: '/o', method: 'POST', headers: [['x-k', '1']] }), ctx()).winner, 0);
  assert.equal(evaluateRuleSet(rs, req({ path: '/o', method: 'GET', headers: [['x-k', '1']] }), ctx()).winner, 1);
  assert.equal(evaluateRuleSet(rs, req({ path: '/o', method: 'POST' }), ctx()).winner, 1);
  assert.equal(
    evaluateRuleSet(rs, req({ path: '/p', method: 'POST', headers: [['x-k', '1']] }), ctx()).winner,
    undefined,
  );
});

test('without explain, a rule stops at its first failing condition', () => {
  const probe = counted(/./);
  const rs = ruleSet([rule([method('POST'), probe.cond]), rule([method('GET'), probe.cond])]);
  assert.equal(evaluateRuleSet(rs, req({ path: '/x' }), ctx()).winner, 1);
  assert.equal(probe.calls(), 1);
});

test('explain: every condition of every rule is checked, even after the winner', () => {
  const probe = counted(/./);
  const rs = ruleSet([
    rule([urlPath('/o'), probe.cond]),
    rule([method('POST'), probe.cond]),
    rule([urlPath('/o'), method('GET'), probe.cond]),
    rule([header('x-k', 'exists'), probe.cond]),
  ]);
  const ev = evaluateRuleSet(rs, req({ path: '/o' }), ctx(true));
  assert.equal(probe.calls(), 4);
  assert.equal(ev.winner, 0);
  assert.deepEqual(ev.matches, [0, 2]);
  assert.deepEqual(
    ev.checks?.map((r) => [r.ruleIndex, r.matched, r.conditions.map((c) => [c.check.ok, c.check.actual])]),
    [
      [
        0,
        true,
        [
          [true, '/o'],
          [true, '/o'],
        ],
      ],
      [
        1,
        false,
        [
          [false, 'GET'],
          [true, '/o'],
        ],
      ],
      [
        2,
        true,
        [
          [true, '/o'],
          [true, 'GET'],
          [true, '/o'],
        ],
      ],
      [
        3,
        false,
        [
          [false, undefined],
          [true, '/o'],
        ],
      ],
    ],
  );
  assert.equal(ev.checks?.[1]?.conditions[0]?.condition, rs.rules[1]?.conditions[0]);
});

test('explain and plain evaluation agree on the winner', () => {
  const strategies: readonly Strategy[] = [
    { kind: 'first_match' },
    { kind: 'priority', tiebreaker: 'first_match' },
    { kind: 'round_robin' },
  ];
  for (const strategy of strategies) {
    const rs = ruleSet(
      [
        rule([urlPath('/a')], { priority: 1 }),
        rule([urlPath('/a', 'starts_with')], { priority: 3 }),
        rule([], { priority: 3 }),
      ],
      { strategy },
    );
    for (const path of ['/a', '/a/b', '/z']) {
      const plain = evaluateRuleSet(rs, req({ path }), ctx());
      const explained = evaluateRuleSet(rs, req({ path }), ctx(true));
      assert.equal(plain.winner, explained.winner, `${strategy.kind} ${path}`);
    }
  }
});

test('first_match: file order decides; no rule matching → no winner', () => {
  const rs = ruleSet([rule([urlPath('/a', 'starts_with')]), rule([urlPath('/a/b')]), rule([])]);
  assert.equal(evaluateRuleSet(rs, req({ path: '/a/b' }), ctx()).winner, 0);
  assert.equal(evaluateRuleSet(rs, req({ path: '/c' }), ctx()).winner, 2);
  assert.equal(evaluateRuleSet(ruleSet([rule([urlPath('/a')])]), req({ path: '/c' }), ctx()).winner, undefined);
});

test('round_robin through evaluateRuleSet: one counter per match group, catch-all groups included', () => {
  const labels = ['A1', 'A2', 'B1', 'B2', 'B3'];
  const rs = ruleSet(
    [...['/a', '/a'], ...['/b', '/b', '/b']].map((p) => rule([urlPath(p)])),
    { strategy: { kind: 'round_robin' } },
  );
  const c = ctx();
  const a: string[] = [];
  const b: string[] = [];
  for (let i = 0; i < 4; i++) {
    a.push(labels[evaluateRuleSet(rs, req({ path: '/a' }), c).winner!]!);
    b.push(labels[evaluateRuleSet(rs, req({ path: '/b' }), c).winner!]!);
  }
  assert.deepEqual(a, ['A1', 'A2', 'A1', 'A2']);
  assert.deepEqual(b, ['B1', 'B2', 'B3', 'B1']);

  const withAny = ruleSet([...rs.rules, rule([], { label: 'ANY' })], { strategy: { kind: 'round_robin' } });
  const names = [...labels, 'ANY'];
  const c2 = ctx();
  const a2: string[] = [];
  const b2: string[] = [];
  for (let i = 0; i < 4; i++) {
    a2.push(names[evaluateRuleSet(withAny, req({ path: '/a' }), c2).winner!]!);
    b2.push(names[evaluateRuleSet(withAny, req({ path: '/b' }), c2).winner!]!);
  }
  assert.deepEqual(a2, ['A1', 'A2', 'ANY', 'A1']);
  assert.deepEqual(b2, ['B1', 'B2', 'B3', 'ANY']);
});

test('a group whose requests do not answer does not advance', () => {
  const rs = ruleSet([rule([urlPath('/a')], { weight: 0 }), rule([urlPath('/a')], { weight: 0 })], {
    strategy: { kind: 'weighted_random' },
  });
  assert.equal(evaluateRuleSet(rs, req({ path: '/a' }), { ...ctx(), random: () => 0.5 }).winner, undefined);
});

test('body conditions through evaluateRuleSet', () => {
  const rs = ruleSet([
    rule([urlPath('/o'), body('customer.tier', 'equal', 'gold')]),
    rule([urlPath('/o'), body('x', 'absent', '')]),
    rule([urlPath('/o')]),
  ]);
  assert.equal(evaluateRuleSet(rs, req({ path: '/o', json: '{"customer":{"tier":"gold"}}' }), ctx()).winner, 0);
  assert.equal(evaluateRuleSet(rs, req({ path: '/o', json: '{"customer":{"tier":"silver"}}' }), ctx()).winner, 1);
  assert.equal(evaluateRuleSet(rs, req({ path: '/o' }), ctx()).winner, 2);
});

test('the path index only narrows: same matches as a full scan, in file order (exact paths, required texts)', () => {
  const prng = xorshift64(2024);
  const paths = ['/a', '/b', '/a/b', '/c', '/', '/ab/ba', '/re/r1/12', '/re/r12/3', '/x/a/b/c/d/e/f/g/h'];
  const texts = ['/a', 'b', '/a/b', 'a/', '/re/r1/', '/re/r12/', 'zz'];
  const regexes = ['/re/r1/[0-9]+$', '^/re/r12/', 'a/b', '/re/r\\d+/', 'b$', '/a(/b)?'];
  const pick = <T>(xs: readonly T[]): T => xs[prng.below(xs.length)]!;
  for (let round = 0; round < 60; round++) {
    const rules = Array.from({ length: 5 + prng.below(40) }, () => {
      const conds: Condition[] = [];
      const kind = prng.below(9);
      if (kind === 0) conds.push(urlPath(pick(paths), 'equal', { bare: true }));
      if (kind === 1) conds.push(urlPath(pick(paths), 'starts_with'));
      if (kind === 2) conds.push(method(pick(['GET', 'POST'] as const)), urlPath(pick(paths)));
      if (kind === 3) conds.push(urlPath(pick(paths), 'not_equal'));
      if (kind === 4) conds.push(urlPath(pick(texts), 'contains'));
      if (kind === 5) conds.push(urlPath(pick(texts), 'ends_with'));
      if (kind === 6) conds.push(urlPath(pick(regexes), 'regex'));
      if (kind === 7)
        conds.push(
          method(pick(['GET', 'POST'] as const)),
          urlPath(pick(regexes), 'regex'),
          urlPath(pick(texts), 'contains'),
        );
      return rule(conds, { priority: prng.below(3) });
    });
    const rs = ruleSet(rules, { strategy: { kind: 'priority', tiebreaker: 'first_match' } });
    for (const path of [...paths, '/zzz', '/re/r1/12/re/r12/4']) {
      for (const m of ['GET', 'POST']) {
        const r = req({ path, method: m });
        const fast = evaluateRuleSet(rs, r, ctx());
        const full = evaluateRuleSet(rs, r, ctx(true));
        assert.deepEqual(fast.matches, full.matches, `round ${round} ${m} ${path}`);
        assert.equal(fast.winner, full.winner);
      }
    }
  }
});

test('candidateRules: a path is checked only against the regex rules whose literal it contains', () => {
  const rules = Array.from({ length: 50 }, (_, i) => rule([urlPath(`/re/r${i}/[0-9]+$`, 'regex')]));
  rules.push(rule([method('GET')]));
  const rs = ruleSet(rules);
  assert.deepEqual(candidateRules(rs, '/re/r49/123'), [49, 50]);
  assert.deepEqual(candidateRules(rs, '/re/r4/1'), [4, 50]);
  assert.deepEqual(candidateRules(rs, '/other'), [50]);
  // a path long enough that looking every text up costs more than checking: all of them, still in order
  const long = '/re/r7/' + 'x'.repeat(100);
  assert.deepEqual(candidateRules(rs, long), [...Array.from({ length: 51 }, (_, i) => i)]);
  assert.equal(evaluateRuleSet(rs, req({ path: '/re/r49/123' }), ctx()).winner, 49);
  assert.equal(evaluateRuleSet(rs, req({ path: '/re/r4/x' }), ctx()).winner, 50);
});

test('candidateRules: a bare-path lookup skips the other exact paths', () => {
  const rules = Array.from({ length: 2000 }, (_, i) => rule([urlPath(`/p${i}`, 'equal', { bare: true })]));
  rules.splice(1000, 0, rule([urlPath('/p', 'starts_with')]));
  const rs = ruleSet(rules);
  assert.deepEqual(candidateRules(rs, '/p1999'), [1000, 2000]);
  assert.deepEqual(candidateRules(rs, '/p3'), [3, 1000]);
  assert.deepEqual(candidateRules(rs, '/nope'), [1000]);
  assert.equal(evaluateRuleSet(rs, req({ path: '/p1999' }), ctx()).winner, 1000);
  assert.equal(evaluateRuleSet(rs, req({ path: '/p3' }), ctx()).winner, 3);
});

test('prepareRuleSet builds ahead what the first request would, with the same answers', () => {
  const rules = Array.from({ length: 30 }, (_, i) => rule([urlPath(`/p${i}`, 'equal', { bare: true }), method('GET')]));
  rules.push(rule([urlPath('/re/r[0-9]+$', 'regex')]));
  const prepared = ruleSet(rules);
  const lazy = ruleSet(rules);
  prepareRuleSet(prepared);
  for (const path of ['/p0', '/p29', '/re/r7', '/none']) {
    const a = evaluateRuleSet(prepared, req({ path }), ctx());
    const b = evaluateRuleSet(lazy, req({ path }), ctx());
    assert.deepEqual([a.winner, a.matches], [b.winner, b.matches], path);
  }
  assert.equal(evaluateRuleSet(prepared, req({ path: '/re/r7' }), ctx()).winner, 30);
});

test('template rules told apart by a query value: the index finds the same matches, in the same order, as checking every rule', () => {
  const parse = (t: string) => {
    const r = parseTemplate(t);
    assert.ok(r.ok);
    return r.template;
  };
  const tpl = (t: string): Condition => ({
    on: 'url_path',
    op: 'path_template',
    value: t,
    bare: false,
    compareTo: t,
    template: parse(t),
  });
  const q = (name: string, value: string, op: 'equal' | 'not_equal' = 'equal'): Condition => ({
    on: 'query',
    name,
    op,
    value,
  });
  const rules = [];
  for (let i = 0; i < 30; i++) rules.push(rule([tpl('/items/{id}'), q('page', String(i % 12))]));
  rules.push(rule([tpl('/items/{id}'), q('page', '1'), q('page', '2')]));
  rules.push(rule([tpl('/items/{id}'), q('page', '3', 'not_equal')]));
  rules.push(rule([tpl('/items/{rest*}')]));
  rules.push(rule([urlPath('/items/7')]));
  for (const strategy of [{ kind: 'first_match' }, { kind: 'round_robin' }] as const) {
    const rs = ruleSet(rules, { strategy });
    prepareRuleSet(rs);
    for (const query of ['', 'page=3', 'page=11', 'page=1&page=2', 'page=99', 'page=4&page=4&x=1', 'other=1']) {
      const r = req({ path: '/items/7', query });
      const fast = evaluateRuleSet(rs, r, ctx());
      const full = evaluateRuleSet(rs, r, ctx(true));
      assert.deepEqual(
        fast.matches,
        strategy.kind === 'first_match' ? full.matches.slice(0, 1) : full.matches,
        `${strategy.kind} ?${query}`,
      );
    }
  }
});
