import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonRequestBody } from '../model/request.js';
import { JsonFloat, parseJson, parseTypedJson, stringifyJson, type Json, type TypedJson } from '../shared/json.js';
import { parseUsize, resolveBodyPath, resolveTypedInBody } from './body-path.js';

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
    ['0', 0],
    ['01', 1],
    ['+1', 1],
    ['-1', undefined],
    ['-0', undefined],
    ['', undefined],
    ['1.0', undefined],
    [' 1', undefined],
    ['1e1', undefined],
    ['99999999999999999999', undefined],
  ];
  for (const [s, want] of table) assert.equal(parseUsize(s), want, s);
});

test('resolveTypedInBody asks for the typed body only for a value holding an integer, and uses it when there is one', () => {
  const text = '{"s":"x","f":1.5,"i":42,"d":42.0,"o":{"t":true},"a":[1.0]}';
  let asked = 0;
  const typed = parseTypedJson(text);
  const body: JsonRequestBody = {
    kind: 'json',
    value: parseJson(text),
    unchecked: JSON.parse(text) as Json,
    byteLength: text.length,
    get typed(): TypedJson | undefined {
      asked++;
      return typed;
    },
  };
  const cases: [string, string | undefined, number][] = [
    // path, compact typed value, how often the typed body was asked for so far
    ['s', '"x"', 0],
    ['f', '1.5', 0],
    ['o', '{"t":true}', 0],
    ['missing', undefined, 0],
    ['i', '42', 1],
    ['d', '42.0', 2],
    ['a', '[1.0]', 3],
  ];
  for (const [path, want, times] of cases) {
    const got = resolveTypedInBody(body, path.split('.'));
    assert.equal(got === undefined ? undefined : stringifyJson(got), want, path);
    assert.equal(asked, times, `${path}: asked`);
  }
  assert.ok(resolveTypedInBody(body, ['d']) instanceof JsonFloat);
  // a body that cannot hold such a number (no typed form): the value as JSON.parse gave it, exact when big
  const plain = '{"i":42,"big":9007199254740993}';
  const noFloats: JsonRequestBody = {
    kind: 'json',
    value: parseJson(plain),
    unchecked: JSON.parse(plain) as Json,
    byteLength: plain.length,
    typed: undefined,
  };
  assert.equal(resolveTypedInBody(noFloats, ['i']), 42);
  assert.equal(resolveTypedInBody(noFloats, ['big']), 9007199254740993n);
  // a JsonFloat is a scalar: no path goes into it
  assert.equal(resolveBodyPath(parseTypedJson('{"d":42.0}'), ['d', 'x']), undefined);
});
