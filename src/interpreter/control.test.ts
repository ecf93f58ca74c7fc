// Control flow (Rhai book: if, switch, while, loop, do, for, return, throw, try-catch):
// statement expressions, switch with values/ranges/alternatives/guards, loops that yield a value
// through `break`, exceptions and what `catch (err)` receives.
import { runCases, type Case } from './fixtures/harness.js';

const conditionals: Case[] = [
  ['if true { 1 } else { 2 }', '1'],
  ['let x = if 1 > 2 { "a" } else if 2 > 1 { "b" } else { "c" }; x', '"b"'],
  ['if 1 { 2 }', 'ERR Data type incorrect: i64 (expecting bool) @1:4'],
  ['if false { 1 }', '()'],
  ['if true { 1 } else { 2 } + 1', '1'],
  ['let x = 3; if x > 2 { x = 0; } x', '0'],
  ['if true 1', "SYNTAX Expecting '{' to start a statement block @1:9"],
];

const switches: Case[] = [
  ['switch 2 { 1 => "one", 2 => "two", _ => "many" }', '"two"'],
  ['switch 9 { 1 => "one", _ => "many" }', '"many"'],
  ['switch 9 { 1 => "one" }', '()'],
  ['switch "b" { "a" | "b" => 1, _ => 2 }', '1'],
  ['switch 42 { 0..10 => "low", 10..=50 => "mid", _ => "high" }', '"mid"'],
  ['let x = 42; switch x { 0..50 if x > 45 => 1, -10..20 => 2, 0..50 => 3, 30..100 => 4 }', '3'],
  ['switch 1.0 { 1 => "int", _ => "other" }', '"other"'],
  ["switch 'x' { \"x\" => 1, 'x' => 2 }", '2'],
  ['switch [1, "a"] { [1, "a"] => "hit", _ => "miss" }', '"hit"'],
  ['switch #{a: 1} { #{a: 1} => "hit", _ => "miss" }', '"hit"'],
  ['switch () { () => "unit", _ => "x" }', '"unit"'],
  ['switch -1 { -1 => "neg", _ => "x" }', '"neg"'],
  ['let p = "/mw"; switch (p) { "/mw" if p.len() > 10 => 1, "/mw" => 2, _ => () }', '2'],
  ['switch 3 { 3 => { let a = 1; a + 1 } 4 => 0 }', '2'],
  ['fn f(x) { switch x { 1 => return "early", _ => () } "late" } [f(1), f(2)]', '["early", "late"]'],
  ['let y = 0; switch 1 { 1 => y = 5, _ => () } y', '5'],
  ['let x = switch 5 { 5 => true, _ => false }; x', 'true'],
  ['switch 1 { _ => 1, 2 => 2 }', 'SYNTAX Default switch case must be the last'],
  ['switch 1 { 1..3 => 1, 5 => 2 }', 'SYNTAX Numeric switch case cannot follow a range case'],
  ['switch 1 { _ if true => 1 }', 'SYNTAX This switch case cannot have a condition'],
  ['let x = 5; switch x { x => 1 }', 'SYNTAX Expecting a literal expression'],
  ['switch 1 { 1 => 2 3 => 4 }', "SYNTAX Expecting ',' to separate the items in this switch block"],
  ['switch 1 { 1 => 2', "SYNTAX Expecting '}' to end this switch block"],
];

