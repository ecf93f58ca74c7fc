// The workspace as `mock validate --against` walks it: the rule sets' `[[rules]]` lines and the files under the
// fallback folder that are answers. The I/O half of the contract check (contract/ itself is pure).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Workspace } from '../../model/workspace.js';

/** A bound on the files walked under the fallback folder (a workspace serving a huge tree is checked in part). */
const MAX_FILES = 20_000;
/** Folders never walked: tooling, not answers. */
// record mode's folder holds answers its rules name (skipped with them) and its index, which is not an answer
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '.mock-recorded']);
/** the OpenAPI import's own index of what it generated (docs/openapi.md), not an answer */
const SKIPPED_FILES = new Set(['.mock-openapi-index.json']);

/** The 1-based line of each `[[rules]]` header, in order: rule i is written at the i-th. */
export function ruleLines(file: string): readonly number[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: number[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    if (/^\s*\[\[\s*rules\s*\]\]/.test(l)) out.push(i + 1);
  });
  return out;
}

/**
 * The files under the fallback folder that are answers: not the config, a rule set, a script, a file a rule
 * names (its answer is the rule's), nor the document itself (an imported workspace serves `.`, so they all sit
 * there). Denied files are left to dispatch, which does not serve them.
 */
export function servedFiles(ws: Workspace, documentAbs: string): readonly string[] {
  const skip = new Set<string>([documentAbs]);
  if (ws.configFile !== undefined) skip.add(resolve(ws.configFile));
  for (const rs of ws.ruleSets) {
    skip.add(resolve(rs.file));
    for (const rule of rs.rules) {
      const b = rule.respond.body;
      if (b.kind === 'file' || b.kind === 'stream') skip.add(resolve(b.path));
    }
  }
  for (const m of ws.middlewares) skip.add(resolve(m.file));
  // a collection's data file is its data, not an answer (the collection's answers are checked themselves)
  for (const c of ws.collections ?? []) skip.add(resolve(c.file));
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(p);
      } else if (e.isFile() && !skip.has(p) && !SKIPPED_FILES.has(e.name) && !/\.(toml|rhai)$/.test(e.name))
        out.push(p);
    }
  };
  walk(resolve(ws.fallbackDir));
  return out;
}
