import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LazyRequestParts, parseCookies, parseQuery } from './request-parts.js';

test('parseQuery: names exact, values percent-decoded with + as a space, repeated names in order', () => {
  const q = parseQuery('q=a+b&r=a%20b&tag=x&tag=y&flag&e=&Q=upper&bad=%zz&plus=%2B');
  assert.deepEqual(
    [...q],
    [
      ['q', ['a b']],
      ['r', ['a b']],
      ['tag', ['x', 'y']],
      ['flag', ['']],
      ['e', ['']],
      ['Q', ['upper']],
      ['bad', ['%zz']],
      ['plus', ['+']],
    ],
  );
  assert.equal(parseQuery('').size, 0);
});

test('parseCookies: RFC 6265 pairs, trimmed, quotes removed, the first of duplicates, every cookie header', () => {
  const c = parseCookies([
    ['cookie', 'a=1; b = two ; c="q"; a=dup; junk; =x'],
    ['x-other', 'z=9'],
    ['cookie', 'd=%20'],
  ]);
  assert.deepEqual(
    [...c],
    [
      ['a', '1'],
      ['b', 'two'],
      ['c', 'q'],
      ['d', '%20'],
    ],
  );
  assert.equal(parseCookies([]).size, 0);
});

test('LazyRequestParts: body text and urlencoded form, parsed on first access only', () => {
  const body = new TextEncoder().encode('user=ann+lee&x=%FF');
  const parts = new LazyRequestParts('', [['content-type', 'application/x-www-form-urlencoded; charset=utf-8']], body);
  assert.equal(parts.bodyText, 'user=ann+lee&x=%FF');
  assert.deepEqual(
    [...parts.form!.fields],
    [
      ['user', ['ann lee']],
      ['x', ['\uFFFD']],
    ],
  );
  assert.equal(parts.form, parts.form);
  const text = new LazyRequestParts('', [['content-type', 'text/plain']], new Uint8Array([0x61, 0xff, 0x62]));
  assert.equal(text.bodyText, 'a\uFFFDb');
  assert.equal(text.form, undefined);
  assert.equal(new LazyRequestParts('', [], undefined).bodyText, undefined);
});

test('parseQuery: without anything to decode, the split gives what URLSearchParams gives', () => {
  for (const raw of ['a=1&b=2', 'a&&b=', '=x&a==b&a=c', '&', 'k=v;w=1&k=', 'ä=ö&é']) {
    const expected = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(raw)) expected.set(k, [...(expected.get(k) ?? []), v]);
    assert.deepEqual(parseQuery(raw), expected, raw);
  }
});
