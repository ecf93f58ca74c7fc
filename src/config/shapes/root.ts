// The shape of mock.toml: every key with its type, bounds, default (from DEFAULTS) and a one-line
// doc. The loader decodes with it (config/root-config.ts); the editor schema and docs/reference/mock-toml.md
// are generated from it (config/schema/). What it leaves to the loader: file existence and PEM parsing.
import { DEFAULTS } from '../../model/config.js';
import {
  array,
  bool,
  described,
  int,
  oneOf,
  record,
  report,
  shape,
  string,
  union,
  wrongType,
  type Shape,
} from '../decode.js';
import { IPV4, isIpAddress } from '../ip-address.js';
import { MESSAGES } from '../messages.js';
import { faultHoldShape, seedShape, serviceDelayShape } from './delivery.js';
import { HEADER_NAME } from './rule-set.js';
import { BARE_STRATEGIES, decodeStrategy, TABLE_ONLY_STRATEGIES } from '../strategy.js';

/**
 * A string with where it was written (path entries are checked against the disk later). The offset is looked up
 * when asked for (a diagnostic): finding it parses the text again with positions (config/toml.ts).
 */
const located = shape<{ readonly value: string; readonly offset: number }>(
  (node, path, ctx) => {
    const v = string(node, path, ctx);
    return v === undefined
      ? undefined
      : {
          value: v,
          get offset() {
            return node.offset;
          },
        };
  },
  { type: 'string (path)', schema: () => ({ type: 'string' }) },
);

const ipAddress = shape<string>(
  (node, path, ctx) => {
    const v = string(node, path, ctx);
    if (v === undefined) return undefined;
    if (isIpAddress(v)) return v;
    report(ctx, 'invalid_value', MESSAGES.invalidIp(v), node.offset, path);
    return undefined;
  },
  // the schema checks IPv4 exactly and IPv6 by its characters; the loader checks the IPv6 groups
  {
    type: 'string (IP address)',
    schema: () => ({
      type: 'string',
      anyOf: [{ pattern: IPV4.source }, { pattern: '^[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*$' }],
    }),
  },
);

const globArray = array(string);
/** `include` takes one glob or an array of globs. */
const globs = union<string[]>(
  [described(string, { doc: 'One glob.' }), described(globArray, { doc: 'Several globs.' })],
  (node, path, ctx) => {
    if (node.kind === 'string') return [node.value];
    if (node.kind === 'array') return globArray(node, path, ctx);
    return wrongType(ctx, node, path, 'a glob string or an array of glob strings');
  },
  'glob string or array of glob strings',
);

const port = int(0, 65535);

/** an HTTP header name (RFC 9110 token) */
const headerName = shape<string>(
  (node, path, ctx) => {
    const v = string(node, path, ctx);
    if (v === undefined) return undefined;
    if (HEADER_NAME.test(v)) return v;
    report(ctx, 'invalid_value', MESSAGES.invalidHeaderName(v), node.offset, path);
    return undefined;
  },
  { type: 'string (header name)', schema: () => ({ type: 'string', pattern: HEADER_NAME.source }) },
);

export const tlsShape = record(
  {
    cert: described(located, {
      doc: 'Certificate (PEM) file, relative to the current directory.',
      example: '"certs/cert.pem"',
    }),
    key: described(located, {
      doc: 'Private key (PEM) file, relative to the current directory.',
      example: '"certs/key.pem"',
    }),
    port: described(port, {
      doc: 'When set, plain HTTP stays on `listener.port` and HTTPS listens here; when omitted, `listener.port` is HTTPS only.',
      example: '3443',
    }),
    handshake_timeout_seconds: described(int(1, 2_147_483), {
      doc: 'A connection that has not finished its TLS handshake by then is closed.',
      default: DEFAULTS.handshakeTimeoutSeconds,
    }),
    max_connections: described(int(1, 2_147_483_647), {
      doc: 'Most TLS connections open at once.',
      default: DEFAULTS.maxConnections,
    }),
  },
  { required: ['cert', 'key'] },
);

