import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadLinearRegex } from '../../shared/linear-regex.js';
import { listItems, type Query } from './query.js';

// the patterns a request supplies are matched by an engine loaded on first need (shared/linear-regex.ts)
before(() => loadLinearRegex());

const ITEMS = [
  { id: 1, name: 'Ada', age: 36, tags: ['math'], address: { city: 'London' } },
  { id: 2, name: 'Grace', age: 85, address: { city: 'New York' } },
  { id: 3, name: 'alan', age: 41, active: false },
  { id: 4, name: 'Linus', age: 9 },
];

function query(text: string): Query {
  const m = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(text)) m.set(k, [...(m.get(k) ?? []), v]);
  return m;
}

function ids(text: string): number[] | string {
  const r = listItems(ITEMS, query(text), `/people?${text}`);
  return r.ok ? r.result.items.map((i) => i['id'] as number) : `refused: ${r.message}`;
}

describe('listItems: json-server 0.17 filters, search and sort', () => {
  const cases: [string, number[] | string][] = [
    ['', [1, 2, 3, 4]],
    ['name=Ada', [1]],
    ['name=ada', []],
    ['age=36', [1]],
    ['id=1&id=3', [1, 3]],
    ['nofield=1', [1, 2, 3, 4]],
    ['address.city=London', [1]],
    ['active=false', [3]],
    ['age_gte=41', [2, 3]],
    ['age_lte=36', [1, 4]],
    ['age_gte=10&age_lte=50', [1, 3]],
    ['name_gte=B', [2, 3, 4]],
    ['age_gte=x', []],
    ['name_ne=Ada', [2, 3, 4]],
    ['name_ne=Ada&name_ne=Grace', [3, 4]],
    ['nofield_ne=1', []],
    ['name_like=^a', [1, 3]],
    ['name_like=us$', [4]],
    ['name_like=(', 'refused: name_like: Invalid regular expression: /(/i: Unterminated group'],
    ['name_like=^A(l|d)', [1, 3]],
    ['name_like=^a{0,10}(a%2B)%2B$', []],
    ['q=lon', [1]],
    ['q=YORK', [2]],
    ['q=math', [1]],
    ['q=false', []],
    ['q=', [1, 2, 3, 4]],
    ['_sort=age', [4, 1, 3, 2]],
    ['_sort=age&_order=desc', [2, 3, 1, 4]],
    ['_sort=name', [1, 2, 4, 3]],
    ['_sort=active', [3, 1, 2, 4]],
    ['_sort=active&_order=desc', [1, 2, 4, 3]],
    ['_sort=address.city', [1, 2, 3, 4]],
    ['callback=x&_=1', [1, 2, 3, 4]],
  ];
  for (const [text, want] of cases) it(`?${text}`, () => assert.deepEqual(ids(text), want));

  it('refuses a _like pattern the linear-time engine does not take, saying why', () => {
    for (const p of ['(a)\\1', 'a(?=d)', 'a(?!d)', '(?<=a)d', 'a{1001}'])
      assert.match(
        String(ids(`name_like=${encodeURIComponent(p)}`)),
        /^refused: name_like: .* linear time \(RE2 syntax\)/,
      );
  });

  it('searches an item nested deeper than the call stack goes', () => {
    let deep: Record<string, unknown> = { word: 'needle' };
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const items = [{ id: 1, deep }, { id: 2 }];
    const r = listItems(items, query('q=needle'), '/x?q=needle');
    assert.deepEqual(r.ok ? r.result.items.map((i) => i['id']) : r.message, [1]);
  });
});

describe('listItems: pages and slices', () => {
  const cases: [string, number[], number | undefined, string | undefined][] = [
    ['_limit=2', [1, 2], 4, undefined],
    ['_start=1&_limit=2', [2, 3], 4, undefined],
    ['_start=1&_end=3', [2, 3], 4, undefined],
    ['_end=1', [1], 4, undefined],
    ['_start=2', [1, 2, 3, 4], undefined, undefined],
    [
      '_page=1&_limit=2',
      [1, 2],
      4,
      '</people?_page=1&_limit=2>; rel="first", </people?_page=2&_limit=2>; rel="next", </people?_page=2&_limit=2>; rel="last"',
    ],
    [
      '_page=2&_limit=3',
      [4],
      4,
      '</people?_page=1&_limit=3>; rel="first", </people?_page=1&_limit=3>; rel="prev", </people?_page=2&_limit=3>; rel="last"',
    ],
    ['_page=1', [1, 2, 3, 4], 4, ''],
    ['_page=5&_limit=2', [], 4, ''],
    // json-server's links replace `page=<current>` in the URL: with `_page=0` (read as 1) there is none to replace
    [
      '_page=0&_limit=3',
      [1, 2, 3],
      4,
      '</people?_page=0&_limit=3>; rel="first", </people?_page=0&_limit=3>; rel="next", </people?_page=0&_limit=3>; rel="last"',
    ],
    [
      'age_gte=40&_page=1&_limit=1',
      [2],
      2,
      '</people?age_gte=40&_page=1&_limit=1>; rel="first", </people?age_gte=40&_page=2&_limit=1>; rel="next", </people?age_gte=40&_page=2&_limit=1>; rel="last"',
    ],
  ];
  for (const [text, want, total, link] of cases)
    it(`?${text}`, () => {
      const r = listItems(ITEMS, query(text), `/people?${text}`);
      assert.ok(r.ok);
      assert.deepEqual([r.result.items.map((i) => i['id']), r.result.totalCount, r.result.link], [want, total, link]);
    });
});
