// Every command's flag table, with a one-line doc per flag: the parser reads them (shared/args.ts), and --help
// (cli/help.ts) and docs/reference/cli.md are generated from them. Pure data, so --help loads no command.
import { FORMAT_DOC, type FlagSpec } from '../shared/args.js';

/** `mock` / `mock serve` */
export const SERVE_FLAGS: readonly FlagSpec[] = [
  {
    long: 'config',
    short: 'c',
    takesValue: true,
    path: true,
    value: '<path>',
    doc: 'Load a config file (a bare relative path resolves the same as one prefixed with ./)',
  },
  { long: 'port', short: 'p', takesValue: true, value: '<port>', doc: 'Listen on a custom port (0 picks a free one)' },
  {
    long: 'dir',
    short: 'd',
    takesValue: true,
    path: true,
    value: '<dir>',
    doc: 'Serve a custom fallback directory instead of ./',
  },
  {
    long: 'db',
    takesValue: true,
    path: true,
    value: '<file>',
    doc: 'Serve a json-server style data file: each top-level array is a collection at /<key> (list with filters, sort and pages; create, read, replace, update, delete by id), each object a single resource; replaces service.db',
  },
  {
    long: 'persist',
    takesValue: false,
    doc: "With --db (or service.db), write the collections' changes back to the file, atomically, in its own formatting",
  },
  {
    long: 'routes',
    short: 'r',
    takesValue: true,
    path: true,
    value: '<file>',
    doc: 'With --db, json-server\'s rewrites: a JSON object like {"/api/*": "/$1", "/blog/:resource/:id/show": "/:resource/:id"}, tried in order before the db file\'s routes',
  },
  {
    long: 'db-style',
    takesValue: true,
    value: 'v0|v1',
    doc: "With --db, v1 answers with json-server 1.0's query language (views:gt=100, _sort=-views, _page with _per_page and its page envelope, _where, _embed, string ids, DELETE's _dependent); v0, the default, is json-server 0.17's",
  },
  {
    long: 'read-only',
    takesValue: false,
    doc: "With --db, as json-server's: only GET is answered by the db file's routes; every other method is 403",
  },
  {
    long: 'no-cors',
    takesValue: false,
    doc: "With --db, send no CORS headers on the db file's answers (by default they are json-server's: the request's Origin echoed, with credentials)",
  },
  {
    long: 'id',
    takesValue: true,
    value: '<field>',
    doc: "With --db, the items' id field (default id), as json-server's --id",
  },
  {
    long: 'foreignKeySuffix',
    takesValue: true,
    value: '<suffix>',
    doc: "With --db, the end of a foreign key's name for _embed, _expand, nested routes and DELETE's dependants (default Id: postId names a post)",
  },
  {
    long: 'delay',
    takesValue: true,
    value: '<ms>',
    doc: "With --db, hold every answer of the db file's this many milliseconds, as json-server's --delay (a request's ?_delay=<ms> instead; there is no short form: -d is --dir)",
  },
  {
    long: 'static',
    short: 's',
    takesValue: true,
    path: true,
    value: '<dir>',
    doc: "json-server's name for --dir: serve this folder's files (where no route answers)",
  },
  {
    long: 'host',
    short: 'H',
    takesValue: true,
    value: '<addr>',
    doc: 'Listen on this address instead of listener.ip_address (default 127.0.0.1)',
  },
  {
    long: 'watch',
    short: 'w',
    takesValue: false,
    doc: "Accepted for json-server's sake: mock watches its files by default (--no-watch turns it off)",
  },
  { long: 'no-gzip', takesValue: false, doc: "Accepted for json-server's sake: mock sends no compressed answers" },
  {
    long: 'snapshots',
    short: 'S',
    takesValue: true,
    hidden: true,
    doc: "json-server's; refused with mock's way (save GET /db, or --persist)",
  },
  {
    long: 'middlewares',
    short: 'm',
    takesValue: true,
    repeat: true,
    hidden: true,
    doc: "json-server's; refused with mock's way (Rhai scripts in service.middlewares)",
  },
  { long: 'init', takesValue: false, doc: 'Scaffold a starting config in the current directory' },
  { long: 'yes', takesValue: false, doc: 'With --init, skip prompts and accept defaults' },
  { long: 'middleware', takesValue: false, doc: 'With --init, also scaffold a middleware file' },
  {
    long: 'no-watch',
    takesValue: false,
    doc: 'Do not watch mock.toml, rule sets and scripts: edits then need a restart (by default they apply live, and an invalid edit keeps the last good config)',
  },
  {
    long: 'no-load-cache',
    takesValue: false,
    doc: 'Decode every rule set at start, and keep nothing in ~/.cache/mock (by default unchanged rule-set files are remembered between starts and decoded on first need; with --init --from, the import does not fill the cache). Also MOCK_LOAD_CACHE=off (docs/load-cache.md)',
  },
  {
    long: 'from',
    takesValue: true,
    path: true,
    value: '<file>',
    doc: 'With --init, make the workspace from what you have: an OpenAPI 3.x or Swagger 2.0 document (YAML or JSON), a HAR file, WireMock mappings (a folder or one file), a Postman collection v2.x with saved examples, or a Mockoon environment; the format is told from the content. One rule set, bodies under responses/; in a folder with mock.toml, adds a rule set to it instead (docs/import.md)',
  },
  {
    long: 'from-format',
    takesValue: true,
    value: 'openapi|swagger|har|wiremock|postman|mockoon',
    doc: 'With --init --from, read the source as this format instead of telling it from the content',
  },
  {
    long: 'har-host',
    takesValue: true,
    value: '<host>',
    doc: 'With --init --from <file.har>, import the entries for this host (default: the host with the most API entries)',
  },
  {
    long: 'include-static',
    takesValue: false,
    doc: 'With --init --from <file.har>, also import images, fonts, scripts and style sheets (skipped by default)',
  },
  {
    long: 'postman-env',
    takesValue: true,
    path: true,
    value: '<file>',
    doc: "With --init --from <collection>, resolve the collection's {{variables}} from this Postman environment file too",
  },
  {
    long: 'record',
    takesValue: true,
    value: '<url>',
    doc: 'Record mode: forward what the workspace does not answer to http(s)://host[:port][/base] and save each answer as a file under the fallback directory or a rule in mock-recorded.toml, served from the next request on',
  },
  {
    long: 'record-header',
    takesValue: true,
    repeat: true,
    value: '<name>',
    doc: 'With --record, also keep this response header; repeatable',
  },
  { long: 'record-insecure', takesValue: false, doc: "With --record, do not verify an https target's certificate" },
  {
    long: 'contract',
    takesValue: true,
    path: true,
    value: '<openapi>',
    doc: 'Check each request against an OpenAPI 3.0/3.1 document (parameters and JSON body) before middleware and rules, and each answer against its documented responses (overrides service.contract)',
  },
  {
    long: 'contract-mode',
    takesValue: true,
    value: 'enforce|warn',
    doc: 'With a contract: enforce (default) answers a request that breaks it 400 application/problem+json; warn answers as usual, logs the violation and marks it in the journal',
  },
  {
    long: 'dry-run',
    takesValue: false,
    doc: 'With --record, forward but write nothing (print what would be written); with --init --from, show what would be written; write nothing',
  },
  {
    long: 'format',
    takesValue: true,
    value: 'text|json',
    doc: 'With --init --from: text (default) or the JSON envelope',
  },
  {
    long: 'verbose',
    takesValue: false,
    doc: 'With --init --from, list every operation (written or skipped) with its rules and notes',
  },
  {
    long: 'update',
    takesValue: false,
    doc: 'With --init --from, update the earlier import of this document in place: rules and files you have not edited follow the document, new operations and responses are added, edited ones are kept and reported',
  },
  {
    long: 'inspect',
    takesValue: true,
    optionalValue: true,
    value: '[=<port>]',
    doc: 'Also open the inspector on http://127.0.0.1:<port>/ (a free port when none is given; loopback only): every request with what answered and why, live, and the request journal over HTTP',
  },
  {
    long: 'inspect-host',
    takesValue: true,
    value: '<addr>',
    doc: 'With --inspect, bind the inspector on this address (e.g. 0.0.0.0 in a container); beyond loopback it needs --inspect-token',
  },
  {
    long: 'inspect-token',
    takesValue: true,
    value: '<token>',
    doc: 'With --inspect, every management request must carry `authorization: Bearer <token>` (401 without); any Host is then accepted. Default: $MOCK_INSPECT_TOKEN',
  },
  {
    long: 'journal-size',
    takesValue: true,
    value: '<n>',
    doc: 'With --inspect, keep the last <n> requests (default 1000, at most 100000)',
  },
  {
    long: 'journal-max-bytes',
    takesValue: true,
    value: '<n>',
    doc: 'With --inspect, keep at most <n> bytes of requests in all (default 33554432: 32 MiB)',
  },
];

