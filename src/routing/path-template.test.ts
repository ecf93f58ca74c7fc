import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTemplate } from '../config/path-template.js';
import type { PathTemplate } from '../model/rule-set.js';
import {
  appendTo,
  literalPrefix,
  matchTemplate,
  shapeOf,
  shapeOfText,
  shapeText,
  single,
  templateMatches,
  TemplateTrie,
} from './path-template.js';

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
    ['/a/x{r*}', /a rest parameter `\{name\*\}` must be a whole segment/],
    ['/a/{x}{y}', /two parameters need literal text between them/],
    ['/a/x{}', /empty parameter name/],
    ['/a/{x}.{x}', /`x` is used twice/],
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
    // literal text around captures in one segment
    ['/docket.{format}', '/docket.json', { format: 'json' }],
    ['/docket.{format}', '/docket.', undefined],
    ['/docket.{format}', '/docket', undefined],
    ['/compare/{base}...{head}', '/compare/main...feature', { base: 'main', head: 'feature' }],
    ['/compare/{base}...{head}', '/compare/main..feature', undefined],
    ['/compare/{base}...{head}', '/compare/a.b...c.d', { base: 'a.b', head: 'c.d' }],
    ['/f/{name}.{ext}', '/f/a.b.json', { name: 'a.b', ext: 'json' }],
    ['/v{n}/items', '/v2/items', { n: '2' }],
    ['/v{n}/items', '/v2/other', undefined],
    ['/a+b/{id}', '/a+b/1', { id: '1' }],
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
  templates.forEach((t, i) => trie.add(shapeOf(template(t)), i));
  trie.seal();
  // the same templates read back from their text (a lazy rule set's summary): the same answers
  const byShape = new TemplateTrie();
  templates.forEach((t, i) => byShape.add(shapeOfText(shapeText(shapeOf(template(t)))), i));
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

test('appendTo: a one-entry list is a shared frozen single; a second entry makes a list of its own', () => {
  const grown: number[][] = [];
  const a = appendTo(undefined, 7, grown);
  assert.equal(a, single(7));
  assert.ok(Object.isFrozen(a));
  assert.equal(appendTo(a, 7, grown), a, 'the last entry is not repeated');
  const b = appendTo(a, 9, grown);
  assert.deepEqual(b, [7, 9]);
  assert.deepEqual(single(7), [7], 'the shared single is left as it was');
  assert.deepEqual(grown, [[7, 9]]);
  assert.equal(appendTo(b, 11, grown), b, 'a grown list grows in place');
  assert.deepEqual(b, [7, 9, 11]);
});

test('shape text: reads back as the shape it was written from; its literal prefix is what comes before a parameter', () => {
  for (const t of ['/', '/users', '/users/{id}', '/users/{id}/files/{rest*}', '/{any}/x', '/a//b/{x}', '/a/b/']) {
    const shape = shapeOf(template(t));
    assert.deepEqual(shapeOfText(shapeText(shape)), shape, t);
  }
  assert.equal(shapeText(shapeOf(template('/users/{id}/files/{rest*}'))), '/users/{}/files/{*}');
  assert.deepEqual(literalPrefix('/users/me/{}/x'), { key: 'users/me', length: 2 });
  assert.deepEqual(literalPrefix('/{}/x'), { key: '', length: 0 });
  assert.deepEqual(literalPrefix('/a/b'), { key: 'a/b', length: 2 });
  assert.deepEqual(literalPrefix(''), { key: '', length: 0 });
});
