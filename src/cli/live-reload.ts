// The CLI side of a live workspace: start the watcher on the server's LiveWorkspace and print every reload
// (render/reload.ts) — applied lines through the request log (stdout, in order with it), rejections and warnings
// on stderr with files shown relative to the current directory. serve.ts calls this one function.
import type { LiveWorkspaceHandle } from '../model/reload.js';
import type { WorkspaceWatcher } from '../workspace/watch.js';
import type { Io } from './io.js';
import { fileDisplay } from '../workspace/shown-paths.js';
import { RELOAD_MESSAGES, reloadText } from './render/reload.js';
import { listeningUrl, type Listening } from './render/startup.js';

/** A watcher for the live workspace's files, with printing wired; start() it once the startup lines are out. */
export async function watchLive(
  live: LiveWorkspaceHandle,
  listening: readonly Listening[],
  io: Io,
  log: (line: string) => void,
  unchangedSinceLoad: () => Promise<boolean>,
): Promise<WorkspaceWatcher> {
  const { WorkspaceWatcher } = await import('../workspace/watch.js');
  const show = (abs: string): string => fileDisplay(io.cwd, abs);
  printReloads(live, listening, io, log);
  const watcher = new WorkspaceWatcher(live, {
    onWatchFailed: (dir, code) => io.err(RELOAD_MESSAGES.watchFailed(show(dir), code) + '\n'),
    onReloadError: (e) => io.err(`mock: reload failed: ${e instanceof Error ? e.message : String(e)}\n`),
    unchangedSinceLoad,
  });
  return watcher;
}

/** Print every reload of the live workspace: applied lines through the request log, the rest on stderr. */
export function printReloads(
  live: LiveWorkspaceHandle & { onRestored?(listener: (generation: number) => void): () => void },
  listening: readonly Listening[],
  io: Io,
  log: (line: string) => void,
): void {
  const show = (abs: string): string => fileDisplay(io.cwd, abs);
  const addresses = listening.map(listeningUrl).join(', ');
  let broken: readonly string[] = [];
  live.onReload((event) => {
    broken = event.kind === 'rejected' ? event.changed : [];
    const text = reloadText(event, show, addresses);
    for (const line of text.out) log(line);
    if (text.err !== '') io.err(text.err);
  });
  // a broken edit undone swaps nothing (no reload event); one line says so, so the last line is never a stale error
  live.onRestored?.((generation) => {
    log(RELOAD_MESSAGES.restored(broken.map(show), generation));
    broken = [];
  });
}

/** The watcher's failure lines, on stderr. */
export function watchFailureLines(io: Io): {
  onWatchFailed: (dir: string, code: string) => void;
  onReloadError: (e: unknown) => void;
} {
  return {
    onWatchFailed: (dir, code) => io.err(RELOAD_MESSAGES.watchFailed(fileDisplay(io.cwd, dir), code) + '\n'),
    onReloadError: (e) => io.err(`mock: reload failed: ${e instanceof Error ? e.message : String(e)}\n`),
  };
}
