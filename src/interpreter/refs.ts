// References to assignable places: a variable, a global, `this`, a map property, an element of an
// array or a char of a string. Method calls receive the reference of their receiver so that
// mutating methods (`push`, `trim`, `pad`…) change the variable itself, including strings, which
// are immutable JS values and are written back through `set`.

import type { VarDecl } from './ast.js';
import { Cell, type Value } from './values.js';

export interface Ref {
  get(): Value;
  set(v: Value): void;
  /** the constant this place belongs to: non-pure methods are refused */
  readonly constName: string | null;
}

export type Slots = (Value | Cell)[];

/** Bind a declaration to a new value (a `let`, a parameter): boxed declarations get a new Cell. */
export function bindSlot(slots: Slots, decl: VarDecl, v: Value): void {
  slots[decl.slot] = decl.boxed ? new Cell(v) : v;
}

export function readSlot(slots: Slots, decl: VarDecl): Value {
  const x = slots[decl.slot];
  return decl.boxed ? (x as Cell).value : (x as Value);
}

/** Assign to an existing binding. */
export function writeSlot(slots: Slots, decl: VarDecl, v: Value): void {
  if (decl.boxed) (slots[decl.slot] as Cell).value = v;
  else slots[decl.slot] = v;
}

export class SlotRef implements Ref {
  constructor(
    private readonly slots: Slots,
    private readonly decl: VarDecl,
  ) {}
  get constName(): string | null {
    return this.decl.isConst ? this.decl.name : null;
  }
  get(): Value {
    return readSlot(this.slots, this.decl);
  }
  set(v: Value): void {
    writeSlot(this.slots, this.decl, v);
  }
}

export class MapEntryRef implements Ref {
  constructor(
    private readonly map: Map<string, Value>,
    private readonly key: string,
    readonly constName: string | null = null,
  ) {}
  get(): Value {
    const v = this.map.get(this.key);
    return v === undefined ? null : v;
  }
  set(v: Value): void {
    this.map.set(this.key, v);
  }
}

export class TempRef implements Ref {
  readonly constName = null;
  constructor(private value: Value) {}
  get(): Value {
    return this.value;
  }
  set(v: Value): void {
    this.value = v;
  }
}

/** A reference computed from a parent reference (property, index). */
export class DerivedRef implements Ref {
  constructor(
    private readonly read: () => Value,
    private readonly write: (v: Value) => void,
    readonly constName: string | null,
  ) {}
  get(): Value {
    return this.read();
  }
  set(v: Value): void {
    this.write(v);
  }
}
