// The sandbox: operation budget, wall-clock budget, call depth, data sizes, parse nesting. Also
// measures how long `loop {}` takes to be stopped (printed as test diagnostics).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile, run, type RunOptions } from './index.js';

function fail(source: string, options: RunOptions = {}): { message: string; line: number; column: number; ms: number } {
  const script = compile(source, 'limits.rhai');
  const start = performance.now();
  const done = run(script, {}, options);
  const ms = performance.now() - start;
  assert.equal(done.ok, false, `expected ${source} to fail`);
  if (done.ok) throw new Error('unreachable');
  return { message: done.error.message, line: done.error.line, column: done.error.column, ms };
}

test('loop {} is stopped by the default operation budget (10,000,000)', (t) => {
  const r = fail('let x = 1;\nloop {}');
  assert.equal(r.message, 'Too many operations');
  assert.deepEqual([r.line, r.column], [2, 1]);
  t.diagnostic(`loop {} stopped after 10M operations in ${r.ms.toFixed(1)} ms`);
});

test('loop {} is stopped by a 100 ms time limit when operations are unlimited', (t) => {
  // a clock that moves 1 ms per reading: the limit is reached on the clock, never on this machine's speed
  let fake = 0;
  t.mock.method(performance, 'now', () => ++fake);
  const r = fail('loop {}', { timeLimitMs: 100, maxOperations: Number.POSITIVE_INFINITY });
  assert.equal(r.message, 'Script terminated: time limit of 100 ms exceeded');
  assert.ok(r.ms > 100, `stopped after ${r.ms} ms of the clock`);
});

test('a busy loop with work in it is also stopped by the clock', () => {
  const r = fail('let a = []; loop { a.push(1); a.pop(); let s = `${a}`; }', { timeLimitMs: 30, maxOperations: 1e12 });
  assert.match(r.message, /^Script terminated/);
});

test('a small operation budget stops loops, recursion and long iterations', () => {
  assert.equal(fail('while true {}', { maxOperations: 1000 }).message, 'Too many operations');
  assert.equal(fail('for i in 0..1000000 {}', { maxOperations: 1000 }).message, 'Too many operations');
  assert.equal(
    fail('fn f(n) { f(n) } f(1)', { maxOperations: 1000, maxCallDepth: 10000 }).message.startsWith(
      'Too many operations',
    ),
    true,
  );
  const ok = run(compile('let s = 0; for i in 0..10 { s += i } s', 'x.rhai'), {}, { maxOperations: 1000 });
  assert.equal(ok.ok, true);
});

test('operation limits cannot be caught by try/catch', () => {
  assert.equal(fail('try { loop {} } catch { 1 }', { maxOperations: 500 }).message, 'Too many operations');
});

test('runaway recursion is a positioned Stack overflow', () => {
  const r = fail('fn down(n) {\n  down(n + 1)\n}\ndown(0)');
  assert.equal(r.message, "Stack overflow in call to function 'down'");
  assert.deepEqual([r.line, r.column], [2, 3]);
  assert.equal(
    fail('fn d(n) { if n > 0 { d(n - 1) } } d(10)', { maxCallDepth: 5 }).message.startsWith('Stack overflow'),
    true,
  );
  const deep = run(compile('fn d(n) { if n > 0 { d(n - 1) } else { 0 } } d(60)', 'x.rhai'), {});
  assert.equal(deep.ok, true, 'depth 61 is within the default 64');
});

