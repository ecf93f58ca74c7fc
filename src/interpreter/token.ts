// The token vocabulary: kinds, keywords, symbols and the binary-operator precedence table
// (Rhai's own numbers, from its tokenizer; higher binds tighter).

export type TokenKind = 'int' | 'float' | 'string' | 'char' | 'backtick' | 'ident' | 'keyword' | 'punct' | 'eof';

export type BacktickPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly tokens: readonly Token[]; readonly start: number; readonly end: number };

export interface Token {
  readonly kind: TokenKind;
  /** source text for idents, keywords and symbols; the decoded value for strings and chars */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly int?: bigint;
  readonly float?: number;
  readonly parts?: readonly BacktickPart[];
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'let',
  'const',
  'if',
  'else',
  'switch',
  'do',
  'while',
  'until',
  'loop',
  'for',
  'in',
  'break',
  'continue',
  'return',
  'throw',
  'try',
  'catch',
  'fn',
  'private',
  'true',
  'false',
  'this',
  'import',
  'export',
  'as',
  'global',
]);

/** Words Rhai reserves for the future; using one is a syntax error. */
export const RESERVED: ReadonlySet<string> = new Set([
  'var',
  'static',
  'shared',
  'goto',
  'match',
  'case',
  'public',
  'protected',
  'new',
  'use',
  'with',
  'module',
  'package',
  'super',
  'spawn',
  'thread',
  'go',
  'sync',
  'async',
  'await',
  'yield',
  'default',
  'void',
  'null',
  'nil',
]);

/** Longest first, so the lexer can take the first match. */
export const SYMBOLS: readonly string[] = [
  '**=',
  '<<=',
  '>>=',
  '..=',
  '!in',
  '::',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '?[',
  '**',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '..',
  '#{',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<',
  '>',
  '!',
  '&',
  '|',
  '^',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  ':',
  '.',
  '?',
];

export type BinaryOp =
  | '||'
  | '|'
  | '^'
  | '&&'
  | '&'
  | '=='
  | '!='
  | 'in'
  | '!in'
  | '<'
  | '<='
  | '>'
  | '>='
  | '??'
  | '..'
  | '..='
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '**'
  | '<<'
  | '>>';

export const PRECEDENCE: Readonly<Record<BinaryOp, number>> = {
  '||': 30,
  '|': 30,
  '^': 30,
  '&&': 60,
  '&': 60,
  '==': 90,
  '!=': 90,
  in: 110,
  '!in': 110,
  '<': 130,
  '<=': 130,
  '>': 130,
  '>=': 130,
  '??': 135,
  '..': 140,
  '..=': 140,
  '+': 150,
  '-': 150,
  '*': 180,
  '/': 180,
  '%': 180,
  '**': 190,
  '<<': 210,
  '>>': 210,
};

export function isBinaryOp(s: string): s is BinaryOp {
  return Object.prototype.hasOwnProperty.call(PRECEDENCE, s);
}

/** `**` binds to the right; everything else to the left. */
export function bindsRight(op: BinaryOp): boolean {
  return op === '**';
}

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '**=' | '<<=' | '>>=' | '&=' | '|=' | '^=';

const ASSIGN: ReadonlySet<string> = new Set(['=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '&=', '|=', '^=']);

export function isAssignOp(s: string): s is AssignOp {
  return ASSIGN.has(s);
}

export function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

export function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

export function isValidIdentifier(s: string): boolean {
  if (s.length === 0 || !isIdentStart(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) if (!isIdentPart(s.charCodeAt(i))) return false;
  return s !== '_';
}
