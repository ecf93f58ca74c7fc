// `set rule`'s core, the half that reads and writes: the flags parsed, the edit planned over the files as read
// (the plan itself is pure: ../set-rule.ts), every edited file checked to still load with the loader's own
// decoders, and each file written atomically after checking nobody changed it meanwhile (./commit.ts). The
// command (cli/commands/set-rule.ts), the inspector's rules POST and record mode's rule commits all call it, so
// an edit is checked and written the same way whoever asks for it.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { SetRuleArgs } from '../plan-types.js';
import { checkArgs, planSetRule, type SetRulePlan } from '../set-rule.js';
import { isWithin, pathKind, respondFileStatus } from '../../read.js';
import type { RespondFileStatus } from '../../respond-files.js';
import { decodeRootConfig } from '../../root-config.js';
import {
  checkRuleSetFiles,
  compileDraftTemplates,
  decodeRuleSetDraft,
  decodeRuleSetText,
  settleRuleSet,
  type RuleSetContext,
} from '../../rule-set.js';
import { ruleMatchesText } from '../../../routing/describe.js';
import { shadowOf, shadowText } from '../../../routing/shadow.js';
import { loadWorkspace } from '../../load.js';
import { ROOT_CONFIG_FILE, RULE_SET_FILE } from '../../../model/config.js';
import type { Diagnostic } from '../../../model/diagnostic.js';
import { DEFAULT_STRATEGY, type Strategy } from '../../../model/strategy.js';
import { err, ok, type Result } from '../../../shared/result.js';
import { parseArgs } from '../../../shared/args.js';
import type { SetRuleView } from '../view.js';
import type { Failure } from '../../../model/errors.js';
import { commitFiles, readFileVersion, type FileVersion } from './commit.js';
import { FLAGS, PREFIX, readFlags, type SetRuleFlags } from '../set-rule-flags.js';

/** Milliseconds to wait between staging the new files and the conflict check; for tests only. */
export const PAUSE_ENV = 'MOCK_TEST_PAUSE_BEFORE_COMMIT_MS';

/**
 * The flags after `set rule`, parsed and checked (each flag, then their combination); the error is the usage
 * message, `mock set rule: ` included. Shared by the command and the inspector's `POST /__mock/api/rules`.
 */
export function parseSetRuleFlags(argv: readonly string[]): Result<SetRuleFlags, string> {
  const parsed = parseArgs(argv, FLAGS, { prefix: PREFIX, root: false });
  if (!parsed.ok) return err(parsed.error);
  const flags = readFlags(parsed.value);
  if (!flags.ok) return err(`${PREFIX}: ${flags.error}`);
  const combo = checkArgs({
    ...flags.value.args,
    ...(flags.value.body === undefined ? {} : { body: { kind: 'text', value: '' } }),
  });
  if (combo !== undefined) return err(`${PREFIX}: ${combo.message}`);
  return flags;
}

// --- the command -----------------------------------------------------------------------------------------

const BT = '`';
const q = (s: string): string => BT + s + BT;

const MESSAGES = {
  outside: (given: string) =>
    `--rule-set ${q(given)} resolves outside the config directory; pass --allow-outside to permit this`,
  sameFile: (given: string) => `--rule-set ${q(given)} names the root config itself`,
  unreadable: (shown: string, reason: string) => `cannot read ${q(shown)}: ${reason}`,
  configInvalid: (shown: string) => `the root config ${q(shown)} does not load; fix it first (nothing was written)`,
  editedConfigInvalid: (shown: string) => `the edited root config ${q(shown)} would not load; nothing was written`,
  ruleSetInvalid: (shown: string) =>
    `the rule set ${q(shown)} does not load, before or after this edit; nothing was written`,
  editRefused: (shown: string) => `refused: the edit would leave ${q(shown)} unable to load; nothing was written`,
} as const;

