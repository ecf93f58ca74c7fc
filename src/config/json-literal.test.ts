import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIpAddress } from './ip-address.js';
import { minifyJsonLiteral } from './json-literal.js';

test('respond.json is minified with key order kept; JSON5 is accepted', () => {
  const cases: [string, string][] = [
    ['{ "z": 1,  "a": [1, 2], "m": {"y": true, "b": null} }', '{"z":1,"a":[1,2],"m":{"y":true,"b":null}}'],
    ['"just a string"', '"just a string"'],
    ['{"a":1,"a":2}', '{"a":2}'],
    ['{"n": 9007199254740993}', '{"n":9007199254740993}'],
    ['{"n": 18446744073709551615, "m": -9223372036854775808}', '{"n":18446744073709551615,"m":-9223372036854775808}'],
    ['{"s": "\\u00e9\\/"}', '{"s":"é/"}'],
    ['[-0]', '[0]'],
    ["{ unquoted: 'single', trailing: [1,2,], } // comment", '{"unquoted":"single","trailing":[1,2]}'],
    ['/* c */ {a: 0x10, b: .5, c: +1}', '{"a":16,"b":0.5,"c":1}'],
    // read by the transcoder that serves .json5 files: an integer-like key stays where it was written and an
    // integer past 2^53 stays exact (JSON.parse and the json5 package, used here before, moved the one and
    // rounded the other in JSON5 text)
    ['{"b": 1, "10": 2}', '{"b":1,"10":2}'],
    ["{b: 1, '10': 2, n: 9007199254740993,}", '{"b":1,"10":2,"n":9007199254740993}'],
    ['[1.0, 1e2, 0.1, -0]', '[1.0,100.0,0.1,0]'],
  ];
  for (const [input, want] of cases) {
    const r = minifyJsonLiteral(input);
    assert.ok(r.ok, input);
    assert.equal(r.value, want, input);
  }
});

test('respond.json refusals: syntax, integers beyond 64 bits, Infinity/NaN', () => {
  const cases: [string, string][] = [
    ['{ bad', 'syntax'],
    ['', 'syntax'],
    ['{"a": }', 'syntax'],
    ['{"n": 12345678901234567890123}', 'out_of_range'],
    ['{"n": -9223372036854775809}', 'out_of_range'],
    ['{n: 18446744073709551616, /* json5 */}', 'out_of_range'],
    ['{a: Infinity}', 'not_finite'],
    ['[NaN]', 'not_finite'],
    ['[1e400]', 'not_finite'],
    ['[0x10000000000000000]', 'out_of_range'],
  ];
  for (const [input, kind] of cases) {
    const r = minifyJsonLiteral(input);
    assert.equal(r.ok, false, input);
    if (!r.ok) assert.equal(r.error.kind, kind, input);
  }
});

test('isIpAddress accepts IPv4 and IPv6 literals only', () => {
  const good = [
    '127.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    '2001:db8::8a2e:370:7334',
    '1:2:3:4:5:6:7:8',
    '::ffff:192.0.2.1',
  ];
  const bad = [
    'localhost',
    '256.0.0.1',
    '1.2.3',
    '01.2.3.4x',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':::',
    'gggg::1',
    '',
    '127.0.0.1 ',
  ];
  for (const s of good) assert.equal(isIpAddress(s), true, s);
  for (const s of bad) assert.equal(isIpAddress(s), false, s);
});
