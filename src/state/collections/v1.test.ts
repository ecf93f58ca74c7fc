import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { embedV1, matchesWhere, pageV1, sortV1, whereOf } from './v1.js';

const q = (s: string): Map<string, string[]> => {
  const m = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(s)) m.set(k, [...(m.get(k) ?? []), v]);
  return m;
};
const POSTS = [
  { id: '1', title: 'Hello', views: 100, author: { name: 'typicode' } },
  { id: '2', title: 'another', views: 200, author: { name: 'alice' } },
  { id: '3', title: 'hello again', views: 5 },
];
const ids = (items: readonly { id?: unknown }[]): unknown[] => items.map((i) => i.id);
const filter = (s: string): unknown[] => ids(POSTS.filter((p) => matchesWhere(p, whereOf(q(s)))));

describe("json-server 1.0's query language", () => {
  it('reads field:op= conditions (coerced values, dotted paths, 0.17-style suffixes) and _where', () => {
    const cases: [string, string[]][] = [
      ['views:gt=100', ['2']],
      ['views:gte=100&views:lt=200', ['1']],
      ['views:ne=100', ['2', '3']],
      ['title=Hello', ['1']],
      ['id:in=1,3', []],
      ['title:contains=HELLO', ['1', '3']],
      ['title:startsWith=hello', ['1', '3']],
      ['title:endsWith=AGAIN', ['3']],
      ['author.name:eq=alice', ['2', '3']],
      // json-server 1.0 lets an item without the nested object through a nested condition
      ['author.name:eq=alice&views:lt=150', ['3']],
      ['views_lte=100', ['1', '3']],
      ['views:nope=1', ['1', '2', '3']],
      [`_where=${encodeURIComponent('{"or":[{"views":{"lt":10}},{"author":{"name":{"eq":"alice"}}}]}')}`, ['2', '3']],
      ['_where=not-json&views:gt=150', ['2']],
    ];
    for (const [s, want] of cases) assert.deepEqual(filter(s), want, s);
  });

  it('sorts as sort-on does and pages with its envelope', () => {
    assert.deepEqual(ids(sortV1(POSTS, '-views')), ['2', '1', '3']);
    assert.deepEqual(ids(sortV1(POSTS, 'title')), ['2', '1', '3']);
    // an absent value sorts last
    assert.deepEqual(ids(sortV1(POSTS, 'author.name,-views')), ['2', '1', '3']);
    const p = pageV1(POSTS, 2, 2);
    assert.deepEqual(
      { ...p, data: ids(p.data) },
      { first: 1, prev: 1, next: null, last: 2, pages: 2, items: 3, data: ['3'] },
    );
    assert.equal(pageV1(POSTS, 9, 0).last, 3, 'a per-page below 1 is 1, a page past the last is the last');
  });

  it('embeds children by <singular>Id and a parent by a singular name, by the same value', () => {
    const data = (n: string): unknown =>
      ({
        posts: POSTS,
        comments: [
          { id: 'c', postId: '1' },
          { id: 'd', postId: 1 },
        ],
      })[n];
    assert.deepEqual(embedV1(POSTS[0]!, 'posts', 'comments', data)['comments'], [{ id: 'c', postId: '1' }]);
    assert.deepEqual(embedV1({ id: 'c', postId: '1' }, 'comments', 'post', data)['post'], POSTS[0]);
    assert.equal('post' in embedV1({ id: 'd', postId: 1 }, 'comments', 'post', data), false);
    assert.deepEqual(embedV1(POSTS[0]!, 'posts', 'nothing', data), POSTS[0]);
  });
});
