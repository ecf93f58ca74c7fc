// How paths are shown. A rule set or script is shown as "<config dir as given>/<entry as written>", which
// is a path relative to the current directory, with `./` before it: `./mock-rule-set.toml` for ./mock.toml
// (auto-discovered or given bare), `./cfg/rs.toml` for `-c cfg/mock.toml`, absolute when either part is. `get` reports that same
// string as matched.rule_set_file, and `set rule --rule-set` resolves it against the current directory.
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { ROOT_CONFIG_FILE } from '../model/config.js';
import type { ShownPaths } from '../dispatch/explain-view.js';
import type { Workspace } from '../model/workspace.js';

/** The config path as the user gave it, or `./<relative>` for an auto-discovered one. */
export function configDisplay(
  cwd: string,
  given: string | undefined,
  configFile: string | undefined,
): string | undefined {
  if (given !== undefined) return given;
  if (configFile === undefined) return undefined;
  return './' + toPosix(relative(cwd, configFile));
}

/** A path written in the config (rule set, middleware), shown relative to the current directory. */
export function entryDisplay(configShown: string | undefined, entry: string, absolute: string): string {
  if (configShown === undefined || isAbsolute(entry)) return isAbsolute(entry) ? entry : absolute;
  const dir = posix.dirname(toPosix(configShown));
  const joined = posix.join(dir, toPosix(entry));
  // one spelling per file: `./` before any path inside the current directory, whatever the config's own spelling
  if (posix.isAbsolute(joined) || joined.startsWith('../') || joined === '..') return joined;
  return './' + joined;
}

/** A file named in a message: relative to the current directory when it lies inside it, else absolute. */
export function fileDisplay(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return file;
  return './' + toPosix(rel);
}

/**
 * How `get` names a workspace's rule sets and scripts (matched.rule_set_file, the why): for anything else that
 * shows an explanation of the same workspace (the request journal), so both name files alike.
 * `given` is the -c path as the user gave it (undefined when auto-discovered or zero-config).
 */
export function shownPathsFor(cwd: string, given: string | undefined, ws: Workspace): ShownPaths {
  const configShown = configDisplay(cwd, given, ws.configFile);
  return {
    ruleSet: (i) => {
      const rs = ws.ruleSets[i];
      return rs === undefined ? `#${i + 1}` : entryDisplay(configShown, rs.entry, rs.file);
    },
    middleware: (i) => {
      const mw = ws.middlewares[i];
      return mw === undefined ? `#${i + 1}` : entryDisplay(configShown, mw.entry, mw.file);
    },
  };
}

/** The `-c` that `set rule` (whose default is ./mock.toml) needs to edit the same workspace; undefined when none is. */
export function setRuleConfigArg(
  cwd: string,
  given: string | undefined,
  configFile: string | undefined,
): string | undefined {
  if (configFile === undefined || configFile === resolve(cwd, ROOT_CONFIG_FILE)) return undefined;
  return configDisplay(cwd, given, configFile);
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}