/** Plan, check and (unless --dry-run) write the edit, paths resolved against `cwd`: the command without its output. */
export async function setRule(flags: SetRuleFlags, cwd: string): Promise<Result<SetRuleView, Failure>> {
  // one spelling whatever the user typed (`x.toml`, `./x.toml`): the one `get` and `match-test` print
  const configAbs = resolve(cwd, flags.config ?? ROOT_CONFIG_FILE);
  const ruleSetAbs = resolve(cwd, flags.ruleSet ?? RULE_SET_FILE);
  const configShown = shownFrom(cwd, configAbs);
  const ruleSetShown = shownFrom(cwd, ruleSetAbs);
  const target: RuleEditTarget = {
    configAbs,
    configShown,
    ruleSetAbs,
    ruleSetShown,
    cwd,
  };
  if (target.ruleSetAbs === target.configAbs) return err({ kind: 'usage', message: MESSAGES.sameFile(ruleSetShown) });
  if (!flags.allowOutside && !isWithin(dirname(target.configAbs), target.ruleSetAbs))
    return err({ kind: 'usage', message: MESSAGES.outside(ruleSetShown) });

  const [configSnap, ruleSetSnap] = await Promise.all([
    readFileVersion(target.configAbs, configShown),
    readFileVersion(target.ruleSetAbs, ruleSetShown),
  ]);
  const planned = await planRuleEdit(target, { config: configSnap, ruleSet: ruleSetSnap }, flags.args, flags.body);
  if (!planned.ok) return err(planned.error);
  const plan = planned.value;

  let changedFiles: string[] = [];
  if (!flags.dryRun && plan.files.length > 0) {
    const failure = await commitRuleEdit(plan, { config: configSnap, ruleSet: ruleSetSnap });
    if (failure !== undefined) return err(failure);
    changedFiles = plan.files.map((f) => f.shown);
  }
  const placed =
    flags.ruleSet === undefined && ruleSetSnap.text === undefined ? placementNote(configSnap.text, target) : undefined;
  const shadowed = changedFiles.length > 0 ? await shadowNote(target, plan.ruleSetIndex, plan.ruleIndex) : undefined;
  const notes = [...(placed === undefined ? [] : [placed]), ...(shadowed === undefined ? [] : [shadowed])];
  return ok({
    dryRun: flags.dryRun,
    ruleSet: ruleSetShown,
    ruleIndex: plan.ruleIndex,
    added: plan.added,
    changes: plan.changes,
    files: plan.files,
    changedFiles,
    ...(notes.length === 0 ? {} : { notes }),
  });
}

/** The written rule can never answer (routing/shadow.ts): the workspace as written now, loaded as the server would. */
async function shadowNote(t: RuleEditTarget, ruleSetIndex: number, ruleIndex: number): Promise<string | undefined> {
  const loaded = await loadWorkspace({ configPath: t.configShown, cwd: t.cwd });
  if (!loaded.ok) return undefined;
  const sets = loaded.value.ruleSets;
  const by = shadowOf(sets, ruleSetIndex, ruleIndex);
  return by === undefined
    ? undefined
    : shadowText(sets, { ruleSetIndex, ruleIndex, by }, (file) => shownFrom(t.cwd, file));
}

function shownFrom(cwd: string, abs: string): string {
  const rel = relative(cwd, abs).split(sep).join('/');
  return isAbsolute(rel) || rel.startsWith('../') ? rel : `./${rel}`;
}

/**
 * The default rule set is new and the config already lists others: it is tried after them, where their rules
 * can answer first, so say where the rule went and how to put it in the first listed one instead.
 */
function placementNote(configText: string | undefined, t: RuleEditTarget): string | undefined {
  if (configText === undefined) return undefined;
  const others = decodeRootConfig(configText, t.configAbs, t.cwd).ruleSets.filter((e) => e.path !== t.ruleSetAbs);
  if (others.length === 0) return undefined;
  const fromCwd = (abs: string): string => shownFrom(t.cwd, abs);
  const first = relative(t.cwd, others[0]!.path).split(sep).join('/');
  return `added to ${t.ruleSetShown} (new), tried after ${others.map((e) => fromCwd(e.path)).join(', ')}; --rule-set ${first} adds it there`;
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
  /** a bootstrapped config's listener.port (default 3001) */
  readonly bootstrapPort?: number;
}

export interface RuleEditVersions {
  readonly config: FileVersion;
  readonly ruleSet: FileVersion;
}

/**
 * Plan a rule edit over the files as read (`snaps`) and check that every file it writes still loads.
 * A `file` body is relative to `target.cwd`; `assumeFiles` are respond files taken as they will be (not read).
 * Shared by `set rule` and record mode (launch/record/rules.ts).
 */
