import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldCase } from './fold.js';

describe('foldCase', () => {
  const same: ReadonlyArray<readonly [string, string]> = [
    ['ASCII', 'Users.JSON', 'users.json'],
    ['é / É', 'CAFÉ', 'café'],
    ['ß / SS', 'STRASSE', 'straße'],
    ['ẞ / ß', 'STRAẞE', 'straße'],
    ['final sigma / sigma', 'ΣΟΦΟΣ', 'σοφος'],
    ['final sigma in the middle', 'aςb', 'AΣB'],
    ['long s', 'ſ', 'S'],
    ['Kelvin sign', '\u212a', 'k'],
    ['Ångström sign', '\u212b', 'å'],
    ['titlecase digraph', 'ǅ', 'ǆ'],
    ['ligature ﬀ', 'ﬀ', 'FF'],
    ['Cyrillic', 'ПРИВЕТ', 'привет'],
    ['İ folds to i + dot above', 'İ', 'i\u0307'],
  ].map(([, a, b]) => [a!, b!] as const);
  for (const [a, b] of same) {
    it(`${a} ≡ ${b}`, () => assert.equal(foldCase(a), foldCase(b)));
  }

  const different: ReadonlyArray<readonly [string, string]> = [
    ['é (NFC) vs e + combining acute (NFD)', 'caf\u00e9', 'cafe\u0301'],
    ['dotless ı vs i', 'ı', 'i'],
    ['dotless ı vs I', 'ı', 'I'],
    ['a vs b', 'a', 'b'],
  ].map(([, a, b]) => [a!, b!] as const);
  for (const [a, b] of different) {
    it(`${a} ≢ ${b}`, () => assert.notEqual(foldCase(a), foldCase(b)));
  }

  it('is idempotent', () => {
    for (const s of ['ΣΟΦΟΣ', 'Straße', 'İstanbul', 'ıI', 'ǅx', 'Äpfel'])
      assert.equal(foldCase(foldCase(s)), foldCase(s));
  });
});