test('string, array and map sizes are capped', () => {
  assert.equal(fail('let s = "x"; loop { s += s; }').message, 'Length of string too large');
  assert.equal(
    fail('let s = "abc"; s.pad(2000, "-")', { maxStringLength: 1000 }).message,
    'Length of string too large',
  );
  assert.equal(fail('"ab" + "cd"', { maxStringLength: 3 }).message, 'Length of string too large');
  assert.equal(fail('let a = []; loop { a.push(1); }', { maxArrayLength: 1000 }).message, 'Size of array too large');
  assert.equal(fail('let a = [1]; loop { a += a; }', { maxArrayLength: 1000 }).message, 'Size of array too large');
  assert.equal(fail('[1, 2, 3]', { maxArrayLength: 2 }).message, 'Size of array too large');
  assert.equal(
    fail('let m = #{}; let i = 0; loop { m["k" + i] = i; i += 1; }', { maxMapSize: 100 }).message,
    'Size of object map too large',
  );
  assert.equal(fail('try { let s = "x"; loop { s += s } } catch { 0 }').message, 'Length of string too large');
});

test('very deep nesting is refused at compile time instead of overflowing the JS stack', () => {
  const source = '('.repeat(5000) + '1' + ')'.repeat(5000);
  assert.throws(() => compile(source, 'deep.rhai'), { message: 'Expression exceeds maximum complexity' });
  const ok = compile('('.repeat(50) + '1' + ')'.repeat(50), 'ok.rhai');
  assert.equal(run(ok, {}).ok, true);
});

test('a long else-if chain and a long statement list still compile', () => {
  let src = 'let x = 150; ';
  for (let i = 0; i < 150; i++) src += `if x == ${i} { ${i} } else `;
  src += '{ -1 }';
  const done = run(compile(src, 'chain.rhai'), {});
  assert.deepEqual(done.ok && done.value, -1n);
  const many = Array.from({ length: 5000 }, (_, i) => `let v${i} = ${i};`).join('\n') + ' v4999';
  const r = run(compile(many, 'many.rhai'), {});
  assert.deepEqual(r.ok && r.value, 4999n);
});

test('a run that makes more than its memory budget is stopped, naming the budget', () => {
  const budget = { maxMemoryBytes: 8 * 1024 * 1024, maxOperations: 1e12 };
  // each pad makes a fresh 1 MB string (the result is dropped, but it was made)
  const r = fail('for i in 0..1000 { let s = "x"; s.pad(999999, "z"); }', budget);
  assert.equal(r.message, 'Script memory budget of 8388608 bytes exceeded');
  assert.match(
    fail('let a = []; for i in 0..1000000 { a.push([1, 2, 3]) }', { ...budget, maxArrayLength: 1e9 }).message,
    /memory budget/,
  );
  assert.match(
    fail('let m = #{}; for i in 0..1000000 { m["k" + i] = i }', { ...budget, maxMapSize: 1e9 }).message,
    /memory budget/,
  );
  // growing one string by appending is charged for what each step adds, not for the whole string again
  const grow = run(compile('let s = ""; for i in 0..100000 { s += "ab"; } s.len()', 'grow.rhai'), {}, budget);
  assert.deepEqual(grow, { ok: true, value: 200000n });
});

test('the clock is read inside builtins that copy a lot', (t) => {
  let fake = 0;
  t.mock.method(performance, 'now', () => (fake += 10));
  // 50 pads are far fewer operations than one clock interval; the bytes they make read the clock anyway
  const r = fail('for i in 0..50 { let s = "x"; s.pad(999999, "z"); }', { timeLimitMs: 100, maxOperations: 1e12 });
  assert.match(r.message, /^Script terminated: time limit of 100 ms exceeded/);
});

test('text forms far over the string limit are refused before they are built', () => {
  const src = (tail: string): string =>
    `let s = "x"; s.pad(999999, "z"); let a = []; for i in 0..5000 { a.push(s) } ${tail}`;
  for (const tail of ['a.to_json()', 'a.to_string()', '`${a}`', 'a.join(",")', '"" + a', 'let t = ""; t += a;'])
    assert.equal(fail(src(tail)).message, 'Length of string too large', tail);
  assert.equal(fail('let s = "x"; s.pad(999999, "z"); s.replace("", s);').message, 'Length of string too large');
});
