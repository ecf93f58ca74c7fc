// The conformance tables: cases from the Rhai engine's own test suite (`tests/*.rs` of
// rhaiscript/rhai), one row per case, source → what the script gives. They follow RHAI_RELEASE.
// A Rust assertion on a value becomes a script that returns it (`assert!(x < 10.0)` → `x < 10.0`
// → `true`); cases that need a host (registered functions, custom types, typed `eval::<T>`
// errors) are left out. Expectations use the notation of ../fixtures/harness.ts.

import type { Case } from '../fixtures/harness.js';
import type { Value } from '../values.js';

/** The Rhai release these tables follow (the one apimock-rs 6.x embeds). */
export const RHAI_RELEASE = '1.25.0';

export interface ConformanceTable {
  /** the Rhai test file the rows come from, at tag v1.25.0 */
  readonly from: string;
  readonly rows: readonly Case[];
  /** the variables a test pushes into its Scope (`eval_with_scope`), given to the script as globals */
  readonly globals?: Readonly<Record<string, Value>>;
}
