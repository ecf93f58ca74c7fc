// The parts of Rhai left out refuse to compile, naming the feature at its line and column; a
// script's own function of the same name is still called.
import { runCases, type Case } from './fixtures/harness.js';

const refused: Case[] = [
  ['eval("40 + 2")', "SYNTAX Dynamic evaluation is not supported: 'eval' @1:1"],
  ['let x = 1;\nlet y = eval("x");', "SYNTAX Dynamic evaluation is not supported: 'eval' @2:9"],
  ['import "lib" as lib;', "SYNTAX Modules are not supported: 'import' @1:1"],
  ['export const X = 1;', "SYNTAX Modules are not supported: 'export' @1:1"],
  ['math::sqrt(4.0)', "SYNTAX Modules are not supported: 'math::' @1:5"],
  ['let g = global;', "SYNTAX Modules are not supported: 'global' @1:9"],
  ['let b = blob(4);', "SYNTAX BLOBs are not supported: 'blob' @1:9"],
  ['parse_le_int(x, 0, 2)', "SYNTAX BLOBs are not supported: 'parse_le_int' @1:1"],
  ['let d = parse_decimal("1.5");', "SYNTAX Decimal numbers are not supported: 'parse_decimal' @1:9"],
  ['to_decimal(1)', "SYNTAX Decimal numbers are not supported: 'to_decimal' @1:1"],
  ['fn eval(x) { x * 2 } eval(21)', '42'],
  ['fn blob(n) { [n] } blob(3)', '[3]'],
  ['let eval = |x| x; eval(5)', '5'],
  ['let s = "eval"; s', '"eval"'],
];

runCases('left-out features are compile errors', refused);
