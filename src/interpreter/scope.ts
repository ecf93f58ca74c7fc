// Lexical scopes, resolved at compile time. Each function (the top level, a `fn`, or a closure)
// owns a frame; every `let`, parameter, loop variable and catch variable gets a slot in it.
// Blocks push and pop name tables, so a name resolves to the innermost declaration in scope.
//
// Closures capture by reference: resolving a name that lives in an enclosing function marks that
// declaration `boxed` (its slot then holds a shared Cell) and gives the closure a slot of its own
// that receives the cell when the closure is created. `fn` bodies see neither the enclosing
// variables nor the host's globals.

import type { VarDecl } from './ast.js';

export type ScopeKind = 'script' | 'fn' | 'closure';

export type Resolution = VarDecl | 'global' | 'missing';

export class FnScope {
  private readonly blocks: Map<string, VarDecl>[] = [new Map<string, VarDecl>()];
  private readonly capturedByName = new Map<string, VarDecl>();
  /** (declaration in the enclosing frame, slot in this frame), in capture order */
  readonly captures: { readonly source: VarDecl; readonly inner: VarDecl }[] = [];
  private nextSlot = 0;

  constructor(
    readonly kind: ScopeKind,
    readonly parent: FnScope | null,
  ) {}

  get frameSize(): number {
    return this.nextSlot;
  }

  /** whether the host's globals are visible from this function */
  get seesGlobals(): boolean {
    if (this.kind === 'script') return true;
    return this.kind === 'closure' && this.parent !== null && this.parent.seesGlobals;
  }

  /** no block is open inside this function */
  get atTopBlock(): boolean {
    return this.blocks.length === 1;
  }

  pushBlock(): void {
    this.blocks.push(new Map());
  }

  popBlock(): void {
    this.blocks.pop();
  }

  declare(name: string, isConst: boolean): VarDecl {
    const decl: VarDecl = { name, slot: this.nextSlot++, isConst, boxed: false };
    (this.blocks[this.blocks.length - 1] as Map<string, VarDecl>).set(name, decl);
    return decl;
  }

  /** A declaration visible here, without capturing anything. */
  lookupLocal(name: string): VarDecl | undefined {
    for (let i = this.blocks.length - 1; i >= 0; i--) {
      const d = (this.blocks[i] as Map<string, VarDecl>).get(name);
      if (d !== undefined) return d;
    }
    return this.capturedByName.get(name);
  }

  resolve(name: string): Resolution {
    const local = this.lookupLocal(name);
    if (local !== undefined) return local;
    if (this.kind === 'closure' && this.parent !== null) {
      const outer = this.parent.resolve(name);
      if (typeof outer !== 'object') return outer;
      outer.boxed = true;
      const inner: VarDecl = { name, slot: this.nextSlot++, isConst: outer.isConst, boxed: true };
      this.captures.push({ source: outer, inner });
      this.capturedByName.set(name, inner);
      return inner;
    }
    return this.kind === 'script' ? 'global' : 'missing';
  }

  /** Names declared and in scope here (for `is_def_var`). */
  visibleNames(): Set<string> {
    const names = new Set<string>(this.capturedByName.keys());
    for (const block of this.blocks) for (const name of block.keys()) names.add(name);
    if (this.kind === 'closure' && this.parent !== null) for (const n of this.parent.visibleNames()) names.add(n);
    return names;
  }
}
