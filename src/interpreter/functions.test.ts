// Functions (Rhai book: functions, fn-method, fn-anon, fn-closure, fn-ptr, fn-curry): script
// functions cannot see the caller's variables, overloading by arity, recursion, `this` in
// method-call style, closures capturing by reference, function pointers, currying, builtins.
import { runCases, type Case } from './fixtures/harness.js';

const scriptFunctions: Case[] = [
  ['fn add(a, b) { a + b } add(2, 3)', '5'],
  ['fn f() { 42 } f()', '42'],
  ['fn f(x) { return x * 2; 99 } f(4)', '8'],
  ['fn f(x) { if x > 0 { return "pos"; } "non-pos" } [f(1), f(-1)]', '["pos", "non-pos"]'],
  ['let v = f(1); fn f(x) { x + 1 } v', '2'],
  ['fn f(x) { x } fn f(x, y) { x + y } [f(1), f(1, 2)]', '[1, 3]'],
  ['fn f(x) { x } fn f(y) { y }', 'SYNTAX Function f with 1 parameter already exists @1:18'],
  ['fn f() { x } let x = 1; f()', "ERR Variable not found: x in call to function 'f' @1:10"],
  ['fn f(a) { a = 5; a } let b = 1; [f(b), b]', '[5, 1]'],
  ['fn fact(n) { if n <= 1 { 1 } else { n * fact(n - 1) } } fact(20)', '2432902008176640000'],
  ['fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } } fib(15)', '610'],
  ['fn f() { f() } f()', "ERR Stack overflow in call to function 'f'"],
  ['fn f(x) { x.push(1); } let a = []; f(a); a', '[]'],
  ['fn inc() { this += 1; } let x = 41; x.inc(); x', '42'],
  ['fn get_a() { this.a } let m = #{a: 5}; m.get_a()', '5'],
  ['fn set_a(v) { this.a = v; } let m = #{a: 5}; m.set_a(9); m.a', '9'],
  ['fn f() { this } f()', "ERR 'this' not bound in call to function 'f'"],
  ['fn double(x) { x * 2 } 21.double()', '42'],
  ['fn f(a, a) {}', 'SYNTAX Duplicated parameter a for function f'],
  ['fn (x) {}', 'SYNTAX Expecting function name in function declaration'],
  ['fn f { 1 }', 'SYNTAX Expecting parameters for function f'],
  [
    '{ fn g() {} }',
    'SYNTAX Function definitions must be at global level and cannot be inside a block or another function',
  ],
  [
    'fn a() { b() } fn b() { c() } fn c() { 1 / 0 } a()',
    "ERR Division by zero: 1 / 0 in call to function 'c' in call to function 'b' in call to function 'a'",
  ],
  ['private fn hidden() { 7 } hidden()', '7'],
  ['is_def_fn("foo", 1)', 'false'],
  ['fn foo(x) {} is_def_fn("foo", 1)', 'true'],
];

const closures: Case[] = [
  ['let f = |x| x + 1; f.call(1)', '2'],
  ['let f = |x, y| x * y; call(f, 3, 4)', '12'],
  ['let f = || 42; f.call()', '42'],
  ['let f = |x| x + 1; f(2)', '3'],
  ['let x = 10; let f = |y| x + y; f.call(5)', '15'],
  ['let x = 1; let f = |y| x + y; x = 40; f.call(2)', '42'],
  ['let x = 1; let f = || { x += 1; }; f.call(); f.call(); x', '3'],
  ['fn make(n) { |x| x + n } let add5 = make(5); add5.call(1)', '6'],
  ['fn make() { let count = 0; || { count += 1; count } } let c = make(); c.call(); c.call()', '2'],
  ['let funcs = []; for i in 0..3 { funcs.push(|| i); } funcs.map(|f| f.call())', '[2, 2, 2]'],
  ['let funcs = []; for i in 0..3 { let j = i; funcs.push(|| j); } funcs.map(|f| f.call())', '[0, 1, 2]'],
  ['let a = [1]; let f = || a; let b = f.call(); b.push(2); a', '[1]'],
  ['let f = |x| { let y = x * 2; y + 1 }; f.call(5)', '11'],
  ['let f = |x| |y| x + y; f.call(1).call(2)', '3'],
  ['type_of(|x| x)', '"Fn"'],
  ['let f = |x| x; f.is_anonymous', 'true'],
  ['let f = |x| x; f.call()', 'ERR Function not found: anon$1 ()'],
  [
    'let f = |x| x.foo; f.call(1)',
    "ERR Unknown property 'foo' - a getter is not registered for type 'i64' in closure call",
  ],
  ['let obj = #{ value: 1, inc: |n| { this.value += n; } }; obj.inc(41); obj.value', '42'],
  ['let x = 20; let f = |a| this += x + a; let y = 1; y.call(f, 2); y', '23'],
  ['let v = [1, 2]; let f = |x| v.push(x); f.call(3); v', '[1, 2, 3]'],
  ['let f = |a, a| a;', 'SYNTAX Duplicated parameter a for function anon$1'],
];

