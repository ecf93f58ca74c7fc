import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Condition, RuleSet } from '../model/rule-set.js';
import { parseTemplate } from '../config/path-template.js';
import { req, rule, ruleSet, urlPath } from '../../test/helpers/routing-fixtures.js';
import { LazyRuleSet } from '../start-up/lazy-rule-set.js';
import { candidateRules, pathSummary } from './path-index.js';
import { ruleSetsFor } from './rule-sets-index.js';
import { cases } from '../../test/helpers/test-loop.js';

const tpl = (t: string): Condition => {
  const r = parseTemplate(t);
  assert.ok(r.ok);
  return { on: 'url_path', op: 'path_template', value: t, bare: false, compareTo: t, template: r.template };
};

const PATHS = ['/a', '/a/1', '/a/2', '/b', '/b/x/c', '/c/9'];
const condition = fc.oneof(
  fc.constantFrom(...PATHS).map((p) => urlPath(p) as Condition),
  fc.constantFrom('/a/{id}', '/b/{x}/c', '/{any}', '/c/{n}', '/a/{rest*}').map(tpl),
  fc.constantFrom('/b', '/c').map((p) => urlPath(p, 'starts_with') as Condition),
  fc.constant({ on: 'method', value: 'GET' }),
);
const workspace = fc
  .array(
    fc.record({
      rules: fc.array(fc.array(condition, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 4 }),
      prefix: fc.constantFrom(undefined, undefined, undefined, '/a'),
      // left undecoded by the load cache: placed by its summary
      lazy: fc.boolean(),
    }),
    { minLength: 8, maxLength: 14 },
  )
  .map((sets) =>
    sets.map((s, index): RuleSet => {
      const rs = ruleSet(
        s.rules.map((cs) => rule(cs)),
        { index, ...(s.prefix === undefined ? {} : { prefix: s.prefix }) },
      );
      if (!s.lazy) return rs;
      const { rules, ...parts } = rs;
      return new LazyRuleSet({ ...parts, summary: pathSummary(rules), decode: () => rules });
    }),
  );

test('the rule sets left out for a path are exactly ones with no candidate and no prefix (random workspaces)', () => {
  fc.assert(
    fc.property(workspace, fc.constantFrom(...PATHS, '/', '/zz', '/a/1/2'), (sets, path) => {
      const r = req({ path });
      const kept = ruleSetsFor(sets, r);
      assert.ok(kept !== undefined, 'eight rule sets or more are looked up');
      assert.deepEqual(
        [...kept],
        [...new Set(kept)].sort((x, y) => x - y),
        'ascending, each once',
      );
      sets.forEach((rs, at) => {
        const needed = rs.prefix !== undefined || candidateRules(rs, path, r).length > 0;
        if (needed) assert.ok(kept.includes(at), `rule set ${at} has a candidate for ${path}`);
      });
    }),
    cases(500),
  );
});

test('fewer than eight rule sets are all tried', () => {
  const sets = [ruleSet([rule([urlPath('/a')])], { index: 0 }), ruleSet([rule([urlPath('/b')])], { index: 1 })];
  assert.equal(ruleSetsFor(sets, req({ path: '/a' })), undefined);
});

test('a path no rule set names is looked up to the rule sets that always apply only', () => {
  const sets: RuleSet[] = [];
  for (let i = 0; i < 10; i++) sets.push(ruleSet([rule([urlPath(`/p${i}`)])], { index: i }));
  sets.push(ruleSet([rule([urlPath('/q', 'starts_with')])], { index: 10 }));
  assert.deepEqual([...ruleSetsFor(sets, req({ path: '/p3' }))!], [3, 10]);
  assert.deepEqual([...ruleSetsFor(sets, req({ path: '/nothing' }))!], [10]);
});
