// The builtin function table, grouped by domain in the sibling files (like Rhai's `packages`).
// A builtin is found by name, then by the type of its first argument (the receiver in method-call
// style): `len` on a string and `len` on an array are different entries. Argument helpers throw
// MISMATCH when a type or arity does not fit; the dispatcher turns that into Rhai's
// "Function not found: name (types)".

import { RuntimeFault, type FaultKind } from '../errors.js';
import { textLongerThan } from '../format.js';
import type { Limits } from '../limits.js';
import { charge, SLOT_BYTES } from '../meter.js';
import type { Ref } from '../refs.js';
import { Char, FnPtr, RangeValue, charLength, type RMap, type TypeTag, type Value } from '../values.js';

/** What a builtin may ask of the running script. */
export interface CallContext {
  readonly limits: Limits;
  /** call a function pointer (closure, script function or builtin) */
  callFn(fp: FnPtr, args: Value[]): Value;
  /** call a function pointer with `this` bound to the given place */
  callFnWithThis(fp: FnPtr, self: Ref, args: Value[]): Value;
  /** whether calling the pointer with `n` more arguments reaches a function */
  acceptsArgs(fp: FnPtr, n: number): boolean;
  hasFunction(name: string, arity: number): boolean;
  print(text: string): void;
  debug(text: string): void;
  /** the run's monotonic clock, in milliseconds */
  clock(): number;
}

export type Builtin = (ctx: CallContext, args: Value[], self: Ref | null) => Value;
export type DispatchKey = TypeTag | 'any' | 'none';
export type Handlers = Partial<Record<DispatchKey, Builtin>>;

class Mismatch {}
export const MISMATCH = new Mismatch();

export const BUILTINS = new Map<string, Handlers>();
const NON_PURE = new Set<string>();
const NON_PURE_NAMES = new Set<string>();

/** Register `fn` as `name` for receivers of the given types. `nonPure`: it mutates its receiver. */
export function define(name: string, keys: DispatchKey | readonly DispatchKey[], fn: Builtin, nonPure = false): void {
  let handlers = BUILTINS.get(name);
  if (handlers === undefined) {
    handlers = {};
    BUILTINS.set(name, handlers);
  }
  for (const key of typeof keys === 'string' ? [keys] : keys) {
    handlers[key] = fn;
    if (nonPure) NON_PURE.add(key + ':' + name);
  }
  if (nonPure) NON_PURE_NAMES.add(name);
}

/**
 * Builtins that Rhai also registers as property getters (`n.is_odd`, `x.floor`, `t.elapsed`): a
 * property of that name on a non-map value calls the builtin with the value alone.
 */
export const GETTERS: ReadonlySet<string> = new Set([
  'is_odd',
  'is_even',
  'is_zero',
  'is_nan',
  'is_finite',
  'is_infinite',
  'floor',
  'ceiling',
  'round',
  'int',
  'fraction',
  'elapsed',
  'bits',
  'chars',
]);

/** Whether some builtin of this name mutates its first argument (which is then passed by reference). */
export function mayMutate(name: string): boolean {
  return NON_PURE_NAMES.has(name);
}

export function isNonPure(name: string, key: DispatchKey): boolean {
  return NON_PURE.has(key + ':' + name);
}

export function mismatch(): never {
  throw MISMATCH;
}

/** An error raised inside a builtin; the dispatcher fills in the call's position. */
export function fail(kind: FaultKind, message: string): never {
  throw new RuntimeFault(kind, message, -1);
}

export function arity(args: readonly Value[], ...allowed: number[]): number {
  if (!allowed.includes(args.length)) mismatch();
  return args.length;
}

export function asInt(v: Value | undefined): bigint {
  return typeof v === 'bigint' ? v : mismatch();
}

export function asNumber(v: Value | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return mismatch();
}

export function asFloat(v: Value | undefined): number {
  return typeof v === 'number' ? v : mismatch();
}

export function asString(v: Value | undefined): string {
  return typeof v === 'string' ? v : mismatch();
}

/** A string, or a char as a one-character string. */
export function asText(v: Value | undefined): string {
  if (typeof v === 'string') return v;
  if (v instanceof Char) return v.ch;
  return mismatch();
}

export function asChar(v: Value | undefined): Char {
  return v instanceof Char ? v : mismatch();
}

export function asBool(v: Value | undefined): boolean {
  return typeof v === 'boolean' ? v : mismatch();
}

export function asArray(v: Value | undefined): Value[] {
  return Array.isArray(v) ? v : mismatch();
}

export function asMap(v: Value | undefined): RMap {
  return v instanceof Map ? v : mismatch();
}

export function asFn(v: Value | undefined): FnPtr {
  return v instanceof FnPtr ? v : mismatch();
}

export function asRange(v: Value | undefined): RangeValue {
  return v instanceof RangeValue ? v : mismatch();
}

/** Refuse a string over the length limit; `made`: the bytes of it that are new (default: all of it). */
export function checkString(ctx: CallContext, s: string, made = s.length): string {
  const max = ctx.limits.maxStringLength;
  if (s.length > max && charLength(s) > max) fail('ErrorDataTooLarge', 'Length of string too large');
  charge(made);
  return s;
}

/** Refuse, before it is built, a text form of `v` that would be far over the string length limit. */
export function checkTextOf(ctx: CallContext, v: Value): void {
  if (textLongerThan(v, 2 * ctx.limits.maxStringLength)) fail('ErrorDataTooLarge', 'Length of string too large');
}

export function checkArray(ctx: CallContext, a: Value[], added = 1): Value[] {
  charge(added * SLOT_BYTES);
  if (a.length > ctx.limits.maxArrayLength) fail('ErrorDataTooLarge', 'Size of array too large');
  return a;
}

export function checkMap(ctx: CallContext, m: RMap, added = 1): RMap {
  charge(added * 2 * SLOT_BYTES);
  if (m.size > ctx.limits.maxMapSize) fail('ErrorDataTooLarge', 'Size of object map too large');
  return m;
}

/** Write a new receiver value back (strings and chars are immutable JS values). */
export function writeBack(self: Ref | null, v: Value): void {
  if (self !== null) self.set(v);
}

/**
 * Rhai's position arithmetic for (start, length) arguments: a negative start counts from the end,
 * and the result is clamped to the sequence.
 */
export function offsetLen(len: number, start: bigint, count: bigint): [number, number] {
  let s: number;
  if (start < 0n) {
    const abs = -start;
    s = abs > BigInt(len) ? 0 : len - Number(abs);
  } else {
    s = start > BigInt(len) ? len : Number(start);
  }
  const c = count <= 0n ? 0 : count > BigInt(len - s) ? len - s : Number(count);
  return [s, c];
}
