// Rhai 1.25.0 cases that are not a plain `engine.eval(script)`: errors the tests match by kind
// (`compile(…).unwrap_err()`), scripts run with a scope (`eval_with_scope`, written here as
// `let` statements before the script), and callbacks a test registers from Rust (`do_stuff(f)`
// calls `f`, written here as `f.call()`). One row per case, as in the generated tables.

import type { Value } from '../values.js';
import type { ConformanceTable } from './table.js';

export const BY_HAND: readonly ConformanceTable[] = [
  {
    from: 'tests/string.rs',
    rows: [
      // UnknownOperator("#") at 1:19: the raw string ends at `"#`, the second `#` is left over
      ['#"Test string: \\"##', "SYNTAX Unknown operator: '#' @1:19"],
      ['##"Test string:\n    \\"#', 'SYNTAX Open string is not terminated @1:1'],
      // a range index gives a string ("Output type incorrect: string (expecting char)")
      ['let y = "hello"; type_of(y[1..2])', '"string"'],
      ['let y = "hello"; y[2..-4]', '""'],
    ],
  },
  {
    from: 'tests/float.rs',
    rows: [['let x = 0.; let y = 1.; x > y', 'false']],
  },
  {
    from: 'tests/time.rs',
    rows: [
      ['type_of(timestamp())', '"timestamp"'],
      ['let time = timestamp(); let x = 10_000; while x > 0 { x -= 1; } elapsed(time) < 10.0', 'true'],
      ['let time1 = timestamp(); for x in 0..10000 {} let time2 = timestamp(); time1 <= time2', 'true'],
      ['let time1 = timestamp(); let time2 = time1 + 123.45; abs(time2 - time1 - 123.45) < 0.001', 'true'],
      ['let time1 = timestamp(); let time2 = time1 - 123.45; abs(time1 - time2 - 123.45) < 0.001', 'true'],
    ],
  },
  {
    from: 'tests/functions.rs',
    rows: [
      ['const ANSWER = 42; fn foo() { global::ANSWER } foo()', '42'],
      [
        'fn foo() { global::ANSWER } { const ANSWER = 42; foo() }',
        "ERR Variable not found: global::ANSWER in call to function 'foo'",
      ],
      [
        'let f = || { const LOCAL_VALUE = 42; global::LOCAL_VALUE }; f.call()',
        'ERR Variable not found: global::LOCAL_VALUE in closure call',
      ],
      ['const GLOBAL_VALUE = 42; let f = || global::GLOBAL_VALUE; f.call()', '42'],
    ],
  },
  {
    from: 'tests/fn_ptr.rs',
    rows: [
      ['fn foo(x) { this += x; } let f = Fn("foo"); let x = 40; x.call(f, 2); x', '42'],
      ['fn foo(x) { this += x; } let f = Fn("foo"); call(f, 2); x', "ERR 'this' not bound in call to function 'foo'"],
      ['fn foo(x) { x + 1 } let f = foo; let g = 42; g = foo; call(f, 39) + call(g, 1)', '42'],
      ['let test = "hello"; let f = |x| test + x; f.call(42)', '"hello42"'],
    ],
  },
  {
    // test_get_set_elvis: `?.` on `()` skips the rest of the chain (no host needed for these)
    from: 'tests/get_set.rs',
    rows: [
      ['let x = (); x?.foo.bar.baz', '()'],
      ['let x = (); x?.foo(1,2,3)', '()'],
      ['let x = #{a:()}; x.a?.foo.bar.baz', '()'],
      ["let x = 'x'; x?.type_of()", '"char"'],
    ],
  },
  {
    from: 'tests/looping.rs',
    rows: [
      ['for n in 0..10 { let x = if n <= 5 { n }; x ?? break 42; }', '42'],
      ['let x = 0; break;', 'SYNTAX Break statement should only be used inside a loop'],
      ['loop { let f = || { break;  } }', 'SYNTAX Break statement should only be used inside a loop'],
      ['let x = 0; if x > 0 { continue; }', 'SYNTAX Break statement should only be used inside a loop'],
    ],
  },
  {
    from: 'tests/switch.rs',
    rows: [
      ["let x = 42; switch 2 { 1 => (), 2 if x < 40 => 'a', 42 => true, _ => 123 }", '123'],
      ["let x = 42; switch 2 { 1 => (), 2 if x > 40 => 'a', 42 => true, _ => 123 }", "'a'"],
      ["let x = 42; switch x { 1 => (), 2 => 'a', 42 => true }", 'true'],
      ["let x = 42; switch x { 1 => (), 2 => 'a', _ => true }", 'true'],
      ["let x = 42; switch x { 1 => 123, 2 => 'a' }", '()'],
      ["let x = 42; switch x { 1 | 2 | 3 | 5..50 | 'x' | true => 123, 'z' => 'a' }", '123'],
      ['let x = 42; switch x { 424242 => 123, _ => 42 }', '42'],
      ['let x = 42; switch x { 1 => 123, 42 => { x / 2 }, _ => 999 }', '21'],
      ['let x = 42; switch 42 { 42 => 123, 42 => 999 }', '123'],
      ['let x = 42; switch x { 42 => 123, 42 => 999 }', '123'],
      ['switch x { _ => 123, 1 => 42 }', 'SYNTAX Default switch case must be the last'],
      ['let x = 42; switch x / 2 { 21 if x > 40 => 1, 0 if x < 100 => 2, 1 => 3, _ => 9 }', '1'],
      ['let x = 42; switch x / 2 { 21 if x < 40 => 1, 0 if x < 100 => 2, 1 => 3, _ => 9 }', '9'],
      [
        'let x = 42; switch x { 42 if x < 40 => 1, 42 if x > 40 => 7, 0 if x < 100 => 2, 1 => 3, 42 if x == 10 => 10, _ => 9 }',
        '7',
      ],
      ['switch x { 1 => 123, _ if true => 42 }', 'SYNTAX This switch case cannot have a condition'],
      ["let x = 42; switch x { 10..20 => (), 20..=42 => 'a', 25..45 => 'z', 30..100 => true }", "'a'"],
      ["let x = 42; switch x { 10..20 => (), 20..=42 if x < 40 => 'a', 25..45 => 'z', 30..100 => true }", "'z'"],
      [
        "let x = 42; switch x { 42 => 'x', 10..20 => (), 20..=42 => 'a', 25..45 => 'z', 30..100 => true, 'w' => true }",
        "'x'",
      ],
      [
        "switch x { 10..20 => (), 20..=42 => 'a', 25..45 => 'z', 42 => 'x', 30..100 => true }",
        'SYNTAX Numeric switch case cannot follow a range case',
      ],
      [
        "switch x { 10..20 => (), 20..=42 => 'a', 25..45 => 'z', 42.0 => 'x', 30..100 => true }",
        'SYNTAX Numeric switch case cannot follow a range case',
      ],
      ["let x = 42; switch 5 { 'a' => true, 0..10 if x+2==1+2 => print(40+2), _ => 'x' }", "'x'"],
      ["let x = 42; switch 5 { 'a' => true, 0..10 => 123, 2..12 => 'z', _ => 'x' }", '123'],
      ["let x = 42; switch 5 { 'a' => true, 4 | 5 | 6 => 42, 0..10 => 123, 2..12 => 'z', _ => 'x' }", '42'],
      ["let x = 42; switch 5 { 'a' => true, 2..12 => 'z', 0..10 if x+2==1+2 => print(40+2), _ => 'x' }", "'z'"],
      ["let x = 42; switch 5 { 'a' => true, 0..10 if x+2==1+2 => print(40+2), 2..12 => 'z', _ => 'x' }", "'z'"],
    ],
  },
];

