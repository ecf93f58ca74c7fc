// `mock set rule`: add a rule (appended, so addresses stay stable) or change one (`--rule <n>`, 0-based)
// in a rule-set file, keeping every comment and all formatting; a fresh directory gets a minimal config
// and rule set. The edit itself is planned purely (config/edit/set-rule.ts); this file does the I/O:
// reading, checking that the edited files still load (the loader's own decoders), and writing each file
// atomically (temp file in the same folder, fsync, rename) after checking nobody changed it meanwhile.
// Exit 0 applied (or would apply, --dry-run), 2 bad invocation / config not loadable / refused edit,
// 1 the rule was addressed but saving failed (conflict, I/O error).
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { SetRuleArgs } from '../../config/edit/plan-types.js';
import { checkArgs, planSetRule, type SetRulePlan } from '../../config/edit/set-rule.js';
import { isWithin, pathKind, respondFileStatus } from '../../config/read.js';
import type { RespondFileStatus } from '../../config/respond-files.js';
import { decodeRootConfig } from '../../config/root-config.js';
import { checkRuleSetFiles, compileDraftTemplates, decodeRuleSetDraft, settleRuleSet, type RuleSetContext } from '../../config/rule-set.js';
import { ROOT_CONFIG_FILE, RULE_SET_FILE } from '../../model/config.js';
import type { Diagnostic } from '../../model/diagnostic.js';
import { DEFAULT_STRATEGY, type Strategy } from '../../model/strategy.js';
import { err, ok, type Result } from '../../shared/result.js';
import { findMetaFlag, parseArgs } from '../args.js';
import { flagLines } from '../help.js';
import { successEnvelope } from '../envelope.js';
import type { Io } from '../io.js';
import { setRuleResult, setRuleText, type SetRuleView } from '../render/set.js';
import { reportFailure, reportUsage, type Failure } from '../report.js';
import { commitFiles, readSnapshot, type Snapshot } from './set-rule-commit.js';
import { FLAGS, PREFIX, readFlags, type SetRuleFlags } from './set-rule-flags.js';

const SET_PREFIX = 'mock set';

export const SET_RULE_USAGE =
  'mock set rule [-c <config>] [--rule-set <path>] [--rule <n>] [--path <url_path> | --path-template <template>] [--method <METHOD>] [-H "Name: value"]... [--query|--cookie|--param|--form name=value]... [--body-contains <text>] [--status <code>] [--json <value> | --text <value> | --file <path>] [--template] [--delay <ms>] [--dry-run] [--format text|json] [--allow-outside]';

export const SET_RULE_HELP = `mock set rule [-c <config>] [--rule-set <path>] [--rule <n>] \\
  [--path <url_path> | --path-template <template>] [--method <METHOD>] \\
  [-H "Name: value"]... [--query|--cookie|--param|--form name=value]... \\
  [--body-contains <text>] [--status <code>] [--json <value> | --text <value> | --file <path>] \\
  [--template] [--delay <ms>] [--dry-run] [--format text|json] [--allow-outside]

Adds a rule (default), or changes an existing one when --rule is
given, and writes it to the rule-set file - keeping that file's
comments and formatting. A new rule is appended at the end of the
file, so existing rule numbers never move. Neither the root config nor
the rule-set file need to exist yet; a fresh directory gets a minimal
starting pair of files.

Addressing is by (rule-set file, 0-based rule index) - never a
process-local id - so matched.rule_set_file and matched.rule_index from
'mock get --format json' can be passed to --rule-set/--rule unmodified.

${flagLines(FLAGS, 20)}
--json, --text and --file are mutually exclusive; with --rule, the one
given replaces whichever body the rule had. Flags not given leave that
part of the rule as it was. An edit that would leave a file that does
not load (for example --file naming a missing file) is refused.

A file changed on disk while set rule was working fails the save with
error.kind "conflict", rather than overwriting it. Files are replaced
atomically: a reader sees the old file or the new one, never a mix.

Exit codes: 0 applied (or, under --dry-run, would apply), 1 the rule was addressed but saving failed (conflict or I/O error), 2 a bad invocation, the config couldn't be loaded, or the edit was refused.
`;

