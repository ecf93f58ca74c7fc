import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('./start-up-work.js', import.meta.url));

/** Runs `code` as an ES module in a child Node.js (with `nodeArgs`), and parses the JSON it prints. */
function runChild<T>(code: string, nodeArgs: readonly string[] = [], args: readonly string[] = []): T {
  const r = spawnSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', code, '--', ...args], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

/** natives syntax to ask whether a function was optimised, and optimisation done on this thread (no timing) */
const NATIVES = ['--allow-natives-syntax', '--no-concurrent-recompilation'];

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
  const { start, during, after, filled, compacted } = runChild<
    Record<string, { optimised: boolean; newSpace: number }> & {
      start: number;
      filled: number;
      compacted: number;
    }
  >(CHILD, NATIVES);
  assert.equal(during!.optimised, false);
  assert.equal(after!.optimised, true);
  // the same surviving garbage grows the young generation at most one step during the work, many after it
  assert.ok(during!.newSpace <= 2 * start, `young generation ${during!.newSpace} during, ${start} at start`);
  assert.ok(
    after!.newSpace >= 4 * during!.newSpace,
    `young generation ${after!.newSpace} after, ${during!.newSpace} during`,
  );
  // the old-space pages the work's garbage filled are given back
  assert.ok(compacted < filled / 2, `old space ${compacted} after the work, ${filled} during it`);
});

// A server-like allocation pattern: every event-loop turn makes objects that live for a few thousand more.
const YOUNG_CHILD = `
import { getHeapSpaceStatistics } from 'node:v8';
const { holdYoungGeneration } = await import(${JSON.stringify(MODULE)});
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const ring = new Array(20000);
let k = 0;
async function load(turns) {
  let max = 0;
  for (let turn = 0; turn < turns; turn++) {
    for (let i = 0; i < 200; i++) ring[k++ % ring.length] = { k, s: 'v' + k, a: [k, k + 1] };
    max = Math.max(max, newSpace());
    await new Promise((r) => setImmediate(r));
  }
  return max;
}
const hold = process.argv.includes('hold');
const letGo = hold ? holdYoungGeneration(5) : () => {};
const held = await load(3000);
letGo();
const after = await load(3000);
console.log(JSON.stringify({ held, after }));
`;

function youngGeneration(hold: boolean): { held: number; after: number } {
  return runChild<{ held: number; after: number }>(YOUNG_CHILD, [], hold ? ['hold'] : []);
}

test('holdYoungGeneration: the young generation grows to 16 MB and no further while held, and grows on once let go', {
  skip: /^11\./.test(process.versions.v8) ? false : 'the flags are set on V8 11 (Node.js 20) only',
}, () => {
  const MB = 1024 * 1024;
  const free = youngGeneration(false);
  assert.ok(
    free.held > 16 * MB,
    `unheld, the pattern grows the young generation past 16 MB (it reached ${free.held / MB} MB)`,
  );
  const held = youngGeneration(true);
  assert.equal(held.held, 16 * MB, `held: ${held.held / MB} MB`);
  assert.ok(held.after > 16 * MB, `let go: ${held.after / MB} MB`);
});

// Start-up work left for after the server listens: rule sets decoded one per turn, each leaving objects that live
// on, with scavenges between the steps (the server's own allocations, or idle-time collections).
const STEPS_CHILD = `
import { getHeapSpaceStatistics } from 'node:v8';
const { startUpWork } = await import(${JSON.stringify(MODULE)});
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const s = startUpWork();
await s.load(async () => {});
const start = newSpace();
const kept = [];
let max = 0;
for (let step = 0; step < 60; step++) {
  s.step(() => { for (let i = 0; i < 40000; i++) kept.push({ i, s: 'r' + i }); });
  for (let i = 0; i < 20000; i++) void { i }; // garbage between the steps: a scavenge or more
  max = Math.max(max, newSpace());
  await new Promise((r) => setImmediate(r));
}
s.done();
console.log(JSON.stringify({ start, max }));
`;

test('startUpWork: between its steps, and until done(), the young generation keeps its size', {
  skip: /^11\./.test(process.versions.v8) ? false : 'the flags are set on V8 11 (Node.js 20) only',
}, () => {
  const { start, max } = runChild<{ start: number; max: number }>(STEPS_CHILD);
  // it may take one step (V8's first growth) but not double again and again: steps that each restored the growth
  // factor let it reach 32 MB on an imported workspace
  assert.ok(max <= 2 * start, `young generation ${max / 1048576} MB during the steps, ${start / 1048576} MB at start`);
});

// A warm start: the load cache vouched for every rule set, so the load decodes nothing.
const WARM_CHILD = `
const { startUpWork } = await import(${JSON.stringify(MODULE)});
const v8Loaded = () => process.moduleLoadList.includes('NativeModule v8');
const optimised = (f) => (%GetOptimizationStatus(f) & 64) !== 0; // kTurboFanned
function hot(x) { return (x * 31) ^ (x >>> 3); }
function warm(x) { return (x * 17) ^ (x >>> 5); }
const s = startUpWork();
let warmLoad;
await s.load(async () => {
  for (let i = 0; i < 200000; i++) warm(i);
  warmLoad = { v8: v8Loaded(), optimised: optimised(warm) };
});
let cold;
const t = startUpWork();
await t.load(async () => {
  t.decoding();
  for (let i = 0; i < 200000; i++) hot(i);
  cold = { v8: v8Loaded(), optimised: optimised(hot) };
});
console.log(JSON.stringify({ warmLoad, cold }));
`;

test('startUpWork: a load that decodes nothing changes no setting and loads no node:v8; one that decodes does', {
  skip: /^11\./.test(process.versions.v8) ? false : 'the flags are set on V8 11 (Node.js 20) only',
}, () => {
  const { warmLoad, cold } = runChild<Record<string, { v8: boolean; optimised: boolean }>>(WARM_CHILD, NATIVES);
  assert.deepEqual(warmLoad, { v8: false, optimised: true });
  assert.deepEqual(cold, { v8: true, optimised: false });
});