export async function planRuleEdit(
  target: RuleEditTarget,
  snaps: RuleEditVersions,
  args: Omit<SetRuleArgs, 'body'>,
  body: SetRuleFlags['body'],
  assumeFiles?: ReadonlyMap<string, RespondFileStatus>,
): Promise<Result<SetRulePlan, Failure>> {
  const { configAbs, configShown, ruleSetAbs, ruleSetShown, cwd } = target;
  const configDir = dirname(configAbs);
  for (const s of [snaps.config, snaps.ruleSet]) {
    if (s.problem !== undefined)
      return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(s.shown, s.problem) });
  }

  // the root config as it is: it must load, and it says which strategy rule sets inherit
  let strategy: Strategy = DEFAULT_STRATEGY;
  let listedIndex = -1;
  if (snaps.config.text !== undefined) {
    const root = decodeRootConfig(snaps.config.text, configAbs, cwd);
    const errors = errorsOf(root.decode.diagnostics);
    if (errors.length > 0)
      return err({ kind: 'config_invalid', message: MESSAGES.configInvalid(configShown), diagnostics: errors });
    strategy = root.config.service.strategy;
    listedIndex = root.ruleSets.findIndex((e) => e.path === ruleSetAbs);
  }

  // the rule set as it is: whether it loads now, and where respond.file_path resolves
  const baseCtx = (index: number, entry: string): RuleSetContext => ({
    index,
    entry,
    baseDir: configDir,
    defaultStrategy: strategy,
  });
  let respondDir = configDir;
  let loadedBefore = true;
  if (snaps.ruleSet.text !== undefined) {
    const before = await checkRuleSet(
      snaps.ruleSet.text,
      ruleSetAbs,
      baseCtx(Math.max(0, listedIndex), ruleSetShown),
      assumeFiles,
    );
    loadedBefore = before.errors.length === 0;
    respondDir = before.respondDir ?? configDir;
  }

  const entry =
    body === undefined
      ? undefined
      : body.kind === 'file'
        ? { kind: 'file_path' as const, value: fileEntry(cwd, respondDir, body.path) }
        : body;
  const planned = planSetRule(
    {
      ...args,
      ...(entry === undefined ? {} : { body: entry }),
      ...(args.stream === undefined
        ? {}
        : { stream: { ...args.stream, path: fileEntry(cwd, respondDir, args.stream.path) } }),
      ...(args.websocketScript === undefined
        ? {}
        : { websocketScript: fileEntry(cwd, respondDir, args.websocketScript) }),
    },
    {
      config: { abs: configAbs, shown: configShown, text: snaps.config.text },
      ruleSet: { abs: ruleSetAbs, shown: ruleSetShown, text: snaps.ruleSet.text },
      ...(target.bootstrapFallbackDir === undefined ? {} : { bootstrapFallbackDir: target.bootstrapFallbackDir }),
      ...(target.bootstrapPort === undefined ? {} : { bootstrapPort: target.bootstrapPort }),
      describeRule: (text, index) =>
        describeRuleIn(text, ruleSetAbs, baseCtx(Math.max(0, listedIndex), ruleSetShown), index),
    },
  );
  if (!planned.ok) return err(planned.error);
  const refused = await checkPlan(planned.value, {
    configAbs,
    configShown,
    ruleSetAbs,
    ruleSetShown,
    cwd,
    loadedBefore,
    strategy,
    baseCtx,
    ...(assumeFiles === undefined ? {} : { assumeFiles }),
  });
  return refused === undefined ? planned : err(refused);
}

/** Write a planned edit atomically, refusing (conflict) when a file changed since `snaps` were read. */
export async function commitRuleEdit(plan: SetRulePlan, snaps: RuleEditVersions): Promise<Failure | undefined> {
  const byPath = new Map<string, FileVersion>([
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
    if (errors.length > 0)
      return { kind: 'config_invalid', message: MESSAGES.editedConfigInvalid(c.configShown), diagnostics: errors };
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
    ...draft.fileRefs.map(
      async (r) => void statuses.set(r.path, assumeFiles?.get(r.path) ?? (await respondFileStatus(r.path))),
    ),
    ...draft.dirRefs.map(async (r) => void dirs.set(r.path, (await pathKind(r.path)) === 'dir')),
  ]);
  checkRuleSetFiles(draft, {
    respondFile: (p) => statuses.get(p) ?? { kind: 'missing' },
    isDir: (p) => dirs.get(p) ?? false,
  });
  const settled = settleRuleSet(draft);
  const respondDir = draft.dirRefs.find((r) => r.keyPath.join('.') === 'prefix.respond_dir')?.path;
  return { errors: settled.ok ? [] : errorsOf(settled.error), ...(respondDir === undefined ? {} : { respondDir }) };
}

/** What rule `index` of a rule-set text matches (`GET /b`), decoded as the loader does; undefined if it does not decode. */
function describeRuleIn(text: string, file: string, ctx: RuleSetContext, index: number): string | undefined {
  const decoded = decodeRuleSetText(text, file, ctx);
  const rule = decoded.ok ? decoded.value.ruleSet.rules[index] : undefined;
  return rule === undefined ? undefined : ruleMatchesText(rule);
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
