import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testPattern, testString, type StringOp } from './string-ops.js';
import { globToRegExp } from '../../test/helpers/routing-fixtures.js';

const cases: readonly [StringOp, string, string, RegExp | undefined, boolean][] = [
  ['equal', 'abc', 'abc', undefined, true],
  ['equal', 'abc', 'Abc', undefined, false],
  ['equal', '', '', undefined, true],
  ['not_equal', 'abc', 'abd', undefined, true],
  ['not_equal', 'abc', 'abc', undefined, false],
  ['starts_with', 'Bearer t', 'Bearer ', undefined, true],
  ['starts_with', 'bearer t', 'Bearer ', undefined, false],
  ['starts_with', 'x', '', undefined, true],
  ['not_starts_with', 'Basic x', 'Bearer', undefined, true],
  ['not_starts_with', 'Bearer x', 'Bearer', undefined, false],
  ['ends_with', 'a.json', '.json', undefined, true],
  ['ends_with', 'a.jsonx', '.json', undefined, false],
  ['not_ends_with', 'a.txt', '.json', undefined, true],
  ['not_ends_with', 'a.json', '.json', undefined, false],
  ['contains', 'abcdef', 'cd', undefined, true],
  ['contains', 'abcdef', 'dc', undefined, false],
  ['not_contains', 'abcdef', 'dc', undefined, true],
  ['not_contains', 'abcdef', 'cd', undefined, false],
  ['wild_card', '/api/1/2/3', '', globToRegExp('/api/*'), true],
  ['wild_card', '/api', '', globToRegExp('/api/*'), false],
  ['wild_card', 'ab', '', globToRegExp('a?'), true],
  ['wild_card', 'abc', '', globToRegExp('a?'), false],
  ['wild_card', 'x', '', undefined, false],
  ['regex', '/api/123', '', /^\/api\/\d+$/, true],
  ['regex', '/api/abc', '', /^\/api\/\d+$/, false],
  ['regex', 'xx123yy', '', /\d+/, true],
  ['regex', 'x', '', undefined, false],
  ['not_regex', '/api/abc', '', /\d/, true],
  ['not_regex', '/api/1', '', /\d/, false],
  ['not_regex', 'x', '', undefined, true],
];

test('testString: every value operator, matching and not', () => {
  for (const [op, actual, operand, pattern, want] of cases) {
    assert.equal(
      testString(op, actual, operand, pattern),
      want,
      `${op} ${JSON.stringify(actual)} ${JSON.stringify(operand)} ${pattern ?? ''}`,
    );
  }
});

test('testPattern: a /g pattern gives the same answer every time', () => {
  const g = /a/g;
  for (let i = 0; i < 3; i++) assert.equal(testPattern(g, 'a'), true);
});
