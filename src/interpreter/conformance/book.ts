// Rhai 1.25.0 as its book describes it (strings-chars, ints, floats, fn-ptr, arrays, switch,
// timestamps), for the Rhai features real middleware scripts use (docs/rhai.md); the first rows are the
// ones that matched from the start, kept as regression rows. Timestamps read a clock that advances 1 ms per reading.

import type { ConformanceTable } from './table.js';

export const BOOK: readonly ConformanceTable[] = [
  {
    from: 'book: ints, floats',
    rows: [
      ['is_even(10)', 'true'],
      ['let n = 10; n.is_even()', 'true'],
      ['1.0 / 0.0', 'inf'],
      ['print(1.0 / 0.0)', 'PRINT inf'],
      ['to_string(-1.0 / 0.0)', '"-inf"'],
      ['let n = 7; [n.is_odd, n.is_even, is_odd(n)]', '[true, false, true]'],
      ['let x = 5.; [x, type_of(x)]', '[5.0, "f64"]'],
      ['0.1 + 0.2 == 0.3', 'true'],
      ['1.0e-16 == 0', 'true'],
      ['0.1 + 0.2 != 0.3', 'false'],
      ['[1 << 64, 1 >> 64, -1 >> 64, 1 << -1, 2 >> -1]', '[0, 0, -1, 0, 4]'],
      ['switch 2.5 { 0..5 => "low", _ => "high" }', '"low"'],
      ['switch 5.0 { 0..5 => "low", 5..=9 => "mid", _ => "high" }', '"mid"'],
    ],
  },
  {
    from: 'book: strings-chars',
    rows: [
      ['#"C:\\dir\\"#', '"C:\\\\dir\\\\"'],
      ['###"a "## b"###', '"a \\"## b"'],
      ['"say ""hi"""', '"say \\"hi\\""'],
      ['let s = "héllo"; [s[1..3], s[1..=3], s[-2..]]', '["él", "éll", "lo"]'],
      ['[1, 2, 3][0..2]', 'ERR Data type incorrect: range (expecting i64)'],
    ],
  },
  {
    from: 'book: fn-ptr, arrays, constants, if-expressions',
    rows: [
      ['const LIMIT = 3; fn over(n) { n > global::LIMIT } [over(2), over(4)]', '[false, true]'],
      ['fn inc(x) { x + 1 } let f = inc; [f.name, type_of(f), f.call(1)]', '["inc", "Fn", 2]'],
      [
        'fn double(x) { x * 2 } [[1, 2].map(double), [1, 2].map(Fn("double")), [1, 2].map("double")]',
        '[[2, 4], [2, 4], [2, 4]]',
      ],
      ['fn big(x) { x > 1 } [1, 2, 3].filter("big")', '[2, 3]'],
      ['[1, 2, 3].filter(|| this > 1)', '[2, 3]'],
      ['let s = 0; for x in [1, (), 3] { let v = x ?? continue; s += v; } s', '4'],
      ['let body = (); body?.user.name ?? "anon"', '"anon"'],
      ['let body = #{ user: #{ name: "ann" } }; body?.user.name ?? "anon"', '"ann"'],
      ['let body = #{ user: () }; body.user?.name.len()', '()'],
      ['fn f(x) { let v = x ?? return "none"; v * 2 } [f(2), f(())]', '[4, "none"]'],
    ],
  },
  {
    from: 'book: timestamps',
    rows: [
      ['let t = timestamp(); t.elapsed', '0.001'],
      ['let t = timestamp(); [elapsed(t), t.elapsed()]', '[0.001, 0.002]'],
      ['let t = timestamp(); let u = t + 30; [u > t, u - t, t - u, u == t + 30]', '[true, 30.0, -30.0, true]'],
      ['let t = timestamp(); let u = t; u -= 1.5; t - u', '1.5'],
      ['print(timestamp())', 'PRINT <timestamp>'],
      ['(timestamp() + 10).elapsed', 'ERR Time-stamp is later than now'],
    ],
  },
  {
    // the doc comments of Rhai 1.25's array and string packages (the book's function reference)
    from: 'book: arrays (sort_desc, order, order_by, order_desc, sort_by), to_debug of a char',
    rows: [
      ['let x = [1, 3, 5, 7, 9, 2, 4, 6, 8, 10]; x.sort_desc(); x', '[10, 9, 8, 7, 6, 5, 4, 3, 2, 1]'],
      ['let x = [1, 3, 5, 7, 9, 2, 4, 6, 8, 10]; let y = x.order(); [y, x[0]]', '[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1]'],
      ['let x = [1, 3, 5, 7, 9, 2, 4, 6, 8, 10]; x.order_desc()', '[10, 9, 8, 7, 6, 5, 4, 3, 2, 1]'],
      ['let x = [1, 3, 5, 2, 4]; x.order_by(|a, b| if a > b { -1 } else if a < b { 1 } else { 0 })', '[5, 4, 3, 2, 1]'],
      ['let x = [1, 3, 5, 2, 4]; x.order(|a, b| b - a)', '[5, 4, 3, 2, 1]'],
      [
        'let x = [1, 3, 5, 2, 4]; x.sort_by(|a, b| if a > b { -1 } else if a < b { 1 } else { 0 }); x',
        '[5, 4, 3, 2, 1]',
      ],
      ['let x = [3, 1, 2]; x.sort(|a, b| a <= b); x', '[1, 2, 3]'],
      ["let x = ['b', 'c', 'a']; x.sort_desc(); x", "['c', 'b', 'a']"],
      ['let x = ["b", "a"]; x.order_desc()', '["b", "a"]'],
      ['let x = [1, "a"]; x.sort_desc()', 'ERR Function not found: elements of different types cannot be sorted'],
      ['let x = [[1], [2]]; x.sort()', 'ERR Function not found: elements of array cannot be sorted'],
      // `to_debug` of a char alone is the character itself; an array or map prints its chars quoted, as Rhai does
      ["to_debug('x')", '"x"'],
      ["let c = 'x'; [c, 'y'].to_string()", `"['x', 'y']"`],
      ["let m = #{a: 'x'}; m.to_string()", `"#{\\"a\\": 'x'}"`],
      ["let a = ['x']; a.push('y'); print(a)", "PRINT ['x', 'y']"],
      ["debug('x')", 'PRINT x'],
      ['to_debug("x")', '"\\"x\\""'],
    ],
  },
];
