// Statements and statement expressions. As in Rhai, the last statement of a block is its value
// (whether or not it ends with `;`); block-like statements (`if`, `switch`, loops, `try`, `{…}`)
// need no `;`, every other statement does unless it ends the block. `fn` definitions are only
// allowed at the top level; they are hoisted into the program's function table.

import type { Assign, Block, Do, Expr, FnDef, For, If, Let, Loop, Stmt, Try, VarDecl, While } from './ast.js';
import { fnKey } from './ast.js';
import { parseExpr } from './parse-expression.js';
import { parseSwitch } from './parse-switch.js';
import type { ParserState } from './parser-state.js';
import { RESERVED, isAssignOp } from './token.js';
import { unsupported } from './unsupported.js';

const SELF_TERMINATED: ReadonlySet<string> = new Set(['Block', 'If', 'Switch', 'While', 'Loop', 'Do', 'For', 'Try']);

export function isSelfTerminated(s: Stmt): boolean {
  return SELF_TERMINATED.has(s.type);
}

/** Statements up to `}` (not consumed) or the end of the token list. */
export function parseBlockBody(p: ParserState, until: '}' | 'eof', topLevel = false): Stmt[] {
  const body: Stmt[] = [];
  const atEnd = (): boolean => (until === '}' ? p.is('}') : p.peek().kind === 'eof');
  for (;;) {
    if (atEnd()) return body;
    if (p.peek().kind === 'eof') p.unexpected("Expecting '}' to terminate this block");
    if (p.eat(';')) continue;
    if (p.is('fn') || p.is('private')) {
      if (!topLevel)
        p.fail('Function definitions must be at global level and cannot be inside a block or another function');
      parseFnDef(p);
      continue;
    }
    const stmt = parseStatement(p);
    body.push(stmt);
    if (atEnd() || isSelfTerminated(stmt)) continue;
    if (!p.eat(';')) p.unexpected("Expecting ';' to terminate this statement");
  }
}

export function parseBlock(p: ParserState): Block {
  const open = p.peek();
  if (!p.is('{')) p.unexpected("Expecting '{' to start a statement block");
  p.next();
  p.enterNesting();
  const body = p.inBlock(() => parseBlockBody(p, '}'));
  p.leaveNesting();
  p.next();
  return { type: 'Block', body, start: open.start, end: p.lastEnd };
}

export function parseStatement(p: ParserState): Stmt {
  const t = p.peek();
  if (t.kind === 'keyword') {
    switch (t.text) {
      case 'let':
      case 'const':
        return parseLet(p);
      case 'return':
      case 'throw':
      case 'break': {
        p.next();
        if (t.text === 'break' && p.loopDepth === 0)
          p.fail('Break statement should only be used inside a loop', t.start);
        const value = endsStatement(p) ? null : parseExpr(p);
        const span = { start: t.start, end: p.lastEnd };
        if (t.text === 'throw') return { type: 'Throw', value, ...span };
        return { type: t.text === 'return' ? 'Return' : 'Break', value, viaSignal: false, ...span };
      }
      case 'continue':
        p.next();
        if (p.loopDepth === 0) p.fail('Break statement should only be used inside a loop', t.start);
        return { type: 'Continue', viaSignal: false, start: t.start, end: t.end };
      case 'import':
      case 'export':
        return p.fail(unsupported('modules', t.text));
      default:
        if (STATEMENT_EXPRESSIONS.has(t.text)) return parseStatementExpression(p);
        break;
    }
  }
  if (t.kind === 'punct' && t.text === '{') return parseBlock(p);
  const expr = parseExpr(p);
  const op = p.peek();
  if (op.kind === 'punct' && isAssignOp(op.text)) {
    p.next();
    checkAssignable(p, expr);
    const value = parseExpr(p);
    const node: Assign = {
      type: 'Assign',
      op: op.text,
      target: expr,
      value,
      opStart: op.start,
      start: expr.start,
      end: value.end,
    };
    return node;
  }
  return expr;
}

function endsStatement(p: ParserState): boolean {
  return p.is(';') || p.is('}') || p.peek().kind === 'eof';
}

function checkAssignable(p: ParserState, target: Expr): void {
  let root: Expr = target;
  while (root.type === 'Index' || root.type === 'Prop') root = root.target;
  if (root.type === 'Var' && root.decl.isConst) p.fail(`Cannot assign to constant ${root.name}`, target.start);
  if (root.type !== 'Var' && root.type !== 'Global' && root.type !== 'This') {
    p.fail('Expression cannot be assigned to', target.start);
  }
}

function variableName(p: ParserState): { name: string; start: number } {
  const t = p.peek();
  if (t.kind !== 'ident') p.fail('Expecting name of a variable', t.start);
  if (RESERVED.has(t.text)) p.fail(`'${t.text}' is a reserved keyword`, t.start);
  if (t.text === '_') p.fail('Expecting name of a variable', t.start);
  p.next();
  return { name: t.text, start: t.start };
}

function parseLet(p: ParserState): Let {
  const kw = p.next();
  const { name } = variableName(p);
  const init = p.eat('=') ? parseExpr(p) : null;
  const decl = p.scope.declare(name, kw.text === 'const');
  const s: Let = { type: 'Let', decl, init, toGlobal: false, start: kw.start, end: p.lastEnd };
  if (decl.isConst && p.scope.kind === 'script' && p.scope.atTopBlock) p.topConsts.push(s);
  return s;
}

