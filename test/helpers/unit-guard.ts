// Preloaded by `npm run test:unit` (and by the unit phase of `npm test`): the unit set spawns no process, so
// every way of starting one throws here, naming the rule. A test that needs the real program or a browser belongs
// in SPAWNING (scripts/test.mjs), which runs it in the second phase; this guard is what keeps a new one from
// slipping into the unit set unnoticed.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const NAMES = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

// only in the test files' own processes: the runner itself (no NODE_TEST_CONTEXT) starts them with child_process
const inTestFile = process.env['NODE_TEST_CONTEXT'] !== undefined;
for (const name of inTestFile ? NAMES : []) {
  (childProcess as unknown as Record<string, unknown>)[name] = (): never => {
    throw new Error(
      `child_process.${name}() in the unit set: unit tests spawn no process and open no browser. ` +
        'Add this test file to SPAWNING in scripts/test.mjs (docs/development.md).',
    );
  };
}
// named imports (`import { spawn } from 'node:child_process'`) see the replaced functions too
syncBuiltinESMExports();
