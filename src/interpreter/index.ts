// Public surface of the Rhai interpreter: a standalone library that imports nothing outside this
// folder. It follows Rhai 1.25 (the release apimock-rs 6.x embeds); conformance/ holds the cases of
// that release's test suite as tables, and docs/rhai.md describes the language for users.
//
//   compile(source, fileName) → Script          throws ScriptError (phase 'syntax') with line/column
//   run(script, globals, options) → Completion   never throws for script faults
//   fromJson(json) → Value, toJson(value) → plain JS JSON data
//
// Supported: the whole script language (literals including raw strings `#"…"#` and `""` in strings,
// all operators with Rhai's rules — checked i64, float epsilon comparisons, shifts by ≥ 64 —,
// `if`/`switch`/loops, `x ?? break|continue|return|throw`, functions, closures, function pointers
// including bare function names, `global::NAME` constants, `try`/`catch`, string range indexing),
// timestamps, and the standard packages' functions on numbers, strings, arrays and maps (getters also
// as properties: `n.is_odd`, `t.elapsed`).
//
// Not supported, refused by `compile` with the feature named (unsupported.ts): modules
// (`import`/`export`/`x::`), `eval`, BLOBs, decimal numbers. Custom types need a host to register
// them, so none exist here.
//
// Clocks come in through run(): RunOptions.clock for timestamps (performance.now unless the host or
// a test gives one) and the time limit's; nothing deeper reads a clock, and nothing touches files,
// network or process.

import './builtins/all.js';
import type { Program } from './ast.js';
import { RuntimeFault, ScriptError, SyntaxFault, runtimeError, syntaxError } from './errors.js';
import { execBlock } from './evaluate-stmt.js';
import { hostDebug, toDisplay } from './format.js';
import { DEFAULT_LIMITS, type Limits } from './limits.js';
import { useMeter } from './meter.js';
import { Machine, RETURN } from './machine.js';
import { parseProgram } from './parser.js';
import { ExitSignal, ReturnSignal } from './signals.js';
import { deepClone, typeName, type Value } from './values.js';

export { ScriptError } from './errors.js';
export type { FaultKind } from './errors.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { Limits } from './limits.js';
export { fromJson, toJson, type Json } from './json.js';
export { Char, FnPtr, RangeValue, UNIT, type RMap, type Value } from './values.js';

export interface Script {
  readonly fileName: string;
}

class CompiledScript implements Script {
  constructor(
    readonly fileName: string,
    readonly program: Program,
  ) {}
}

export interface RunOptions {
  readonly maxOperations?: number;
  readonly maxCallDepth?: number;
  readonly maxStringLength?: number;
  readonly maxArrayLength?: number;
  readonly maxMapSize?: number;
  /** wall-clock budget in milliseconds, checked alongside the operation count */
  readonly timeLimitMs?: number;
  /** bytes of values the run may make (approximate: what builtins and operators allocate); over it the run fails */
  readonly maxMemoryBytes?: number;
  readonly print?: (text: string) => void;
  readonly debug?: (text: string) => void;
  /** the monotonic clock `timestamp()` reads, in milliseconds; defaults to `performance.now` */
  readonly clock?: () => number;
}

export type Completion =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly error: ScriptError };

export function compile(source: string, fileName: string): Script {
  try {
    return new CompiledScript(fileName, parseProgram(source, fileName));
  } catch (x) {
    if (x instanceof SyntaxFault) throw syntaxError(source, fileName, x);
    if (x instanceof RangeError)
      throw new ScriptError('syntax', 'Expression exceeds maximum complexity', fileName, 1, 1);
    throw x;
  }
}

function limitsFrom(options: RunOptions): Limits {
  return {
    maxOperations: options.maxOperations ?? DEFAULT_LIMITS.maxOperations,
    maxCallDepth: options.maxCallDepth ?? DEFAULT_LIMITS.maxCallDepth,
    maxStringLength: options.maxStringLength ?? DEFAULT_LIMITS.maxStringLength,
    maxArrayLength: options.maxArrayLength ?? DEFAULT_LIMITS.maxArrayLength,
    maxMapSize: options.maxMapSize ?? DEFAULT_LIMITS.maxMapSize,
    timeLimitMs: options.timeLimitMs ?? DEFAULT_LIMITS.timeLimitMs,
    maxMemoryBytes: options.maxMemoryBytes ?? DEFAULT_LIMITS.maxMemoryBytes,
  };
}

/** the clock of the time limit, read only when a script runs (Node.js loads `performance` on first use) */
const now = (): number => performance.now();

/**
 * Run a compiled script. `globals` become variables of the top level (arrays and maps are copied,
 * so the caller's values are never changed). The completion value is what the script returned:
 * the value of a top-level `return`, of `exit(value)`, or of its last statement.
 */
export function run(script: Script, globals: Readonly<Record<string, Value>>, options: RunOptions = {}): Completion {
  if (!(script instanceof CompiledScript)) throw new TypeError('run() expects a Script made by compile()');
  const program = script.program;
  const scope = new Map<string, Value>();
  for (const [k, v] of Object.entries(globals)) if (v !== undefined) scope.set(k, deepClone(v));
  const m = new Machine(program, scope, limitsFrom(options), {
    print: options.print,
    debug: options.debug,
    now,
    clock: options.clock ?? now,
  });
  const outer = useMeter(m);
  try {
    const value = execBlock(m, program.main.body);
    return { ok: true, value: m.signal === RETURN ? m.signalValue : value };
  } catch (x) {
    if (x instanceof ReturnSignal || x instanceof ExitSignal) return { ok: true, value: x.value };
    if (x instanceof RuntimeFault) return { ok: false, error: runtimeError(program.source, program.fileName, x) };
    const offset = m.callOffset;
    const message = x instanceof RangeError ? 'Stack overflow' : `Internal error: ${String(x)}`;
    const fault = new RuntimeFault(x instanceof RangeError ? 'ErrorStackOverflow' : 'ErrorRuntime', message, offset);
    return { ok: false, error: runtimeError(program.source, program.fileName, fault) };
  } finally {
    useMeter(outer);
  }
}

const MENTIONS = new WeakMap<Script, Map<string, boolean>>();

/**
 * Whether the script's text names `name` as a whole word anywhere (code, strings or comments): a host can leave out
 * a variable no script could read. Remembered per script and name.
 */
export function mentions(script: Script, name: string): boolean {
  if (!(script instanceof CompiledScript)) throw new TypeError('mentions() expects a Script made by compile()');
  let known = MENTIONS.get(script);
  if (known === undefined) MENTIONS.set(script, (known = new Map<string, boolean>()));
  let hit = known.get(name);
  if (hit === undefined) {
    hit = new RegExp(`(?<![A-Za-z0-9_])${name.replace(/[^A-Za-z0-9_]/g, '\\$&')}(?![A-Za-z0-9_])`).test(
      script.program.source,
    );
    known.set(name, hit);
  }
  return hit;
}

/** Whether a value is Rhai's unit `()` (a script that returns nothing). */
export function isUnit(v: Value): v is null {
  return v === null;
}

/** Rhai's `to_string` of a value. */
export function valueToString(v: Value): string {
  return toDisplay(v);
}

/** Rhai's `to_debug` of a value. */
export function valueToDebug(v: Value): string {
  return hostDebug(v);
}

/** Rhai's `type_of` of a value. */
export function typeOf(v: Value): string {
  return typeName(v);
}
