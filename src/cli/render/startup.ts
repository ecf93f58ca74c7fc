// The startup lines of `mock` / `mock serve` (SPEC 1.5): one `@ rule_set #<n> (<path>)` per loaded
// rule-set file, then one `Listening on <scheme>://<ip>:<port> ...` per listener. The few lines
// before them only say where things come from.
import type { Workspace } from '../../model/workspace.js';

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

export function startupText(ws: Workspace, shown: StartupShown, listening: readonly Listening[]): string {
  let out = shown.config !== undefined ? `[config] ${shown.config}\n` : '[config] none (zero-config mode)\n';
  for (const rs of ws.ruleSets) out += `@ rule_set #${rs.index + 1} (${shown.ruleSet(rs.index)})\n`;
  ws.middlewares.forEach((_, i) => (out += `[middleware] #${i + 1} (${shown.middleware(i)})\n`));
  out += `[fallback_respond_dir] ${shown.fallbackDir}\n`;
  for (const l of listening) out += `Listening on ${listeningUrl(l)} ...\n`;
  return out;
}
