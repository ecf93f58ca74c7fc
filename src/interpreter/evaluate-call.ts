// Function calls. A plain call `f(a, b)` tries, in order: the script function `f` with two
// parameters, a builtin `f` (dispatched on the first argument's type, which is passed by reference
// when it is a variable, as Rhai does), a variable `f` holding a function pointer. A method call
// `x.f(a)` tries the script function `f` with `this` bound to `x`, then the builtin `f(x, a)`,
// then a function pointer stored in the map property `x.f` (called with `this` = `x`).
//
// Script functions get a fresh frame: they see their parameters and nothing of the caller.

import { fnKey, type Call, type Expr, type FnDef, type MethodCall } from './ast.js';
import { BUILTINS, MISMATCH, isNonPure, mayMutate, type Handlers } from './builtins/registry.js';
import { RuntimeFault } from './errors.js';
import { atChainRoot, isPlace, refOf, shortCircuit } from './evaluate-access.js';
import { evalExpr, own } from './evaluate-expr.js';
import { execBlock } from './evaluate-stmt.js';
import { NONE, RETURN, type Machine } from './machine.js';
import { notFound } from './operators.js';
import { TempRef, bindSlot, readSlot, type Ref } from './refs.js';
import { ReturnSignal } from './signals.js';
import { FnPtr, deepClone, tagOf, type Cell, type Value } from './values.js';

class NoMatch {}
const NO_MATCH = new NoMatch();

function evalArgs(m: Machine, args: readonly Expr[], from = 0): Value[] {
  const out: Value[] = new Array<Value>(args.length - from);
  for (let i = from; i < args.length; i++) out[i - from] = evalExpr(m, args[i] as Expr);
  return out;
}

function ownArgs(args: readonly Expr[], values: Value[]): Value[] {
  for (let i = 0; i < values.length; i++) values[i] = own(args[i] as Expr, values[i] as Value);
  return values;
}

export function evalCall(m: Machine, e: Call): Value {
  m.tick(e.start);
  if (e.fn !== null) return callScript(m, e.fn, ownArgs(e.args, evalArgs(m, e.args)), null, null, e.start);
  const handlers = BUILTINS.get(e.name);
  let self: Ref | null = null;
  let args: Value[];
  const first = e.args[0];
  if (handlers !== undefined && first !== undefined && isPlace(first) && mayMutate(e.name)) {
    self = refOf(m, first);
    args = evalArgs(m, e.args, 1);
    args.unshift(self.get());
  } else {
    args = evalArgs(m, e.args);
  }
  if (handlers !== undefined) {
    const r = dispatch(m, e.name, handlers, args, self, e.start);
    if (r !== NO_MATCH) return r as Value;
  }
  if (e.fnVar !== null) {
    const f = readSlot(m.frame.slots, e.fnVar);
    if (f instanceof FnPtr) return callFnPtr(m, f, ownArgs(e.args, args.slice()), null, e.start);
  }
  throw notFound(e.name, args, e.start);
}

export function evalMethodCall(m: Machine, e: MethodCall): Value {
  return e.chainRoot ? atChainRoot(m, e, methodCall) : methodCall(m, e);
}

function methodCall(m: Machine, e: MethodCall): Value {
  m.tick(e.start);
  const ref = isPlace(e.target) ? refOf(m, e.target) : null;
  const recv = ref !== null ? ref.get() : evalExpr(m, e.target);
  if (recv === null && e.safe) return shortCircuit(e);
  const args = evalArgs(m, e.args);
  const offset = e.nameStart;
  if (e.name === 'call' && !(recv instanceof FnPtr) && args[0] instanceof FnPtr) {
    const fp = args[0];
    return callFnPtr(m, fp, ownArgs(e.args.slice(1), args.slice(1)), ref ?? new TempRef(recv), offset);
  }
  const def = m.program.functions.get(fnKey(e.name, args.length));
  if (def !== undefined) return callScript(m, def, ownArgs(e.args, args), ref ?? new TempRef(recv), null, offset);
  const all = [recv, ...args];
  const handlers = BUILTINS.get(e.name);
  if (handlers !== undefined) {
    const r = dispatch(m, e.name, handlers, all, ref, offset);
    if (r !== NO_MATCH) return r as Value;
  }
  const def2 = m.program.functions.get(fnKey(e.name, args.length + 1));
  if (def2 !== undefined) return callScript(m, def2, [deepClone(recv), ...ownArgs(e.args, args)], null, null, offset);
  if (recv instanceof Map) {
    const f = recv.get(e.name);
    if (f instanceof FnPtr) return callFnPtr(m, f, ownArgs(e.args, args), ref ?? new TempRef(recv), offset);
  }
  throw notFound(e.name, all, offset);
}

