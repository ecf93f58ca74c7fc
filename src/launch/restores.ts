// A broken edit undone: the files are back to what is serving, so the live workspace's reload() answers `unchanged`
// (ok) and, by design, sends no reload event (nothing was swapped; the CLI prints nothing). The inspector's banner,
// shown since the rejection, must still clear: this wrapper of the live handle (used by the watcher, the rules
// POST and the library's reload()) notices an ok reload after a rejection and tells `onRestored` listeners.
import type { LiveWorkspaceHandle, ReloadResult } from '../model/reload.js';

export interface RestoreTracking extends LiveWorkspaceHandle {
  /** called with the serving generation when a failing workspace is back to what serves; returns the unsubscribe */
  onRestored(listener: (generation: number) => void): () => void;
}

export function trackRestores(live: LiveWorkspaceHandle): RestoreTracking {
  const listeners = new Set<(generation: number) => void>();
  let failing = false;
  // reload events are sent from inside reload(), before it resolves: an applied one has already cleared `failing`
  live.onReload((e) => (failing = e.kind === 'rejected'));
  return {
    get generation() {
      return live.generation;
    },
    get workspace() {
      return live.workspace;
    },
    watchedFiles: () => live.watchedFiles(),
    onReload: (l) => live.onReload(l),
    onRestored: (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    reload: async (): Promise<ReloadResult> => {
      const r = await live.reload();
      if (failing && r.ok) {
        failing = false;
        for (const l of [...listeners]) l(r.generation);
      }
      return r;
    },
  };
}
