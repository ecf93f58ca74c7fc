// Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by
// self time, and self time per source file.
//
//   node bench/lib/profile-top.mjs <file.cpuprofile> [rows=25]

import fs from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
const rows = Number(process.argv[3] ?? 25);
if (!file) {
  console.error('usage: node bench/lib/profile-top.mjs <file.cpuprofile> [rows]');
  process.exit(2);
}
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));

const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
// sample i lasted timeDeltas[i + 1]; close enough to attribute timeDeltas[i]
for (let i = 0; i < prof.samples.length; i++) {
  const id = prof.samples[i];
  self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;

const short = (url) => {
  if (!url) return '(native)';
  const u = url.replace(/^file:\/\//, '');
  const i = u.indexOf('/src/');
  if (i >= 0) return u.slice(i + 1);
  const j = u.indexOf('node_modules/');
  if (j >= 0) return u.slice(j);
  return path.basename(u);
};

const fn = new Map();
const files = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${short(cf.url)}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  const fk = short(cf.url) || cf.functionName;
  files.set(fk, (files.get(fk) ?? 0) + us);
}
// parent links, to show who calls the hottest frames
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const frameName = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
function callers(key, depth = 5) {
  const stacks = new Map();
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (`${n.callFrame.functionName || '(anonymous)'}  ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` !== key)
      continue;
    const chain = [];
    let p = parent.get(id);
    while (p !== undefined && chain.length < depth) {
      const pn = byId.get(p);
      if (pn.callFrame.functionName !== '(root)') chain.push(frameName(pn));
      p = parent.get(p);
    }
    const k = chain.join(' < ');
    stacks.set(k, (stacks.get(k) ?? 0) + us);
  }
  return [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 3);
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
console.log('\nself time by function:');
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, rows))
  console.log(`${pct(us)}  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
console.log('\ncallers of the top native/self frames (up to 5 levels):');
for (const [k, us] of [...fn]
  .sort((a, b) => b[1] - a[1])
  .filter(([k]) => !/^\((idle|program|garbage collector)\)/.test(k))
  .slice(0, 6)) {
  console.log(`${pct(us)}  ${k}`);
  for (const [chain, cus] of callers(k)) console.log(`          ${pct(cus)}  < ${chain}`);
}
console.log('\nself time by file:');
for (const [k, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, rows))
  console.log(`${pct(us)}  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
