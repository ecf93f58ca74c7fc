import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Condition } from '../model/rule-set.js';
import { conditionText, debugQuote, describeCondition } from './describe.js';
import { body, header, method, urlPath } from '../../test/helpers/routing-fixtures.js';

const cases: readonly [Condition, string, string][] = [
  [urlPath('api/x', 'equal', { bare: true }), 'url_path', 'equal "api/x"'],
  [urlPath('/api', 'starts_with'), 'url_path', ' starts with  "/api"'],
  [urlPath('/a', 'equal'), 'url_path', ' ==  "/a"'],
  [urlPath('^/api/\\d+$', 'regex'), 'url_path', ' matches regex  "^/api/\\\\d+$"'],
  [method('GET'), 'method', 'GET'],
  [header('Authorization', 'starts_with', 'Bearer '), 'header:authorization', ' starts with  "Bearer "'],
  [header('x-k', 'not_equal', 'z'), 'header:x-k', ' !=  "z"'],
  [header('x-api-key', 'exists'), 'header:x-api-key', ' exists ""'],
  [header('x-api-key', 'absent'), 'header:x-api-key', ' absent ""'],
  [body('a', 'equal', '1'), 'body.json:a', ' ==  "1"'],
  [body('b.c', 'equal_typed', '[1]'), 'body.json:b.c', ' == (typed)  "[1]"'],
  [body('d', 'exists', ''), 'body.json:d', ' exists ""'],
  [body('items', 'array_length_at_least', '2'), 'body.json:items', ' array_length >=  "2"'],
  [body('o', 'equal', '{"x":1}'), 'body.json:o', ' ==  "{\\"x\\":1}"'],
];

test('describeCondition: names and expectations as `get --why` prints them', () => {
  for (const [cond, name, expectation] of cases) assert.deepEqual(describeCondition(cond), { name, expectation });
});

test('conditionText: the --why line without marks or actual', () => {
  assert.equal(conditionText(urlPath('/api', 'starts_with')), 'url_path  starts with  "/api"');
  assert.equal(conditionText(body('d', 'exists', '')), 'body.json:d  exists ""');
  assert.equal(conditionText(urlPath('api/x', 'equal', { bare: true })), 'url_path equal "api/x"');
  assert.equal(conditionText(method('POST')), 'method POST');
});

test('debugQuote: Rust {:?} escapes', () => {
  const table: readonly [string, string][] = [
    ['plain', '"plain"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['a\\b', '"a\\\\b"'],
    ['l1\nl2\t\r', '"l1\\nl2\\t\\r"'],
    ['\u001b[0m', '"\\u{1b}[0m"'],
    ["it's é ★", '"it\'s é ★"'],
    ['', '""'],
  ];
  for (const [s, want] of table) assert.equal(debugQuote(s), want, s);
});
