// `GET` / `PUT /__mock/api/state` (docs/state.md#reset-and-visibility): the running server's scenarios and collection
// sizes, and setting scenarios, under the management listener's security checks (a PUT is state-changing: it
// needs the client header and a same-origin or absent Origin, like every POST and DELETE here).
//
//   GET → {scenarios: {<name>: <state>}, collections: {<path>: <items>}}
//   PUT {scenarios: {<name>: <state>}} → the same as GET, after the move (a state of "started" restarts one)
import type { LiveWorkspaceHandle } from '../model/reload.js';
import {
  collectionSizes,
  currentScenarios,
  scenarioStatesProblem,
  setScenarios,
  workspaceScenarios,
} from '../state/scenarios.js';
import type { StateStore } from '../state/store.js';
import { failure, result, type JsonAnswer } from './envelope.js';
import type { Route } from './router.js';

export const STATE_PATH = '/__mock/api/state';

export const STATE_MESSAGES = {
  body: 'the state body must be a JSON object such as {"scenarios": {"cart": "paid"}}',
} as const;

/** The two routes over the server's store; the scenario names come from the workspace serving now. */
export function stateRoutes(store: StateStore, live: Pick<LiveWorkspaceHandle, 'workspace'>): Route[] {
  const view = (): JsonAnswer =>
    result({
      scenarios: currentScenarios(store, workspaceScenarios(live.workspace)),
      collections: collectionSizes(store),
    });
  return [
    { method: 'GET', path: STATE_PATH, handle: view },
    {
      method: 'PUT',
      path: STATE_PATH,
      handle: async (ctx) => {
        const body = await ctx.body();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          return failure('usage', STATE_MESSAGES.body);
        const o = body as Record<string, unknown>;
        if (Object.keys(o).some((k) => k !== 'scenarios')) return failure('usage', STATE_MESSAGES.body);
        const scenarios = o['scenarios'] ?? {};
        const problem = scenarioStatesProblem(scenarios);
        if (problem !== undefined) return failure('usage', `${STATE_MESSAGES.body}: ${problem}`);
        setScenarios(store, scenarios as Record<string, string>);
        return view();
      },
    },
  ];
}
