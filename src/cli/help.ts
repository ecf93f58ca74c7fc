// Help texts and one-line usages (reference §9.1, adapted). `set` prints its own (cli/commands/set-rule.ts).

export const ROOT_USAGE =
  'mock [serve] [-p <port>] [-d <dir>] [-c <config>] [--no-watch] [--inspect[=<port>] [--journal-size <n>] [--journal-max-bytes <n>]] [--init [--yes] [--middleware | --from <openapi file> [--dry-run] [--format text|json]]]';

export const ROOT_HELP = `${ROOT_USAGE}

Run with no flags to serve the current directory: zero-config mode
serves ./ by URL path on port 3001, or ./mock.toml if it exists.
\`serve\` is the explicit spelling of the same thing - identical in every
respect, never required.

  -c, --config <path>  Load a config file (a bare relative path resolves
                       the same as one prefixed with ./)
  -p, --port <port>    Listen on a custom port (0 picks a free one)
  -d, --dir <dir>      Serve a custom fallback directory instead of ./
  --no-watch           Do not watch mock.toml, rule sets and scripts: edits
                       then need a restart (by default they apply live,
                       and an invalid edit keeps the last good config)
  --inspect[=<port>]   Open the inspector on http://127.0.0.1:<port>/ (a
                       free port when none is given; loopback only): every
                       request with the rule that answered and why, live
  --journal-size <n>   With --inspect, keep the last <n> requests (default
                       1000, at most 100000)
  --journal-max-bytes <n>  With --inspect, keep at most <n> bytes of
                       requests in all (default 33554432, i.e. 32 MiB)
  --init               Scaffold a starting config in the current directory
  --yes                With --init, skip prompts and accept defaults
  --middleware         With --init, also scaffold a middleware file
  --from <file>        With --init, make the workspace from an OpenAPI 3.0/3.1
                       document (YAML or JSON): one rule per operation and
                       response, bodies as JSON files under responses/; in a
                       folder with mock.toml, adds a rule set to it instead
  --dry-run            With --init --from, show what would be written; write nothing
  --format text|json   With --init --from: text (default) or the JSON envelope
  -h, --help           Print this help and exit
  --version            Print the version and exit

Subcommands:
  serve       Start the server - the explicit spelling of bare mock
  get         What would the server return for this request? No server
  set         Add or change a rule, and write it to disk
  match-test  Dry-run a rule match against a rule set, no server
  validate    Validate a config, no server

Run 'mock <subcommand> --help' for subcommand-specific help.
`;

export const GET_USAGE =
  'mock get <path> [-c <config>] [-m <METHOD>] [-H "Name: value"]... [-b <json> | --body-file <path>] [--why] [--format text|json]';

export const GET_HELP = `mock get <path> [-c <config>] [-m <METHOD>] [-H "Name: value"]... \\
  [-b <json> | --body-file <path>] [--why] [--format text|json]

Answers what the server would return for this request - status, body,
headers - from configuration on disk, no server running. It runs the
very dispatch the server runs: OPTIONS, middleware scripts, rule sets,
then the fallback directory (zero-config mode included), with the same
percent-decoding and query handling. Response delays are not applied.
A rule set using a random or round-robin strategy answers as a freshly
started server would.

  --config, -c <path>   The root config to answer from (default: ./mock.toml, or zero-config if absent)
  --method, -m <METHOD> The request's HTTP method (default: GET)
  --header, -H "Name: value"  Add a header; repeatable
  --body, -b <json>     The request's JSON body, inline (sent as application/json unless -H sets a content-type)
  --body-file <path>    The request's JSON body, from a file
  --why                 Explain which stage and rule decided the answer, with every condition checked. Off by default in text, always included with --format json
  --format text|json    text (default): human-readable. json: the response envelope, with provenance

In JSON, matched.rule_set_file is the rule set's path relative to the
current directory (or absolute); pass it to 'mock set rule --rule-set'
as is, with matched.rule_index as --rule.

match-test exits 1 on no match; get exits 0 with a result saying so.

Exit codes: 0 answered (including a 404), 2 a bad invocation or the config couldn't be loaded.
`;

export const MATCH_TEST_USAGE =
  'mock match-test --rule-set <path> [--rule <n>] [--path <url_path>] [--method <METHOD>] [-H "Name: value"]... [--body <json> | --body-file <path>] [--quiet] [--format text|json]';

export const MATCH_TEST_HELP = `mock match-test --rule-set <path> [--rule <n>] [--path <url_path>] \\
  [--method <METHOD>] [--header "Name: value"]... \\
  [--body <json> | --body-file <path>] [--quiet] [--format text|json]

Builds a synthetic request from the flags below and checks it against
a rule set directly - no server, no network request. Every rule is
checked; the winner (marked ★) is chosen by the rule set's strategy.

  --rule-set, -r <path>       Required. The rule-set file to check against
  --rule <n>                  Check only this rule, 1-based
  --path, -p <url_path>       The synthetic request's URL path (default: /)
  --method, -m <METHOD>       The synthetic request's HTTP method (default: GET)
  --header, -H "Name: value"  Add a header; repeatable
  --body, -b <json>           The synthetic request's JSON body, inline
  --body-file <path>          The synthetic request's JSON body, from a file
  --quiet, -q                 Print nothing; only the exit code tells the result
  --format text|json          text (default): the breakdown below. json: the response envelope

Exit codes: 0 matched, 1 no rule matched, 2 an argument or input error.
`;

export const VALIDATE_USAGE = 'mock validate [--config <mock.toml>] [--strict] [--quiet] [--format text|json]';

export const VALIDATE_HELP = `mock validate [--config <path>] [--strict] [--quiet] [--format text|json]

Loads the whole workspace - root config, every rule set, middleware
script and response file it references, and the TLS cert and key - and
reports diagnostics, without binding a port.

  --config, -c <path>  The root config to validate (default: ./mock.toml)
  --strict             Treat warnings as failures too
  --quiet              Suppress non-error output
  --format text|json   text (default): human-readable. json: the response envelope

--json was removed; use --format json instead.

Exit codes: 0 clean, 1 warnings under --strict, 2 the config couldn't be loaded, or a bad invocation.
`;
