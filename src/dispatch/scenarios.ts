// The scenarios a workspace names (docs/state.md#scenarios), worked out once per loaded workspace: for the
// `state` map scripts read, and for what a live reload keeps.
import { mentions } from '../interpreter/index.js';
import type { Workspace } from '../model/workspace.js';
import { workspaceScenarios } from '../state/scenarios.js';

export { workspaceScenarios };

/** what a scenario name may hold (the same pattern the loader checks: config/shapes/rule-set.ts) */
export const SCENARIO_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

/**
 * Whether a scenario still exists in this workspace (what a live reload keeps): a rule names it, or a script's text
 * does (scripts name scenarios in `state.cart` or `set_state: #{ cart: … }`).
 */
export function namesScenario(ws: Pick<Workspace, 'ruleSets' | 'middlewares'>): (name: string) => boolean {
  const names = workspaceScenarios(ws);
  return (name) => names.has(name) || ws.middlewares.some((mw) => mentions(mw.script, name));
}
