// `mock validate --against <openapi>`: the document is read as `--init --from` reads it, compiled (contract/),
// and the workspace's answers and the document's operations checked against each other. Loaded only when the
// flag is given (it brings the OpenAPI parser and ajv). See docs/contract.md.
import { isAbsolute, relative, sep } from 'node:path';
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
import { ruleLines, servedFiles } from '../../contract/io/workspace-files.js';

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
