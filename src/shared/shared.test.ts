import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editDistance, suggest } from './did-you-mean.js';
import { JsonFloat, mayHoldIntegralFloat, parseJson, parseTypedJson, prettyJson, stringifyJson } from './json.js';
import { xorshift64 } from './prng.js';
import { lineColumnAt } from './position.js';
import { getHeader, setHeader } from './headers.js';
import { decodeLossy, isValidUtf8 } from './utf8.js';

test('editDistance', () => {
  const cases: [string, string, number][] = [
    ['', '', 0],
    ['serve', 'serv', 1],
    ['url_pth', 'url_path', 1],
    ['teh', 'the', 1],
    ['abc', 'xyz', 3],
  ];
  for (const [a, b, d] of cases) assert.equal(editDistance(a, b), d, `${a} ~ ${b}`);
});

test('suggest finds plausible near matches only', () => {
  const subs = ['serve', 'get', 'set', 'match-test', 'validate'];
  assert.equal(suggest('serv', subs), 'serve');
  assert.equal(suggest('gett', subs), 'get');
  assert.equal(suggest('validat', subs), 'validate');
  assert.equal(suggest('banana', subs), undefined);
  assert.equal(suggest('url_pth', ['url_path', 'method', 'headers', 'body']), 'url_path');
  assert.equal(suggest('bdy', ['url_path', 'method', 'headers', 'body']), 'body');
  assert.equal(suggest('fallback_dir', ['rule_sets', 'fallback_respond_dir', 'strategy']), 'fallback_respond_dir');
  assert.equal(suggest('max_body', ['max_request_body_bytes', 'max_connections']), 'max_request_body_bytes');
  assert.equal(suggest('zzz_yyy', ['max_request_body_bytes']), undefined);
});

test('parseJson keeps big integers exact and order of keys', () => {
  assert.deepEqual(parseJson('{"b":1,"a":[true,null,"x"]}'), { b: 1, a: [true, null, 'x'] });
  assert.equal(parseJson('12345678901234567890'), 12345678901234567890n);
  assert.equal(parseJson('9007199254740993'), 9007199254740993n);
  assert.equal(parseJson('1.5'), 1.5);
  const v = parseJson('{"z":9007199254740993,"a":1}');
  assert.equal(stringifyJson(v), '{"z":9007199254740993,"a":1}');
  assert.throws(() => parseJson('{"a":'), /offset/);
  assert.throws(() => parseJson('{bad}'));
  // __proto__ is an ordinary key
  const p = parseJson('{"__proto__":{"x":1},"y":12345678901234567}');
  assert.equal(Object.keys(p as object).includes('__proto__'), true);
});

function holdsJsonFloat(v: unknown): boolean {
  if (v instanceof JsonFloat) return true;
  return typeof v === 'object' && v !== null && Object.values(v).some(holdsJsonFloat);
}

test('parseTypedJson types each number by its lexeme; parseJson does not', () => {
  const cases: [string, string, boolean][] = [
    // text, compact typed text, whether a JsonFloat is at the top
    ['42', '42', false],
    ['42.0', '42.0', true],
    ['-42.00', '-42.0', true],
    ['1e3', '1000.0', true],
    ['1E+3', '1000.0', true],
    ['1.5e1', '15.0', true],
    ['1.5', '1.5', false],
    ['15e-1', '1.5', false],
    ['-0.0', '-0.0', true],
    ['1e16', '1e16', true],
    ['1.5e20', '1.5e20', true],
    ['9007199254740993', '9007199254740993', false],
    ['{"a":[1,2.0,{"b":3e0}],"c":"4.0"}', '{"a":[1,2.0,{"b":3.0}],"c":"4.0"}', false],
  ];
  for (const [text, compact, top] of cases) {
    const typed = parseTypedJson(text);
    assert.equal(stringifyJson(typed), compact, text);
    assert.equal(typed instanceof JsonFloat, top, `${text} top`);
    assert.equal(
      holdsJsonFloat(typed),
      compact.includes('.0') || compact.includes('e'),
      `${text}: typed holds a JsonFloat`,
    );
    assert.equal(holdsJsonFloat(parseJson(text)), false, `${text}: parseJson stays untyped`);
  }
  assert.equal(parseJson('42.0'), 42);
  assert.equal((parseTypedJson('42.0') as JsonFloat).valueOf(), 42);
  assert.throws(() => parseTypedJson('{"a":'), /offset/);
});

test('mayHoldIntegralFloat: yes for every text with a float lexeme of integer value (strings may say yes too)', () => {
  const cases: [string, boolean][] = [
    ['{"a":42}', false],
    ['{"a":1.5,"b":9.99,"c":0.05,"d":1.05}', false],
    ['{"a":42.0}', true],
    ['[42.00]', true],
    ['42.0', true],
    ['{"a":1e3}', true],
    ['{"a":1.5E-2}', true],
    ['{"s":"v1.0 "}', true],
    ['{"s":"1.05"}', false],
  ];
  for (const [text, want] of cases) assert.equal(mayHoldIntegralFloat(text), want, text);
});

test('prettyJson indents by two spaces', () => {
  assert.equal(
    prettyJson({ a: [1, { b: null }], c: {} }),
    '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {}\n}',
  );
});

test('xorshift64 is deterministic per seed and zero is replaced', () => {
  const a = xorshift64(42);
  const b = xorshift64(42);
  for (let i = 0; i < 5; i++) assert.equal(a.next(), b.next());
  assert.equal(xorshift64(42).next(), 45454805674n);
  assert.notEqual(xorshift64(0).next(), 0n);
  const r = xorshift64(7);
  for (let i = 0; i < 100; i++) {
    const n = r.below(3);
    assert.ok(n >= 0 && n < 3);
  }
});

test('lineColumnAt', () => {
  assert.deepEqual(lineColumnAt('ab\ncd', 0), { line: 1, column: 1 });
  assert.deepEqual(lineColumnAt('ab\ncd', 4), { line: 2, column: 2 });
});

test('headers are case-insensitive and keep order', () => {
  const h = setHeader(
    [
      ['A', '1'],
      ['b', '2'],
    ],
    'a',
    '3',
  );
  assert.deepEqual(h, [
    ['a', '3'],
    ['b', '2'],
  ]);
  assert.equal(getHeader(h, 'B'), '2');
});

test('utf8 helpers', () => {
  assert.equal(isValidUtf8(new Uint8Array([0xff, 0xfe])), false);
  assert.equal(decodeLossy(new Uint8Array([0x61, 0xff])), 'a\uFFFD');
});
