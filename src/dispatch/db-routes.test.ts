import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rewriteTarget } from './db-routes.js';

describe('--routes rewrites', () => {
  const routes = [
    { from: '/api/*', to: '/$1' },
    { from: '/blog/:resource/:id/show', to: '/:resource/:id' },
    { from: '/cat/:category', to: '/posts?category=:category' },
  ];
  it("rewrites as json-server 0.17's express-urlrewrite does, each rule on what the one before left", () => {
    const cases: [string, string | undefined][] = [
      ['/api/posts', '/posts'],
      ['/api/posts?_page=2', '/posts?_page=2'],
      ['/API/posts/1', '/posts/1'],
      ['/blog/posts/3/show', '/posts/3'],
      ['/blog/posts/3/show/', '/posts/3'],
      ['/api/blog/users/1/show', '/users/1'],
      ['/cat/news', '/posts?category=news'],
      ['/api/cat/news', '/posts?category=news'],
      ['/blog/posts/3/show?x=1', undefined],
      ['/other', undefined],
    ];
    for (const [from, to] of cases) assert.equal(rewriteTarget(from, routes), to, from);
  });

  it('takes regular-expression characters of a pattern literally', () => {
    assert.equal(rewriteTarget('/a.b/c', [{ from: '/a.b/*', to: '/$1' }]), '/c');
    assert.equal(rewriteTarget('/axb/c', [{ from: '/a.b/*', to: '/$1' }]), undefined);
  });
});
