// The live workspace (server/live.ts, through its model/reload.ts handle) on the event stream: each applied or
// rejected reload becomes a `reload` event, `{generation, ok, diagnostics}`, diagnostics in the envelope's wire
// form (file, line, column as `mock validate --format json` gives them). An applied reload's warnings are sent
// too (ok stays true: the page shows a banner only while a reload is failing).
import { diagnosticToWire } from '../cli/envelope.js';
import type { LiveWorkspaceHandle, ReloadEvent as LiveReloadEvent } from '../model/reload.js';
import type { EventHub, ReloadEvent } from './events.js';

export function reloadEventOf(e: LiveReloadEvent): ReloadEvent {
  return e.kind === 'applied'
    ? { generation: e.generation, ok: true, diagnostics: e.warnings.map(diagnosticToWire) }
    : { generation: e.generation, ok: false, diagnostics: e.diagnostics.map(diagnosticToWire) };
}

/** Publish every reload on the hub; returns the unsubscribe function. */
export function connectLive(live: Pick<LiveWorkspaceHandle, 'onReload'>, events: EventHub): () => void {
  return live.onReload((e) => events.reload(reloadEventOf(e)));
}
