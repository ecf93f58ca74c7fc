import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRustRegex, translateRustRegex } from './rust-regex.js';
import { wildcardToRegExp } from './wildcard.js';

test('Rust regex syntax translates to JS', () => {
  const cases: [string, string, string][] = [
    ['\\d+', '\\d+', 'u'],
    ['(?i)abc', 'abc', 'ui'],
    ['(?ims)a.b', 'a.b', 'uims'],
    ['(?P<id>\\d+)', '(?<id>\\d+)', 'u'],
    ['\\Aabc\\z', '^abc$', 'u'],
    ['\\pL+', '\\p{L}+', 'u'],
    ['\\p{Greek}', '\\p{Greek}', 'u'],
    ['[[:alpha:]]+', '[A-Za-z]+', 'u'],
    ['[^[:digit:]x]', '[^0-9x]', 'u'],
    ['a\\#b\\&c\\~', 'a#b&c~', 'u'],
    ['[\\-a]', '[\\-a]', 'u'],
    ['[]a]', '[\\]a]', 'u'],
    ['\\/api\\.json', '\\/api\\.json', 'u'],
  ];
  for (const [rust, source, flags] of cases) {
    const r = translateRustRegex(rust);
    assert.ok(r.ok, rust);
    assert.deepEqual(r.value, { source, flags }, rust);
  }
});

test('compiled patterns match like Rust is_match (unanchored)', () => {
  const cases: [string, string, boolean][] = [
    ['\\d+', '/api/123', true],
    ['^/api/\\d+$', '/api/123', true],
    ['^/api/\\d+$', '/api/12a', false],
    ['(?i)^/USERS', '/users/1', true],
    ['\\p{L}+', 'é', true],
    ['\\Ahello\\z', 'hello', true],
    ['\\Ahello\\z', 'hello\n', false],
    ['(?P<n>a)b', 'ab', true],
    ['[[:upper:]]', 'abc', false],
    ['\\bword\\b', 'a word here', true],
    ['x{2}', 'axxb', true],
  ];
  for (const [p, s, want] of cases) {
    const r = compileRustRegex(p);
    assert.ok(r.ok, p);
    assert.equal(r.value.test(s), want, `${p} on ${s}`);
  }
});

test('invalid patterns are refused with a reason', () => {
  for (const p of ['(', '[a-', 'a)', '(?x)a b', 'a**', '\\']) {
    const r = compileRustRegex(p);
    assert.equal(r.ok, false, p);
    if (!r.ok) assert.match(r.error, /\S/);
  }
  const r = compileRustRegex('(');
  assert.ok(!r.ok && /unterminated group/.test(r.error), JSON.stringify(r));
});

test('wild_card: * spans slashes, ? is one character, the rest is literal, whole string', () => {
  const cases: [string, string, boolean][] = [
    ['/api/*', '/api/1/2/3', true],
    ['/api/*', '/api/', true],
    ['/api/*', '/apix', false],
    ['/a?c', '/abc', true],
    ['/a?c', '/ac', false],
    ['/a?c', '/aéc', true],
    ['[Bb]earer*', 'Bearer x', false],
    ['[Bb]earer*', '[Bb]earer x', true],
    ['a.b', 'axb', false],
    ['a.b', 'a.b', true],
    ['/a-b*', '/a-bc', true],
    ['api/*', '/api/1', false],
    ['*', '', true],
    ['', '', true],
    ['', 'x', false],
    ['(x)+{1}|$^\\', '(x)+{1}|$^\\', true],
  ];
  for (const [p, s, want] of cases) assert.equal(wildcardToRegExp(p).test(s), want, `${p} on ${s}`);
});
