import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson, type Json } from '../shared/json.js';
import { parseUsize, resolveBodyPath } from './body-path.js';

const doc = parseJson(
  '{"customer":{"tier":"gold"},"items":[{"sku":"A"},{"sku":"B"}],"a":{"0":"zero"},"a.b":1,"":{"":"e"},"$":{"a":"dollar"},"a[0]":"lit","n":null}',
);

const cases: readonly [string, Json | undefined][] = [
  ['customer.tier', 'gold'],
  ['customer', { tier: 'gold' }],
  ['items.0.sku', 'A'],
  ['items.1.sku', 'B'],
  ['items.01.sku', 'B'],
  ['items.+1.sku', 'B'],
  ['items.-1.sku', undefined],
  ['items.2.sku', undefined],
  ['items. 1.sku', undefined],
  ['items.x', undefined],
  ['a.0', 'zero'],
  ['a.b', undefined],
  ['', { '': 'e' }],
  ['.', 'e'],
  ['$.a', 'dollar'],
  ['$.customer', undefined],
  ['a[0]', 'lit'],
  ['customer.tier.x', undefined],
  ['n', null],
  ['n.x', undefined],
  ['Customer.tier', undefined],
  ['toString', undefined],
  ['__proto__', undefined],
];

test('resolveBodyPath: dotted segments on objects and arrays', () => {
  for (const [path, want] of cases) assert.deepEqual(resolveBodyPath(doc, path.split('.')), want, path);
});

test('resolveBodyPath: a top-level array body', () => {
  assert.equal(resolveBodyPath(parseJson('[{"a":7}]'), ['0', 'a']), 7);
  assert.equal(resolveBodyPath(parseJson('[{"a":7}]'), ['a']), undefined);
  assert.equal(resolveBodyPath(parseJson('5'), ['a']), undefined);
});

test('parseUsize: Rust usize rules', () => {
  const table: readonly [string, number | undefined][] = [
    ['0', 0], ['01', 1], ['+1', 1], ['-1', undefined], ['-0', undefined], ['', undefined], ['1.0', undefined], [' 1', undefined], ['1e1', undefined], ['99999999999999999999', undefined],
  ];
  for (const [s, want] of table) assert.equal(parseUsize(s), want, s);
});
