import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BodyOp } from '../model/operators.js';
import { conditionHolds } from '../routing/check.js';
import { body } from '../../test/helpers/routing-fixtures.js';
import { parseJson } from '../shared/json.js';
import { decodeSegment, normaliseSegments, snapshotFrom } from './snapshot.js';
import { cases } from '../../test/helpers/test-loop.js';

const enc = new TextEncoder();

test('paths are decoded per segment, + kept, dot-segments removed after decoding', () => {
  const cases: [string, string, readonly string[]][] = [
    ['/', '/', ['']],
    ['/a/b?x=1', '/a/b', ['a', 'b']],
    ['/a%20b', '/a b', ['a b']],
    ['/a+b', '/a+b', ['a+b']],
    ['/caf%C3%A9', '/café', ['café']],
    ['/a/%2e%2e/b', '/b', ['b']],
    ['/a/./b', '/a/b', ['a', 'b']],
    ['/a/b/', '/a/b', ['a', 'b', '']],
    ['/../x', '/x', ['x']],
    ['/%2e%2e/x', '/x', ['x']],
    ['/../data', '/data', ['data']],
    ['/../../a/../../b', '/b', ['b']],
    ['/a/../..', '/', ['']],
    ['/%2E%2E/%2e%2E/x/', '/x', ['x', '']],
    ['/..', '/', ['']],
    ['/a%2Fb', '/a/b', ['a/b']],
    ['/%FF', '/\uFFFD', ['\uFFFD']],
    ['/%zz', '/%zz', ['%zz']],
    ['a/b', '/a/b', ['a', 'b']],
    ['http://h:1/p?q', '/p', ['p']],
    ['*', '/', ['']],
  ];
  for (const [target, path, segments] of cases) {
    const s = snapshotFrom({ method: 'get', target, headers: [] });
    assert.equal(s.path, path, target);
    assert.deepEqual(s.segments, segments, target);
    assert.equal(s.method, 'GET');
  }
  assert.equal(snapshotFrom({ method: 'GET', target: '/a?x=1&y', headers: [] }).query, 'x=1&y');
});

test('decodeSegment leaves invalid escapes literal', () => {
  assert.equal(decodeSegment('%4'), '%4');
  assert.equal(decodeSegment('%41%42'), 'AB');
});

test('bodies: JSON parsed whatever the content type; declared JSON that does not parse is invalid', () => {
  // the body's fields (a JSON body is an object of its own class, with the exact value built on demand)
  const mk = (body: string, ct?: string) => {
    const b = snapshotFrom({
      method: 'POST',
      target: '/',
      headers: ct ? [['Content-Type', ct]] : [],
      body: enc.encode(body),
    }).body;
    return b.kind === 'json' ? { kind: b.kind, value: b.value, byteLength: b.byteLength } : b;
  };
  assert.deepEqual(mk('{"a":1}', 'application/json'), { kind: 'json', value: { a: 1 }, byteLength: 7 });
  assert.deepEqual(mk('{"a":1}'), { kind: 'json', value: { a: 1 }, byteLength: 7 });
  assert.deepEqual(mk('{"a":1}', 'text/plain'), { kind: 'json', value: { a: 1 }, byteLength: 7 });
  assert.equal(mk('{bad', 'application/json; charset=utf-8').kind, 'invalid_json');
  assert.equal(mk('{bad', 'application/vnd.api+json').kind, 'bytes');
  const bad = snapshotFrom({
    method: 'POST',
    target: '/',
    headers: [['content-type', 'application/json; charset=utf-8']],
    body: Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  }).body;
  assert.deepEqual(bad, { kind: 'invalid_json', message: 'the body is not valid UTF-8', byteLength: 10 });
  assert.equal(mk('a=1&b=2', 'application/x-www-form-urlencoded').kind, 'bytes');
  assert.equal(mk('null', 'application/json').kind, 'none');
  assert.equal(mk('').kind, 'none');
  assert.equal(snapshotFrom({ method: 'GET', target: '/', headers: [] }).body.kind, 'none');
});