function dispatch(
  m: Machine,
  name: string,
  handlers: Handlers,
  args: Value[],
  self: Ref | null,
  offset: number,
): Value | NoMatch {
  const key = args.length === 0 ? 'none' : tagOf(args[0] as Value);
  const fn = handlers[key] ?? handlers.any;
  if (fn === undefined) return NO_MATCH;
  if (self !== null && self.constName !== null && isNonPure(name, handlers[key] !== undefined ? key : 'any')) {
    throw new RuntimeFault(
      'ErrorNonPureMethodCallOnConstant',
      `Non-pure method '${name}' cannot be called on constant`,
      offset,
      null,
      [['function', name]],
    );
  }
  const saved = m.callOffset;
  m.callOffset = offset;
  try {
    return fn(m, args, self);
  } catch (x) {
    if (x === MISMATCH) return NO_MATCH;
    if (x instanceof RuntimeFault && x.offset < 0) x.offset = offset;
    throw x;
  } finally {
    m.callOffset = saved;
  }
}

/** Call a function pointer: a closure, a script function or a builtin, with curried arguments first. */
export function callFnPtr(m: Machine, fp: FnPtr, args: Value[], thisRef: Ref | null, offset: number): Value {
  const all = fp.curry.length === 0 ? args : [...fp.curry.map(deepClone), ...args];
  if (fp.closure !== null) {
    const def = fp.closure.def;
    if (def.params.length !== all.length) throw notFound(fp.name, all, offset);
    return callScript(m, def, all, thisRef, fp.closure.captures, offset);
  }
  const def = m.program.functions.get(fnKey(fp.name, all.length));
  if (def !== undefined) return callScript(m, def, all, thisRef, null, offset);
  const handlers = BUILTINS.get(fp.name);
  if (handlers !== undefined) {
    const withThis = thisRef !== null ? [thisRef.get(), ...all] : all;
    const r = dispatch(m, fp.name, handlers, withThis, thisRef, offset);
    if (r !== NO_MATCH) return r as Value;
  }
  throw notFound(fp.name, all, offset);
}

export function callScript(
  m: Machine,
  def: FnDef,
  args: readonly Value[],
  thisRef: Ref | null,
  captures: readonly Cell[] | null,
  offset: number,
): Value {
  if (m.depth >= m.limits.maxCallDepth) throw new RuntimeFault('ErrorStackOverflow', 'Stack overflow', offset);
  const slots = new Array<Value | Cell>(def.frameSize).fill(null);
  def.params.forEach((param, i) => bindSlot(slots, param, args[i] as Value));
  if (captures !== null) def.captureSlots.forEach((decl, i) => (slots[decl.slot] = captures[i] as Cell));
  const saved = m.frame;
  m.frame = { slots, thisRef };
  m.depth++;
  try {
    const v = execBlock(m, def.body);
    if (m.signal === RETURN) {
      m.signal = NONE;
      return m.signalValue;
    }
    return v;
  } catch (x) {
    if (x instanceof ReturnSignal) return x.value;
    if (x instanceof RuntimeFault) x.calls.push(def.isClosure ? '' : def.name);
    throw x;
  } finally {
    m.frame = saved;
    m.depth--;
  }
}
