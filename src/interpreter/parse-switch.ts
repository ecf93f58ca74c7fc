// `switch` expressions. Case values must be literals (numbers, strings, chars, booleans, `()`,
// arrays and maps of literals); several may share an arm (`1 | 2 =>`); integer ranges
// (`0..10 =>`) come after the integer cases; an arm may carry a guard (`x if cond =>`); `_` is the
// default and must be last. Values are matched by type and value through a table keyed by their
// debug text, so `1` never matches `1.0` and `"1"` never matches `'1'`.

import type { Expr, Stmt, Switch, SwitchCase } from './ast.js';
import { hostDebug } from './format.js';
import { parseExpr } from './parse-expression.js';
import { isSelfTerminated, parseStatement } from './parse-statement.js';
import type { ParserState } from './parser-state.js';
import type { Value } from './values.js';

type Range = SwitchCase['ranges'][number];

export function parseSwitch(p: ParserState): Switch {
  const start = p.next().start;
  const subject = parseExpr(p);
  p.expect('{', 'to start a switch block');
  const cases: SwitchCase[] = [];
  const table = new Map<string, number[]>();
  const rangeCases: number[] = [];
  let fallback: Stmt | null = null;
  let sawRange = false;
  while (!p.eat('}')) {
    if (p.peek().kind === 'eof') p.unexpected("Expecting '}' to end this switch block");
    if (fallback !== null) p.fail('Default switch case must be the last');
    const caseStart = p.peek();
    let body: Stmt;
    if (caseStart.kind === 'ident' && caseStart.text === '_') {
      p.next();
      if (p.is('if')) p.fail('This switch case cannot have a condition');
      p.expect('=>', 'in this switch case');
      body = parseStatement(p);
      fallback = body;
    } else {
      const values: Value[] = [];
      const ranges: Range[] = [];
      do {
        const pattern = parseExpr(p, 31);
        const range = constantRange(pattern);
        if (range !== null) {
          ranges.push(range);
          continue;
        }
        const value = constantValue(p, pattern);
        if (sawRange && (typeof value === 'bigint' || typeof value === 'number'))
          p.fail('Numeric switch case cannot follow a range case', pattern.start);
        values.push(value);
      } while (p.eat('|'));
      const guard = p.eat('if') ? parseExpr(p) : null;
      p.expect('=>', 'in this switch case');
      body = parseStatement(p);
      const index = cases.length;
      cases.push({ values, ranges, guard, body });
      for (const v of values) {
        const key = hostDebug(v);
        const list = table.get(key);
        if (list === undefined) table.set(key, [index]);
        else if (!list.includes(index)) list.push(index);
      }
      if (ranges.length > 0) {
        sawRange = true;
        rangeCases.push(index);
      }
    }
    if (p.is('}')) continue;
    if (p.peek().kind === 'eof') p.unexpected("Expecting '}' to end this switch block");
    if (!p.eat(',') && !isSelfTerminated(body))
      p.unexpected("Expecting ',' to separate the items in this switch block");
  }
  return { type: 'Switch', subject, cases, table, rangeCases, fallback, start, end: p.lastEnd };
}

function constantRange(e: Expr): Range | null {
  if (e.type !== 'Binary' || (e.op !== '..' && e.op !== '..=')) return null;
  if (e.left.type !== 'Literal' || e.right.type !== 'Literal') return null;
  const a = e.left.value;
  const b = e.right.value;
  if (typeof a !== 'bigint' || typeof b !== 'bigint') return null;
  return { start: a, end: b, inclusive: e.op === '..=' };
}

function constantValue(p: ParserState, e: Expr): Value {
  switch (e.type) {
    case 'Literal':
      return e.value;
    case 'ArrayLit':
      return e.items.map((x) => constantValue(p, x));
    case 'MapLit':
      return new Map(e.entries.map((x) => [x.key, constantValue(p, x.value)] as const));
    default:
      return p.fail('Expecting a literal expression', e.start);
  }
}
