// A node:test reporter that writes one JSON line per test file: its path and the time it took, from the runner's
// own file-level `test:complete` event (loading the module and every test and hook in it). scripts/test.mjs gives
// it a file as destination, next to the spec reporter on stdout, and prints the slowest files from what it wrote.
export default async function* fileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { name, file, nesting, details } = event.data;
    if (nesting !== 0 || file === undefined || name !== file) continue;
    yield `${JSON.stringify({ file, ms: details.duration_ms, passed: details.passed })}\n`;
  }
}
