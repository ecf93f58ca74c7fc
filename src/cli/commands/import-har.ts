// `mock --init --from <file.har>`: each entry of the HAR (import/har.ts) handed, in the order it started, to record
// mode's own recorder and rule committer (server/record/recorder.ts, launch/record/rules.ts), so the workspace is the one
// a live `mock --record` session of the same traffic leaves: plain files under the fallback directory, and rules in
// mock-recorded.toml (listed in mock.toml, which is made if there is none). The HAR is read and checked whole
// before anything is written; `--dry-run` plans every entry and writes nothing.
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { loadWorkspace } from '../../config/load.js';
import { decodeHar } from '../../import/har.js';
import { leftOutLine, type LeftOut } from '../../import/plan.js';
import { checkRecordLayout } from '../../record/target.js';
import { createRecorder } from '../../server/record/recorder.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { Wire } from '../../model/envelope.js';
import type { Failure } from '../report.js';
import { createRuleCommitter } from '../../launch/record/rules.js';

export interface HarOptions {
  readonly dryRun: boolean;
  readonly host?: string;
  readonly includeStatic?: boolean;
}

export interface HarView {
  readonly dryRun: boolean;
  readonly source: string;
  readonly host: string | undefined;
  readonly read: number;
  /** the recorder's lines, in order (`recorded api/users.json (200, 12 B)`, `recorded rule #2 in …`) */
  readonly lines: readonly string[];
  readonly files: number;
  readonly rules: number;
  readonly leftOut: readonly LeftOut[];
}

export async function importHar(
  cwd: string,
  given: string,
  data: unknown,
  o: HarOptions,
): Promise<Result<HarView, Failure>> {
  const decoded = decodeHar(data, {
    ...(o.host === undefined ? {} : { host: o.host }),
    ...(o.includeStatic === undefined ? {} : { includeStatic: o.includeStatic }),
  });
  if (!decoded.ok)
    return err({ kind: 'config_invalid', message: `${given}: ${decoded.error.place}: ${decoded.error.message}` });
  const loaded = await loadWorkspace({ cwd });
  if (!loaded.ok) return err(loaded.error);
  const ws = loaded.value;
  const configAbs = ws.configFile ?? join(cwd, 'mock.toml');
  const configDir = await realpath(dirname(configAbs));
  const fallbackDir = await realpath(ws.fallbackDir);
  const outside = checkRecordLayout(configDir, fallbackDir);
  if (outside !== undefined) return err({ kind: 'config_invalid', message: outside });
  const recorder = createRecorder({
    fallbackDir,
    dryRun: o.dryRun,
    commitRule: createRuleCommitter({ configAbs: join(configDir, basename(configAbs)), dryRun: o.dryRun, fallbackDir }),
    // the recording index names the API the traffic came from, as a live recording does (docs/drift.md)
    ...(decoded.value.origin === undefined ? {} : { upstream: decoded.value.origin }),
  });
  const lines: string[] = [];
  const leftOut: LeftOut[] = [...decoded.value.leftOut];
  let files = 0;
  let rules = 0;
  for (const e of decoded.value.entries) {
    const outcome = await recorder.record(e.exchange, ws.deny);
    lines.push(...outcome.lines);
    const saved = outcome.saved ?? outcome.wouldSave;
    if (saved === undefined) {
      const why = outcome.lines.find((l) => l.startsWith('not saved: '));
      leftOut.push({ place: e.place, what: '', reason: (why ?? 'not saved').replace(/^not saved: /, '') });
    } else if (saved.kind === 'file') files++;
    else rules++;
  }
  await recorder.idle();
  return ok({
    dryRun: o.dryRun,
    source: given,
    host: decoded.value.host,
    read: decoded.value.read,
    lines,
    files,
    rules,
    leftOut,
  });
}

export function harResult(v: HarView): Wire {
  return {
    dry_run: v.dryRun,
    source: { file: v.source, format: 'har', host: v.host ?? null },
    read: v.read,
    files: v.files,
    rules: v.rules,
    saved: [...v.lines],
    left_out: v.leftOut.map((l) => ({ place: l.place, part: l.what, reason: l.reason })),
  };
}

export function harText(v: HarView): string {
  const out = [
    `${v.dryRun ? 'Would import' : 'Imported'} ${v.read} HAR entr${v.read === 1 ? 'y' : 'ies'} (HAR 1.2${v.host === undefined ? '' : `, host ${v.host}`}) from ${v.source} as record mode saves them: ` +
      `${v.files} file${v.files === 1 ? '' : 's'}, ${v.rules} rule${v.rules === 1 ? '' : 's'}.`,
    '',
    ...v.lines.map((l) => `  ${l}`),
  ];
  if (v.leftOut.length > 0) {
    out.push('', 'Left out:');
    for (const l of v.leftOut) out.push(`  ${leftOutLine(l)}`);
  }
  out.push('');
  if (!v.dryRun) out.push('Start the server with `mock`.');
  return out.join('\n') + '\n';
}
