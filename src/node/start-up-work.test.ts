import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('./start-up-work.js', import.meta.url));

// Run in a child: it needs V8's natives syntax (to ask whether a function was optimised) and synchronous
// optimisation (so the answer does not depend on a background thread's timing).
const CHILD = `
import { getHeapSpaceStatistics } from 'node:v8';
const { asStartUpWork } = await import(${JSON.stringify(MODULE)});
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const optimised = (f) => (%GetOptimizationStatus(f) & 64) !== 0; // kTurboFanned
function hot(x) { return (x * 31) ^ (x >>> 3); }
function grow() { const keep = []; for (let i = 0; i < 300000; i++) keep.push({ i, s: 'x' + i }); return keep.length; }
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
const start = newSpace();
let during;
let filled;
await asStartUpWork(async () => {
  for (let i = 0; i < 200000; i++) hot(i);
  globalThis.kept = Array.from({ length: 400000 }, (_, i) => ({ i, s: 'y' + i })); // promoted, then garbage
  grow();
  during = { optimised: optimised(hot), newSpace: newSpace() };
  filled = oldSpace();
  globalThis.kept = undefined;
});
const compacted = oldSpace();
for (let i = 0; i < 200000; i++) hot(i);
grow();
console.log(JSON.stringify({ start, during, filled, compacted, after: { optimised: optimised(hot), newSpace: newSpace() } }));
`;

test('asStartUpWork: no optimising compiler and no young-generation growth while it runs, both restored after; its garbage collected and compacted', {
  skip: /^11\./.test(process.versions.v8) ? false : 'the flags are set on V8 11 (Node.js 20) only',
}, () => {
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', '--input-type=module', '-e', CHILD], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { start, during, after, filled, compacted } = JSON.parse(r.stdout) as Record<string, { optimised: boolean; newSpace: number }> & {
    start: number;
    filled: number;
    compacted: number;
  };
  assert.equal(during!.optimised, false);
  assert.equal(after!.optimised, true);
  // the same surviving garbage grows the young generation at most one step during the work, many after it
  assert.ok(during!.newSpace <= 2 * start, `young generation ${during!.newSpace} during, ${start} at start`);
  assert.ok(after!.newSpace >= 4 * during!.newSpace, `young generation ${after!.newSpace} after, ${during!.newSpace} during`);
  // the old-space pages the work's garbage filled are given back
  assert.ok(compacted < filled / 2, `old space ${compacted} after the work, ${filled} during it`);
});
