// Runs every conformance table (conformance/*.ts): each row is a case from the Rhai engine's own
// test suite at the release named by RHAI_RELEASE. The clock is fixed (it advances 1 ms per
// reading), so timestamp rows give the same answer on any machine.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BOOK } from './conformance/book.js';
import { BY_HAND, WITH_SCOPE } from './conformance/by-hand.js';
import { COLLECTIONS } from './conformance/collections.js';
import { FUNCTIONS } from './conformance/functions.js';
import { LANGUAGE } from './conformance/language.js';
import { NUMBERS } from './conformance/numbers.js';
import { STRINGS } from './conformance/strings.js';
import { RHAI_RELEASE, type ConformanceTable } from './conformance/table.js';
import { check } from './fixtures/harness.js';

const TABLES: readonly ConformanceTable[] = [
  ...NUMBERS,
  ...STRINGS,
  ...COLLECTIONS,
  ...FUNCTIONS,
  ...LANGUAGE,
  ...BY_HAND,
  ...WITH_SCOPE,
  ...BOOK,
];

function fixedClock(): () => number {
  let ms = 1_000_000;
  return () => (ms += 1);
}

describe(`conformance with Rhai ${RHAI_RELEASE}`, () => {
  for (const table of TABLES) {
    describe(table.from, () => {
      table.rows.forEach(([source, expected], i) => {
        const title = `${i + 1}: ${source.length > 60 ? source.slice(0, 57) + '...' : source}`;
        test(title.replace(/\s+/g, ' '), () => check(source, expected, { ...table.globals }, { clock: fixedClock() }));
      });
    });
  }

  test('every table has rows, and the release is named', () => {
    assert.match(RHAI_RELEASE, /^1\.25\.\d+$/);
    for (const table of TABLES) assert.ok(table.rows.length > 0, table.from);
    assert.ok(TABLES.reduce((n, t) => n + t.rows.length, 0) > 400);
  });
});
