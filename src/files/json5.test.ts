import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import JSON5 from 'json5';
import { Json5Error, json5ToJson } from './json5.js';
import { formatFloat } from './number-format.js';

describe('json5ToJson', () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    // [what, JSON5 input, JSON output]
    ['plain JSON is minified', '{ "a" : 1,\n "b": [ true, false, null ] }\n', '{"a":1,"b":[true,false,null]}'],
    ['line and block comments', '// head\n{ /* in */ a: 1 // tail\n}', '{"a":1}'],
    ['single-quoted strings', "{'k': 'it\\'s \"x\"'}", '{"k":"it\'s \\"x\\""}'],
    ['trailing commas', '{a: [1, 2,], b: 3,}', '{"a":[1,2],"b":3}'],
    ['identifier keys', '{$x: 1, _y: 2, ünï: 3, a1: 4}', '{"$x":1,"_y":2,"ünï":3,"a1":4}'],
    ['escaped identifier key', '{\\u0061b: 1}', '{"ab":1}'],
    ['reserved words as keys', '{null: 1, true: 2}', '{"null":1,"true":2}'],
    ['key order kept, integer-like keys included', '{b: 1, "10": 2, a: 3, "2": 4}', '{"b":1,"10":2,"a":3,"2":4}'],
    ['duplicate key: first position, last value', '{a: 1, b: 2, a: 3}', '{"a":3,"b":2}'],
    ['hex', '[0x10, 0XfF, -0x1]', '[16,255,-1]'],
    ['explicit plus', '[+5, +1.5]', '[5,1.5]'],
    ['leading decimal point', '.5', '0.5'],
    ['trailing decimal point', '5.', '5.0'],
    ['trailing zeros dropped', '1.50', '1.5'],
    ['1.0 stays a float', '1.0', '1.0'],
    ['exponent makes a float', '1e2', '100.0'],
    ['negative zero integer', '-0', '0'],
    ['negative zero float', '-0.0', '-0.0'],
    ['NaN and Infinity become null', '[NaN, Infinity, -Infinity, +Infinity]', '[null,null,null,null]'],
    ['float overflow becomes null', '1.5e400', 'null'],
    ['u64 max kept exact', '18446744073709551615', '18446744073709551615'],
    ['i64 min kept exact', '-9223372036854775808', '-9223372036854775808'],
    ['beyond 2^53 kept exact', '{n: 9007199254740993}', '{"n":9007199254740993}'],
    ['beyond u64 kept exact', '123456789012345678901234567890', '123456789012345678901234567890'],
    ['string escapes', String.raw`'\b\f\n\r\t\v\0\x41\u00e9\/\q'`, '"\\b\\f\\n\\r\\t\\u000b\\u0000Aé/q"'],
    ['line continuation', "'a\\\nb\\\r\nc'", '"abc"'],
    ['U+2028 allowed raw in strings', "'a\u2028b'", '"a\u2028b"'],
    ['control characters re-escaped', '"tab\there"', '"tab\\there"'],
    ['non-ASCII kept raw', '"日本"', '"日本"'],
    ['surrogate pair escapes', '"\\ud83d\\ude00"', '"😀"'],
    ['whitespace kinds', '\ufeff\u00a0\u2003{\u2028a\t:\v1\f}\u3000', '{"a":1}'],
    ['top-level string', "'x'", '"x"'],
    ['empty containers', '{a: {}, b: [], c: [{}]}', '{"a":{},"b":[],"c":[{}]}'],
  ];
  for (const [what, input, expected] of cases) {
    it(what, () => assert.equal(json5ToJson(input), expected));
  }

  const invalid: ReadonlyArray<readonly [string, string]> = [
    ['empty document', ''],
    ['only a comment', '// nothing'],
    ['two values', '1 2'],
    ['unterminated object', '{a: 1'],
    ['unterminated string', "'abc"],
    ['line break in a string', "'a\nb'"],
    ['leading zero', '01'],
    ['double trailing comma', '[1,,]'],
    ['leading comma', '[,1]'],
    ['missing colon', '{a 1}'],
    ['bare word value', 'undefined'],
    ['literal with a suffix', 'nullx'],
    ['key starting with a digit', '{1a: 1}'],
    ['octal-looking escape', "'\\1'"],
    ['\\0 followed by a digit', "'\\01'"],
    ['bad hex escape', "'\\xZZ'"],
    ['unterminated block comment', '1 /* x'],
    ['hex without digits', '0x'],
    ['lone sign', '-'],
    ['deep nesting', '['.repeat(2000) + ']'.repeat(2000)],
  ];
  for (const [what, input] of invalid) {
    it(`rejects ${what}`, () => assert.throws(() => json5ToJson(input), Json5Error));
  }

  it('agrees with the json5 package on values for a mixed document', () => {
    const doc = `{
      // a config-ish file
      name: 'mock', version: +2, ratio: .25, list: [1, 'two', {three: 3,},],
      nested: {deep: {deeper: [null, true, false, -7.5e-3]}}, "quoted key": "v",
    }`;
    assert.deepEqual(JSON.parse(json5ToJson(doc)), JSON5.parse(doc));
  });
});

describe('formatFloat (ryu style, as serde_json prints)', () => {
  const cases: ReadonlyArray<readonly [number, string]> = [
    [100, '100.0'],
    [1.5, '1.5'],
    [0.1, '0.1'],
    [123456.789, '123456.789'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e16'],
    [1.5e16, '1.5e16'],
    [1e-5, '0.00001'],
    [1.25e-5, '0.0000125'],
    [1e-6, '1e-6'],
    [-2.5e-7, '-2.5e-7'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e308'],
    [-3, '-3.0'],
    [0, '0.0'],
  ];
  for (const [value, expected] of cases) {
    it(`${value} → ${expected}`, () => assert.equal(formatFloat(value), expected));
  }
});
