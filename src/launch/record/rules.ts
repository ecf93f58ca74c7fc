// Record mode's rule committer: each recorded rule appended to `mock-recorded.toml` in the config directory
// through `set rule`'s own planner, load check and atomic commit (set-rule.ts), bootstrapping the config and
// listing the rule set last in service.rule_sets as `set rule` does. Calls are serialised.
// A dry run plans against the files as they would be after the earlier dry-run appends of the session (kept in
// memory), takes the bodies it was shown as present, and writes nothing — no bootstrap either.
import { dirname, join, relative, sep } from 'node:path';
import type { HeaderArg } from '../../config/edit/plan-types.js';
import type { RespondFileStatus } from '../../config/respond-files.js';
import type { AppendedRule, CommitRule, RuleToAppend } from '../../record/commit-port.js';
import { RECORDED_RULE_SET } from '../../record/plan.js';
import { err, ok, type Result } from '../../shared/result.js';
import { readFileVersion, type FileVersion } from '../../config/edit/io/commit.js';
import {
  commitRuleEdit,
  planRuleEdit,
  type RuleEditVersions,
  type RuleEditTarget,
} from '../../config/edit/io/set-rule.js';
import type { SetRuleFlags } from '../../config/edit/set-rule-flags.js';

export interface RuleCommitterOptions {
  /** the root config (absolute), existing or not */
  readonly configAbs: string;
  readonly dryRun: boolean;
  /** default: mock-recorded.toml beside the config */
  readonly ruleSetAbs?: string;
  /** the fallback directory in use (absolute, inside the config directory): a bootstrapped config names it */
  readonly fallbackDir?: string;
  /** the port the recording runs on (`-p`): a bootstrapped config keeps it */
  readonly port?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function createRuleCommitter(o: RuleCommitterOptions): CommitRule {
  const configDir = dirname(o.configAbs);
  const ruleSetAbs = o.ruleSetAbs ?? join(configDir, RECORDED_RULE_SET);
  const shown = (abs: string): string => relative(configDir, abs).split(sep).join('/');
  const fallbackEntry = o.fallbackDir === undefined ? undefined : shown(o.fallbackDir) || '.';
  const target: RuleEditTarget = {
    configAbs: o.configAbs,
    configShown: shown(o.configAbs),
    ruleSetAbs,
    ruleSetShown: shown(ruleSetAbs),
    cwd: configDir,
    ...(fallbackEntry === undefined ? {} : { bootstrapFallbackDir: fallbackEntry }),
    ...(o.port === undefined ? {} : { bootstrapPort: o.port }),
  };
  /** dry run: the texts as the earlier appends would have left them, and the bodies they would have written */
  let virtual: RuleEditVersions | undefined;
  const assumed = new Map<string, RespondFileStatus>();
  let queue: Promise<unknown> = Promise.resolve();

  const commitOne = async (rule: RuleToAppend): Promise<Result<AppendedRule, string>> => {
    const snaps = virtual ?? {
      config: await readFileVersion(target.configAbs, target.configShown),
      ruleSet: await readFileVersion(ruleSetAbs, target.ruleSetShown),
    };
    if (o.dryRun && rule.body.kind === 'file')
      assumed.set(rule.body.abs, assumedStatus(rule.body.abs, rule.body.bytes));
    if (o.dryRun && (rule.body.kind === 'stream' || rule.body.kind === 'websocket'))
      assumed.set(rule.body.abs, { kind: 'file', path: rule.body.abs });
    const planned = await planRuleEdit(
      target,
      snaps,
      argsOf(rule, configDir),
      bodyOf(rule, configDir),
      o.dryRun ? assumed : undefined,
    );
    if (!planned.ok) return err(planned.error.message);
    const plan = planned.value;
    if (o.dryRun) {
      const after = (s: FileVersion): FileVersion => {
        const f = plan.files.find((w) => w.abs === s.abs);
        return f === undefined ? s : { abs: s.abs, shown: s.shown, text: f.after, bom: s.bom };
      };
      virtual = { config: after(snaps.config), ruleSet: after(snaps.ruleSet) };
    } else {
      const failure = await commitRuleEdit(plan, snaps);
      if (failure !== undefined) return err(failure.message);
    }
    return ok({ ruleNumber: plan.ruleIndex + 1, ruleSet: target.ruleSetShown });
  };

  return (rule) => {
    const run = queue.then(() => commitOne(rule));
    queue = run.catch(() => undefined);
    return run;
  };
}

function argsOf(rule: RuleToAppend, configDir: string): Omit<SetRuleFlags['args'], 'body'> {
  const respondHeaders: HeaderArg[] = rule.headers.map(([name, value]) => ({ name: name.toLowerCase(), value }));
  return {
    urlPath: rule.urlPath,
    method: rule.method,
    headers: [],
    ...(rule.query === undefined || rule.query.length === 0
      ? {}
      : { fields: rule.query.map(([name, value]) => ({ on: 'query' as const, name, value })) }),
    ...(rule.status === undefined ? {} : { status: rule.status }),
    ...(respondHeaders.length === 0 ? {} : { respondHeaders }),
    ...(rule.body.kind === 'stream'
      ? {
          stream: {
            path: relative(configDir, rule.body.abs),
            ...(rule.body.intervalMs === undefined ? {} : { intervalMs: rule.body.intervalMs }),
          },
        }
      : {}),
    ...(rule.body.kind === 'websocket' ? { websocketScript: relative(configDir, rule.body.abs) } : {}),
  };
}

/** The body as `set rule` flags give it: a file relative to the config directory (the committer's cwd). */
function bodyOf(rule: RuleToAppend, configDir: string): SetRuleFlags['body'] {
  const b = rule.body;
  switch (b.kind) {
    case 'empty':
    case 'stream':
    case 'websocket':
      return undefined;
    case 'text':
      return { kind: 'text', value: b.text };
    case 'file':
      return { kind: 'file', path: relative(configDir, b.abs) };
  }
}

/** A body a dry run would have written, as the load check would find it. */
function assumedStatus(abs: string, bytes: Uint8Array): RespondFileStatus {
  if (!/\.json5?$/i.test(abs)) return { kind: 'file', path: abs };
  try {
    return { kind: 'file', path: abs, text: utf8.decode(bytes) };
  } catch {
    return { kind: 'file', path: abs, text: '' };
  }
}