const pointers: Case[] = [
  ['fn foo(x) { 41 + x } let f = Fn("foo"); f.call(1)', '42'],
  ['fn foo(x) { 41 + x } Fn("foo")', 'Fn(foo)'],
  ['fn foo(x) { 41 + x } let f = Fn("foo"); call(f, 1)', '42'],
  ['let f = Fn("foo"); f.name', '"foo"'],
  ['type_of(Fn("f"))', '"Fn"'],
  ['let f = Fn("len"); f.call("hello")', '5'],
  ['let f = Fn("hello_world"); f.call(0)', 'ERR Function not found: hello_world (i64)'],
  ['Fn("not valid")', 'ERR Function not found: not valid'],
  ['fn add(x, y) { x + y } let f = Fn("add").curry(40); f.call(2)', '42'],
  ['let f = |a, b, c| a + b + c; let g = f.curry(1).curry(2); g.call(3)', '6'],
  ['fn add(x) { this += x; } let x = 41; x.call(Fn("add"), 1); x', '42'],
  ['fn add(x) { this += x; } let f = Fn("add"); f.call(1)', "ERR 'this' not bound in call to function 'add'"],
  ['fn square(x) { x * x } [1, 2, 3].map(Fn("square"))', '[1, 4, 9]'],
  ['fn screen(x, i) { x * i > 2 } [1, 2, 3].filter(Fn("screen"))', '[3]'],
  ['let f = Fn("type_of"); f.call(1.5)', '"f64"'],
  ['let fs = [Fn("to_string"), |x| x * 2]; [fs[0].call(1), fs[1].call(2)]', '["1", 4]'],
];

const builtins: Case[] = [
  ['type_of([])', '"array"'],
  ['type_of("")', '"string"'],
  ['type_of(true)', '"bool"'],
  ['42.type_of()', '"i64"'],
  ['parse_int("42")', '42'],
  ['parse_int("  -17 ")', '-17'],
  ['parse_int("ff", 16)', '255'],
  ['parse_int("abc")', "ERR Error parsing integer number 'abc': invalid digit found in string"],
  [
    'parse_int("99999999999999999999")',
    "ERR Error parsing integer number '99999999999999999999': number too large to fit in target type",
  ],
  ['parse_int("")', "ERR Error parsing integer number '': cannot parse integer from empty string"],
  ['parse_float("1.5")', '1.5'],
  ['parse_float("2")', '2.0'],
  ['parse_float("x")', "ERR Error parsing floating-point number 'x': invalid float literal"],
  ['42.to_string()', '"42"'],
  ['to_string([1, "a"])', '"[1, \\"a\\"]"'],
  ['to_debug("a")', '"\\"a\\""'],
  ["to_string('c')", '"c"'],
  ["to_debug('c')", '"c"'],
  ['to_string(())', '""'],
  ['to_string(#{a: "x"})', '"#{\\"a\\": \\"x\\"}"'],
  ['print("hi")', 'PRINT hi'],
  ['print(1.0); print([1, "a"]); debug("s"); debug(\'c\')', 'PRINT 1.0|[1, "a"]|"s"|c'],
  ['print(())', 'PRINT '],
  ['print(1) + 1', 'ERR Function not found: + ((), i64)'],
  ['is_def_var("x")', 'false'],
  ['let x = 1; is_def_var("x")', 'true'],
  ['{ let y = 1; } is_def_var("y")', 'false'],
  ['fn f() { is_def_var("z") } let z = 1; f()', 'false'],
  ['let n = "x"; let x = 1; is_def_var(n)', 'true'],
  ['is_def_var(1)', 'ERR Data type incorrect: i64 (expecting string)'],
  ['foo(1)', 'ERR Function not found: foo (i64) @1:1'],
  ['"abc".foo(1, "x")', 'ERR Function not found: foo (string, i64, string) @1:7'],
  ['abs("x")', 'ERR Function not found: abs (string)'],
  ['[1].push()', 'ERR Function not found: push (array)'],
  ['eval("1")', "SYNTAX Dynamic evaluation is not supported: 'eval' @1:1"],
];

runCases('script functions', scriptFunctions);
runCases('closures', closures);
runCases('function pointers', pointers);
runCases('core builtins', builtins);

runCases('arguments are copies', [
  ['fn f(x) { x.push(0); } let a = [1]; call(Fn("f"), a); Fn("f").call(a); a', '[1]'],
  ['let a = [1]; let f = |x| { x.push(0); x.len() }; [f.call(a), f(a), a]', '[2, 2, [1]]'],
  ['[1, 2, 3].reduce(|acc, v| { acc.push(v * 2); acc }, [])', '[2, 4, 6]'],
  ['let items = [[1], [2]]; items.map(|x| { x.push(9); x }); items', '[[1], [2]]'],
]);
