// `mock --record <url>` (and `mock serve --record …`): the flags, checked before anything loads. With the
// workspace loaded, launch/record/setup.ts turns them into the settings the server's record mode runs on.
//
// Usage errors (exit 2): a target that is not http(s)://host[:port][/base]; `--record-header` naming no header
// or one never kept; `--record-header` / `--record-insecure` without `--record`; `--record` with `--init`.
import { checkRecordHeader } from '../../record/headers.js';
import { parseRecordTarget } from '../../record/target.js';
import { err, ok, type Result } from '../../shared/result.js';
import { type ParsedArgs, flagValue, flagValues, hasFlag } from '../../shared/args.js';
import type { RecordFlags } from '../../launch/record/setup.js';

export type { RecordFlags };

const RECORD_FLAG_MESSAGES = {
  without: (flag: string) => `--${flag} goes with --record <url>`,
  withInit: '--record does not go with --init',
} as const;

/** The record flags, checked (undefined: no --record), or a usage message. */
export function recordFlags(args: ParsedArgs): Result<RecordFlags | undefined, string> {
  const given = flagValue(args, 'record');
  if (given === undefined) {
    const stray = (['record-header', 'record-insecure'] as const).find((f) => hasFlag(args, f));
    return stray === undefined ? ok(undefined) : err(RECORD_FLAG_MESSAGES.without(stray));
  }
  if (hasFlag(args, 'init')) return err(RECORD_FLAG_MESSAGES.withInit);
  const target = parseRecordTarget(given);
  if (!target.ok) return err(target.error);
  const keepHeaders = flagValues(args, 'record-header');
  for (const h of keepHeaders) {
    const problem = checkRecordHeader(h);
    if (problem !== undefined) return err(problem);
  }
  return ok({
    target: target.value,
    given,
    insecure: hasFlag(args, 'record-insecure'),
    dryRun: hasFlag(args, 'dry-run'),
    keepHeaders,
  });
}
