// `GET /__mock/api/workspace` on the management listener: what is serving now — the generation, the rule sets
// (file as `get` names it, prefix, strategy, rule count), the middlewares, the fallback directory — and the last
// reload's outcome (`last_reload {ok, generation, diagnostics}`: the page's banner while an edit is broken). The
// inspector's own live-bridge route has the same shape; this one also clears on an undone broken edit (restores.ts)
// and names files as `get` does.
import { diagnosticToWire } from '../cli/envelope.js';
import { result, type Route, type Wire } from '../inspector/index.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { LiveWorkspaceHandle } from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';

export const WORKSPACE_PATH = '/__mock/api/workspace';

export interface LastReload {
  readonly ok: boolean;
  /** the generation serving when it happened (absent before any reload) */
  readonly generation?: number;
  readonly diagnostics: readonly Diagnostic[];
}

export interface WorkspaceRouteOptions {
  readonly live: LiveWorkspaceHandle;
  readonly last: () => LastReload;
  readonly shownPaths: (ws: Workspace) => { ruleSet(i: number): string; middleware(i: number): string };
}

export function workspaceView(ws: Workspace, generation: number, last: LastReload, shown: WorkspaceRouteOptions['shownPaths']): Wire {
  const names = shown(ws);
  return {
    generation,
    config_file: ws.configFile ?? null,
    rule_sets: ws.ruleSets.map((rs) => ({
      index: rs.index,
      entry: rs.entry,
      /** as `get` names it (matched.rule_set_file) */
      file: names.ruleSet(rs.index),
      path: rs.file,
      prefix: rs.prefix ?? null,
      strategy: rs.strategy.kind,
      rules: rs.rules.length,
    })),
    middlewares: ws.middlewares.map((mw, i) => ({ index: i, entry: mw.entry, file: names.middleware(i), path: mw.file })),
    fallback_dir: ws.fallbackDir,
    last_reload: { ok: last.ok, generation: last.generation ?? generation, diagnostics: last.diagnostics.map(diagnosticToWire) },
  };
}

export function workspaceRoute(o: WorkspaceRouteOptions): Route {
  return {
    method: 'GET',
    path: WORKSPACE_PATH,
    handle: () => result(workspaceView(o.live.workspace, o.live.generation, o.last(), o.shownPaths)),
  };
}
