// Errors. Internally the lexer, parser and evaluator throw small fault objects that carry a source
// offset; the public surface converts them into one ScriptError with file, line and column.
// Wording follows Rhai (`Variable not found: x`, `Too many operations`, `Division by zero: 1 / 0`).

import type { Value } from './values.js';

/** Rhai's error variant names; they appear as `error` in the map a `catch (err)` receives. */
export type FaultKind =
  | 'ErrorRuntime'
  | 'ErrorVariableNotFound'
  | 'ErrorFunctionNotFound'
  | 'ErrorArithmetic'
  | 'ErrorMismatchDataType'
  | 'ErrorMismatchOutputType'
  | 'ErrorIndexingType'
  | 'ErrorArrayBounds'
  | 'ErrorStringBounds'
  | 'ErrorBitFieldBounds'
  | 'ErrorDotExpr'
  | 'ErrorFor'
  | 'ErrorUnboundThis'
  | 'ErrorAssignmentToConstant'
  | 'ErrorNonPureMethodCallOnConstant'
  | 'ErrorTooManyOperations'
  | 'ErrorStackOverflow'
  | 'ErrorDataTooLarge'
  | 'ErrorTerminated';

const UNCATCHABLE: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'ErrorTooManyOperations',
  'ErrorStackOverflow',
  'ErrorDataTooLarge',
  'ErrorTerminated',
]);

/** A runtime error on its way out of the evaluator. Not an Error subclass: no stack is captured. */
export class RuntimeFault {
  /** names of the script functions the error passed through, innermost first ('' for closures) */
  readonly calls: string[] = [];
  constructor(
    readonly kind: FaultKind,
    readonly message: string,
    public offset: number,
    /** the value of a `throw` */
    readonly thrown: Value = null,
    /** extra fields for the catch map (`variable`, `function`, `index`…) */
    readonly fields: readonly (readonly [string, Value])[] = [],
  ) {}

  get catchable(): boolean {
    return !UNCATCHABLE.has(this.kind);
  }
}

export class SyntaxFault {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

export function fault(kind: FaultKind, message: string, offset: number): RuntimeFault {
  return new RuntimeFault(kind, message, offset);
}

/** The one error type the host sees. */
export class ScriptError extends Error {
  constructor(
    readonly phase: 'syntax' | 'runtime',
    message: string,
    readonly file: string,
    /** 1-based */
    readonly line: number,
    /** 1-based, counted in characters */
    readonly column: number,
    /** Rhai's error variant (`ErrorRuntime` for `throw`), runtime errors only */
    readonly kind?: FaultKind,
    /** the thrown value, for `throw` */
    readonly thrown?: Value,
  ) {
    super(message);
    this.name = 'ScriptError';
  }

  /** `message (file:line:column)` */
  describe(): string {
    return `${this.message} (${this.file}:${this.line}:${this.column})`;
  }
}

export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

/** 1-based line and column (in characters, like Rhai's `position`) of a source offset. */
export function lineColumn(src: string, offset: number): LineColumn {
  const end = Math.min(Math.max(offset, 0), src.length);
  let line = 1;
  let column = 1;
  for (let i = 0; i < end; i++) {
    const c = src.charCodeAt(i);
    if (c === 10) {
      line++;
      column = 1;
    } else if (c < 0xdc00 || c > 0xdfff) {
      column++;
    }
  }
  return { line, column };
}

/**
 * " in call to function 'f'" for each script function the error passed through, innermost first;
 * runs of the same function (recursion) are shown once, and at most four entries are kept.
 */
export function callContext(calls: readonly string[]): string {
  const names: string[] = [];
  for (const name of calls) if (names[names.length - 1] !== name) names.push(name);
  const shown = names.slice(0, 4).map((n) => (n === '' ? ' in closure call' : ` in call to function '${n}'`));
  return shown.join('') + (names.length > 4 ? ' …' : '');
}

export function syntaxError(src: string, file: string, f: SyntaxFault): ScriptError {
  const { line, column } = lineColumn(src, f.offset);
  return new ScriptError('syntax', f.message, file, line, column);
}

export function runtimeError(src: string, file: string, f: RuntimeFault): ScriptError {
  const { line, column } = lineColumn(src, f.offset);
  const message = f.message + callContext(f.calls);
  return new ScriptError(
    'runtime',
    message,
    file,
    line,
    column,
    f.kind,
    f.kind === 'ErrorRuntime' ? f.thrown : undefined,
  );
}
