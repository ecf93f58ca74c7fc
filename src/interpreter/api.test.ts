// The public surface: compile/run contract, ScriptError fields, globals (copied, never mutated),
// unit vs value, print/debug callbacks, fromJson/toJson, reuse of a compiled script, speed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ScriptError,
  UNIT,
  compile,
  fromJson,
  isUnit,
  run,
  toJson,
  typeOf,
  valueToDebug,
  valueToString,
  type Value,
} from './index.js';

test('compile throws a syntax ScriptError with file, line and column', () => {
  try {
    compile('let a = 1;\nif a {\n', 'dir/bad.rhai');
    assert.fail('expected a syntax error');
  } catch (e) {
    assert.ok(e instanceof ScriptError);
    assert.equal(e.phase, 'syntax');
    assert.equal(e.message, "Expecting '}' to terminate this block");
    assert.equal(e.file, 'dir/bad.rhai');
    assert.deepEqual([e.line, e.column], [3, 1]);
    assert.equal(e.describe(), "Expecting '}' to terminate this block (dir/bad.rhai:3:1)");
  }
});

test('run returns errors as values with the failing position', () => {
  const done = run(compile('let x = 1;\nlet y = body.a;', 'mw.rhai'), { url_path: '/' });
  assert.equal(done.ok, false);
  if (done.ok) return;
  assert.equal(done.error.phase, 'runtime');
  assert.equal(done.error.message, 'Variable not found: body');
  assert.deepEqual([done.error.file, done.error.line, done.error.column], ['mw.rhai', 2, 9]);
  assert.equal(done.error.kind, 'ErrorVariableNotFound');
});

test('a thrown value is available to the host', () => {
  const done = run(compile('throw #{ code: 418 }', 't.rhai'), {});
  assert.ok(!done.ok && done.error.kind === 'ErrorRuntime');
  if (done.ok) return;
  assert.equal(done.error.message, 'Runtime error: #{"code": 418}');
  assert.ok(done.error.thrown instanceof Map);
});

test('unit and values are told apart', () => {
  const unit = run(compile('if false { 1 }', 'u.rhai'), {});
  assert.ok(unit.ok && isUnit(unit.value) && unit.value === UNIT);
  const bare = run(compile('return;', 'u.rhai'), {});
  assert.ok(bare.ok && isUnit(bare.value));
  const value = run(compile('return "x";', 'v.rhai'), {});
  assert.ok(value.ok && !isUnit(value.value) && value.value === 'x');
});

test('globals are visible at the top level, copied, and never mutated', () => {
  const body = fromJson({ items: [1, 2], name: 'n' });
  const script = compile('body.items.push(3); body.name = "changed"; url_path = "/z"; [body, url_path]', 'g.rhai');
  const done = run(script, { body, url_path: '/a' });
  assert.ok(done.ok);
  if (!done.ok) return;
  assert.equal(valueToDebug(done.value), '[#{"items": [1, 2, 3], "name": "changed"}, "/z"]');
  assert.equal(valueToDebug(body), '#{"items": [1, 2], "name": "n"}');
  const again = run(compile('is_def_var("body") && !is_def_var("headers")', 'd.rhai'), { body });
  assert.ok(again.ok && again.value === true);
});

test('print and debug go to the host callbacks', () => {
  const seen: string[] = [];
  const done = run(
    compile('print("a" + 1); debug([1, "b"]); 5', 'p.rhai'),
    {},
    {
      print: (t) => seen.push(`print:${t}`),
      debug: (t) => seen.push(`debug:${t}`),
    },
  );
  assert.ok(done.ok);
  assert.deepEqual(seen, ['print:a1', 'debug:[1, "b"]']);
  const silent = run(compile('print("nobody listens")', 'p.rhai'), {});
  assert.ok(silent.ok);
});

test('fromJson: integers become INT (exact beyond 2^53), other numbers FLOAT, key order kept', () => {
  const v = fromJson({ z: 1, a: 2.5, big: 12345678901234567890n, ok: 9007199254740993n, n: null, list: [true, 'x'] });
  assert.ok(v instanceof Map);
  if (!(v instanceof Map)) return;
  assert.deepEqual([...v.keys()], ['z', 'a', 'big', 'ok', 'n', 'list']);
  assert.equal(typeOf(v.get('z') as Value), 'i64');
  assert.equal(typeOf(v.get('a') as Value), 'f64');
  assert.equal(typeOf(v.get('big') as Value), 'f64');
  assert.equal(v.get('ok'), 9007199254740993n);
  assert.equal(v.get('n'), null);
  assert.equal(valueToString(v.get('list') as Value), '[true, "x"]');
  assert.equal(typeOf(fromJson(1.0)), 'i64');
  assert.equal(typeOf(fromJson(1e300)), 'f64');
});

test('toJson: plain JS data, bigint only beyond 2^53, maps in insertion order', () => {
  const done = run(compile('let m = #{}; m.b = 1; m.a = [1.5, 9007199254740993, (), \'c\', "s"]; m', 'j.rhai'), {});
  assert.ok(done.ok);
  if (!done.ok) return;
  const json = toJson(done.value);
  assert.deepEqual(json, { b: 1, a: [1.5, 9007199254740993n, null, 'c', 's'] });
  assert.deepEqual(Object.keys(json as object), ['b', 'a']);
  assert.deepEqual(toJson(fromJson({ x: [1, { y: 'z' }] })), { x: [1, { y: 'z' }] });
});

test('a compiled script can be run many times; runs do not share state', () => {
  const script = compile('let n = 0; n += 1; counter += 1; [n, counter]', 'c.rhai');
  for (let i = 0; i < 3; i++) {
    const done = run(script, { counter: 10n });
    assert.ok(done.ok && valueToDebug(done.value) === '[1, 11]');
  }
});

test('run rejects objects that compile() did not make', () => {
  assert.throws(() => run({ fileName: 'x' }, {}), TypeError);
});

test('timestamps read the clock given in the run options, and only when a script asks', () => {
  const readings = [5_000, 7_500];
  let reads = 0;
  const clock = (): number => readings[reads++] ?? 0;
  const script = compile('let t = timestamp(); [type_of(t), t.elapsed]', 'clock.rhai');
  const done = run(script, {}, { clock });
  assert.ok(done.ok);
  if (!done.ok) return;
  assert.equal(valueToDebug(done.value), '["timestamp", 2.5]');
  assert.equal(reads, 2);
  run(compile('let x = 1 + 1; x', 'no-clock.rhai'), {}, { clock });
  assert.equal(reads, 2);
});
