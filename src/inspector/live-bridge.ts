// The live workspace (server/live.ts, through its model/reload.ts handle) on the event stream: each applied or
// rejected reload becomes a `reload` event, `{generation, ok, diagnostics}`, diagnostics in the envelope's wire
// form (file, line, column as `mock validate --format json` gives them). An applied reload's warnings are sent
// too (ok stays true: the page shows a banner only while a reload is failing). Also `GET /__mock/api/workspace`.
// The handle's `onRestored` tells when a broken edit was undone: the live workspace sends no reload event then
// (nothing was swapped), yet the failure is over, so an ok `reload` event is sent for it.
import { diagnosticToWire } from '../model/envelope.js';
import type { LiveWorkspaceHandle, ReloadEvent as LiveReloadEvent } from '../model/reload.js';
import { result } from './envelope.js';
import type { EventHub, ReloadEvent } from './events.js';
import type { Route } from './router.js';

export function reloadEventOf(e: LiveReloadEvent): ReloadEvent {
  return e.kind === 'applied'
    ? { generation: e.generation, ok: true, diagnostics: e.warnings.map(diagnosticToWire) }
    : { generation: e.generation, ok: false, diagnostics: e.diagnostics.map(diagnosticToWire) };
}

/** What the bridge listens to: reloads, and a failing workspace restored. */
export type LiveEvents = Pick<LiveWorkspaceHandle, 'onReload' | 'onRestored'>;

/** The reload events of `live`, restores included, as the stream's `reload` events; returns the unsubscribe. */
function onReloadEvent(live: LiveEvents, listener: (e: ReloadEvent) => void): () => void {
  const offReload = live.onReload((e) => listener(reloadEventOf(e)));
  const offRestored = live.onRestored((generation) => listener({ generation, ok: true, diagnostics: [] }));
  return () => {
    offReload();
    offRestored();
  };
}

/** Publish every reload on the hub; returns the unsubscribe function. */
export function connectLive(live: LiveEvents, events: EventHub): () => void {
  return onReloadEvent(live, (e) => events.reload(e));
}

export const WORKSPACE_PATH = '/__mock/api/workspace';

/**
 * `GET /__mock/api/workspace`: the live generation, its rule sets (index, file as written, absolute path, prefix,
 * strategy, rule count), middlewares, fallback directory and the last reload `{ok, generation, diagnostics}` (ok
 * until a reload is rejected). Subscribes to the live workspace; call `close()` to unsubscribe.
 */
export function workspaceRoute(
  live: LiveEvents & Pick<LiveWorkspaceHandle, 'generation' | 'workspace'>,
): Route & { close(): void } {
  let last: ReloadEvent = { generation: live.generation, ok: true, diagnostics: [] };
  const off = onReloadEvent(live, (e) => (last = e));
  return {
    method: 'GET',
    path: WORKSPACE_PATH,
    close: off,
    handle: () => {
      const ws = live.workspace;
      return result({
        generation: live.generation,
        config_file: ws.configFile ?? null,
        rule_sets: ws.ruleSets.map((rs) => ({
          index: rs.index,
          entry: rs.entry,
          file: rs.file,
          prefix: rs.prefix ?? null,
          strategy: rs.strategy.kind,
          rules: rs.rules.length,
        })),
        middlewares: ws.middlewares.map((m, index) => ({ index, entry: m.entry, file: m.file })),
        fallback_dir: ws.fallbackDir,
        last_reload: { ok: last.ok, generation: last.generation, diagnostics: [...last.diagnostics] },
      });
    },
  };
}