const loops: Case[] = [
  ['let i = 0; let s = 0; while i < 5 { i += 1; s += i; } s', '15'],
  ['let x = 10; let n = 0; loop { x -= 1; if x > 5 { continue; } n += 1; if x == 0 { break; } } n', '6'],
  ['let r = loop { break 42; }; r', '42'],
  ['let i = 0; let r = loop { i += 1; if i == 3 { break i * 10; } }; r', '30'],
  ['let r = while true { break "w"; }; r', '"w"'],
  ['let i = 0; let r = while i < 3 { i += 1; }; r', '()'],
  ['let i = 0; do { i += 1; } while i < 3; i', '3'],
  ['let i = 0; do { i += 1; } until i >= 3; i', '3'],
  ['let i = 10; do { i += 1; } while i < 3; i', '11'],
  ['let s = 0; for i in 0..5 { s += i; } s', '10'],
  ['let s = 0; for i in 0..=5 { s += i; } s', '15'],
  ['let s = []; for i in range(0, 10, 3) { s.push(i); } s', '[0, 3, 6, 9]'],
  ['let s = []; for i in range(5, 0, -2) { s.push(i); } s', '[5, 3, 1]'],
  ['range(0, 5, 0)', 'ERR step value cannot be zero'],
  ['let s = []; for x in [1, 2, 3] { if x == 2 { continue; } s.push(x); } s', '[1, 3]'],
  ['let out = []; for (x, i) in ["a", "b"] { out.push(`${i}${x}`); } out', '["0a", "1b"]'],
  ['let s = ""; for (c, i) in "xy" { s += `${i}${c}`; } s', '"0x1y"'],
  ['let r = for x in [1, 2, 3] { if x == 2 { break x * 100; } }; r', '200'],
  ['let a = [[1], [2]]; for x in a { x.push(0); } a', '[[1], [2]]'],
  ['for x in 5 {}', 'ERR For loop expects iterable type @1:10'],
  ['for x in #{a: 1} {}', 'ERR For loop expects iterable type'],
  ['let n = 0; for k in #{b: 1, a: 2}.keys() { n += 1 } n', '2'],
  ['let n = 0; for i in 0..3 { for j in 0..3 { if j > i { break; } n += 1; } } n', '6'],
  ['let x = 0; for i in 0..3 { let x = i; } x', '0'],
  ['break;', 'SYNTAX Break statement should only be used inside a loop @1:1'],
  ['continue;', 'SYNTAX Break statement should only be used inside a loop'],
  [
    'loop { fn f() {} }',
    'SYNTAX Function definitions must be at global level and cannot be inside a block or another function',
  ],
  ['while true { let f = || { break; }; }', 'SYNTAX Break statement should only be used inside a loop'],
  ['for in [1] {}', 'SYNTAX Expecting name of a variable'],
  ['for x [1] {}', "SYNTAX Expecting 'in' after the iteration variable"],
];

const exits: Case[] = [
  ['return 5; 6', '5'],
  ['return;', '()'],
  ['let x = 1; if x == 1 { return "early"; } "late"', '"early"'],
  ['exit(7); 8', '7'],
  ['fn f() { exit("from fn"); } f(); "after"', '"from fn"'],
  ['exit()', '()'],
  ['exit(#{ text: "hi" })', '#{"text": "hi"}'],
  ['for i in 0..10 { if i == 3 { return i; } } -1', '3'],
];

const exceptions: Case[] = [
  ['throw "boom"', 'ERR Runtime error: boom @1:1'],
  ['throw 42', 'ERR Runtime error: 42'],
  ['throw', 'ERR Runtime error'],
  ['throw ""', 'ERR Runtime error'],
  ['try { throw "x"; } catch (e) { `caught ${e}` }', '"caught x"'],
  ['try { throw #{code: 7}; } catch (e) { e.code }', '7'],
  ['try { 1 / 0 } catch (e) { e.message }', '"Division by zero: 1 / 0"'],
  ['try { 1 / 0 } catch (e) { e.error }', '"ErrorArithmetic"'],
  [
    'try { undefined_var } catch (e) { [e.error, e.variable, e.line, e.position] }',
    '["ErrorVariableNotFound", "undefined_var", 1, 7]',
  ],
  [
    'try { [1][5] } catch (e) { [e.message, e.index, e.length] }',
    '["Array index 5 out of bounds: only 1 element in array", 5, 1]',
  ],
  ['try { nope(1) } catch (e) { e.function }', '"nope (i64)"'],
  ['try { throw 1 } catch { "no var" }', '"no var"'],
  ['try { try { throw "in" } catch (e) { throw } } catch (e2) { "re:" + e2 }', '"re:in"'],
  ['try { try { 1/0 } catch { throw } } catch (e2) { e2.error }', '"ErrorArithmetic"'],
  ['try { try { throw "in" } catch (e) { throw "out" } } catch (e2) { e2 }', '"out"'],
  ['fn f() { throw "deep" } try { f() } catch (e) { e }', '"deep"'],
  ['fn f() { 1 / 0 } try { f() } catch (e) { e.message }', '"Division by zero: 1 / 0 in call to function \'f\'"'],
  ['let r = try { 5 } catch { 6 }; r', '5'],
  ['let x = 1; try { x = 2; throw (); } catch { x += 10 } x', '12'],
  ['try { loop {} } catch { "caught" }', 'ERR Too many operations'],
  ['fn f() { try { return 1; } catch { 2 } } f()', '1'],
  ['try { 1 } catch (e) { e }; e', 'ERR Variable not found: e'],
  ['try { 1 }', "SYNTAX Expecting 'catch' to follow this 'try' block"],
  ['let a = [1]; try { throw a; } catch (e) { e.push(2); } a', '[1]'],
];

runCases('if', conditionals);
runCases('switch', switches);
runCases('loops', loops);
runCases('return and exit', exits);
runCases('throw and try/catch', exceptions);
