// `mock set rule`: add a rule (appended, so addresses stay stable) or change one (`--rule <n>`, 0-based)
// in a rule-set file, keeping every comment and all formatting; a fresh directory gets a minimal config
// and rule set. This file is the command's text: usage, help and output. The edit itself (flags, plan,
// load check, atomic commit) is set rule's core in config/edit/io/set-rule.ts, which the inspector's rules POST
// and record mode call too.
// Exit 0 applied (or would apply, --dry-run), 2 bad invocation / config not loadable / refused edit,
// 1 the rule was addressed but saving failed (conflict, I/O error).
import { parseSetRuleFlags, setRule } from '../../config/edit/io/set-rule.js';
import { FLAGS, PREFIX } from '../../config/edit/set-rule-flags.js';
import { setRuleResult, setRuleText } from '../../config/edit/view.js';
import { successEnvelope } from '../../model/envelope.js';
import { findMetaFlag } from '../../shared/args.js';
import { flagLines } from '../help.js';
import type { Io } from '../io.js';
import { reportFailure, reportUsage } from '../report.js';

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

export async function run(argv: readonly string[], io: Io): Promise<number> {
  if (findMetaFlag(argv) === 'help') {
    io.out(SET_RULE_HELP);
    return 0;
  }
  const target = argv[0];
  if (target === undefined || target.startsWith('-'))
    return reportUsage(io, `${SET_PREFIX}: missing required subcommand`, SET_RULE_USAGE);
  if (target !== 'rule')
    return reportUsage(io, `${SET_PREFIX}: unknown target '${target}' (only 'rule' is supported)`, SET_RULE_USAGE);
  const flags = parseSetRuleFlags(argv.slice(1));
  if (!flags.ok) return reportUsage(io, flags.error, SET_RULE_USAGE);
  const outcome = await setRule(flags.value, io.cwd);
  if (!outcome.ok) return reportFailure(io, PREFIX, flags.value.format, outcome.error);
  io.out(
    flags.value.format === 'json'
      ? successEnvelope(io.version(), setRuleResult(outcome.value))
      : setRuleText(outcome.value),
  );
  if (flags.value.hint !== undefined) io.err(flags.value.hint + '\n');
  return 0;
}
