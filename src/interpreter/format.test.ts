// Float and value formatting against Rust/Rhai output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { debugString, floatToDebug, floatToDisplay, hostDebug, toDebug, toDisplay } from './format.js';
import { Char, FnPtr, RangeValue, type Value } from './values.js';

test('Display of floats (to_string, print)', () => {
  const table: [number, string][] = [
    [1, '1.0'],
    [-1, '-1.0'],
    [0, '0.0'],
    [-0, '0.0'],
    [0.5, '0.5'],
    [1.25, '1.25'],
    [100, '100.0'],
    [1e12, '1000000000000.0'],
    [9999999827968, '9999999827968.0'],
    [9999999827969, '9.999999827969e12'],
    [1e13, '1e13'],
    [1e15, '1e15'],
    [1.5e20, '1.5e20'],
    [-2.5e300, '-2.5e300'],
    [1e-13, '0.0000000000001'],
    [9e-14, '9e-14'],
    [2e-13, '0.0000000000002'],
    [1e-7, '0.0000001'],
    [5e-324, '5e-324'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'NaN'],
  ];
  for (const [x, s] of table) assert.equal(floatToDisplay(x), s, String(x));
});

test('Debug of floats (to_debug, items in arrays and maps)', () => {
  const table: [number, string][] = [
    [1, '1.0'],
    [-0, '-0.0'],
    [0, '0.0'],
    [0.1, '0.1'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e16'],
    [1.5e16, '1.5e16'],
    [0.0001, '0.0001'],
    [0.00012, '0.00012'],
    [0.00001, '1e-5'],
    [1.5e-7, '1.5e-7'],
    [123456789.125, '123456789.125'],
    [Infinity, 'inf'],
    [NaN, 'NaN'],
  ];
  for (const [x, s] of table) assert.equal(floatToDebug(x), s, String(x));
});

test('Display and Debug of the other values', () => {
  assert.equal(toDisplay(null), '');
  assert.equal(toDebug(null), '()');
  assert.equal(toDisplay(new Char('x')), 'x');
  // a script's to_debug of a char is the bare character; the host's view quotes it
  assert.equal(toDebug(new Char("'")), "'");
  assert.equal(hostDebug(new Char("'")), "'\\''");
  assert.equal(hostDebug([new Char('c'), 'c']), '[\'c\', "c"]');
  assert.equal(toDebug('a"b\\c\n\t\u0001'), '"a\\"b\\\\c\\n\\t\\u{1}"');
  assert.equal(debugString("it's"), '"it\'s"');
  assert.equal(toDisplay([1n, 'a', 2.0, true, null, new Char('c')]), '[1, "a", 2.0, true, (), \'c\']');
  const inner = new Map<string, Value>([['z', []]]);
  assert.equal(
    toDisplay(
      new Map<string, Value>([
        ['b', 1n],
        ['a', inner],
      ]),
    ),
    '#{"a": #{"z": []}, "b": 1}',
  );
  assert.equal(toDisplay(new FnPtr('foo', [], null)), 'Fn(foo)');
  assert.equal(toDisplay(new RangeValue(1n, 5n, true)), '1..=5');
  assert.equal(toDisplay(-9223372036854775808n), '-9223372036854775808');
});
