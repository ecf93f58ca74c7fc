// Loops. Each iteration counts one operation, so `loop {}` is stopped by the operation budget (or
// the clock). `break value` makes the loop expression evaluate to that value; otherwise `()`.
// `for` iterates over ranges, arrays (copies of the items), strings (chars), with an optional
// counter: `for (item, index) in …`.

import type { Block, Do, For, Loop, While } from './ast.js';
import { RuntimeFault } from './errors.js';
import { evalBool, evalExpr } from './evaluate-expr.js';
import { execBlock } from './evaluate-stmt.js';
import { BREAK, CONTINUE as CONTINUE_SIGNAL, NONE, type Machine } from './machine.js';
import { bindSlot, writeSlot } from './refs.js';
import { BreakSignal, CONTINUE } from './signals.js';
import { RangeValue, charOf, deepClone, toChars, type Value } from './values.js';

/** Run the body once: true when the loop must stop (a `break`, or a `return` passing through). */
function runBody(m: Machine, body: Block): boolean {
  try {
    execBlock(m, body);
  } catch (x) {
    if (x === CONTINUE) return false;
    if (x instanceof BreakSignal) {
      m.loopValue = x.value;
      return true;
    }
    throw x;
  }
  switch (m.signal) {
    case NONE:
      return false;
    case CONTINUE_SIGNAL:
      m.signal = NONE;
      return false;
    case BREAK:
      m.signal = NONE;
      m.loopValue = m.signalValue;
      return true;
    default:
      return true;
  }
}

/** The loop's value once it stops: the `break` value (or () on a `return` passing through). */
function stopped(m: Machine): Value {
  const v = m.loopValue;
  m.loopValue = null;
  return v;
}

export function evalLoop(m: Machine, e: Loop): Value {
  if (e.body.body.length === 0) for (;;) m.tick(e.start);
  for (;;) {
    m.tick(e.start);
    if (runBody(m, e.body)) return stopped(m);
  }
}

export function evalWhile(m: Machine, e: While): Value {
  for (;;) {
    m.tick(e.start);
    if (!evalBool(m, e.cond)) return null;
    if (runBody(m, e.body)) return stopped(m);
  }
}

export function evalDo(m: Machine, e: Do): Value {
  for (;;) {
    m.tick(e.start);
    if (runBody(m, e.body)) return stopped(m);
    if (evalBool(m, e.cond) === e.until) return null;
  }
}

export function evalFor(m: Machine, e: For): Value {
  m.tick(e.start);
  const source = evalExpr(m, e.iterable);
  const slots = m.frame.slots;
  let index = 0;
  const step = (item: Value): boolean => {
    m.tick(e.start);
    if (index === 0) bindSlot(slots, e.item, item);
    else writeSlot(slots, e.item, item);
    if (e.counter !== null) {
      if (index === 0) bindSlot(slots, e.counter, BigInt(index));
      else writeSlot(slots, e.counter, BigInt(index));
    }
    index++;
    return runBody(m, e.body);
  };
  if (source instanceof RangeValue) {
    const { start, end, inclusive } = source;
    const by = source.step;
    for (let i = start; by > 0n ? (inclusive ? i <= end : i < end) : inclusive ? i >= end : i > end; i += by) {
      if (step(i)) return stopped(m);
    }
    return null;
  }
  if (Array.isArray(source)) {
    for (const item of source.slice()) {
      if (step(deepClone(item))) return stopped(m);
    }
    return null;
  }
  if (typeof source === 'string') {
    for (const ch of toChars(source)) {
      if (step(charOf(ch))) return stopped(m);
    }
    return null;
  }
  throw new RuntimeFault('ErrorFor', 'For loop expects iterable type', e.iterable.start);
}
