// Parser state shared by the statement and expression parsers: the token cursor, error helpers,
// the current function scope, loop nesting, and the calls to link to script functions afterwards.

import type { Call, FnDef, Global, Let } from './ast.js';
import { SyntaxFault } from './errors.js';
import { FnScope, type ScopeKind } from './scope.js';
import type { Token } from './token.js';

/** Deeper nesting than this is refused, which also keeps the evaluator off the JS stack limit. */
export const MAX_NESTING = 200;

export class ParserState {
  private tokens: readonly Token[];
  private index = 0;
  scope: FnScope;
  /** nesting of loops in the current function (break/continue are legal when > 0) */
  loopDepth = 0;
  depth = 0;
  readonly calls: Call[] = [];
  /** names resolved to no variable: function pointers when a script function has that name */
  readonly globals: Global[] = [];
  /** top-level `const` statements, and whether anything reads `global::` */
  readonly topConsts: Let[] = [];
  readsGlobalModule = false;
  readonly functions = new Map<string, FnDef>();
  private anonCount = 0;

  constructor(
    tokens: readonly Token[],
    readonly source: string,
  ) {
    this.tokens = tokens;
    this.scope = new FnScope('script', null);
  }

  peek(ahead = 0): Token {
    const t = this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
    return t as Token;
  }

  next(): Token {
    const t = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return t;
  }

  /** end offset of the last consumed token */
  get lastEnd(): number {
    return this.index > 0 ? (this.tokens[this.index - 1] as Token).end : 0;
  }

  is(text: string): boolean {
    const t = this.peek();
    return (t.kind === 'punct' || t.kind === 'keyword') && t.text === text;
  }

  eat(text: string): boolean {
    if (!this.is(text)) return false;
    this.next();
    return true;
  }

  expect(text: string, why: string): Token {
    if (!this.is(text)) this.unexpected(`Expecting '${text}' ${why}`);
    return this.next();
  }

  fail(message: string, offset: number = this.peek().start): never {
    throw new SyntaxFault(message, offset);
  }

  /** Fail at the current token: "Script is incomplete" at the end, else the given message. */
  unexpected(message?: string): never {
    const t = this.peek();
    if (t.kind === 'eof' && message === undefined) this.fail('Script is incomplete', t.start);
    this.fail(message ?? `Unexpected '${tokenText(t)}'`, t.start);
  }

  enterNesting(): void {
    if (++this.depth > MAX_NESTING) this.fail('Expression exceeds maximum complexity');
  }

  leaveNesting(): void {
    this.depth--;
  }

  /** Parse with another token list (an interpolation inside a back-tick string). */
  withTokens<T>(tokens: readonly Token[], body: () => T): T {
    const saved = this.tokens;
    const savedIndex = this.index;
    this.tokens = tokens;
    this.index = 0;
    try {
      return body();
    } finally {
      this.tokens = saved;
      this.index = savedIndex;
    }
  }

  /** Run `body` inside a new function scope (a `fn` or a closure); loops do not carry over. */
  inFunction<T>(kind: ScopeKind, body: (scope: FnScope) => T): T {
    const savedScope = this.scope;
    const savedLoops = this.loopDepth;
    this.scope = new FnScope(kind, kind === 'fn' ? null : savedScope);
    this.loopDepth = 0;
    try {
      return body(this.scope);
    } finally {
      this.scope = savedScope;
      this.loopDepth = savedLoops;
    }
  }

  inBlock<T>(body: () => T): T {
    this.scope.pushBlock();
    try {
      return body();
    } finally {
      this.scope.popBlock();
    }
  }

  anonName(): string {
    return `anon$${++this.anonCount}`;
  }
}

export function tokenText(t: Token): string {
  switch (t.kind) {
    case 'string':
      return '"' + t.text + '"';
    case 'char':
      return "'" + t.text + "'";
    case 'backtick':
      return '`';
    case 'eof':
      return '<end of script>';
    default:
      return t.text;
  }
}