test('header names are lower-cased, order kept', () => {
  const s = snapshotFrom({
    method: 'GET',
    target: '/',
    headers: [
      ['X-A', '1'],
      ['x-b', '2'],
      ['X-A', '3'],
    ],
  });
  assert.deepEqual(s.headers, [
    ['x-a', '1'],
    ['x-b', '2'],
    ['x-a', '3'],
  ]);
});

test('the copy-free path for plain paths gives exactly what the general normaliser gives', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('a', 'b.json', '', '.', '..', '.x', 'x.', '%41', '%', '+', 'é', '~'), { maxLength: 6 }),
      (parts) => {
        const rawPath = '/' + parts.join('/');
        const got = snapshotFrom({ method: 'GET', target: rawPath, headers: [] });
        const segments = normaliseSegments(rawPath);
        let path = '/' + segments.join('/');
        if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
        assert.deepEqual([got.segments, got.path], [segments, path]);
      },
    ),
    cases(2000),
  );
});

test('headers given flat (as Node hands them over) or as pairs make the same snapshot', () => {
  const pairs: [string, string][] = [
    ['Host', 'x'],
    ['X-Tenant', 'T1'],
    ['x-tenant', 't2'],
    ['Content-Type', 'application/json'],
  ];
  const flat = pairs.flat();
  const body = enc.encode('{"a":1}');
  assert.deepEqual(
    snapshotFrom({ method: 'POST', target: '/a', headers: flat, body }),
    snapshotFrom({ method: 'POST', target: '/a', headers: pairs, body }),
  );
  assert.deepEqual(snapshotFrom({ method: 'GET', target: '/a', headers: flat }).headers, [
    ['host', 'x'],
    ['x-tenant', 'T1'],
    ['x-tenant', 't2'],
    ['content-type', 'application/json'],
  ]);
});

test('a JSON body answers body conditions exactly, integers beyond 2^53 included, whichever part is asked first', () => {
  const text =
    '{"s":"gold","big":9223372036854775807,"o":{"n":9007199254740993,"t":"x"},"arr":[1,9007199254740993],"f":1.5}';
  const cases: readonly (readonly [string, BodyOp, string, boolean])[] = [
    ['s', 'equal', 'gold', true],
    ['big', 'equal', '9223372036854775807', true],
    ['big', 'equal_integer', '9223372036854775807', true],
    ['big', 'equal_integer', '9223372036854775806', false],
    ['o', 'equal', '{"n":9007199254740993,"t":"x"}', true],
    ['o.n', 'equal_integer', '9007199254740992', false],
    ['o.n', 'equal_integer', '9007199254740993', true],
    ['o.t', 'equal', 'x', true],
    ['arr', 'equal_typed', '[1,9007199254740993]', true],
    ['arr', 'equal_typed', '[1,9007199254740992]', false],
    ['arr.0', 'equal_integer', '1', true],
    ['f', 'equal_number', '1.5', true],
  ];
  for (const order of [cases, [...cases].reverse()]) {
    const snap = snapshotFrom({
      method: 'POST',
      target: '/',
      headers: [['Content-Type', 'application/json']],
      body: enc.encode(text),
    });
    for (const [path, op, value, want] of order)
      assert.equal(conditionHolds(body(path, op, value), snap), want, `${path} ${op} ${value}`);
    assert.equal(snap.body.kind, 'json');
    if (snap.body.kind === 'json') assert.deepEqual(snap.body.value, parseJson(text));
  }
  const plain = snapshotFrom({
    method: 'POST',
    target: '/',
    headers: [['Content-Type', 'application/json']],
    body: enc.encode('{"a":[1,{"b":2}]}'),
  });
  assert.ok(plain.body.kind === 'json' && typeof (plain.body.value as { a: unknown }).a === 'object');
  assert.equal(conditionHolds(body('a.1.b', 'equal_integer', '2'), plain), true);
});
