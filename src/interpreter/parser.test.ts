// Golden parse trees, written as S-expressions (operators and node kinds first), plus lexer
// details: offsets on every node, interpolation, number forms, comments.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Stmt } from './ast.js';
import { toDebug } from './format.js';
import { tokenize } from './lexer.js';
import { parseProgram } from './parser.js';

function sx(s: Stmt): string {
  switch (s.type) {
    case 'Literal':
      return toDebug(s.value);
    case 'Var':
      return `$${s.name}@${s.decl.slot}${s.decl.boxed ? '*' : ''}`;
    case 'Global':
      return s.visible ? `g:${s.name}` : `missing:${s.name}`;
    case 'This':
      return 'this';
    case 'Unary':
      return `(${s.op} ${sx(s.operand)})`;
    case 'Binary':
    case 'Logical':
      return `(${s.op} ${sx(s.left)} ${sx(s.right)})`;
    case 'Index':
      return `(${s.safe ? '?[]' : '[]'} ${sx(s.target)} ${sx(s.index)})`;
    case 'Prop':
      return `(${s.safe ? '?.' : '.'}${s.name} ${sx(s.target)})`;
    case 'Call':
      return `(call ${s.name}${s.fn ? '*' : ''}${s.fnVar ? '~' : ''}${s.args.map((a) => ' ' + sx(a)).join('')})`;
    case 'MethodCall':
      return `(.${s.name}() ${sx(s.target)}${s.args.map((a) => ' ' + sx(a)).join('')})`;
    case 'ArrayLit':
      return `[${s.items.map(sx).join(' ')}]`;
    case 'MapLit':
      return `#{${s.entries.map((e) => `${e.key}: ${sx(e.value)}`).join(', ')}}`;
    case 'Interpolated':
      return `(str ${s.parts.map(sx).join(' ')})`;
    case 'Block':
      return `{${s.body.map(sx).join('; ')}}`;
    case 'If':
      return `(if ${sx(s.cond)} ${sx(s.then)}${s.otherwise ? ' ' + sx(s.otherwise) : ''})`;
    case 'Let':
      return `(${s.decl.isConst ? 'const' : 'let'} ${s.decl.name}@${s.decl.slot}${s.init ? ' ' + sx(s.init) : ''})`;
    case 'Assign':
      return `(${s.op} ${sx(s.target)} ${sx(s.value)})`;
    case 'Return':
      return `(return${s.value ? ' ' + sx(s.value) : ''}${s.viaSignal ? '' : ' !throw'})`;
    case 'Break':
      return `(break${s.value ? ' ' + sx(s.value) : ''}${s.viaSignal ? '' : ' !throw'})`;
    case 'Closure':
      return `(fn |${s.def.params.map((p) => p.name).join(',')}| captures ${s.captures.map((d) => d.name).join(',') || '-'} ${sx(s.def.body)})`;
    case 'Loop':
      return `(loop ${sx(s.body)})`;
    case 'For':
      return `(for ${s.item.name}${s.counter ? ',' + s.counter.name : ''} ${sx(s.iterable)} ${sx(s.body)})`;
    case 'Switch':
      return `(switch ${sx(s.subject)} ${s.cases.length} cases${s.fallback ? ' +default' : ''})`;
    default:
      return s.type;
  }
}

function tree(source: string): string {
  return parseProgram(source, 'p.rhai').main.body.body.map(sx).join(' ; ');
}

const GOLDEN: readonly (readonly [string, string])[] = [
  ['1 + 2 * 3', '(+ 1 (* 2 3))'],
  ['2 ** 3 ** 2', '(** 2 (** 3 2))'],
  ['10 - 2 << 1', '(- 10 (<< 2 1))'],
  ['a || b && c', '(|| g:a (&& g:b g:c))'],
  ['x ?? y == z', '(== (?? g:x g:y) g:z)'],
  ['1..2 + 3', '(.. 1 (+ 2 3))'],
  ['-x.len()', '(- (.len() g:x))'],
  ['-5', '-5'],
  ['!a in b', '(in (! g:a) g:b)'],
  ['a !in b', '(!in g:a g:b)'],
  ['a?.b?[0].c', '(.c (?[] (?.b g:a) 0))'],
  ['let x = 1; let x = x + 1; x', '(let x@0 1) ; (let x@1 (+ $x@0 1)) ; $x@1'],
  ['let v = #{a: [1, "s"], "b c": ()};', '(let v@0 #{a: [1 "s"], b c: ()})'],
  ['`a${b}c`', '(str "a" {g:b} "c")'],
  ['let n = 1; let f = |x| x + n; f(2)', '(let n@0 1) ; (let f@1 (fn |x| captures n {(+ $x@0 $n@1*)})) ; (call f~ 2)'],
  ['fn f(a) { a } f(1); g(2)', '(call f* 1) ; (call g 2)'],
  ['fn f() { url_path }', ''],
  ['if a { 1 } else if b { 2 } else { 3 }', '(if g:a {1} (if g:b {2} {3}))'],
  ['x.y[0] += 2', '(+= ([] (.y g:x) 0) 2)'],
  ['for (v, i) in list { }', '(for v,i g:list {})'],
  ['loop { if a { break 1; } }', '(loop {(if g:a {(break 1)})})'],
  [
    'let r = loop { foo(if a { break 2 } else { 3 }); }',
    '(let r@0 (loop {(call foo (if g:a {(break 2 !throw)} {3}))}))',
  ],
  ['fn f() { return 1 + { return 2; }; }', ''],
  ['switch x { 1 | 2 => a, 3..5 if b => c, _ => d }', '(switch g:x 2 cases +default)'],
];

describe('golden parse trees', () => {
  for (const [source, expected] of GOLDEN) test(source, () => assert.equal(tree(source), expected));
});

test('function bodies: globals are out of reach, nested returns throw', () => {
  const p = parseProgram('fn f() { url_path } fn g() { return 1 + { return 2; }; }', 'p.rhai');
  assert.equal(sx(p.functions.get('f/0')!.body), '{missing:url_path}');
  assert.equal(sx(p.functions.get('g/0')!.body), '{(return (+ 1 {(return 2 !throw)}))}');
});

test('every node carries source offsets', () => {
  const source = 'let total = price * 2;';
  const p = parseProgram(source, 'p.rhai');
  const stmt = p.main.body.body[0];
  assert.ok(stmt !== undefined && stmt.type === 'Let' && stmt.init !== null);
  assert.deepEqual([stmt.start, stmt.end], [0, 21]);
  const init = stmt.init;
  assert.equal(source.slice(init.start, init.end), 'price * 2');
});

test('lexer: numbers, symbols, comments and interpolation', () => {
  const kinds = tokenize("0x1F 1_000 2.5e-3 1..2 a.b //c\n/* d /* e */ */ `x${y}z` 'q'").map(
    (t) => `${t.kind}:${t.text}`,
  );
  assert.deepEqual(kinds, [
    'int:0x1F',
    'int:1_000',
    'float:2.5e-3',
    'int:1',
    'punct:..',
    'int:2',
    'ident:a',
    'punct:.',
    'ident:b',
    'backtick:`',
    'char:q',
    'eof:',
  ]);
  const bt = tokenize('`x${y}z`')[0];
  assert.equal(bt?.parts?.length, 3);
  assert.equal(tokenize('9223372036854775808')[0]?.kind, 'float');
});