function parseFnDef(p: ParserState): void {
  const start = p.peek().start;
  p.eat('private');
  p.expect('fn', 'to define a function');
  const nameTok = p.peek();
  if (nameTok.kind !== 'ident') p.fail('Expecting function name in function declaration', nameTok.start);
  p.next();
  const name = nameTok.text;
  const def = p.inFunction('fn', (scope) => {
    if (!p.is('(')) p.fail(`Expecting parameters for function ${name}`);
    p.next();
    const params: VarDecl[] = [];
    while (!p.eat(')')) {
      const id = p.peek();
      if (id.kind !== 'ident') p.unexpected(`Expecting ')' to close the parameters list of function ${name}`);
      p.next();
      if (params.some((d) => d.name === id.text))
        p.fail(`Duplicated parameter ${id.text} for function ${name}`, id.start);
      params.push(scope.declare(id.text, false));
      if (!p.eat(',') && !p.is(')')) p.unexpected(`Expecting ')' to close the parameters list of function ${name}`);
    }
    if (!p.is('{')) p.fail(`Expecting body statement block for function ${name}`);
    const body = parseBlock(p);
    const fn: FnDef = {
      name,
      params,
      body,
      frameSize: scope.frameSize,
      isClosure: false,
      captureSlots: [],
      start,
      end: body.end,
    };
    return fn;
  });
  const key = fnKey(name, def.params.length);
  if (p.functions.has(key)) {
    const n = def.params.length;
    const what = n === 0 ? 'no parameters' : n === 1 ? '1 parameter' : `${n} parameters`;
    p.fail(`Function ${name} with ${what} already exists`, nameTok.start);
  }
  p.functions.set(key, def);
}

/** Keywords that open a statement usable as an expression (`let x = if c { 1 } else { 2 };`). */
export const STATEMENT_EXPRESSIONS: ReadonlySet<string> = new Set([
  'if',
  'switch',
  'while',
  'loop',
  'do',
  'for',
  'try',
]);

export function parseStatementExpression(p: ParserState): Expr {
  const t = p.peek();
  switch (t.text) {
    case 'if':
      return parseIf(p);
    case 'switch':
      return parseSwitch(p);
    case 'while':
      return parseWhile(p);
    case 'loop': {
      p.next();
      const body = loopBody(p);
      const node: Loop = { type: 'Loop', body, start: t.start, end: body.end };
      return node;
    }
    case 'do':
      return parseDo(p);
    case 'for':
      return parseFor(p);
    case 'try':
      return parseTry(p);
    default:
      return parseBlock(p);
  }
}

function loopBody(p: ParserState): Block {
  p.loopDepth++;
  try {
    return parseBlock(p);
  } finally {
    p.loopDepth--;
  }
}

function parseIf(p: ParserState): If {
  const start = p.next().start;
  const cond = parseExpr(p);
  const then = parseBlock(p);
  let otherwise: Expr | null = null;
  if (p.eat('else')) {
    if (p.is('if')) {
      p.enterNesting();
      otherwise = parseIf(p);
      p.leaveNesting();
    } else {
      otherwise = parseBlock(p);
    }
  }
  return { type: 'If', cond, then, otherwise, start, end: p.lastEnd };
}

function parseWhile(p: ParserState): While {
  const start = p.next().start;
  const cond = parseExpr(p);
  const body = loopBody(p);
  return { type: 'While', cond, body, start, end: body.end };
}

function parseDo(p: ParserState): Do {
  const start = p.next().start;
  const body = loopBody(p);
  const until = p.is('until');
  if (!until && !p.is('while')) p.unexpected("Expecting 'while' or 'until' after the body of this 'do' loop");
  p.next();
  const cond = parseExpr(p);
  return { type: 'Do', body, cond, until, start, end: cond.end };
}

function parseFor(p: ParserState): For {
  const start = p.next().start;
  const paren = p.eat('(');
  const item = variableName(p);
  let counter: { name: string; start: number } | null = null;
  if (paren) {
    p.expect(',', 'to separate the item and the counter of this for loop');
    counter = variableName(p);
    p.expect(')', 'to close the variables of this for loop');
  }
  p.expect('in', 'after the iteration variable');
  const iterable = parseExpr(p);
  return p.inBlock(() => {
    const itemDecl = p.scope.declare(item.name, false);
    const counterDecl = counter === null ? null : p.scope.declare(counter.name, false);
    const body = loopBody(p);
    const node: For = { type: 'For', item: itemDecl, counter: counterDecl, iterable, body, start, end: body.end };
    return node;
  });
}

function parseTry(p: ParserState): Try {
  const start = p.next().start;
  const body = parseBlock(p);
  p.expect('catch', "to follow this 'try' block");
  return p.inBlock(() => {
    let errVar: VarDecl | null = null;
    if (p.eat('(')) {
      errVar = p.scope.declare(variableName(p).name, false);
      p.expect(')', 'to close the catch variable');
    }
    const handler = parseBlock(p);
    const node: Try = { type: 'Try', body, errVar, handler, start, end: handler.end };
    return node;
  });
}
