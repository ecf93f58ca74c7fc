// Readying a workspace's rule sets for dispatch: their compiled rules and the path index over them. Pure; when it
// runs (at start, at a reload, or rule set by rule set after the server listens) is the server's to decide
// (start-up/decode-later.ts).
import type { Workspace } from '../model/workspace.js';
import { prepareRuleSet } from '../routing/evaluate.js';
import { prepareRuleSetsLookup } from '../routing/rule-sets-index.js';

export { undecoded } from '../start-up/lazy-rule-set.js';

/** Build every rule set's compiled rules and path index ahead of the first request (the server's start-up). */
export function prepareWorkspace(ws: Workspace): void {
  for (const rs of ws.ruleSets) prepareRuleSet(rs);
  prepareRuleSetsLookup(ws.ruleSets);
}

export { prepareRuleSet };
