// Which loop a test runs in: `npm run test:unit` (scripts/test.mjs sets MOCK_TEST_LOOP=unit) is the loop run on
// every edit, `npm test` the full suite. A property test runs a fraction of its cases in the unit loop and all of
// them in the full run, from the same seed: fast-check draws its cases in order from the seed, so the unit loop's
// cases are the first ones the full run checks, and a failure seen in either reproduces in the other.

/** true in `npm run test:unit` */
export const UNIT_LOOP = process.env['MOCK_TEST_LOOP'] === 'unit';

/** the share of a property's cases the unit loop runs */
export const UNIT_SHARE = 0.1;

/** the fewest cases a property runs in the unit loop (a property with fewer runs them all) */
export const UNIT_MIN_CASES = 5;

/** fast-check's `{ numRuns, seed }`: every case in the full run, a share of them in the unit loop, the seed as given. */
export function cases(numRuns: number, seed?: number): { numRuns: number; seed?: number } {
  const n = UNIT_LOOP ? Math.min(numRuns, Math.max(UNIT_MIN_CASES, Math.ceil(numRuns * UNIT_SHARE))) : numRuns;
  return seed === undefined ? { numRuns: n } : { numRuns: n, seed };
}
