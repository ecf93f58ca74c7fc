// The startup lines of `mock` / `mock serve` (docs/output.md#start-up-lines): one `@ rule_set #<n> (<path>)` per loaded
// rule-set file, then one `Listening on <scheme>://<ip>:<port> ...` per listener. The few lines
// before them only say where things come from; when the workspace is watched, the watch line comes just before
// the Listening lines, which stay last.
import type { Workspace } from '../../model/workspace.js';
import { RELOAD_MESSAGES } from './reload.js';

export interface Listening {
  readonly scheme: 'http' | 'https';
  readonly ip: string;
  readonly port: number;
}

export interface StartupShown {
  /** the config as given, or undefined in zero-config mode */
  readonly config: string | undefined;
  ruleSet(index: number): string;
  middleware(index: number): string;
  /** the fallback directory as the user would recognise it */
  readonly fallbackDir: string;
}

export function listeningUrl(l: Listening): string {
  const host = l.ip.includes(':') ? `[${l.ip}]` : l.ip;
  return `${l.scheme}://${host}:${l.port}`;
}

/** `watching`: how many files are watched for live reload (undefined: not watching, no line). */
export function startupText(
  ws: Workspace,
  shown: StartupShown,
  listening: readonly Listening[],
  watching?: number,
  notes: readonly string[] = [],
): string {
  let out = shown.config !== undefined ? `[config] ${shown.config}\n` : '[config] none (zero-config mode)\n';
  for (const rs of ws.ruleSets) out += `@ rule_set #${rs.index + 1} (${shown.ruleSet(rs.index)})\n`;
  ws.middlewares.forEach((_, i) => (out += `[middleware] #${i + 1} (${shown.middleware(i)})\n`));
  out += `[fallback_respond_dir] ${shown.fallbackDir}\n`;
  if (watching !== undefined) out += RELOAD_MESSAGES.watching(watching) + '\n';
  for (const note of notes) out += note + '\n';
  for (const l of listening) out += `Listening on ${listeningUrl(l)} ...\n`;
  return out;
}
