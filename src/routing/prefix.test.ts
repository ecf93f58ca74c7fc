import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claims } from './prefix.js';

const cases: readonly [string, string, boolean][] = [
  ['/api', '/api', true],
  ['/api', '/api/x', true],
  ['/api', '/api/x/y', true],
  ['/api', '/apixyz', false],
  ['/api', '/apiv2/x', false],
  ['/api', '/ap', false],
  ['/api', '/', false],
  ['/api', '/other/api', false],
  ['/api/v1', '/api/v1/users', true],
  ['/api/v1', '/api/v10', false],
  ['/api/', '/api/x', true],
  ['/', '/', true],
  ['/', '/anything/at/all', true],
];

test('claims: only on a segment boundary; "/" claims everything', () => {
  for (const [prefix, path, want] of cases) assert.equal(claims(prefix, path), want, `${prefix} ${path}`);
});
