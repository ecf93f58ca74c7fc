import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffShapes, shapeOf, typesText, type ShapeChange } from './shape.js';

/** A change as one line: `missing /a`, `added /b`, `type /c string→number`, `type? /d null→string` (nullOnly). */
function lines(changes: readonly ShapeChange[]): string[] {
  return changes.map((c) =>
    c.kind === 'type'
      ? `type${c.nullOnly ? '?' : ''} ${c.pointer} ${typesText(c.was)}→${typesText(c.now)}`
      : `${c.kind} ${c.pointer}`,
  );
}

const TABLE: readonly (readonly [string, unknown, unknown, readonly string[]])[] = [
  ['same values', { a: 1, b: 'x' }, { a: 1, b: 'x' }, []],
  ['other values, same shape', { a: 1, b: 'x', c: [1, 2] }, { a: 7.5, b: 'y', c: [] }, []],
  ['key order never matters', { a: 1, b: 2 }, { b: 2, a: 1 }, []],
  ['a renamed field', { name: 'Ann', id: 1 }, { full_name: 'Ann', id: 1 }, ['missing /name', 'added /full_name']],
  ['a changed type', { id: 1 }, { id: '1' }, ['type /id number→string']],
  ['null on one side only', { tag: null }, { tag: 'a' }, ['type? /tag null→string']],
  [
    'nested',
    { user: { address: { zip: 1 } } },
    { user: { address: { zip: '1' } } },
    ['type /user/address/zip number→string'],
  ],
  ['array elements as one shape', [{ id: 1 }, { id: 2, x: true }], [{ id: 3, x: false }], []],
  ['an element field renamed', [{ id: 1 }], [{ ident: 1 }, { ident: 2 }], ['missing /*/id', 'added /*/ident']],
  ['an element type changed', { items: [1, 2] }, { items: ['1'] }, ['type /items/* number→string']],
  ['an empty array says nothing', { items: [] }, { items: [{ a: 1 }] }, []],
  ['the whole body', [1], { a: 1 }, ['type  array→object']],
  [
    'pointer escaping',
    { 'a/b': 1, 'c~d': 1 },
    { 'a/b': '', 'c~d': '' },
    ['type /a~1b number→string', 'type /c~0d number→string'],
  ],
  ['mixed element types', [1, 'a'], [1], ['type /* number or string→number']],
  ['scalars', 'x', 'y', []],
];

describe('diffShapes (the shape of JSON bodies: keys, types, array element shapes, never values)', () => {
  for (const [name, was, now, want] of TABLE) {
    it(name, () => {
      assert.deepEqual(lines(diffShapes(shapeOf(was), shapeOf(now))), want);
    });
  }
});