/** Milliseconds to wait between staging the new files and the conflict check; for tests only. */
export const PAUSE_ENV = 'MOCK_TEST_PAUSE_BEFORE_COMMIT_MS';

export async function run(argv: readonly string[], io: Io): Promise<number> {
  if (findMetaFlag(argv) === 'help') {
    io.out(SET_RULE_HELP);
    return 0;
  }
  const target = argv[0];
  if (target === undefined || target.startsWith('-')) return reportUsage(io, `${SET_PREFIX}: missing required subcommand`, SET_RULE_USAGE);
  if (target !== 'rule') return reportUsage(io, `${SET_PREFIX}: unknown target '${target}' (only 'rule' is supported)`, SET_RULE_USAGE);
  const flags = parseSetRuleFlags(argv.slice(1));
  if (!flags.ok) return reportUsage(io, flags.error, SET_RULE_USAGE);
  const outcome = await setRule(flags.value, io.cwd);
  if (!outcome.ok) return reportFailure(io, PREFIX, flags.value.format, outcome.error);
  io.out(flags.value.format === 'json' ? successEnvelope(io.version(), setRuleResult(outcome.value)) : setRuleText(outcome.value));
  if (flags.value.hint !== undefined) io.err(flags.value.hint + '\n');
  return 0;
}

/**
 * The flags after `set rule`, parsed and checked (each flag, then their combination); the error is the usage
 * message, `mock set rule: ` included. Shared by the command and the inspector's `POST /__mock/api/rules`.
 */
export function parseSetRuleFlags(argv: readonly string[]): Result<SetRuleFlags, string> {
  const parsed = parseArgs(argv, FLAGS, { prefix: PREFIX, root: false });
  if (!parsed.ok) return err(parsed.error);
  const flags = readFlags(parsed.value);
  if (!flags.ok) return err(`${PREFIX}: ${flags.error}`);
  const combo = checkArgs({ ...flags.value.args, ...(flags.value.body === undefined ? {} : { body: { kind: 'text', value: '' } }) });
  if (combo !== undefined) return err(`${PREFIX}: ${combo.message}`);
  return flags;
}

// --- the command -----------------------------------------------------------------------------------------

const BT = '`';
const q = (s: string): string => BT + s + BT;

const MESSAGES = {
  outside: (given: string) => `--rule-set ${q(given)} resolves outside the config directory; pass --allow-outside to permit this`,
  sameFile: (given: string) => `--rule-set ${q(given)} names the root config itself`,
  unreadable: (shown: string, reason: string) => `cannot read ${q(shown)}: ${reason}`,
  configInvalid: (shown: string) => `the root config ${q(shown)} does not load; fix it first (nothing was written)`,
  editedConfigInvalid: (shown: string) => `the edited root config ${q(shown)} would not load; nothing was written`,
  ruleSetInvalid: (shown: string) => `the rule set ${q(shown)} does not load, before or after this edit; nothing was written`,
  editRefused: (shown: string) => `refused: the edit would leave ${q(shown)} unable to load; nothing was written`,
} as const;

/** Plan, check and (unless --dry-run) write the edit, paths resolved against `cwd`: the command without its output. */
export async function setRule(flags: SetRuleFlags, cwd: string): Promise<Result<SetRuleView, Failure>> {
  const configShown = flags.config ?? `./${ROOT_CONFIG_FILE}`;
  const ruleSetShown = flags.ruleSet ?? `./${RULE_SET_FILE}`;
  const target: RuleEditTarget = { configAbs: resolve(cwd, configShown), configShown, ruleSetAbs: resolve(cwd, ruleSetShown), ruleSetShown, cwd };
  if (target.ruleSetAbs === target.configAbs) return err({ kind: 'usage', message: MESSAGES.sameFile(ruleSetShown) });
  if (!flags.allowOutside && !isWithin(dirname(target.configAbs), target.ruleSetAbs)) return err({ kind: 'usage', message: MESSAGES.outside(ruleSetShown) });

  const [configSnap, ruleSetSnap] = await Promise.all([readSnapshot(target.configAbs, configShown), readSnapshot(target.ruleSetAbs, ruleSetShown)]);
  const planned = await planRuleEdit(target, { config: configSnap, ruleSet: ruleSetSnap }, flags.args, flags.body);
  if (!planned.ok) return err(planned.error);
  const plan = planned.value;

  let changedFiles: string[] = [];
  if (!flags.dryRun && plan.files.length > 0) {
    const failure = await commitRuleEdit(plan, { config: configSnap, ruleSet: ruleSetSnap });
    if (failure !== undefined) return err(failure);
    changedFiles = plan.files.map((f) => f.shown);
  }
  return ok({
    dryRun: flags.dryRun,
    ruleSet: ruleSetShown,
    ruleIndex: plan.ruleIndex,
    added: plan.added,
    changes: plan.changes,
    files: plan.files,
    changedFiles,
  });
}

