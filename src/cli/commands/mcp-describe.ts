// `describe_workspace`'s result: the workspace as the server would load it, in the words the other commands use
// (files relative to the workspace, as `get` shows them; rule numbers 0-based in JSON), with the answer files of
// the fallback directory (bounded) and the scenarios the rules read and move.
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { loadWorkspace } from '../../config/load.js';
import { errorEnvelope, successEnvelope, diagnosticToWire, type Wire } from '../../model/envelope.js';
import type { Workspace } from '../../model/workspace.js';
import { loadFailure } from '../../launch/offline.js';
import { fileDisplay, shownPathsFor } from '../../workspace/shown-paths.js';

/** at most this many answer files listed (the rest counted), at most this deep */
const MAX_FILES = 200;
const MAX_DEPTH = 8;
/** folders that hold no answers: version control, dependencies, mock's own caches */
const SKIPPED = new Set(['.git', 'node_modules', '.mock-cache', '.mock-recorded']);

async function answerFiles(root: string): Promise<{ files: string[]; more: number }> {
  const files: string[] = [];
  let more = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name) && depth < MAX_DEPTH) await walk(join(dir, e.name), depth + 1);
      } else if (e.isFile()) {
        if (files.length < MAX_FILES) files.push(relative(root, join(dir, e.name)).split(sep).join('/'));
        else more++;
      }
    }
  };
  await walk(root, 0);
  return { files, more };
}

/** every scenario a rule reads (`when.state`) or moves (`respond.set_state`), with the states named */
function scenarios(ws: Workspace): Wire {
  const states = new Map<string, Set<string>>();
  const add = (name: string, state: string): void => {
    let s = states.get(name);
    if (s === undefined) states.set(name, (s = new Set(['started'])));
    s.add(state);
  };
  for (const rs of ws.ruleSets)
    for (const rule of rs.rules) {
      for (const c of rule.conditions) if (c.on === 'state') add(c.name, c.value);
      for (const [name, state] of Object.entries(rule.respond.setState ?? {})) add(name, state);
    }
  return [...states].map(([name, s]) => ({ name, states: [...s] }));
}

export async function describeWorkspace(cwd: string, version: string, config: string | undefined): Promise<string> {
  const loaded = await loadWorkspace({ cwd, ...(config !== undefined ? { configPath: config } : {}) });
  if (!loaded.ok) {
    const f = loadFailure(loaded.error);
    return errorEnvelope(version, f.kind, f.message, f.diagnostics);
  }
  const ws = loaded.value;
  const shown = shownPathsFor(cwd, config, ws);
  const { files, more } = await answerFiles(ws.fallbackDir);
  return successEnvelope(version, {
    config_file: ws.configFile === undefined ? null : fileDisplay(cwd, ws.configFile),
    port: ws.config.listener.port,
    rule_sets: ws.ruleSets.map((rs) => ({
      index: rs.index,
      file: shown.ruleSet(rs.index),
      prefix: rs.prefix ?? null,
      strategy: rs.strategy.kind,
      rules: rs.rules.map((r) => r.label),
    })),
    middlewares: ws.middlewares.map((m, index) => ({ index, file: shown.middleware(index) })),
    fallback_dir: ws.fallbackDir === cwd ? '.' : fileDisplay(cwd, ws.fallbackDir),
    files,
    files_not_listed: more,
    collections: (ws.collections ?? []).map((c) => ({ path: c.path, kind: c.kind, file: fileDisplay(cwd, c.file) })),
    scenarios: scenarios(ws),
    warnings: ws.warnings.map(diagnosticToWire),
  });
}
