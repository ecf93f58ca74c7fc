import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonShape, startsAsContainer } from './json-shape.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const limits = { maxDepth: 3, maxMembers: 5 };
const over = (s: string): string => jsonShape(bytes(s), limits).over;

test('depth and members are counted as the document nests, strings skipped', () => {
  assert.equal(over('[[[1]]]'), 'none');
  assert.equal(over('[[[[1]]]]'), 'depth');
  assert.equal(over('{"a":{"b":{"c":1}}}'), 'none');
  assert.equal(over('[1,2,3,4]'), 'none');
  assert.equal(over('[1,2,3,4,5,6]'), 'members');
  // brackets, braces, commas and escaped quotes inside strings are text
  assert.equal(over('["[[[[,,,,,,", "\\"[[[[,,,,"]'), 'none');
  assert.equal(over('{"é,ü": "日本,語", "k": [1]}'), 'none');
  // over both: members first
  assert.equal(over('[[[[1,2,3,4,5,6]]]]'), 'members');
  // siblings do not add depth
  assert.equal(over('[[1],[2]]'), 'none');
});

test('only bodies that start with an array or an object are scanned', () => {
  assert.equal(startsAsContainer(bytes('  \n{"a":1}')), true);
  assert.equal(startsAsContainer(bytes('[1]')), true);
  assert.equal(startsAsContainer(bytes('"[[["')), false);
  assert.equal(startsAsContainer(bytes('')), false);
  assert.equal(startsAsContainer(bytes('a=1&b=[')), false);
});
