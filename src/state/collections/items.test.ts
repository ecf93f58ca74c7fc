import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { depthOver, indexOfId, isItem, nextId, patched, replaced, unsafeId } from './items.js';
import { renderJson, styleOf } from './format.js';

describe('collection items', () => {
  it('finds an item by its id read as text', () => {
    const items = [{ id: 1 }, { id: 'x' }, { name: 'no id' }, { id: 10 }];
    assert.deepEqual(
      ['1', 'x', '10', '2', 'undefined'].map((id) => indexOfId(items, 'id', id)),
      [0, 1, 3, -1, -1],
    );
  });

  it('gives the next id as json-server does', () => {
    const draws = [0, 0.5, 0.999];
    let i = 0;
    const random = (): number => draws[i++ % draws.length]!;
    const cases: [Record<string, unknown>[], number | string][] = [
      [[], 1],
      [[{ id: 1 }, { id: 7 }, { id: 3 }], 8],
      [[{ name: 'no id' }], 1],
      [[{ id: 2.5 }], 3.5],
      [[{ id: 'abc' }], 'uU9uU9u'],
      // past the exact integers max + 1 is max again: a text id instead
      [[{ id: 1e308 }], 'uU9uU9u'],
      [[{ id: Number.MAX_SAFE_INTEGER }], 'uU9uU9u'],
      [[{ id: Number.MAX_SAFE_INTEGER - 1 }], Number.MAX_SAFE_INTEGER],
    ];
    for (const [items, want] of cases) {
      i = 0;
      const got = nextId(items, 'id', random);
      if (typeof want === 'string') assert.match(String(got), /^[A-Za-z0-9_-]{7}$/);
      else assert.equal(got, want);
    }
  });

  it('refuses a number id outside the exact integers, and measures depth without recursion', () => {
    assert.equal(unsafeId('id', Number.MAX_SAFE_INTEGER), undefined);
    assert.match(String(unsafeId('id', 2 ** 53)), /outside/);
    assert.match(String(unsafeId('id', 1e308)), /outside the range of exact integers/);
    assert.equal(unsafeId('id', '1e308'), undefined);
    assert.equal(depthOver({ a: [{ b: 1 }] }, 3), undefined);
    assert.equal(depthOver({ a: [{ b: {} }] }, 3), 4);
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(depthOver(deep, 64), 65);
  });

  it('replaces (PUT) and merges (PATCH) keeping the id, in json-server key order', () => {
    const old = { id: 3, name: 'a', age: 1 };
    assert.deepEqual(Object.entries(replaced(old, { age: 2, id: 99 }, 'id')), [
      ['age', 2],
      ['id', 3],
    ]);
    assert.deepEqual(Object.entries(replaced(old, { age: 2 }, 'id')), [
      ['age', 2],
      ['id', 3],
    ]);
    assert.deepEqual(Object.entries(patched(old, { extra: true, name: 'b', id: 9 }, 'id')), [
      ['id', 3],
      ['name', 'b'],
      ['age', 1],
      ['extra', true],
    ]);
  });

  it('takes only JSON objects as items', () => {
    assert.deepEqual(
      [{}, [], null, 1, 'x'].map((v) => isItem(v)),
      [true, false, false, false, false],
    );
  });
});

describe('persisted file style', () => {
  const cases: [string, string][] = [
    ['[\n  {"a": 1}\n]\n', '[\n  {\n    "a": 2\n  }\n]\n'],
    ['[\n    {"a": 1}\n]', '[\n    {\n        "a": 2\n    }\n]'],
    ['[\n\t{"a": 1}\n]\n', '[\n\t{\n\t\t"a": 2\n\t}\n]\n'],
    ['[{"a": 1}]', '[{"a":2}]'],
    ['[{"a": 1}]\n', '[{"a":2}]\n'],
  ];
  for (const [before, after] of cases)
    it(JSON.stringify(before), () => assert.equal(renderJson([{ a: 2 }], styleOf(before)), after));
});
