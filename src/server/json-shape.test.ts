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

test('on any JSON document, the scan agrees with the parsed value (strings with escapes, quotes and brackets)', async () => {
  const fc = (await import('fast-check')).default;
  // depth and members of a parsed value, counted as the scan counts them
  const measure = (v: unknown, depth: number): { depth: number; members: number } => {
    if (v === null || typeof v !== 'object') return { depth: depth - 1, members: 0 };
    const children = Array.isArray(v) ? v : Object.values(v);
    let deepest = depth;
    let members = children.length;
    for (const c of children) {
      const m = measure(c, depth + 1);
      deepest = Math.max(deepest, m.depth);
      members += m.members;
    }
    return { depth: deepest, members };
  };
  const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '[', ']', '{', '}', ',', 'é', '\n', ' ') });
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 6, stringUnit: fc.constantFrom('a', '"', '\\', '[', '}', ',', 'é') }),
      text,
      (value, key) => {
        const doc = [value, { [key]: value }];
        const { depth, members } = measure(doc, 1);
        const s = bytes(JSON.stringify(doc));
        const nonEmpty = !JSON.stringify(doc).includes('[]') && !JSON.stringify(doc).includes('{}');
        // the member count is exact without empty containers, an upper bound with them
        assert.equal(jsonShape(s, { maxDepth: depth, maxMembers: 1e9 }).over, 'none');
        assert.equal(jsonShape(s, { maxDepth: depth - 1, maxMembers: 1e9 }).over, 'depth');
        if (nonEmpty) {
          assert.equal(jsonShape(s, { maxDepth: 1e9, maxMembers: members }).over, 'none');
          assert.equal(jsonShape(s, { maxDepth: 1e9, maxMembers: members - 1 }).over, 'members');
        }
      },
    ),
    { numRuns: 300 },
  );
});
