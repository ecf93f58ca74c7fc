import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extensionFor, isJsonType, sameContentType } from './media.js';

describe('record media types', () => {
  const ext: readonly [string | undefined, boolean, boolean, string][] = [
    ['application/json', true, false, 'json'],
    ['application/json; charset=utf-8', true, false, 'json'],
    ['application/vnd.api+json', true, false, 'json'],
    ['application/json', true, true, 'txt'],
    ['text/html; charset=utf-8', true, false, 'html'],
    ['text/css', true, false, 'css'],
    ['application/javascript', true, false, 'js'],
    ['image/svg+xml', true, false, 'svg'],
    ['image/png', false, false, 'png'],
    ['image/jpeg', false, false, 'jpg'],
    ['application/pdf', false, false, 'pdf'],
    ['image/png', true, false, 'png'],
    ['text/html', false, false, 'html'],
    ['text/plain', true, false, 'txt'],
    ['text/csv', true, false, 'txt'],
    ['application/x-thing', false, false, 'bin'],
    [undefined, true, false, 'txt'],
    [undefined, false, false, 'bin'],
  ];
  for (const [type, utf8, bad, want] of ext) {
    it(`extensionFor(${type}, utf8=${utf8}, badJson=${bad}) = ${want}`, () =>
      assert.equal(extensionFor(type, utf8, bad), want));
  }

  const same: readonly [string, string, boolean][] = [
    ['application/json', 'application/json', true],
    ['Application/JSON; charset=UTF-8', 'application/json', true],
    ['text/html', 'text/html; charset=utf-8', true],
    ['text/html; charset="utf-8"', 'text/html; charset=utf-8', true],
    ['text/plain; charset=iso-8859-1', 'text/plain; charset=utf-8', false],
    ['application/problem+json', 'application/json', false],
    ['application/json; version=2', 'application/json', false],
    ['text/plain', 'application/octet-stream', false],
  ];
  for (const [a, b, want] of same)
    it(`sameContentType(${a}, ${b}) = ${want}`, () => assert.equal(sameContentType(a, b), want));

  it('isJsonType', () => {
    assert.equal(isJsonType('application/json'), true);
    assert.equal(isJsonType('application/hal+json; charset=utf-8'), true);
    assert.equal(isJsonType('text/json'), false);
    assert.equal(isJsonType('+json'), false);
    assert.equal(isJsonType(undefined), false);
  });
});