/** Tests that push variables into a Scope: the variables become the script's globals. */
export const WITH_SCOPE: readonly ConformanceTable[] = [
  {
    from: 'tests/string.rs',
    globals: { x: 'foo', y: 'foo', z: 'foo' },
    rows: [
      ['x == "foo"', 'true'],
      ['y == "foo"', 'true'],
      ['z == "foo"', 'true'],
    ],
  },
  {
    from: 'tests/closures.rs',
    globals: { x: 42n },
    rows: [['let f = || { x }; f.call()', '42']],
  },
  {
    from: 'tests/maps.rs',
    globals: {
      map: new Map<string, Value>([
        ['a', 1n],
        ['b', true],
        ['c', 42n],
        ['$d e f!', 'hello'],
        ['z', null],
      ]),
    },
    rows: [['let s = ""; for key in keys(map) { s += key; } s.len', '11']],
  },
  {
    // engine.parse_json("123") is an ErrorMismatchOutputType: the engine parses JSON as an object-map literal,
    // so the script function refuses any other top level the same way
    from: 'tests/maps.rs',
    rows: [
      ['parse_json("123")', 'ERR Output type incorrect: i64 (expecting map)'],
      ['parse_json("[1, 2]")', 'ERR Output type incorrect: array (expecting map)'],
      ['parse_json("\\"x\\"")', 'ERR Output type incorrect: string (expecting map)'],
      ['parse_json("{\\"a\\": [1]}").a', '[1]'],
    ],
  },
  {
    from: 'tests/parse_json.rs',
    rows: [
      [
        'let map = parse_json("{\\"name\\": \\"John Doe\\", \\"age\\": 43, \\"address\\": {\\"street\\": \\"10 Downing Street\\", \\"city\\": \\"London\\"}, \\"phones\\": [\\"+44 1234567\\", \\"+44 2345678\\"]}"); [map.len(), map.name, map.age, map.phones, map.address.city, map.address.street]',
        '[4, "John Doe", 43, ["+44 1234567", "+44 2345678"], "London", "10 Downing Street"]',
      ],
      [
        'let map = parse_json("{\\"positive_exp\\": 1.23e4, \\"negative_exp\\": 1.5e-5, \\"capital_e\\": 2.5E+10, \\"integer_exp\\": 3e2, \\"zero_exp\\": 4.2e0}"); [map.len(), map.positive_exp, map.negative_exp, map.capital_e, map.integer_exp, map.zero_exp]',
        '[5, 12300.0, 1.5e-5, 25000000000.0, 300.0, 4.2]',
      ],
    ],
  },
];