/** Handled before any parsing, by every command (cli/run.ts). */
export const META_FLAGS: readonly FlagSpec[] = [
  { long: 'help', short: 'h', takesValue: false, doc: 'Print this help and exit' },
  { long: 'version', takesValue: false, doc: 'Print the version and exit' },
];

/** The synthetic request of `get` and `match-test`. */
export const REQUEST_FLAGS: readonly FlagSpec[] = [
  { long: 'method', short: 'm', takesValue: true, value: '<METHOD>', doc: "The request's HTTP method (default: GET)" },
  {
    long: 'header',
    short: 'H',
    takesValue: true,
    repeat: true,
    value: '"Name: value"',
    doc: 'Add a header; repeatable',
  },
  {
    long: 'body',
    short: 'b',
    takesValue: true,
    value: '<json>',
    doc: "The request's JSON body, inline (sent as application/json unless -H sets a content-type)",
  },
  { long: 'body-file', takesValue: true, path: true, value: '<path>', doc: "The request's JSON body, from a file" },
  {
    long: 'body-text',
    takesValue: true,
    value: '<text>',
    doc: "The request's body as text, sent as it is (XML, a form, GraphQL…; text/plain unless -H sets a content-type)",
  },
  {
    long: 'state',
    takesValue: true,
    repeat: true,
    value: '<scenario>=<state>',
    doc: 'Answer as if this scenario were in this state (every other one is "started"); repeatable',
  },
];

