// Control flow that unwinds the evaluator: `break`, `continue`, `return` and `exit`. These are
// thrown as plain objects (no stack capture) and caught by the loop, the function call or `run`.

import type { Value } from './values.js';

export class BreakSignal {
  constructor(readonly value: Value) {}
}

export class ContinueSignal {}

export const CONTINUE = new ContinueSignal();

export class ReturnSignal {
  constructor(readonly value: Value) {}
}

/** A `?.`/`?[` met `()`: the rest of the chain is skipped (caught at the chain's root). */
export class ShortCircuit {}

export const SHORT_CIRCUIT = new ShortCircuit();

export class ExitSignal {
  constructor(readonly value: Value) {}
}
