// Rhai 1.25.0, arrays (callbacks by closure, pointer or name; `this`), maps, `for` loops: the cases of tests/arrays.rs, tests/maps.rs, tests/for.rs that need
// no host (no registered function or type, no engine option), one row each. Made from the tag's sources; see table.ts.

import type { ConformanceTable } from './table.js';

export const COLLECTIONS: readonly ConformanceTable[] = [
  {
    from: 'tests/arrays.rs',
    rows: [
      ['let x = [1, 2, 3]; x[1]', '2'],
      ['let x = [1, 2, 3,]; x[1]', '2'],
      ['let y = [1, 2, 3]; y[1] = 5; y[1]', '5'],
      ['let y = [1, [ 42, 88, "93" ], 3]; y[1][2][1]', "'3'"],
      ['let y = [1, 2, 3]; y[0]', '1'],
      ['let y = [1, 2, 3]; y[-1]', '3'],
      ['let y = [1, 2, 3]; y[-3]', '1'],
      ['let y = [1, 2, 3]; 2 in y', 'true'],
      ['let y = [1, 2, 3]; 42 !in y', 'true'],
      ['let y = [1, 2, 3]; y += 4; y[3]', '4'],
      ['let y = [1, 2, 3]; pad(y, 5, 42); len(y)', '5'],
      ['let y = [1, 2, 3]; pad(y, 5, [42]); len(y)', '5'],
      ['let y = [1, 2, 3]; pad(y, 5, [42, 999, 123]); y[4][0]', '42'],
      ['let y = [1, 2, 3]; let z = [42]; y[z.len]', '2'],
      ['let y = [1, 2, [3, 4, 5, 6]]; let z = [42]; y[2][z.len]', '4'],
      ['let y = [1, 2, 3]; let z = [2]; y[z[0]]', '3'],
      [
        '\n                    let x = #{ foo: 42 };\n                    let n = 0;\n                    let a = [[x]];\n                    let i = [n];\n                    a[n][i[n]].foo\n                ',
        '42',
      ],
      [
        '\n                let x = 42;\n                let y = [];\n                let f = || x;\n                for n in 0..10 {\n                    y += x;\n                }\n                some(y, |x| is_shared(x))\n            ',
        'false',
      ],
      [
        '\n                let v = [ PI() ];\n                ( v[0].cos() ).sin() == v[0].cos().sin()\n            ',
        'true',
      ],
      ['[1].map(|x| x + 41)[0]', '42'],
      ['[1].map(|| this + 41)[0]', '42'],
      ['let x = [1, 2, 3]; x.for_each(|| this += 41); x[0]', '42'],
      [
        '\n                    let x = [1, 2, 3];\n                    let sum = 0;\n                    let factor = 2;\n                    x.for_each(|| sum += this * factor);\n                    sum\n                ',
        '12',
      ],
      ['([1].map(|x| x + 41))[0]', '42'],
      ['let c = 40; let y = 1; [1].map(|x, i| c + x + y + i)[0]', '42'],
      ['let x = [1, 2, 3]; x.for_each(|i| this += i); x[2]', '5'],
      [
        '\n                    let x = [1, 2, 3];\n                    x.reduce(|sum, v| if sum.type_of() == "()" { v * v } else { sum + v * v })\n                ',
        '14',
      ],
      [
        '\n                    let x = [1, 2, 3];\n                    x.reduce(|sum, v, i| {\n                        if i == 0 { sum = 10 }\n                        sum + v * v\n                    })\n                ',
        '24',
      ],
      [
        '\n                    let x = [1, 2, 3];\n                    x.reduce_rev(|sum, v| if sum.type_of() == "()" { v * v } else { sum + v * v })\n                ',
        '14',
      ],
      [
        '\n                    let x = [1, 2, 3];\n                    x.reduce_rev(|sum, v, i| { if i == 2 { sum = 10 } sum + v * v })\n                ',
        '24',
      ],
      ['\n                let x = [1, 2, 3];\n                x.some(|v| v > 1)\n            ', 'true'],
      ['\n                let x = [1, 2, 3];\n                x.some(|v, i| v * i == 0)\n            ', 'true'],
      ['\n                let x = [1, 2, 3];\n                x.all(|v| v > 1)\n            ', 'false'],
      ['\n                let x = [1, 2, 3];\n                x.all(|v, i| v > i)\n            ', 'true'],
      ['\n                    let x = [1, 2, 3];\n                    x.find(|v| v > 2)\n                ', '3'],
      [
        '\n                    let x = [1, 2, 3];\n                    x.find(|v, i| v * i == 6)\n                ',
        '3',
      ],
      [
        '\n                    let x = [#{alice: 1}, #{bob: 2}, #{clara: 3}];\n                    x.find_map(|v| v.bob)\n                ',
        '2',
      ],
      ['index_of([1, 2, 3], 2)', '1'],
      ['index_of(["hi", "hello", "world"], "hello")', '1'],
      ['index_of(["a","b","c","b"], "b", 2)', '3'],
      ['index_of(["a","b"], "missing")', '-1'],
      ['index_of([1,2,3], "foo")', '-1'],
      ['\n             fn is_two(x) { x == 2 }\n             [1,2,3,2].index_of("is_two")\n         ', '1'],
      ['\n             fn is_two(x) { x == 2 }\n             [1,2,3,2].index_of("is_two", 2)\n         ', '3'],
      ['let y = []; y[-3]', 'FAILS'],
      ['let y = []; y[0]', 'FAILS'],
      ['let y = []; y[1]', 'FAILS'],
      ['let y = [1, 2, 3]; y[3]', 'FAILS'],
      ['let y = [1, 2, 3]; y[-4]', 'FAILS'],
      ["[1, 2, 3][0]['x']", 'COMPILES'],
      ["[1, 2, 3]['x']", 'SYNTAX'],
      ['[1, 2, 3][123.456]', 'SYNTAX'],
      ['[1, 2, 3][()]', 'SYNTAX'],
      ['[1, 2, 3]["hello"]', 'SYNTAX'],
      ['[1, 2, 3][true && false]', 'SYNTAX'],
      ['let x = (); x?[2] = 42', 'OK'],
    ],
  },
  {
    from: 'tests/maps.rs',
    rows: [
      ['let x = #{a: 1, b: 2, c: 3}; x["b"]', '2'],
      ['let x = #{a: 1, b: 2, c: 3,}; x["b"]', '2'],
      [
        '\n                        let y = #{d: 1, "e": #{a: 42, b: 88, "": "hello"}, " 123 xyz": 9};\n                        y.e[""][4]\n                    ',
        "'o'",
      ],
      ['let a = [#{s:"hello"}]; a[0].s[2] = \'X\'; a[0].s', '"heXlo"'],
      ['let y = #{a: 1, b: 2, c: 3}; y.a = 5; y.a', '5'],
      ['let y = #{a: #{x:9, y:8, z:7}, b: 2, c: 3}; (y.a).z', '7'],
      ['let y = #{a: #{x:9, y:8, z:7}, b: 2, c: 3}; (y.a).z = 42; y.a.z', '42'],
      ['\n                    let y = #{`a\nb`: 1};\n                    y["a\\nb"]\n                ', '1'],
      ['let y = #{a: 1, b: 2, c: 3}; "c" in y', 'true'],
      ['let y = #{a: 1, b: 2, c: 3}; "b" in y', 'true'],
      ['let y = #{a: 1, b: 2, c: 3}; "z" in y', 'false'],
      [
        '\n                    let x = #{a: 1, b: 2, c: 3};\n                    let c = x.remove("c");\n                    x.len() + c\n                ',
        '5',
      ],
      [
        '\n                    let x = #{a: 1, b: 2, c: 3};\n                    let y = #{b: 42, d: 9};\n                    x.mixin(y);\n                    x.len() + x.b\n                ',
        '46',
      ],
      [
        '\n                    let x = #{a: 1, b: 2, c: 3};\n                    x += #{b: 42, d: 9};\n                    x.len() + x.b\n                ',
        '46',
      ],
      ['#{a:[#{b:42}]}.to_json()', '"{\\"a\\":[{\\"b\\":42}]}"'],
      ['#{a:[Fn("abc")]}.to_json()', '"{\\"a\\":[\\"abc\\"]}"'],
      ['#{a:[Fn("abc").curry(42).curry(123)]}.to_json()', '"{\\"a\\":[[\\"abc\\",42,123]]}"'],
      ['let y = #{a: 1, b: 2, c: 3}; y.z', 'OK'],
      ['let y = #{`a${1}`: 1}; y.a1', 'SYNTAX'],
      ['#{a:1, b:2, c:3}["a"][\'x\']', 'COMPILES'],
      ["#{a:1, b:2, c:3}['x']", 'SYNTAX'],
      ['#{a:1, b:2, c:3}[1]', 'SYNTAX'],
      ['#{a:1, b:2, c:3}[123.456]', 'SYNTAX'],
      ['#{a:1, b:2, c:3}[()]', 'SYNTAX'],
      ['#{a:1, b:2, c:3}[true && false]', 'SYNTAX'],
    ],
  },
  {
    from: 'tests/for.rs',
    rows: [
      [
        '\n                    let sum1 = 0;\n                    let sum2 = 0;\n                    let inputs = [1, 2, 3, 4, 5];\n\n                    for x in inputs {\n                        sum1 += x;\n                    }\n\n                    for x in range(1, 6) {\n                        sum2 += x;\n                    }\n\n                    for x in range(1, 6, 3) {\n                        sum2 += x;\n                    }\n\n                    sum1 + sum2\n                ',
        '35',
      ],
      [
        '\n                    let sum = 0;\n                    let inputs = [1, 2, 3, 4, 5];\n\n                    for (x, i) in inputs {\n                        sum += x * (i + 1);\n                    }\n                    sum\n                ',
        '55',
      ],
      [
        '\n                    let sum = 0;\n                    for x in range(1, 10) { sum += x; }\n                    sum\n                ',
        '45',
      ],
      [
        '\n                    let sum = 0;\n                    for x in 1..10 { sum += x; }\n                    sum\n                ',
        '45',
      ],
      [
        '\n                    let sum = 0;\n                    for x in 1..=10 { sum += x; }\n                    sum\n                ',
        '55',
      ],
      [
        '\n                    let sum = 0;\n                    for x in range(1, 10, 2) { sum += x; }\n                    sum\n                ',
        '25',
      ],
      [
        '\n                    let sum = 0;\n                    for x in range(10, 1, 2) { sum += x; }\n                    sum\n                ',
        '0',
      ],
      [
        '\n                    let sum = 0;\n                    for x in range(1, 10, -2) { sum += x; }\n                    sum\n                ',
        '0',
      ],
      [
        '\n                    let sum = 0;\n                    for x in range(10, 1, -2) { sum += x; }\n                    sum\n                ',
        '30',
      ],
      [
        '\n                        let sum = 0.0;\n                        for x in range(1.0, 10.0, 2.0) { sum += x; }\n                        sum\n                    ',
        '25.0',
      ],
      [
        '\n                        let sum = 0.0;\n                        for x in range(10.0, 1.0, 2.0) { sum += x; }\n                        sum\n                    ',
        '0.0',
      ],
      [
        '\n                        let sum = 0.0;\n                        for x in range(1.0, 10.0, -2.0) { sum += x; }\n                        sum\n                    ',
        '0.0',
      ],
      [
        '\n                        let sum = 0.0;\n                        for x in range(10.0, 1.0, -2.0) { sum += x; }\n                        sum\n                    ',
        '30.0',
      ],
      [
        '\n                    let a = [123, 999, 42, 0, true, "hello", "world!", 987.654];\n\n                    for (item, count) in a {\n                        switch item.type_of() {\n                            "i64" | "i32" if item.is_even => break count,\n                            "f64" | "f32" if item.to_int().is_even => break count,\n                        }\n                    }\n                ',
        '2',
      ],
      [
        '\n                    let s = "hello";\n                    let sum = 0;\n\n                    for ch in chars(s) {\n                        sum += to_int(ch);\n                    }\n\n                    sum\n                ',
        '532',
      ],
      [
        '\n                    let s = "hello";\n                    let sum = 0;\n\n                    for ch in chars(s, 2..=3) {\n                        sum += to_int(ch);\n                    }\n\n                    sum\n                ',
        '216',
      ],
      [
        '\n                    let a = [];\n\n                    for (x, i) in 100..110 {\n                        a += || i + x;\n                    }\n\n                    let sum = 0;\n\n                    for fp in a {\n                        sum += call(fp);\n                    }\n\n                    sum\n                ',
        '1180',
      ],
    ],
  },
];
