// The state of one run: the program, the host's globals, the current frame, the operation count
// and clock budget, the call depth. It also serves builtins as their CallContext.

import { fnKey, type Program } from './ast.js';
import { BUILTINS, type CallContext } from './builtins/registry.js';
import { RuntimeFault } from './errors.js';
import { callFnPtr } from './evaluate-call.js';
import { CLOCK_BYTES, CLOCK_INTERVAL, type Limits } from './limits.js';
import type { Meter } from './meter.js';
import type { Ref, Slots } from './refs.js';
import type { FnPtr, Value } from './values.js';

export interface Frame {
  readonly slots: Slots;
  readonly thisRef: Ref | null;
}

export interface Hooks {
  readonly print?: ((text: string) => void) | undefined;
  readonly debug?: ((text: string) => void) | undefined;
  readonly now: () => number;
  /** what `timestamp()` reads */
  readonly clock: () => number;
}

/** `Machine.signal` values: a pending jump set by a `return`/`break`/`continue` statement. */
export const NONE = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;
export type Signal = typeof NONE | typeof BREAK | typeof CONTINUE | typeof RETURN;

export class Machine implements CallContext, Meter {
  /** pending jump (see control-flow.ts); blocks stop and loops/calls consume it */
  signal: Signal = NONE;
  /** value carried by the pending `return`/`break` */
  signalValue: Value = null;
  /** value of the loop that just stopped */
  loopValue: Value = null;
  ops = 0;
  depth = 0;
  frame: Frame;
  /** offset of the builtin call in progress, for errors raised inside it */
  callOffset = 0;
  /** faults being handled by `catch` blocks, innermost last (for a bare `throw;`) */
  readonly caught: RuntimeFault[] = [];
  /** top-level constants for `global::NAME`, made when the first one is stored */
  constants: Map<string, Value> | null = null;
  /** bytes of values made so far (see meter.ts) */
  made = 0;
  private sinceClock = 0;
  private readonly maxOps: number;
  private readonly deadline: number;

  constructor(
    readonly program: Program,
    readonly globals: Map<string, Value>,
    readonly limits: Limits,
    private readonly hooks: Hooks,
  ) {
    this.maxOps = limits.maxOperations;
    this.deadline = Number.isFinite(limits.timeLimitMs) ? hooks.now() + limits.timeLimitMs : Number.POSITIVE_INFINITY;
    this.frame = { slots: new Array<Value>(program.main.frameSize).fill(null), thisRef: null };
  }

  /** Count one operation; stop runaway scripts. */
  tick(offset: number): void {
    if (++this.ops > this.maxOps || (this.ops & (CLOCK_INTERVAL - 1)) === 0) this.checkBudget(offset);
  }

  private checkBudget(offset: number): void {
    if (this.ops > this.maxOps) throw new RuntimeFault('ErrorTooManyOperations', 'Too many operations', offset);
    if (this.deadline !== Number.POSITIVE_INFINITY && this.hooks.now() > this.deadline) {
      const ms = this.limits.timeLimitMs;
      throw new RuntimeFault('ErrorTerminated', `Script terminated: time limit of ${ms} ms exceeded`, offset);
    }
  }

  /** Count bytes a builtin or operator made: the memory budget, and a clock read after enough work. */
  charge(bytes: number): void {
    this.made += bytes;
    if (this.made > this.limits.maxMemoryBytes) {
      const max = this.limits.maxMemoryBytes;
      throw new RuntimeFault('ErrorDataTooLarge', `Script memory budget of ${max} bytes exceeded`, this.callOffset);
    }
    this.sinceClock += bytes;
    if (this.sinceClock >= CLOCK_BYTES) {
      this.sinceClock = 0;
      this.checkBudget(this.callOffset);
    }
  }

  callFn(fp: FnPtr, args: Value[]): Value {
    return callFnPtr(this, fp, args, null, this.callOffset);
  }

  callFnWithThis(fp: FnPtr, self: Ref, args: Value[]): Value {
    return callFnPtr(this, fp, args, self, this.callOffset);
  }

  acceptsArgs(fp: FnPtr, n: number): boolean {
    const total = fp.curry.length + n;
    if (fp.closure !== null) return fp.closure.def.params.length === total;
    if (this.program.functions.has(fnKey(fp.name, total))) return true;
    return BUILTINS.has(fp.name) && !this.program.functions.has(fnKey(fp.name, total + 1));
  }

  hasFunction(name: string, arity: number): boolean {
    return this.program.functions.has(fnKey(name, arity));
  }

  print(text: string): void {
    this.hooks.print?.(text);
  }

  debug(text: string): void {
    this.hooks.debug?.(text);
  }

  setConstant(name: string, v: Value): void {
    (this.constants ??= new Map()).set(name, v);
  }

  clock(): number {
    return this.hooks.clock();
  }
}
