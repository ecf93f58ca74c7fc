// Running the compiled program from a test: now part of the one harness module (test/helpers/harness.ts),
// re-exported here under the names the tests import.
export {
  MAIN_JS,
  runMock,
  spawnMock,
  makeTempDir,
  removeDir,
  writeTree,
  sendText,
  type RunResult,
  type RunOptions,
  type RunningMock,
  type TextAnswer,
} from './harness.js';