/** The two files a rule edit touches, absolute and as shown, and the directory relative paths start from. */
export interface RuleEditTarget {
  readonly configAbs: string;
  readonly configShown: string;
  readonly ruleSetAbs: string;
  readonly ruleSetShown: string;
  readonly cwd: string;
  /** a bootstrapped config's service.fallback_respond_dir entry (default ".") */
  readonly bootstrapFallbackDir?: string;
}

export interface RuleEditSnapshots {
  readonly config: Snapshot;
  readonly ruleSet: Snapshot;
}

/**
 * Plan a rule edit over the files as read (`snaps`) and check that every file it writes still loads.
 * A `file` body is relative to `target.cwd`; `assumeFiles` are respond files taken as they will be (not read).
 * Shared by `set rule` and record mode (cli/commands/record-rules.ts).
 */
export async function planRuleEdit(
  target: RuleEditTarget,
  snaps: RuleEditSnapshots,
  args: Omit<SetRuleArgs, 'body'>,
  body: SetRuleFlags['body'],
  assumeFiles?: ReadonlyMap<string, RespondFileStatus>,
): Promise<Result<SetRulePlan, Failure>> {
  const { configAbs, configShown, ruleSetAbs, ruleSetShown, cwd } = target;
  const configDir = dirname(configAbs);
  for (const s of [snaps.config, snaps.ruleSet]) {
    if (s.problem !== undefined) return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(s.shown, s.problem) });
  }

  // the root config as it is: it must load, and it says which strategy rule sets inherit
  let strategy: Strategy = DEFAULT_STRATEGY;
  let listedIndex = -1;
  if (snaps.config.text !== undefined) {
    const root = decodeRootConfig(snaps.config.text, configAbs, cwd);
    const errors = errorsOf(root.decode.diagnostics);
    if (errors.length > 0) return err({ kind: 'config_invalid', message: MESSAGES.configInvalid(configShown), diagnostics: errors });
    strategy = root.config.service.strategy;
    listedIndex = root.ruleSets.findIndex((e) => e.path === ruleSetAbs);
  }

  // the rule set as it is: whether it loads now, and where respond.file_path resolves
  const baseCtx = (index: number, entry: string): RuleSetContext => ({ index, entry, baseDir: configDir, defaultStrategy: strategy });
  let respondDir = configDir;
  let loadedBefore = true;
  if (snaps.ruleSet.text !== undefined) {
    const before = await checkRuleSet(snaps.ruleSet.text, ruleSetAbs, baseCtx(Math.max(0, listedIndex), ruleSetShown), assumeFiles);
    loadedBefore = before.errors.length === 0;
    respondDir = before.respondDir ?? configDir;
  }

  const entry = body === undefined ? undefined : body.kind === 'file' ? { kind: 'file_path' as const, value: fileEntry(cwd, respondDir, body.path) } : body;
  const planned = planSetRule(
    { ...args, ...(entry === undefined ? {} : { body: entry }) },
    {
      config: { abs: configAbs, shown: configShown, text: snaps.config.text },
      ruleSet: { abs: ruleSetAbs, shown: ruleSetShown, text: snaps.ruleSet.text },
      ...(target.bootstrapFallbackDir === undefined ? {} : { bootstrapFallbackDir: target.bootstrapFallbackDir }),
    },
  );
  if (!planned.ok) return err(planned.error);
  const refused = await checkPlan(planned.value, { configAbs, configShown, ruleSetAbs, ruleSetShown, cwd, loadedBefore, strategy, baseCtx, ...(assumeFiles === undefined ? {} : { assumeFiles }) });
  return refused === undefined ? planned : err(refused);
}

