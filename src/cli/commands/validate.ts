// `mock validate`: load the whole workspace (root config, rule sets, response files, middleware scripts,
// which the loader compiles) and parse the TLS cert and key, without binding a port.
// Exit 0 clean, 1 warnings under --strict, 2 the config could not be loaded or a bad invocation.
// With --against <openapi>: also the contract findings (docs/contract.md); 1 when one remains after --ignore.
import { isAbsolute, relative, sep } from 'node:path';
import { loadWorkspace } from '../../config/load.js';
import { ROOT_CONFIG_FILE } from '../../model/config.js';
import type { Diagnostic } from '../../model/diagnostic.js';
import type { Workspace } from '../../model/workspace.js';
import { shadowedRules, shadowText } from '../../routing/shadow.js';
import { VALIDATE_FLAGS } from '../flags.js';
import { rootConfigExists } from '../../workspace/scaffold.js';
import { flagValue, flagValues, hasFlag, parseArgs, parseFormat } from '../../shared/args.js';
import {
  exitCodeOfFindings,
  findingsResult,
  findingsSummaryLine,
  findingsText,
  unknownKinds,
  withoutIgnored,
} from '../../contract/findings.js';
import { errorEnvelope, exitCodeFor, successEnvelope, type Wire } from '../../model/envelope.js';
import { VALIDATE_USAGE } from '../help.js';
import type { Io } from '../io.js';
import { passedLine, validateResult, type ValidateSummary } from '../render/validate.js';
import { printDiagnostics, reportFailure, reportUsage } from '../report.js';
import { runAgainstUpstream, upstreamUsage } from './validate-upstream.js';
import { loadFailed, loadFailure } from '../../launch/offline.js';

const PREFIX = 'mock validate';
const REMOVED_JSON = '--json was removed; use --format json instead, which emits the JSON envelope';

const FLAGS = VALIDATE_FLAGS;

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, FLAGS, { prefix: PREFIX, root: false });
  if (!parsed.ok) return reportUsage(io, parsed.error, VALIDATE_USAGE);
  const args = parsed.value;
  const format = parseFormat(args, PREFIX);
  if (!format.ok) return reportUsage(io, format.error, VALIDATE_USAGE);
  if (hasFlag(args, 'json')) {
    if (format.value === 'json') {
      io.out(errorEnvelope(io.version(), 'usage', REMOVED_JSON));
      return exitCodeFor('usage');
    }
    return reportUsage(io, `${PREFIX}: ${REMOVED_JSON}`, VALIDATE_USAGE);
  }
  if (args.positionals.length > 0)
    return reportUsage(io, `${PREFIX}: unexpected argument '${args.positionals[0]}'`, VALIDATE_USAGE);
  const against = flagValue(args, 'against');
  const ignored = flagValues(args, 'ignore');
  if (ignored.length > 0 && against === undefined && flagValue(args, 'against-upstream') === undefined)
    return reportUsage(io, `${PREFIX}: --ignore needs --against <openapi>`, VALIDATE_USAGE);
  const unknown = unknownKinds(ignored);
  if (unknown.length > 0)
    return reportUsage(io, `${PREFIX}: --ignore: unknown finding kind '${unknown[0]}'`, VALIDATE_USAGE);
  const upstreamProblem = upstreamUsage(args);
  if (upstreamProblem !== undefined) return reportUsage(io, upstreamProblem, VALIDATE_USAGE);
  let configPath = flagValue(args, 'config');
  if (configPath === undefined) {
    if (!rootConfigExists(io.cwd)) {
      return reportUsage(
        io,
        `${PREFIX}: missing required flag --config / -c (there is no ./${ROOT_CONFIG_FILE} here)`,
        VALIDATE_USAGE,
      );
    }
    configPath = `./${ROOT_CONFIG_FILE}`;
  }

  const loaded = await loadWorkspace({ configPath, cwd: io.cwd });
  if (!loaded.ok) {
    return reportFailure(io, PREFIX, format.value, loadFailure(loaded.error));
  }
  const ws = loaded.value;
  const tlsProblem = await checkTls(ws);
  if (tlsProblem !== undefined) {
    return reportFailure(io, PREFIX, format.value, {
      kind: 'config_invalid',
      message: loadFailed('the TLS material does not load'),
      diagnostics: [tlsProblem],
    });
  }

  if (flagValue(args, 'against-upstream') !== undefined) return runAgainstUpstream(args, ws, io, format.value);
  // the contract check (its parser and ajv are loaded only with the flag)
  let contract: import('./contract-entry.js').AgainstRun | undefined;
  if (against !== undefined) {
    const r = await (await import('./contract-entry.js')).runAgainst(io, ws, against);
    if (!r.ok) return reportFailure(io, PREFIX, format.value, r.error);
    contract = { ...r.value, findings: withoutIgnored(r.value.findings, ignored) };
  }

  const warnings = ws.warnings;
  const summary: ValidateSummary = {
    errors: 0,
    warnings: warnings.length,
    ruleSets: ws.ruleSets.length,
    rules: ws.ruleSets.reduce((n, rs) => n + rs.rules.length, 0),
  };
  const strict = hasFlag(args, 'strict');
  const contractFailed = contract !== undefined && exitCodeOfFindings(contract.findings, strict) === 1;
  const failed = (strict && warnings.length > 0) || contractFailed;
  if (format.value === 'json') {
    const result = validateResult(warnings, summary) as Record<string, Wire>;
    io.out(
      successEnvelope(
        io.version(),
        contract === undefined
          ? result
          : { ...result, against: findingsResult(contract.findings, { document: contract.document }) },
      ),
    );
  } else if (contract !== undefined) {
    if (!hasFlag(args, 'quiet')) printDiagnostics(io, warnings);
    const c = contract.checked;
    const what = `${c.rules} rule(s), ${c.files} file(s) and ${c.operations} documented operation(s) checked against ${contract.document}`;
    io.out(findingsText(contract.findings));
    if (contract.findings.length > 0 || !hasFlag(args, 'quiet')) io.out(findingsSummaryLine(contract.findings, what));
    if (strict && warnings.length > 0) io.err(`${PREFIX}: ${warnings.length} warning(s), which fail under --strict\n`);
  } else {
    if (failed || !hasFlag(args, 'quiet')) printDiagnostics(io, warnings);
    if (failed) io.err(`${PREFIX}: ${warnings.length} warning(s), which fail under --strict\n`);
    else if (!hasFlag(args, 'quiet')) io.out(passedLine(summary));
    // told, never counted: a rule that can never answer is legal, and --strict keeps its meaning
    if (!hasFlag(args, 'quiet')) {
      const shown = (file: string): string => entryShown(io.cwd, file);
      for (const s of shadowedRules(ws.ruleSets)) io.err(`warning: ${shadowText(ws.ruleSets, s, shown)}\n`);
    }
  }
  return failed ? 1 : 0;
}

/** Parses the cert and key when TLS is configured; the TLS code is loaded only then. */
async function checkTls(ws: Workspace): Promise<Diagnostic | undefined> {
  const tls = ws.config.listener.tls;
  if (tls === undefined) return undefined;
  const { loadTlsMaterial } = await import('../../node/tls-material.js');
  const r = loadTlsMaterial(tls.cert, tls.key, tls.certEntry);
  return r.ok ? undefined : r.error;
}

/** A rule set's file as the user reaches it: `./rules.toml`, relative to the current directory. */
function entryShown(cwd: string, abs: string): string {
  const rel = relative(cwd, abs).split(sep).join('/');
  return isAbsolute(rel) || rel.startsWith('../') ? rel : `./${rel}`;
}
