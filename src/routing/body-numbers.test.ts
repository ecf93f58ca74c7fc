import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson, type Json } from '../shared/json.js';
import { bodyAsF64, bodyAsI64, parseF64, parseI64 } from './body-numbers.js';

test('parseF64: Rust f64::from_str rules, not Number()', () => {
  const table: readonly [string, number | undefined][] = [
    ['42', 42],
    ['-1.5', -1.5],
    ['1e1', 10],
    ['1E-1', 0.1],
    ['.5', 0.5],
    ['5.', 5],
    ['+3', 3],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    [' 10', undefined],
    ['10 ', undefined],
    ['', undefined],
    ['0x10', undefined],
    ['1e', undefined],
    ['.', undefined],
    ['1_000', undefined],
    ['abc', undefined],
  ];
  for (const [s, want] of table) assert.equal(parseF64(s), want, s);
  assert.ok(Number.isNaN(parseF64('NaN')));
});

test('parseI64: optional sign, digits, within i64', () => {
  const table: readonly [string, bigint | undefined][] = [
    ['42', 42n],
    ['+42', 42n],
    ['-42', -42n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', undefined],
    ['42.0', undefined],
    ['4e1', undefined],
    [' 42', undefined],
    ['', undefined],
    ['-', undefined],
  ];
  for (const [s, want] of table) assert.equal(parseI64(s), want, s);
});

test('bodyAsF64 / bodyAsI64 on JSON values', () => {
  const v = parseJson('[42, 1.5, "7", "x", true, null, [1], 12345678901234567890, 1e300]') as readonly Json[];
  assert.deepEqual(v.map(bodyAsF64), [
    42,
    1.5,
    7,
    undefined,
    undefined,
    undefined,
    undefined,
    12345678901234567890,
    1e300,
  ]);
  assert.deepEqual(v.map(bodyAsI64), [
    42n,
    undefined,
    7n,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});
