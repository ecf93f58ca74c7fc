// An import (WireMock, Mockoon, Postman …) whose own output does not load leaves out the rules that do not, each
// named in the summary with the loader's message, instead of refusing the whole source: the plan is checked with
// the loader's decoders, each rule a load error points at (`rules[n]` of a rule set) is dropped, and the rest is
// planned again. Bounded: a round that finds no rule to drop, or the last round, gives the load error as it is.
import type { Failure } from '../../model/errors.js';
import {
  nameUnwritable,
  withoutRules,
  type SourceImport,
  type SourcePlan,
  type SourceRule,
} from '../../import/plan.js';
import { err, ok, type Result } from '../../shared/result.js';

/** the most times an import is planned again after dropping the rules that did not load */
const MAX_ROUNDS = 8;

export async function planLoadable(
  first: SourceImport,
  plan: (imp: SourceImport) => SourcePlan,
  configFor: (plan: SourcePlan) => Result<string, Failure>,
  check: (plan: SourcePlan, config: string) => Promise<Failure | undefined>,
  abs: (path: string) => string,
): Promise<Result<{ imp: SourceImport; plan: SourcePlan; config: string }, Failure>> {
  let imp = nameUnwritable(first);
  for (let round = 0; ; round++) {
    const planned = plan(imp);
    const config = configFor(planned);
    if (!config.ok) return config;
    const failed = await check(planned, config.value);
    if (failed === undefined) return ok({ imp, plan: planned, config: config.value });
    const drop = failingRules(planned, failed, abs);
    if (drop.size === 0 || round === MAX_ROUNDS - 1) return err(failed);
    imp = withoutRules(imp, drop);
  }
}

/** The source rules a load failure's diagnostics point at (`rules[n]` of a planned rule set), with the message. */
function failingRules(planned: SourcePlan, failed: Failure, abs: (path: string) => string): Map<SourceRule, string> {
  const out = new Map<SourceRule, string>();
  const byFile = new Map(planned.ruleSets.map((r, i) => [abs(r.path), planned.written[i] ?? []]));
  for (const d of failed.diagnostics ?? []) {
    const [key, n] = d.keyPath ?? [];
    const rules = d.file === undefined ? undefined : byFile.get(d.file);
    if (key !== 'rules' || typeof n !== 'number' || rules === undefined) continue;
    const rule = rules[n];
    if (rule !== undefined && !out.has(rule)) out.set(rule, d.message);
  }
  return out;
}
