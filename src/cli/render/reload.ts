// What `mock` prints about a live workspace (docs/live-reload.md): the watch line before `Listening on`, one line
// per applied reload (stdout), the rejection header and every diagnostic in `mock validate`'s form (stderr), and
// a line per [listener] key that needs a restart (stdout). Pure: events in, text out.
import { ruleCount } from '../../start-up/lazy-rule-set.js';
import { formatDiagnostic } from '../../model/diagnostic.js';
import type { ListenerChange, ReloadEvent } from '../../model/reload.js';

export const RELOAD_MESSAGES = {
  watching: (files: number) => `Watching ${files} file${files === 1 ? '' : 's'} for changes (--no-watch to turn off)`,
  reloaded: (generation: number, changed: string, rules: number, ruleSets: number, ms: number) =>
    `reloaded generation ${generation} after change to ${changed} (${rules} rule${rules === 1 ? '' : 's'} across ${ruleSets} rule set${ruleSets === 1 ? '' : 's'}, ${ms} ms)`,
  rejected: (generation: number) => `reload rejected; generation ${generation} keeps serving`,
  restored: (files: readonly string[], generation: number) =>
    `fixed: ${files.length === 0 ? 'the workspace' : files.join(', ')} load${files.length === 1 ? 's' : ''} again; generation ${generation} still serving`,
  listenerChanged: (c: ListenerChange, listening: string) =>
    `${c.key} changed ${c.from} → ${c.to}: restart mock to apply; still listening on ${listening}`,
  watchFailed: (dir: string, code: string) =>
    `mock: cannot watch ${dir} for changes (${code}); edits to files there need a restart`,
} as const;

/** at most this many changed files are named; the rest are counted */
const NAMED_CHANGES = 3;

export interface ReloadText {
  /** lines for stdout, without the final newline each */
  readonly out: readonly string[];
  /** text for stderr, each line ending in a newline */
  readonly err: string;
}

/**
 * `show` turns an absolute path into what the user recognises (relative to the current directory);
 * `listening` is every bound address, e.g. `http://127.0.0.1:3001`, joined by ", ".
 */
export function reloadText(event: ReloadEvent, show: (abs: string) => string, listening: string): ReloadText {
  const diagnostic = (d: Parameters<typeof formatDiagnostic>[0]): string => formatDiagnostic(d, show) + '\n';
  if (event.kind === 'rejected') {
    return {
      out: [],
      err: RELOAD_MESSAGES.rejected(event.generation) + '\n' + event.diagnostics.map(diagnostic).join(''),
    };
  }
  const ws = event.workspace;
  const rules = ws.ruleSets.reduce((n, rs) => n + ruleCount(rs), 0);
  const out = [
    RELOAD_MESSAGES.reloaded(event.generation, changedText(event.changed, show), rules, ws.ruleSets.length, event.ms),
  ];
  for (const c of event.listenerChanges) out.push(RELOAD_MESSAGES.listenerChanged(c, listening));
  return { out, err: event.warnings.map(diagnostic).join('') };
}

function changedText(changed: readonly string[], show: (abs: string) => string): string {
  const named = changed.slice(0, NAMED_CHANGES).map(show).join(', ');
  const more = changed.length - NAMED_CHANGES;
  return more > 0 ? `${named} and ${more} more` : named;
}
