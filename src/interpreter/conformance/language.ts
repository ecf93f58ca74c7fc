// Rhai 1.25.0, operators, assignments, constants, `if`/`switch`/loops (`?? break`), `throw`, scopes: the cases of tests/assignments.rs, tests/bool_op.rs, tests/compound_equality.rs, tests/constants.rs, tests/expressions.rs, tests/if_block.rs, tests/looping.rs, tests/not.rs, tests/ops.rs, tests/side_effects.rs, tests/switch.rs, tests/throw.rs, tests/unit.rs, tests/var_scope.rs, tests/while_loop.rs, tests/types.rs that need
// no host (no registered function or type, no engine option), one row each. Made from the tag's sources; see table.ts.

import type { ConformanceTable } from './table.js';

export const LANGUAGE: readonly ConformanceTable[] = [
  {
    from: 'tests/assignments.rs',
    rows: [
      ['let x = 42; x = 123; x', '123'],
      ['let x = 42; x += 123; x', '165'],
      ['let x = [42]; x[0] += 123; x[0]', '165'],
      ['let x = #{a:42}; x.a += 123; x.a', '165'],
      ['(x+y) = 42;', 'SYNTAX'],
      ['foo(x) = 42;', 'SYNTAX'],
      ['true = 42;', 'SYNTAX'],
      ['123 = 42;', 'SYNTAX'],
      ['x.foo() = 42;', 'SYNTAX'],
      ['x.foo().x.y = 42;', 'SYNTAX'],
      ['x.y.z.foo() = 42;', 'SYNTAX'],
      ['x.foo()[0] = 42;', 'SYNTAX'],
      ['x[y].z.foo() = 42;', 'SYNTAX'],
    ],
  },
  {
    from: 'tests/bool_op.rs',
    rows: [
      ['true && (false || true)', 'true'],
      ['true & (false | true)', 'true'],
      ['false && (false || true)', 'false'],
      ['false & (false | true)', 'false'],
      ['true && (true || { throw })', 'true'],
      ['false && (true || { throw })', 'false'],
      ['\n                let x = true;\n                x || { throw; };\n            ', 'true'],
      ['\n                let x = false;\n                x && { throw; };\n            ', 'false'],
      ['true && (false || 123)', 'FAILS'],
      ['123 && (false || true)', 'FAILS'],
    ],
  },
  {
    from: 'tests/compound_equality.rs',
    rows: [
      ['let x = 16; x |= 74; x', '90'],
      ['let x = true; x |= false; x', 'true'],
      ['let x = false; x |= true; x', 'true'],
      ['let x = 16; x &= 31; x', '16'],
      ['let x = true; x &= false; x', 'false'],
      ['let x = false; x &= true; x', 'false'],
      ['let x = true; x &= true; x', 'true'],
      ['let x = 90; x ^= 12; x', '86'],
      ['let x = 2; x *= 3; x', '6'],
      ['let x = 6; x /= 2; x', '3'],
      ['let x = 9; x >>=1; x', '4'],
      ['let x = 4; x <<= 2; x', '16'],
      ['let x = 10; x %= 4; x', '2'],
    ],
  },
  {
    from: 'tests/constants.rs',
    rows: [['const x = 123; x', '123']],
  },
  {
    from: 'tests/expressions.rs',
    rows: [['40 + { let x = 2; x }', 'COMPILES']],
  },
  {
    from: 'tests/if_block.rs',
    rows: [
      ['if true { 55 }', '55'],
      ['if false { 55 } else { 44 }', '44'],
      ['if true { 55 } else { 44 }', '55'],
      ['if false { 55 } else if true { 33 } else { 44 }', '33'],
      [
        '\n                    if false { 55 }\n                    else if false { 33 }\n                    else if false { 66 }\n                    else if false { 77 }\n                    else if false { 88 }\n                    else { 44 }\n                ',
        '44',
      ],
      [
        '\n                    let x = 42;\n                    let y = 1 + if x > 40 { 100 } else { 0 } / x;\n                    y\n                ',
        '3',
      ],
    ],
  },
  {
    from: 'tests/looping.rs',
    rows: [
      [
        '\n                    let x = 0;\n                    let i = 0;\n\n                    loop {\n                        if i < 10 {\n                            i += 1;\n                            if x > 20 { continue; }\n                            x += i;\n                        } else {\n                            break;\n                        }\n                    }\n\n                    x\n                ',
        '21',
      ],
      [
        '\n                    for n in 0..10 {\n                        let x = if n <= 5 { n };\n                        x ?? break 42;\n                    }\n                ',
        '42',
      ],
      [
        '\n                    let x = 0;\n\n                    let value = while x < 10 {\n                        if x % 5 == 0 { break 42; }\n                        x += 1;\n                    };\n\n                    value\n                ',
        '42',
      ],
      ['let x = 0; break;', 'SYNTAX'],
      ['loop { let f = || { break;  } }', 'SYNTAX'],
      ['let x = 0; if x > 0 { continue; }', 'SYNTAX'],
    ],
  },
  {
    from: 'tests/not.rs',
    rows: [
      ['let not_true = !true; not_true', 'false'],
      ['fn not(x) { !x } not(false)', 'true'],
      ['!!!!true', 'true'],
    ],
  },
  {
    from: 'tests/ops.rs',
    rows: [
      ['60 + 5', '65'],
      ['(1 + 2) * (6 - 4) / 2', '3'],
      ['let x = 41; x = x + 1; x', '42'],
      ['let s = "hello"; s = s + 42; s', '"hello42"'],
      ['"hello" > \'c\'', 'true'],
      ['"" < \'c\'', 'true'],
      ['\'x\' > "hello"', 'true'],
      ['"hello" > "foo"', 'true'],
      ['let x = 0; if x == 10 || true { x = 1} x', '1'],
    ],
  },
  {
    from: 'tests/side_effects.rs',
    rows: [['print(40 + 2);', 'OK']],
  },
  {
    from: 'tests/switch.rs',
    rows: [
      ["switch 2 { 1 => (), 2 => 'a', 42 => true }", "'a'"],
      ["switch 3 { 1 => (), 2 => 'a', 42 => true, _ => 123 }", '123'],
      ["switch 3 { 1 => (), 2 => 'a', 42 => true }", 'OK'],
      ['switch x { _ => 123, 1 => 42 }', 'SYNTAX'],
      ['switch x { 1 => 123, _ if true => 42 }', 'SYNTAX'],
      ["switch x { 10..20 => (), 20..=42 => 'a', 25..45 => 'z', 42 => 'x', 30..100 => true }", 'SYNTAX'],
      ["switch x { 10..20 => (), 20..=42 => 'a', 25..45 => 'z', 42.0 => 'x', 30..100 => true }", 'SYNTAX'],
      ['switch x { _ => fallback(y) }', 'COMPILES'],
    ],
  },
  {
    from: 'tests/throw.rs',
    rows: [
      ['try { throw 42; } catch (x) { return x; }', '42'],
      ['try { throw 42; } catch { return 123; }', '123'],
      ['let x = 42; try { let y = 123; print(x/0); } catch { x = 0 } x', '0'],
      [
        '\n                    fn foo(x) { try { throw 42; } catch (x) { return x; } }\n                    foo(0)\n                ',
        '42',
      ],
      [
        '\n                    let err = 123;\n                    let x = 0;\n                    try { throw 42; } catch(err) { return err; }\n                ',
        '42',
      ],
      [
        '\n                    let foo = 123;\n                    let x = 0;\n                    try { throw 42; } catch(err) { return foo; }\n                ',
        '123',
      ],
      [
        '\n                    let foo = 123;\n                    let x = 0;\n                    try { throw 42; } catch(err) { return err; }\n                ',
        '42',
      ],
    ],
  },
  {
    from: 'tests/unit.rs',
    rows: [
      ['let x = (); let y = (); x == y', 'true'],
      ['let x = (); x', 'OK'],
    ],
  },
  {
    from: 'tests/var_scope.rs',
    rows: [
      ['\n                let x = 42;\n                is_def_var("x")\n            ', 'true'],
      ['\n                let x = 42;\n                is_def_var("y")\n            ', 'false'],
      ['\n                const x = 42;\n                is_def_var("x")\n            ', 'true'],
      ['let y = 42; let y = 123; let z = y + 1; z', '124'],
      ['let x = 42;', 'COMPILES'],
      ['let y = 42; { let z = y + 1; { let x = z + 1; } }', 'OK'],
    ],
  },
  {
    from: 'tests/while_loop.rs',
    rows: [
      ['do { break 42; } while false', '42'],
      ['do {} while false', 'OK'],
      ['loop {}', 'FAILS'],
      ['while true {}', 'FAILS'],
      ['do {} while true', 'FAILS'],
    ],
  },
  {
    from: 'tests/types.rs',
    rows: [
      ['type_of(60 + 5)', '"i64"'],
      ['type_of(1.0 + 2.0)', '"f64"'],
      ['type_of([true, 2, "hello"])', '"array"'],
      ['type_of(#{a:true, "":2, "z":"hello"})', '"map"'],
      ['type_of("hello")', '"string"'],
      ['"hello".type_of()', '"string"'],
      ['let x = 123; type_of(x)', '"i64"'],
    ],
  },
];
