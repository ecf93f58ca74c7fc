// Reliability figure 8 (docs/reliability.md): no lost edits. The tests themselves live with the rest of `set rule`'s end-to-end tests,
// in test/e2e/set-rule.test.ts ("set rule: concurrent writers"): an external edit between read and rename exits 1
// with kind conflict and leaves the other writer's content intact; a file created by someone else during a
// bootstrap is not overwritten; SIGKILL at random moments leaves the old file or the new one, whole, every time.
//
// The short form (inside `npm test`) does not run them twice; it checks that they are still there. The long
// form (RELIABILITY=long) loads that file, so its tests run as part of this suite and print their figures.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import { LONG } from './harness.js';

const SET_RULE_TESTS = fileURLToPath(new URL('../e2e/set-rule.test.js', import.meta.url));
const REQUIRED = [
  'an external edit between read and rename: exit 1, kind conflict, the other content intact',
  'SIGKILL at random moments leaves the old file or the new one, whole, every time',
] as const;

it('figure 8: the concurrent-writer and kill-mid-write tests exist in test/e2e/set-rule.test.ts', (t) => {
  assert.ok(existsSync(SET_RULE_TESTS), `${SET_RULE_TESTS} is built`);
  const text = readFileSync(SET_RULE_TESTS, 'utf8');
  for (const name of REQUIRED) assert.ok(text.includes(name), `test "${name}" is present`);
  t.diagnostic(
    LONG
      ? 'figure 8: running test/e2e/set-rule.test.ts as part of this suite'
      : 'figure 8: see test/e2e/set-rule.test.ts (runs in npm test)',
  );
});

if (LONG) await import('../e2e/set-rule.test.js');
