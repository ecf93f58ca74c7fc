// Help texts and one-line usages (worded after apimock-rs's, adapted). The flag lines are generated from the flag tables
// (cli/flags.ts), which docs/reference/cli.md is generated from too; the prose around them is written here.
import type { FlagSpec } from '../shared/args.js';
import { GET_FLAGS, MATCH_TEST_FLAGS, MCP_FLAGS, META_FLAGS, SERVE_FLAGS, VALIDATE_FLAGS } from './flags.js';

/** `--config, -c <path>` */
export function flagLabel(f: FlagSpec): string {
  const value = f.value === undefined ? '' : f.optionalValue === true ? f.value : ` ${f.value}`;
  return `--${f.long}${f.short === undefined ? '' : `, -${f.short}`}${value}`;
}

/**
 * Flag lines: the label, padded to a common column (at least `minWidth`; a label longer than 24 characters
 * just gets two spaces), then the doc.
 */
export function flagLines(flags: readonly FlagSpec[], minWidth = 0): string {
  const shown = flags.filter((f) => f.hidden !== true);
  const width = Math.max(minWidth, ...shown.map((f) => flagLabel(f).length).filter((n) => n <= 24));
  return shown.map((f) => `  ${flagLabel(f).padEnd(width)}  ${f.doc ?? ''}`.trimEnd() + '\n').join('');
}

export const ROOT_USAGE =
  'mock [serve] [-p <port>] [-d <dir>] [-c <config>] [--no-watch] [--no-load-cache] [--db <file> [--persist] [--db-style v0|v1] [--routes <file>] [--read-only] [--no-cors] [--id <field>] [--foreignKeySuffix <suffix>] [--delay <ms>]] [-s <dir>] [-H <addr>] [--inspect[=<port>] [--inspect-host <addr> --inspect-token <token>] [--journal-size <n>] [--journal-max-bytes <n>]] [--record <url> [--dry-run] [--record-header <name>]... [--record-insecure]] [--contract <openapi> [--contract-mode enforce|warn]] [--init [--yes] [--middleware | --from <file or folder> [--from-format <format>] [--har-host <host>] [--include-static] [--postman-env <file>] [--update] [--dry-run] [--format text|json] [--verbose]]]';

export const ROOT_HELP = `${ROOT_USAGE}

Run with no flags to serve the current directory: zero-config mode
serves ./ by URL path on port 3001, or ./mock.toml if it exists.
\`serve\` is the explicit spelling of the same thing - identical in every
respect, never required.

${flagLines([...SERVE_FLAGS, ...META_FLAGS])}
Subcommands:
  serve       Start the server - the explicit spelling of bare mock
  get         What would the server return for this request? No server
  set         Add or change a rule, and write it to disk
  match-test  Dry-run a rule match against a rule set, no server
  validate    Validate a config, no server
  mcp         Serve the Model Context Protocol on stdio, for coding agents

Run 'mock <subcommand> --help' for subcommand-specific help.
`;

export const GET_USAGE =
  'mock get <path> [-c <config>] [-m <METHOD>] [-H "Name: value"]... [-b <json> | --body-file <path> | --body-text <text>] [--state <scenario>=<state>]... [--why] [--format text|json]';

export const GET_HELP = `mock get <path> [-c <config>] [-m <METHOD>] [-H "Name: value"]... \\
  [-b <json> | --body-file <path> | --body-text <text>] [--state <scenario>=<state>]... \\
  [--why] [--format text|json]

Answers what the server would return for this request - status, body,
headers - from configuration on disk, no server running. It runs the
very dispatch the server runs: OPTIONS, middleware scripts, rule sets,
then the fallback directory (zero-config mode included), with the same
percent-decoding and query handling. Response delays are not applied.
A rule set using a random or round-robin strategy answers as a freshly
started server would; every scenario is "started" unless --state says
otherwise, and nothing is moved. It cannot see a running server's runtime
state: overrides added with m.use() or POST /__mock/api/overrides,
sessions, counters, moved scenarios; the server's journal (its inspector)
shows what answered there.

${flagLines(GET_FLAGS, 20)}
In JSON, matched.rule_set_file is the rule set's path relative to the
current directory (or absolute); pass it to 'mock set rule --rule-set'
as is, with matched.rule_index as --rule.

match-test exits 1 on no match; get exits 0 with a result saying so.

Exit codes: 0 answered (including a 404), 2 a bad invocation or the config couldn't be loaded.
`;

export const MATCH_TEST_USAGE =
  'mock match-test --rule-set <path> [--rule <n>] [--path <url_path>] [--method <METHOD>] [-H "Name: value"]... [--body <json> | --body-file <path> | --body-text <text>] [--state <scenario>=<state>]... [--quiet] [--format text|json]';

export const MATCH_TEST_HELP = `mock match-test --rule-set <path> [--rule <n>] [--path <url_path>] \\
  [--method <METHOD>] [--header "Name: value"]... \\
  [--body <json> | --body-file <path> | --body-text <text>] [--state <scenario>=<state>]... \\
  [--quiet] [--format text|json]

Builds a synthetic request from the flags below and checks it against
a rule set directly - no server, no network request. Every rule is
checked; the winner (marked ★) is chosen by the rule set's strategy.

${flagLines(MATCH_TEST_FLAGS, 26)}
Exit codes: 0 matched, 1 no rule matched, 2 an argument or input error.
`;

export const VALIDATE_USAGE =
  'mock validate [--config <mock.toml>] [--strict] [--quiet] [--against <openapi> [--ignore <kind>]...] [--against-upstream <url> [--rate <n>] [-H "Name: value"]... [--ignore <kind>]...] [--format text|json]';

export const VALIDATE_HELP = `mock validate [--config <path>] [--strict] [--quiet] [--format text|json]
               [--against <openapi> [--ignore <kind>]...]
               [--against-upstream <url> [--rate <n>] [-H "Name: value"]... [--ignore <kind>]...]

Loads the whole workspace - root config, every rule set, middleware
script and response file it references, and the TLS cert and key - and
reports diagnostics, without binding a port. With --against, also checks
every answer the workspace can give and every documented operation
against an OpenAPI document (docs/contract.md).

With --against-upstream, it also asks the real API each recorded GET and
HEAD again and reports each difference from the recording: status,
content type, JSON shape (keys, types, array elements), with a JSON
pointer (docs/drift.md).

${flagLines(VALIDATE_FLAGS)}
--json was removed; use --format json instead.

Exit codes: 0 clean, 1 warnings under --strict or a finding of --against or --against-upstream, 2 the config or the document couldn't be loaded, or a bad invocation.
`;

export const MCP_USAGE = 'mock mcp [-d <dir>] [--inspect-url <url>] [--inspect-token <token>]';

export const MCP_HELP = `${MCP_USAGE}

Serves the Model Context Protocol over stdin and stdout, for a coding
agent (its host starts this command). The tools are the commands:
describe_workspace, validate, explain_request (get --why), match_test,
set_rule, add_file and import (--init --from, a dry run unless told)
on the workspace; list_requests, wait_for_request, list_overrides,
add_override, remove_overrides, set_scenario and reset on a running
server, through its management listener (mock --inspect). Each tool
answers the JSON envelope its command prints under --format json. The
reference pages and editor schemas are resources (mock://reference/...).
Nothing is written outside the workspace. See docs/mcp.md.

${flagLines(MCP_FLAGS)}
Exit codes: 0 when the client closes the connection, 2 a bad invocation.
`;
