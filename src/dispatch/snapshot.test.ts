import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeSegment, normaliseSegments, snapshotFrom } from './snapshot.js';

const enc = new TextEncoder();

test('paths are decoded per segment, + kept, dot-segments removed after decoding', () => {
  const cases: [string, string, readonly string[], boolean][] = [
    ['/', '/', [''], false],
    ['/a/b?x=1', '/a/b', ['a', 'b'], false],
    ['/a%20b', '/a b', ['a b'], false],
    ['/a+b', '/a+b', ['a+b'], false],
    ['/caf%C3%A9', '/café', ['café'], false],
    ['/a/%2e%2e/b', '/b', ['b'], false],
    ['/a/./b', '/a/b', ['a', 'b'], false],
    ['/a/b/', '/a/b', ['a', 'b', ''], false],
    ['/../x', '/x', ['x'], true],
    ['/%2e%2e/x', '/x', ['x'], true],
    ['/a%2Fb', '/a/b', ['a/b'], false],
    ['/%FF', '/\uFFFD', ['\uFFFD'], false],
    ['/%zz', '/%zz', ['%zz'], false],
    ['a/b', '/a/b', ['a', 'b'], false],
    ['http://h:1/p?q', '/p', ['p'], false],
    ['*', '/', [''], false],
  ];
  for (const [target, path, segments, escapes] of cases) {
    const s = snapshotFrom({ method: 'get', target, headers: [] });
    assert.equal(s.path, path, target);
    assert.deepEqual(s.segments, segments, target);
    assert.equal(s.escapesRoot, escapes, target);
    assert.equal(s.method, 'GET');
  }
  assert.equal(snapshotFrom({ method: 'GET', target: '/a?x=1&y', headers: [] }).query, 'x=1&y');
});

test('decodeSegment leaves invalid escapes literal', () => {
  assert.equal(decodeSegment('%4'), '%4');
  assert.equal(decodeSegment('%41%42'), 'AB');
});

test('bodies: JSON parsed whatever the content type; declared JSON that does not parse is invalid', () => {
  const mk = (body: string, ct?: string) =>
    snapshotFrom({ method: 'POST', target: '/', headers: ct ? [['Content-Type', ct]] : [], body: enc.encode(body) }).body;
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
  const s = snapshotFrom({ method: 'GET', target: '/', headers: [['X-A', '1'], ['x-b', '2'], ['X-A', '3']] });
  assert.deepEqual(s.headers, [['x-a', '1'], ['x-b', '2'], ['x-a', '3']]);
});

test('the copy-free path for plain paths gives exactly what the general normaliser gives', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', 'b.json', '', '.', '..', '.x', 'x.', '%41', '%', '+', 'é', '~'), { maxLength: 6 }), (parts) => {
      const rawPath = '/' + parts.join('/');
      const got = snapshotFrom({ method: 'GET', target: rawPath, headers: [] });
      const { segments, escapesRoot } = normaliseSegments(rawPath);
      let path = '/' + segments.join('/');
      if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
      assert.deepEqual([got.segments, got.escapesRoot, got.path], [segments, escapesRoot, path]);
    }),
    { numRuns: 2000 },
  );
});

test('headers given flat (as Node hands them over) or as pairs make the same snapshot', () => {
  const pairs: [string, string][] = [['Host', 'x'], ['X-Tenant', 'T1'], ['x-tenant', 't2'], ['Content-Type', 'application/json']];
  const flat = pairs.flat();
  const body = enc.encode('{"a":1}');
  assert.deepEqual(snapshotFrom({ method: 'POST', target: '/a', headers: flat, body }), snapshotFrom({ method: 'POST', target: '/a', headers: pairs, body }));
  assert.deepEqual(snapshotFrom({ method: 'GET', target: '/a', headers: flat }).headers, [
    ['host', 'x'],
    ['x-tenant', 'T1'],
    ['x-tenant', 't2'],
    ['content-type', 'application/json'],
  ]);
});