export const rootShape = described(
  record({
    listener: described(
      record({
        ip_address: described(ipAddress, {
          doc: 'Address to listen on (`::1`, `0.0.0.0` for every interface).',
          default: DEFAULTS.ipAddress,
        }),
        port: described(port, {
          doc: 'Port to listen on; 0 picks a free one. HTTPS only when `[listener.tls]` has no `port`.',
          default: DEFAULTS.port,
        }),
        max_connections: described(int(1, 2_147_483_647), {
          doc: 'Most plain HTTP connections at work at once; further ones wait until one closes. Held connections (`max_held_connections`) do not count.',
          long: 'The HTTPS listener has its own bound, `listener.tls.max_connections`. A connection counts from its arrival until it closes, idle keep-alive time included, except while it is held.',
          default: DEFAULTS.plainMaxConnections,
        }),
        max_held_connections: described(int(1, 2_147_483_647), {
          doc: 'Most connections per listener whose answers wait on a timer or on the client (a delay, a `timeout` fault, dribbled chunks, a stream); past it, such an answer is refused with a 503 naming this setting.',
          long: "Held connections do not count against `max_connections` (or `listener.tls.max_connections`), so they never keep fresh connections waiting. Each is an open file descriptor: a limit above the process's `ulimit -n` is never reached, connections are refused by the system first.",
          default: DEFAULTS.maxHeldConnections,
        }),
        http2: described(bool, {
          doc: 'HTTP/2: absent, HTTPS offers `h2` by ALPN beside HTTP/1.1; `true`, the plain listener also takes HTTP/2 with prior knowledge (h2c); `false`, HTTP/1.1 only.',
          long: 'Every HTTP/2 request goes through the same rules and files as an HTTP/1.1 one (docs/http2.md). An h2c connection is told from an HTTP/1.1 one by its first bytes, so one port serves both.',
          example: 'true',
        }),
        http2_max_streams: described(int(1, 10_000), {
          doc: 'Most HTTP/2 streams open at once on one connection; the client is told so in its settings and a stream past it is refused.',
          default: DEFAULTS.http2MaxStreams,
        }),
        tls: described(tlsShape, {
          doc: 'Serve HTTPS with this certificate and key.',
          long: 'With `port`: plain HTTP on `listener.port` and HTTPS on `listener.tls.port`. Without it: `listener.port` serves HTTPS only. A key or certificate that does not load stops the server before it listens.',
        }),
      }),
      { doc: 'Where the server listens.' },
    ),
    service: described(
      record({
        rule_sets: described(array(located), {
          doc: 'Rule-set files, relative to this file, consulted in order.',
          default: [],
          example: '["mock-rule-set.toml"]',
        }),
        middlewares: described(array(located), {
          doc: 'Rhai middleware scripts, relative to this file, run in order before the rule sets.',
          default: [],
          example: '["mock-middleware.rhai"]',
        }),
        fallback_respond_dir: described(located, {
          doc: 'Folder whose files answer by URL path when no rule does, relative to this file.',
          default: DEFAULTS.fallbackRespondDir,
          example: '"data"',
        }),
        strategy: described(decodeStrategy, {
          doc: "How a rule set picks among matching rules; a rule set's own `strategy` overrides it.",
          default: 'first_match',
          example: '{ weighted_random = { seed = 7 } }',
          long: `A name (${BARE_STRATEGIES.map((n) => `\`"${n}"\``).join(', ')}) or a table naming one strategy, such as \`{ weighted_random = { seed = 7 } }\`; ${TABLE_ONLY_STRATEGIES.map((n) => `\`${n}\``).join(', ')} takes the table form only.`,
        }),
        cors_allow_credentials_origins: described(array(string), {
          doc: 'Origins, besides `http://localhost:*`, that may send credentials (cookies) cross-origin.',
          default: [],
          example: '["http://app.example.test:5173"]',
        }),
        max_request_body_bytes: described(int(0, Number.MAX_SAFE_INTEGER), {
          doc: 'A larger request body is refused with 413.',
          default: DEFAULTS.maxRequestBodyBytes,
        }),
        max_json_depth: described(int(1, 100_000), {
          doc: 'A JSON request body whose arrays and objects nest deeper than this is refused with 413, before it is parsed.',
          default: DEFAULTS.maxJsonDepth,
          long: "128 is serde_json's recursion limit. Applies to every body that mock reads as JSON (declared `application/json`, or text starting with `{` or `[`). See docs/https-and-limits.md.",
        }),
        max_json_members: described(int(1, Number.MAX_SAFE_INTEGER), {
          doc: 'A JSON request body holding more values than this (array items and object members, over the whole document) is refused with 413, before it is parsed.',
          default: DEFAULTS.maxJsonMembers,
          long: "Parsing is one uninterrupted step on the server's only thread, and its time grows with the members: a body of a million keys held every other client for seconds. See docs/https-and-limits.md.",
        }),
        deny: described(array(string), {
          doc: 'Glob patterns (relative to the fallback folder) that file routing never serves; a denied file answers 404.',
          default: DEFAULTS.deny,
          example: '[".env", "*.pem", "private/**"]',
          long: "Replaces the default list (environment and credential files, `.git`/`.hg`/`.svn`/`.ssh` folders, key and certificate files, and the TLS files this config names); `deny = []` serves everything. A pattern without a `/` matches a file name at any depth. A templated `file_path` and a script's file answer pass it too (a literal `file_path` is served as written), and record mode never writes a recording onto a denied path. A deliberate security addition to the spec: see docs/files-and-rules.md.",
        }),
        middleware_max_operations: described(int(1, Number.MAX_SAFE_INTEGER), {
          doc: 'A middleware script that runs longer than this many operations on one request is stopped (500).',
          default: DEFAULTS.middlewareMaxOperations,
        }),
        middleware_max_memory_bytes: described(int(1, Number.MAX_SAFE_INTEGER), {
          doc: 'A middleware script run that makes more than this many bytes of values (strings, array items, map entries; counted approximately) is stopped, and the request goes on as if the script had not answered.',
          default: DEFAULTS.middlewareMaxMemoryBytes,
          long: 'Counted over the whole run (what the script makes, not what it keeps). The time limit is read while a builtin copies, too, so a script that allocates in a loop stops within the time limit.',
        }),
        db: described(located, {
          doc: 'A json-server style data file: each top-level array is a collection at `/<key>`, each top-level object a single resource (docs/state.md).',
          example: '"db.json"',
          long: 'Relative to this file. The collections answer after every rule set, before the fallback folder; their data lives in memory, seeded from the file at start-up, at a reset and when the file is edited.',
        }),
        db_persist: described(bool, {
          doc: "Write the `db` file's collections back to it after each change (atomically, a moment after the last one), in its own formatting.",
          default: false,
          example: 'true',
        }),
        db_style: described(oneOf(['v0', 'v1'] as const), {
          doc: "How the `db` file's collections answer: `v0` json-server 0.17's query language, `v1` json-server 1.0's (`field:gt=`, `_where`, `_per_page` with its page envelope, string ids), as `--db-style` does.",
          default: 'v0',
          example: '"v1"',
          long: '`--db-style` on the command line wins over this key. See docs/coming-from-json-server.md#json-server-10.',
        }),
        collection_max_items: described(int(1, Number.MAX_SAFE_INTEGER), {
          doc: 'A collection holds at most this many items: a POST beyond it answers 507.',
          default: DEFAULTS.collectionMaxItems,
        }),
        collection_max_depth: described(int(1, 1000), {
          doc: 'An item written to a collection nests at most this many objects and arrays deep (the item itself is 1): a POST, PUT or PATCH deeper than that answers 400.',
          default: DEFAULTS.collectionMaxDepth,
        }),
        seed: seedShape,
        delay: serviceDelayShape,
        fault_hold_ms: faultHoldShape,
        contract: described(located, {
          doc: 'An OpenAPI 3.0/3.1 document, relative to this file: each request is checked against it (and each answer), as `--contract` does.',
          example: '"openapi.yaml"',
          long: 'Path, query and header parameters and the JSON body are checked against the matching operation before middleware and rules run; answers are checked against the documented responses and a violation is logged. `--contract <file>` on the command line wins over this key. See docs/contract.md.',
        }),
        contract_mode: described(oneOf(['enforce', 'warn'] as const), {
          doc: 'With a contract: `enforce` answers a request that breaks it with 400 (application/problem+json); `warn` answers as usual and logs the violation.',
          default: 'enforce',
          example: '"warn"',
        }),
        sessions: described(bool, {
          doc: 'Requests carrying the session header (or cookie) get their own journal view, round-robin counters, scenario states, collection data, overrides and rate-limit windows.',
          default: false,
          long: 'Requests without it share the default session. See docs/library.md#sessions.',
        }),
        session_header: described(headerName, {
          doc: 'The request header that names a session (with `sessions = true`).',
          default: DEFAULTS.sessionHeader,
        }),
        session_cookie: described(string, {
          doc: 'A cookie that may name the session instead of the header, for a browser app that does not forward headers.',
          example: '"mock_session"',
        }),
        session_idle_ms: described(int(1, 2_147_483_647), {
          doc: 'A session ends after this long without a request or a call through its handle.',
          default: DEFAULTS.sessionIdleMs,
        }),
        session_max: described(int(1, 1_000_000), {
          doc: 'At most this many sessions at once; the one idle longest ends first to make room.',
          default: DEFAULTS.sessionMax,
        }),
        callback_hosts: described(array(string), {
          doc: 'The hosts a callback URL built from request data may go to: a host name, an IP address, `*.example.com` (its subdomains) or `"*"` (any).',
          example: '["hooks.example.test", "*.ngrok.app"]',
          long: 'Unset: loopback (`localhost`, `127.0.0.0/8`, `::1`) and the hosts written literally in callback URLs. A callback whose URL the config wrote literally goes where it says; one refused is logged and journaled, never sent. See docs/callbacks.md.',
        }),
        callback_max: described(int(1, 10_000_000), {
          doc: 'At most this many callbacks wait (for their delay, a retry or an answer) at once; past it the oldest waiting one is refused, with a log line.',
          default: DEFAULTS.callbackMax,
        }),
        callback_shutdown: described(oneOf(['wait', 'cancel'] as const), {
          doc: 'At shutdown, `wait` for the pending callbacks (their delays and retries) or `cancel` them; either way the server says how many.',
          default: DEFAULTS.callbackShutdown,
        }),
      }),
      { doc: 'What answers requests: rule sets, middlewares, the fallback folder.' },
    ),
    log: described(
      record({
        verbose: described(
          record({
            header: described(bool, {
              doc: 'Print request headers (credentials redacted).',
              default: DEFAULTS.logVerboseHeader,
            }),
            body: described(bool, {
              doc: 'Print the query string and JSON body fields (redacted).',
              default: DEFAULTS.logVerboseBody,
            }),
          }),
          { doc: 'Extra request detail on the console.' },
        ),
      }),
      { doc: 'Console logging.' },
    ),
    file_tree_view: described(
      record({
        show_hidden: described(bool, { doc: 'List dotfiles.', default: DEFAULTS.fileTreeView.showHidden }),
        builtin_excludes: described(bool, {
          doc: 'Leave out target, node_modules, dist, build, out, __pycache__, .venv, vendor, .cargo, .gradle, .idea, .vscode.',
          default: DEFAULTS.fileTreeView.builtinExcludes,
        }),
        extra_excludes: described(array(string), {
          doc: "More glob patterns, matched against each entry's bare name, to leave out.",
          default: [...DEFAULTS.fileTreeView.extraExcludes],
          example: '["*.log"]',
        }),
        include: described(globs, {
          doc: 'Allow-list glob (files only).',
          default: [...DEFAULTS.fileTreeView.include],
          example: '"*.json"',
        }),
        respect_gitignore: described(bool, {
          doc: 'Also leave out what a `.gitignore` leaves out.',
          default: DEFAULTS.fileTreeView.respectGitignore,
        }),
      }),
      { doc: 'The file-tree view of the workspace (for editing tools); never limits what the server serves.' },
    ),
  }),
  { doc: 'The root config, `mock.toml`.' },
);

export type RootShape = typeof rootShape;
export const ROOT_SHAPE: Shape<unknown> = rootShape;
