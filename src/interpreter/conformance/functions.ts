// Rhai 1.25.0, script functions, `global::`, function pointers (bare names, `Fn`, `call`, `curry`), closures: the cases of tests/functions.rs, tests/fn_ptr.rs, tests/closures.rs, tests/method_call.rs that need
// no host (no registered function or type, no engine option), one row each. Made from the tag's sources; see table.ts.

import type { ConformanceTable } from './table.js';

export const FUNCTIONS: readonly ConformanceTable[] = [
  {
    from: 'tests/functions.rs',
    rows: [
      ['fn add_me(a, b) { a+b } add_me(3, 4)', '7'],
      ['fn add_me(a, b,) { a+b } add_me(3, 4,)', '7'],
      ['fn bob() { return 4; 5 } bob()', '4'],
      ['fn add(x, n) { x + n } add(40, 2)', '42'],
      ['fn add(x, n,) { x + n } add(40, 2,)', '42'],
      ['fn add(x, n) { x + n } let a = 40; add(a, 2); a', '40'],
      ['fn add(n) { this + n } let x = 40; x.add(2)', '42'],
      ['fn add(n) { this += n; } let x = 40; x.add(2); x', '42'],
      ['fn mul2(x) { x * 2 } mul2(21)', '42'],
      ['fn mul2(x) { x *= 2 } let a = 21; mul2(a); a', '21'],
      ['fn mul2() { this * 2 } let x = 21; x.mul2()', '42'],
      ['fn mul2() { this *= 2; } let x = 21; x.mul2(); x', '42'],
      ['fn test() { 123 } test()', '123'],
      [
        '\n                    const ANSWER = 42;\n                    fn foo() { global::ANSWER }\n                    foo()\n                ',
        '42',
      ],
      [
        '\n                    fn abc(x,y,z) { 2*x + 3*y + 4*z + 888 }\n                    fn abc(x,y) { x + 2*y + 88 }\n                    fn abc() { 42 }\n                    fn abc(x) { x - 42 }\n\n                    abc() + abc(1) + abc(1,2) + abc(1,2,3)\n                ',
        '1002',
      ],
      ['type_of(Fn("abc"))', '"Fn"'],
      [
        '\n                    fn foo(x) { 40 + x }\n\n                    let f = Fn("foo");\n                    call(f, 2)\n                ',
        '42',
      ],
      [
        '\n                    fn foo(x) { 40 + x }\n\n                    let fn_name = "f";\n                    fn_name += "oo";\n\n                    let f = Fn(fn_name);\n                    f.call(2)\n                ',
        '42',
      ],
      [
        '\n                    fn foo(x) { 40 + x }\n\n                    let x = #{ action: Fn("foo") };\n                    x.action.call(2)\n                ',
        '42',
      ],
      [
        '\n                    fn foo(x) { this.data += x; }\n\n                    let x = #{ data: 40, action: Fn("foo") };\n                    x.action(2);\n                    x.data\n                ',
        '42',
      ],
      ['\n                fn foo(x) { x + 1 }\n                is_def_fn("foo", 1)\n            ', 'true'],
      ['\n                fn foo(x) { x + 1 }\n                is_def_fn("bar", 1)\n            ', 'false'],
      ['\n                fn foo(x) { x + 1 }\n                is_def_fn("foo", 0)\n            ', 'false'],
      ['fn/*\0„', 'FAILS'],
      [
        '\n            fn foo() { global::ANSWER }\n\n            {\n                const ANSWER = 42;\n                foo()\n            }\n        ',
        'ERR',
      ],
      [
        '\n            do_stuff(|| {\n                const LOCAL_VALUE = 42;\n                global::LOCAL_VALUE\n            });\n        ',
        'ERR',
      ],
      [
        '\n                    fn foo() { this += x; }\n\n                    let x = 41;\n                    let y = 999;\n\n                    y.foo!();\n                ',
        'SYNTAX',
      ],
      [
        '\n                    fn abc(x) { x + 42 }\n                    fn abc(x) { x - 42 }\n                ',
        'SYNTAX',
      ],
      ['fn hello(x, x) { x }', 'SYNTAX'],
      ['let f = Fn("abc"); f.call(0)', 'ERR'],
    ],
  },
  {
    from: 'tests/fn_ptr.rs',
    rows: [
      [
        '\n                    fn foo(x) { this += x; }\n\n                    let f = Fn("foo");\n                    let x = 40;\n                    x.call(f, 2);\n                    x\n                ',
        '42',
      ],
      [
        '\n                    fn foo(x) { x + 1 }\n                    let f = foo;\n                    let g = 42;\n                    g = foo;\n                    call(f, 39) + call(g, 1)\n                ',
        '42',
      ],
      [
        '\n                    fn foo(x) { this += x; }\n\n                    let f = Fn("foo");\n                    call(f, 2);\n                    x\n                ',
        'ERR',
      ],
      ['private fn foo(x, y) { len(x) + y }', 'COMPILES'],
      ['private fn foo(x, y) { this = x.len() + y }', 'COMPILES'],
    ],
  },
  {
    from: 'tests/closures.rs',
    rows: [
      [
        '\n                    let x = 8;\n\n                    let res = |y, z| {\n                        let w = 12;\n\n                        return (|| x + y + z + w).call();\n                    }.curry(15).call(2);\n\n                    res + (|| x - 3).call()\n                ',
        '42',
      ],
      [
        '\n                    let a = 41;\n                    let foo = |x| { a += x };\n                    foo.call(1);\n                    a\n                ',
        '42',
      ],
      [
        '\n                    let a = 21;\n                    let f = |x| a += x;\n                    f.call(a);\n                    a\n                ',
        '42',
      ],
      [
        '\n                    let a = 1;\n                    let b = 40;\n                    let foo = |x| { this += a + x };\n                    b.call(foo, 1);\n                    b\n                ',
        '42',
      ],
    ],
  },
  {
    from: 'tests/method_call.rs',
    rows: [
      ['let x = -123; x.abs(); x', '-123'],
      ['my_array.contains(value)', 'COMPILES'],
      ['obj.foo(a, b, c)', 'COMPILES'],
      ['obj.foo(n + 1)', 'COMPILES'],
    ],
  },
];
