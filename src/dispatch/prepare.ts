// Readying a workspace's rule sets for dispatch: their compiled rules and the path index over them. Pure; when it
// runs (at start, at a reload, or rule set by rule set after the server listens) is the server's to decide
// (server/decode-later.ts).
import type { RuleSet } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { prepareRuleSet } from '../routing/evaluate.js';
import { prepareRuleSetsLookup } from '../routing/rule-sets-index.js';

export { undecoded } from '../model/lazy-rule-set.js';

/** Build every rule set's compiled rules and path index ahead of the first request (the server's start-up). */
export function prepareWorkspace(ws: Workspace): void {
  for (const rs of ws.ruleSets) prepareRuleSet(rs);
  prepareRuleSetsLookup(ws.ruleSets);
}

/** Decode a rule set the load cache left undecoded (docs/load-cache.md), and compile its rules. */
export function decodeAndPrepare(rs: RuleSet): void {
  void rs.rules; // decodes it
  prepareRuleSet(rs);
}

export { prepareRuleSet };
