import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTemplate } from '../config/path-template.js';
import type { PathTemplate } from '../model/rule-set.js';
import { matchTemplate, shapeOf, templateMatches, TemplateTrie } from './path-template.js';

function template(canonical: string): PathTemplate {
  const t = parseTemplate(canonical);
  assert.ok(t.ok, canonical);
  return t.template;
}
const segs = (path: string): string[] => (path === '/' ? [] : path.slice(1).split('/'));

test('parseTemplate: whole-segment parameters, a last rest; the errors name what is wrong', () => {
  assert.deepEqual(template('/users/{id}/files/{rest*}').segments, [
    { literal: 'users' },
    { name: 'id', rest: false },
    { literal: 'files' },
    { name: 'rest', rest: true },
  ]);
  assert.deepEqual(template('/').segments, []);
  const bad: [string, RegExp][] = [
    ['/a/{id', /unbalanced braces/],
    ['/a/id}', /unbalanced braces/],
    ['/a/}id{', /unbalanced braces/],
    ['/a/{}', /empty parameter name/],
    ['/a/{x}/{x}', /`x` is used twice/],
    ['/a/{r*}/b', /`\{r\*\}` must be the last segment/],
    ['/a/x{id}', /a parameter must be a whole segment/],
  ];
  for (const [t, want] of bad) {
    const r = parseTemplate(t);
    assert.ok(!r.ok, t);
    assert.match(r.error, want, t);
  }
});

test('matchTemplate: {name} one non-empty segment, {rest*} zero or more; the decision agrees with the captures', () => {
  const cases: [string, string, Record<string, string> | undefined][] = [
    ['/users/{id}', '/users/7', { id: '7' }],
    ['/users/{id}', '/users', undefined],
    ['/users/{id}', '/users/', undefined],
    ['/users/{id}', '/users/7/x', undefined],
    ['/users/{id}', '/users//', undefined],
    ['/f/{rest*}', '/f', { rest: '' }],
    ['/f/{rest*}', '/f/a/b/c', { rest: 'a/b/c' }],
    ['/f/{rest*}', '/g/a', undefined],
    ['/a/{x}/b/{y}', '/a/1/b/2', { x: '1', y: '2' }],
    ['/a/{x}/b/{y}', '/a/1/c/2', undefined],
    ['/', '/', {}],
  ];
  for (const [t, path, want] of cases) {
    const tt = template(t);
    assert.deepEqual(matchTemplate(tt, segs(path)), want, `${t} ${path}`);
    assert.equal(templateMatches(tt, segs(path)), want !== undefined, `${t} ${path}`);
  }
});

test('TemplateTrie: one walk finds exactly the templates that match, whatever their number', () => {
  const templates = [
    '/users/{id}',
    '/users/me',
    '/users/{id}/orders/{order}',
    '/files/{rest*}',
    '/{any}/x',
    '/users/{id}/{rest*}',
  ];
  const trie = new TemplateTrie();
  templates.forEach((t, i) => trie.add(template(t), i));
  trie.seal();
  // the same templates by shape (a lazy rule set's summary): the same answers
  const byShape = new TemplateTrie();
  templates.forEach((t, i) => byShape.addShape(shapeOf(template(t)), i));
  byShape.seal();
  for (const path of [
    '/users/7',
    '/users/me',
    '/users/7/orders/9',
    '/files',
    '/files/a/b',
    '/users/x',
    '/q/x',
    '/users/7/x',
    '/nothing',
    '/',
  ]) {
    const want = templates.flatMap((t, i) => (templateMatches(template(t), segs(path)) ? [i] : []));
    assert.deepEqual(trie.lookup(segs(path)), want, path);
    assert.deepEqual(byShape.lookup(segs(path)), want, `${path} by shape`);
  }
});