/** Write a planned edit atomically, refusing (conflict) when a file changed since `snaps` were read. */
export async function commitRuleEdit(plan: SetRulePlan, snaps: RuleEditSnapshots): Promise<Failure | undefined> {
  const byPath = new Map<string, Snapshot>([
    [snaps.config.abs, snaps.config],
    [snaps.ruleSet.abs, snaps.ruleSet],
  ]);
  return commitFiles(
    plan.files.map((f) => ({ snapshot: byPath.get(f.abs)!, after: f.after })),
    pauseMs(),
  );
}

interface CheckContext {
  readonly configAbs: string;
  readonly configShown: string;
  readonly ruleSetAbs: string;
  readonly ruleSetShown: string;
  readonly cwd: string;
  readonly loadedBefore: boolean;
  readonly strategy: Strategy;
  readonly baseCtx: (index: number, entry: string) => RuleSetContext;
  readonly assumeFiles?: ReadonlyMap<string, RespondFileStatus>;
}

/** Every file the plan writes must load with the loader's own decoders (respond files checked on disk). */
async function checkPlan(plan: SetRulePlan, c: CheckContext): Promise<Failure | undefined> {
  let strategy = c.strategy;
  const config = plan.files.find((f) => f.abs === c.configAbs);
  if (config !== undefined) {
    const root = decodeRootConfig(config.after, c.configAbs, c.cwd);
    const errors = errorsOf(root.decode.diagnostics);
    if (errors.length > 0) return { kind: 'config_invalid', message: MESSAGES.editedConfigInvalid(c.configShown), diagnostics: errors };
    strategy = root.config.service.strategy;
  }
  const ruleSet = plan.files.find((f) => f.abs === c.ruleSetAbs);
  if (ruleSet === undefined) return undefined;
  const ctx = { ...c.baseCtx(plan.ruleSetIndex, plan.ruleSetEntry), defaultStrategy: strategy };
  const after = await checkRuleSet(ruleSet.after, c.ruleSetAbs, ctx, c.assumeFiles);
  if (after.errors.length === 0) return undefined;
  return c.loadedBefore
    ? { kind: 'usage', message: MESSAGES.editRefused(c.ruleSetShown), diagnostics: after.errors }
    : { kind: 'config_invalid', message: MESSAGES.ruleSetInvalid(c.ruleSetShown), diagnostics: after.errors };
}

/** Decode a rule-set text as the loader does, with its respond files and respond_dir checked on disk. */
async function checkRuleSet(
  text: string,
  file: string,
  ctx: RuleSetContext,
  assumeFiles?: ReadonlyMap<string, RespondFileStatus>,
): Promise<{ errors: Diagnostic[]; respondDir?: string }> {
  const draft = decodeRuleSetDraft(text, file, ctx);
  await compileDraftTemplates(draft);
  const statuses = new Map<string, RespondFileStatus>();
  const dirs = new Map<string, boolean>();
  await Promise.all([
    ...draft.fileRefs.map(async (r) => void statuses.set(r.path, assumeFiles?.get(r.path) ?? (await respondFileStatus(r.path)))),
    ...draft.dirRefs.map(async (r) => void dirs.set(r.path, (await pathKind(r.path)) === 'dir')),
  ]);
  checkRuleSetFiles(draft, { respondFile: (p) => statuses.get(p) ?? { kind: 'missing' }, isDir: (p) => dirs.get(p) ?? false });
  const settled = settleRuleSet(draft);
  const respondDir = draft.dirRefs.find((r) => r.keyPath.join('.') === 'prefix.respond_dir')?.path;
  return { errors: settled.ok ? [] : errorsOf(settled.error), ...(respondDir === undefined ? {} : { respondDir }) };
}

function errorsOf(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

/** --file is given relative to the current directory; respond.file_path is relative to the respond folder. */
function fileEntry(cwd: string, respondDir: string, given: string): string {
  if (isAbsolute(given)) return given;
  return relative(respondDir, resolve(cwd, given)).split(sep).join('/');
}

function pauseMs(): number {
  const raw = process.env[PAUSE_ENV];
  const n = raw === undefined ? 0 : Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? Math.min(n, 60_000) : 0;
}