export const GET_FLAGS: readonly FlagSpec[] = [
  {
    long: 'config',
    short: 'c',
    takesValue: true,
    path: true,
    value: '<path>',
    doc: 'The root config to answer from (default: ./mock.toml, or zero-config if absent)',
  },
  {
    long: 'db',
    takesValue: true,
    path: true,
    value: '<file>',
    doc: 'Serve a json-server style data file: each top-level array is a collection at /<key> (list with filters, sort and pages; create, read, replace, update, delete by id), each object a single resource; replaces service.db (answers from the file as loaded: nothing is written)',
  },
  ...REQUEST_FLAGS,
  {
    long: 'why',
    takesValue: false,
    doc: 'Explain which stage and rule decided the answer, with every condition checked. Off by default in text, always included with --format json',
  },
  {
    long: 'format',
    takesValue: true,
    value: 'text|json',
    doc: 'text (default): human-readable. json: the response envelope, with provenance',
  },
];

export const MATCH_TEST_FLAGS: readonly FlagSpec[] = [
  {
    long: 'rule-set',
    short: 'r',
    takesValue: true,
    path: true,
    value: '<path>',
    doc: 'Required. The rule-set file to check against',
  },
  { long: 'rule', takesValue: true, value: '<n>', doc: 'Check only this rule, 1-based' },
  {
    long: 'path',
    short: 'p',
    takesValue: true,
    value: '<url_path>',
    doc: "The synthetic request's URL path (default: /)",
  },
  ...REQUEST_FLAGS,
  { long: 'quiet', short: 'q', takesValue: false, doc: 'Print nothing; only the exit code tells the result' },
  {
    long: 'format',
    takesValue: true,
    value: 'text|json',
    doc: 'text (default): the breakdown below. json: the response envelope',
  },
];

export const VALIDATE_FLAGS: readonly FlagSpec[] = [
  {
    long: 'config',
    short: 'c',
    takesValue: true,
    path: true,
    value: '<path>',
    doc: 'The root config to validate (default: ./mock.toml)',
  },
  { long: 'strict', takesValue: false, doc: 'Treat warnings as failures too' },
  { long: 'quiet', takesValue: false, doc: 'Suppress non-error output' },
  {
    long: 'against',
    takesValue: true,
    path: true,
    value: '<openapi>',
    doc: "Also check the workspace against an OpenAPI 3.0/3.1 document: every rule's and file's answer (documented path, status, content type, body schema) and every documented operation (answered?); exit 1 on a finding",
  },
  {
    long: 'ignore',
    takesValue: true,
    repeat: true,
    value: '<kind>',
    doc: 'With --against or --against-upstream, leave out the findings of this kind (undocumented_path, undocumented_status, undocumented_content_type, schema_mismatch, unanswered_operation; upstream_status, upstream_content_type, upstream_shape, upstream_unreachable); repeatable',
  },
  { long: 'format', takesValue: true, value: 'text|json', doc: FORMAT_DOC },
  { long: 'json', takesValue: false, hidden: true, doc: 'Removed; use --format json' },
  {
    long: 'against-upstream',
    takesValue: true,
    value: '<url>',
    doc: 'Send each recorded GET and HEAD (the recording index, .mock-recorded/index.json) to the real API at http(s)://host[:port][/base] and report where its status, content type or JSON shape differs from the recording',
  },
  {
    long: 'rate',
    takesValue: true,
    value: '<n>',
    doc: 'With --against-upstream, at most this many requests a second (default 5)',
  },
  {
    long: 'header',
    short: 'H',
    takesValue: true,
    repeat: true,
    value: '"Name: value"',
    doc: 'With --against-upstream, send this header with every request (none is sent otherwise: recordings hold no credentials); repeatable',
  },
];

/** `mock set rule`: declared with set rule's core (config/edit/set-rule-flag-table.ts), because the inspector's rules
 * POST takes the same flags over HTTP and parses them there, below cli/. */
export { SET_RULE_FLAGS } from '../config/edit/set-rule-flag-table.js';

/** `mock mcp`: where the workspace is and which running server the journal, override and scenario tools reach. */
export const MCP_FLAGS: readonly FlagSpec[] = [
  {
    long: 'workspace',
    short: 'd',
    takesValue: true,
    path: true,
    value: '<dir>',
    doc: 'The workspace folder the tools read and write (default: the current directory); nothing is written outside it',
  },
  {
    long: 'inspect-url',
    takesValue: true,
    value: '<url>',
    doc: 'The management listener of a running `mock --inspect` (e.g. http://127.0.0.1:4000), for the journal, override, scenario and reset tools (default: $MOCK_INSPECT_URL)',
  },
  {
    long: 'inspect-token',
    takesValue: true,
    value: '<token>',
    doc: "That listener's --inspect-token, sent as a bearer token (default: $MOCK_INSPECT_TOKEN)",
  },
];
