// `mock validate --against <openapi>`: the document is read as `--init --from` reads it, compiled (contract/),
// and the workspace's answers and the document's operations checked against each other. Loaded only when the
// flag is given (it brings the OpenAPI parser and ajv). See docs/contract.md.
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { checkAgainst } from '../../contract/against.js';
import { compileContract } from '../../contract/contract.js';
import type { Finding } from '../../contract/findings.js';
import type { Rule, RuleSet } from '../../model/rule-set.js';
import type { Workspace } from '../../model/workspace.js';
import type { Result } from '../../shared/result.js';
import { err, ok } from '../../shared/result.js';
import type { Io } from '../io.js';
import type { Failure } from '../report.js';
import { loadOpenApi } from './openapi-load.js';
import { offlineEnv } from '../../launch/offline.js';

/** A bound on the files walked under the fallback folder (a workspace serving a huge tree is checked in part). */
const MAX_FILES = 20_000;
/** Folders never walked: tooling, not answers. */
// record mode's folder holds answers its rules name (skipped with them) and its index, which is not an answer
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '.mock-recorded']);
/** the OpenAPI import's own index of what it generated (docs/openapi.md), not an answer */
const SKIPPED_FILES = new Set(['.mock-openapi-index.json']);

export interface AgainstRun {
  readonly findings: readonly Finding[];
  readonly document: string;
  /** answers and operations looked at, for the summary line */
  readonly checked: { readonly rules: number; readonly files: number; readonly operations: number };
}

export async function runAgainst(io: Io, ws: Workspace, given: string): Promise<Result<AgainstRun, Failure>> {
  const loaded = await loadOpenApi(io.cwd, given);
  if (!loaded.ok) return err(loaded.error);
  const { doc, abs } = loaded.value;
  let contract;
  try {
    contract = compileContract(doc);
  } catch (e) {
    return err({
      kind: 'config_invalid',
      message: `${given}: a schema does not compile: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  const shown = (p: string): string => {
    const r = relative(io.cwd, p).split(sep).join('/');
    return isAbsolute(r) || r.startsWith('../') ? p : r;
  };
  const files = servedFiles(ws, abs);
  const lines = new Map<string, readonly number[]>();
  const ruleWhere = (rs: RuleSet, rule: Rule): string => {
    let at = lines.get(rs.file);
    if (at === undefined) lines.set(rs.file, (at = ruleLines(rs.file)));
    const line = at[rule.index];
    return line === undefined ? `${shown(rs.file)} (rule ${rule.index + 1})` : `${shown(rs.file)}:${line}`;
  };
  const findings = await checkAgainst({
    ws,
    doc,
    contract,
    env: offlineEnv({ log: (line) => io.err(line + '\n') }),
    fallbackFiles: files,
    shownFile: shown,
    ruleWhere,
  });
  return ok({
    findings,
    document: shown(abs),
    checked: {
      rules: ws.ruleSets.reduce((n, rs) => n + rs.rules.length, 0),
      files: files.length,
      operations: contract.operations.length,
    },
  });
}

/** The 1-based line of each `[[rules]]` header, in order: rule i is written at the i-th. */
function ruleLines(file: string): readonly number[] {
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
function servedFiles(ws: Workspace, documentAbs: string): readonly string[] {
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
