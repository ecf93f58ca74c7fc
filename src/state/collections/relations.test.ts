import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CollectionItem } from '../../model/collection.js';
import { danglingItems, embedded, foreignKey, type Siblings } from './relations.js';

const DB: Record<string, CollectionItem[] | CollectionItem> = {
  posts: [
    { id: 1, title: 'a', userId: 1 },
    { id: 2, title: 'b', userId: 9 },
  ],
  comments: [
    { id: 1, postId: 1 },
    { id: 2, postId: '1' },
    { id: 3, postId: 2 },
    { id: 4, postId: 7 },
  ],
  users: [{ id: 1, name: 'Ada' }],
  profile: { name: 'x' },
};
const siblings = (suffix = 'Id'): Siblings => ({ data: (n) => DB[n], foreignKeySuffix: suffix });

describe('collection relations', () => {
  it('names foreign keys as json-server does (pluralize)', () => {
    assert.deepEqual(
      [
        foreignKey('posts', 'Id'),
        foreignKey('people', 'Id'),
        foreignKey('categories', '_id'),
        foreignKey('news', 'Id'),
      ],
      ['postId', 'personId', 'category_id', 'newsId'],
    );
  });

  it('embeds the children whose key is the same value, and [] for a name that is not a collection', () => {
    const [p1] = embedded([DB['posts']![0 as never]], 'posts', 'id', ['comments', 'nothing'], [], siblings());
    // "1" is not 1: lodash's matches compares values, as json-server's filter does
    assert.deepEqual(p1, { id: 1, title: 'a', userId: 1, comments: [{ id: 1, postId: 1 }], nothing: [] });
  });

  it('expands a parent by its id read as text, and leaves out one that is not there', () => {
    const got = embedded(DB['posts'] as CollectionItem[], 'posts', 'id', [], ['user'], siblings());
    assert.deepEqual(got, [
      { id: 1, title: 'a', userId: 1, user: { id: 1, name: 'Ada' } },
      { id: 2, title: 'b', userId: 9 },
    ]);
    const c = embedded(DB['comments'] as CollectionItem[], 'comments', 'id', [], ['post'], siblings());
    assert.deepEqual(
      c.map((x) => (x['post'] as CollectionItem | undefined)?.['id']),
      [1, 1, 2, undefined],
    );
  });

  it('finds every dangling item of the group, not only the children of one', () => {
    assert.deepEqual(danglingItems(['posts', 'comments', 'users', 'profile'], siblings(), 'id'), [
      { name: 'posts', id: 2 },
      { name: 'comments', id: 4 },
    ]);
    // a suffix nothing ends with: nothing dangles
    assert.deepEqual(danglingItems(['posts', 'comments'], siblings('_ref'), 'id'), []);
  });
});
