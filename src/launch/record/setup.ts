// Record mode's set-up, with the workspace loaded: the settings the server's record mode runs on
// (server/record/mode.ts) and the startup lines, from the checked `--record` flags (cli/commands/record-setup.ts).
//
// Layout errors (exit 2): the fallback directory outside the config directory (rule file_paths are
// config-relative); `-d` naming another directory than the config's `fallback_respond_dir` (what is recorded
// there would not be served by a plain `mock` run). Without a config file, `-d` is allowed: the first recorded
// rule bootstraps a mock.toml naming that directory (a startup line says to replay with the same -d until then).
//
// Test-only: MOCK_RECORD_CONNECT_TIMEOUT_MS and MOCK_RECORD_TOTAL_TIMEOUT_MS replace the 5 s / 30 s limits.
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { loadWorkspace, type LoadOptions } from '../../config/load.js';
import type { Workspace } from '../../model/workspace.js';
import { checkRecordLayout, type RecordTarget } from '../../record/target.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { RecordSettings } from '../launch.js';
import { createRuleCommitter } from './rules.js';

/** What the server's record mode takes (server/record/mode.ts RecordSettings, re-exported by launch/launch.ts). */
export type RecordSetup = RecordSettings;

export interface RecordFlags {
  readonly target: RecordTarget;
  readonly given: string;
  readonly insecure: boolean;
  readonly dryRun: boolean;
  readonly keepHeaders: readonly string[];
}

/** test-only overrides of the proxy's limits (docs/record.md) */
export const RECORD_TIMEOUT_ENV = {
  connect: 'MOCK_RECORD_CONNECT_TIMEOUT_MS',
  total: 'MOCK_RECORD_TOTAL_TIMEOUT_MS',
} as const;

export const RECORD_SETUP_MESSAGES = {
  otherDir: (dir: string, configured: string, config: string) =>
    `--record: -d ${dir} is not the fallback_respond_dir of ${config} (${configured}): a plain run of mock would not serve what is recorded there; drop -d, or set fallback_respond_dir`,
  otherDirUnloadable: (dir: string, config: string) =>
    `--record: -d ${dir} replaces the fallback_respond_dir of ${config}, which does not load without it: a plain run of mock would not serve what is recorded there`,
  on: (target: string, dry: boolean) =>
    `[record] ${target} (misses are forwarded there${dry ? '; dry run: nothing is written' : ' and saved'})`,
  insecure: (target: string) => `[record] --record-insecure: the certificate of ${target} is not verified`,
  dirWithoutConfig: (dir: string) =>
    `[record] no mock.toml yet: replay with the same -d ${dir} (the first recorded rule creates a mock.toml naming it)`,
} as const;

/** With the workspace loaded: the server's record settings and the startup lines, or the message (exit 2). */
export async function recordSetup(
  flags: RecordFlags,
  ws: Workspace,
  load: LoadOptions,
  env: NodeJS.ProcessEnv,
): Promise<Result<{ readonly setup: RecordSetup; readonly lines: readonly string[] }, string>> {
  const configAbs = ws.configFile ?? join(load.cwd, 'mock.toml');
  const configDir = await realpath(dirname(configAbs));
  const fallbackDir = await realpath(ws.fallbackDir);
  const outside = checkRecordLayout(configDir, fallbackDir);
  if (outside !== undefined) return err(outside);
  if (load.dir !== undefined && ws.configFile !== undefined) {
    const { dir: _dir, ...withoutDir } = load;
    const plain = await loadWorkspace(withoutDir);
    if (!plain.ok) return err(RECORD_SETUP_MESSAGES.otherDirUnloadable(fallbackDir, ws.configFile));
    const configured = await realpath(plain.value.fallbackDir).catch(() => plain.value.fallbackDir);
    if (configured !== fallbackDir) return err(RECORD_SETUP_MESSAGES.otherDir(fallbackDir, configured, ws.configFile));
  }
  const connectTimeoutMs = msFrom(env[RECORD_TIMEOUT_ENV.connect]);
  const totalTimeoutMs = msFrom(env[RECORD_TIMEOUT_ENV.total]);
  const setup: RecordSetup = {
    target: flags.target,
    insecure: flags.insecure,
    dryRun: flags.dryRun,
    keepHeaders: flags.keepHeaders,
    fallbackDir,
    commitRule: createRuleCommitter({
      configAbs: join(configDir, basename(configAbs)),
      dryRun: flags.dryRun,
      fallbackDir,
      // `-p 0` picks any free port, which a config cannot keep: the default stays then
      ...(load.port !== undefined && load.port !== 0 ? { port: load.port } : {}),
    }),
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    ...(totalTimeoutMs !== undefined ? { totalTimeoutMs } : {}),
  };
  const shown = flags.target.origin + flags.target.basePath;
  const lines = [
    RECORD_SETUP_MESSAGES.on(shown, flags.dryRun),
    ...(flags.insecure ? [RECORD_SETUP_MESSAGES.insecure(shown)] : []),
  ];
  if (load.dir !== undefined && ws.configFile === undefined && fallbackDir !== configDir)
    lines.push(RECORD_SETUP_MESSAGES.dirWithoutConfig(load.dir));
  return ok({ setup, lines });
}

function msFrom(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 ? n : undefined;
}
