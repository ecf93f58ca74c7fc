// The shape of a rule-set file: every key with its type, bounds, default, vocabulary (from the model
// tables) and a one-line doc. The loader decodes with these shapes (config/rule-set.ts, conditions.ts,
// respond.ts); the editor schema and docs/reference/rule-set.md are generated from them (config/schema/).
// `when.request` and `respond` are decoded by hand with the rule's context (prefix, respond folder) from the
// leaf shapes here; the schema states their cross-key rules (anyOf/not). Left to the loader: file existence,
// regex and wild-card compilation, `respond.json` text and `.json` file validity.
import { websocketShape } from './websocket.js';
import {
  BODY_OPS,
  HEADER_OPS,
  METHODS,
  STRING_OPS,
  URL_PATH_OPS,
  type BodyOp,
  type HeaderOp,
  type UrlPathOp,
} from '../../model/operators.js';
import type { HeaderList } from '../../shared/headers.js';
import { TRUNCATIONS } from '../../shared/date-match.js';
import {
  anything,
  array,
  bool,
  described,
  int,
  later,
  map,
  oneOf,
  record,
  report,
  shape,
  strict,
  string,
  union,
  wrongType,
  type KeyPath,
  type Shape,
} from '../decode.js';
import { MESSAGES } from '../messages.js';
import { BODY_OP_DOCS, STRING_OP_DOCS } from './operator-docs.js';
import { decodeStrategy } from '../strategy.js';
import { ALIASES, DATA_ROOTS, HELPER_NAMES } from '../../templates/names.js';

const TEMPLATE_DATA = DATA_ROOTS.map((r) => `\`${r}\``).join(', ');
const TEMPLATE_HELPERS = [...HELPER_NAMES, ...Object.keys(ALIASES)].map((h) => `\`${h}\``).join(', ');
import { chunksShape, delayShape, faultShape, limitShape, streamShape } from './delivery.js';
import { callbacksShape } from './callbacks.js';

/** RFC 9110 token characters */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** characters Node accepts in a header value */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** setTimeout's ceiling: longer delays would fire at once */
export const MAX_DELAY_MS = 2_147_483_647;

// ---- when.request ----------------------------------------------------------------------------------

export const methodShape = described(oneOf(METHODS), { doc: 'The request method (upper case).', example: '"POST"' });

const value = (doc: string, example: string): Shape<string> => described(string, { doc, example });

export const urlPathTable = strict(
  record(
    {
      value: value('The path (or pattern) to compare the request path with.', '"/api/users"'),
      op: described(oneOf(URL_PATH_OPS), {
        doc: 'How to compare.',
        default: 'equal',
        enumDocs: (op) => STRING_OP_DOCS[op as UrlPathOp],
      }),
    },
    { required: ['value'] },
  ),
);

/** the options of the date operators (before, after, equal_date_time) */
const dateOptions = {
  truncate_expected: described(oneOf(TRUNCATIONS), {
    doc: 'Date operators: round `now` first (then its offset is added); a written moment is taken as written.',
    example: '"first day of month"',
  }),
  truncate_actual: described(oneOf(TRUNCATIONS), {
    doc: "Date operators: round the request's moment.",
    example: '"first hour of day"',
  }),
  format: value(
    "Date operators: how the request writes its date: a pattern of `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `SSS` (`'…'` literal), or `unix` (seconds) / `epoch` (milliseconds); default ISO 8601 or an HTTP date.",
    '"dd/MM/yyyy"',
  ),
};

export const headerTable = strict(
  record({
    value: value('The value to compare the header with (not needed for `exists` / `absent`).', '"Bearer secret"'),
    op: described(oneOf(HEADER_OPS), {
      doc: 'How to compare.',
      default: 'equal',
      enumDocs: (op) => STRING_OP_DOCS[op as HeaderOp],
    }),
    ...dateOptions,
  }),
);

export const bodyTable = strict(
  record(
    {
      value: value(
        'The value to compare with, as text (JSON text for typed, number and structural operators).',
        '"gold"',
      ),
      op: described(oneOf(BODY_OPS), {
        doc: 'How to compare.',
        default: 'equal',
        enumDocs: (op) => BODY_OP_DOCS[op as BodyOp],
      }),
      ...dateOptions,
    },
    { required: ['value'] },
  ),
);

/** `body.text`: the whole body as text, with a string operator. */
export const bodyTextTable = strict(
  record(
    {
      value: value('The text to compare the body with.', '"<GetQuote>"'),
      op: described(oneOf(STRING_OPS), {
        doc: 'How to compare.',
        default: 'equal',
        enumDocs: (op) => STRING_OP_DOCS[op as HeaderOp],
      }),
    },
    { required: ['value'] },
  ),
);

/** `url`: the path and query as sent, with a string operator. */
export const urlTable = strict(
  record(
    {
      value: value('The text to compare the path and query with.', '"/search?q=1"'),
      op: described(oneOf(STRING_OPS), {
        doc: 'How to compare.',
        default: 'equal',
        enumDocs: (op) => STRING_OP_DOCS[op as HeaderOp],
      }),
    },
    { required: ['value'] },
  ),
);

/** A query name, cookie, path parameter or form field: a string (op `equal`) or `{ value, op }` with a string operator or exists / absent. */
const fieldCondition = (what: string, example: string): Shape<unknown> =>
  described(
    union(
      [
        described(string, { doc: 'An exact value (op `equal`).' }),
        described(headerTable, { doc: 'A value and an operator.' }),
      ],
      later(string),
      'string or table',
    ),
    {
      doc: `One ${what} condition.`,
      example,
    },
  );

/** `when.request`: decoded by conditions.ts (decodeRequest) with the rule set's prefix, key by key. */
export const requestShape = record(
  {
    url_path: described(
      union(
        [
          described(string, { doc: 'An exact path (op `equal`).' }),
          described(urlPathTable, { doc: 'A path and an operator.' }),
        ],
        later(string),
        'string or table',
      ),
      {
        doc: "The URL path condition: a string for an exact match, or `{ value, op }`. The rule set's prefix is joined in front.",
        example: '{ value = "/api", op = "starts_with" }',
        long: '`"/users"` and `"users"` match the same path. `path_template`: `/users/{id}`, `{name}` one non-empty segment, a last `{name*}` the rest; test the captures with `params`. `wild_card`: `*` any run of characters (`/` included), `?` one character. `regex` uses Rust syntax and is not anchored unless you anchor it.',
      },
    ),
    method: methodShape,
    headers: described(
      map('header name', described(headerTable, { doc: 'One header condition.' }), later(anything), HEADER_NAME),
      {
        doc: 'Header conditions, keyed by header name (any case); every one must hold.',
        example: '{ authorization = { value = "Bearer ", op = "starts_with" } }',
      },
    ),
    query: described(map('query name', fieldCondition('query', '"2"'), later(anything)), {
      doc: 'Query conditions, keyed by name (compared exactly); values are compared percent-decoded, `+` as a space.',
      example: '{ page = "2", debug = { op = "absent" } }',
      long: 'A name given more than once (`?tag=a&tag=b`) holds a positive operator when any of its values does, and a negated one (`not_…`) when none does.',
    }),
    cookies: described(map('cookie name', fieldCondition('cookie', '"abc123"'), later(anything)), {
      doc: 'Cookie conditions, keyed by cookie name, read from the `cookie` header (the first of duplicates).',
      example: '{ session = { op = "exists" } }',
    }),
    params: described(map('parameter name', fieldCondition('path parameter', '"7"'), later(anything)), {
      doc: 'Conditions on the captures of a `path_template` url_path (`/users/{id}`), keyed by parameter name; the values are decoded.',
      example: '{ id = { value = "^[0-9]+$", op = "regex" } }',
    }),
    body: described(
      record({
        json: described(
          map('dotted path', described(bodyTable, { doc: 'One JSON body condition.' }), later(anything)),
          {
            doc: 'Conditions on the JSON request body, keyed by a quoted dotted path (`"items.0.sku"`).',
            example: '{ "customer.tier" = { value = "gold" } }',
            long: 'Quote the path: `body.json."customer.tier" = { value = "gold" }`. Unquoted, TOML makes nested tables, which the loader refuses. A number segment indexes an array; `$` is a literal key, not JSONPath.',
          },
        ),
        form: described(map('field name', fieldCondition('form field', '"alice"'), later(anything)), {
          doc: 'Conditions on the fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body, keyed by field name.',
          example: '{ user = "alice", avatar = { op = "exists" } }',
          long: 'A multipart file part counts by its filename: test it with `exists` / `absent` (or a value operator on the filename). A field given more than once holds like a repeated query name.',
        }),
        text: described(bodyTextTable, {
          doc: 'The whole body as UTF-8 text (invalid bytes replaced), whatever its content type: for XML, SOAP, GraphQL or plain text.',
          example: '{ value = "<GetQuote>", op = "contains" }',
        }),
      }),
      { doc: 'Conditions on the request body.' },
    ),
    url: described(urlTable, {
      doc: "The path and query as sent (`/search?q=a%20b`: percent-encoded, the rule set's prefix included), with a string operator.",
      example: '{ value = \'^/search\\?q=[a-z]+$\', op = "regex" }',
      long: "For a pattern over the path and the query together (WireMock's `urlPattern`); `url_path` with `query` conditions is usually clearer.",
    }),
  },
  {
    // `params` tests the captures of a path template, so it needs one (the loader also checks the names)
    schema: () => ({
      minProperties: 1,
      if: { required: ['params'] },
      then: {
        required: ['url_path'],
        properties: { url_path: { type: 'object', required: ['op'], properties: { op: { const: 'path_template' } } } },
      },
    }),
  },
);

// ---- when.state ------------------------------------------------------------------------------------

/** the operators a scenario condition takes */
export const STATE_OPS = ['equal', 'not_equal'] as const;
/** what a scenario name may hold (it is a store key, a map key in scripts and the left of `--state name=value`) */
export const SCENARIO_NAME = /^[A-Za-z0-9_.-]+$/;

export const stateTable = strict(
  record(
    {
      value: value('The state to compare the scenario with.', '"paid"'),
      op: described(oneOf(STATE_OPS), {
        doc: 'How to compare.',
        default: 'equal',
        enumDocs: (op) => (op === 'equal' ? 'the scenario is in this state' : 'the scenario is in any other state'),
      }),
    },
    { required: ['value'] },
  ),
);

/** `when.state`: decoded by conditions.ts (decodeState), scenario by scenario. */
export const stateShape = map(
  'scenario name',
  described(
    union(
      [
        described(string, { doc: 'The state the scenario must be in (op `equal`).' }),
        described(stateTable, { doc: 'A state and an operator.' }),
      ],
      later(string),
      'string or table',
    ),
    { doc: 'One scenario condition.', example: '"item_added"' },
  ),
  later(anything),
  SCENARIO_NAME,
);

// ---- respond ---------------------------------------------------------------------------------------

/** The body kinds: exactly one (or `status` alone). */
export const RESPOND_BODY_KEYS = ['file_path', 'text', 'json', 'stream', 'websocket'] as const;
/** Whether `status` may be given together with `file_path` (the loader refuses it). */
export const STATUS_WITH_FILE_PATH = true;

function decodeHeaderMap(
  node: Parameters<Shape<unknown>>[0],
  path: KeyPath,
  ctx: Parameters<Shape<unknown>>[2],
): HeaderList | undefined {
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table of header names to strings');
  const out: (readonly [string, string])[] = [];
  let ok = true;
  for (const [name, entry] of node.entries) {
    const at: KeyPath = [...path, name];
    if (!HEADER_NAME.test(name)) {
      report(ctx, 'invalid_value', MESSAGES.invalidHeaderName(name), entry.keyOffset, at);
      ok = false;
      continue;
    }
    if (entry.node.kind !== 'string') {
      wrongType(ctx, entry.node, at, 'a string');
      ok = false;
      continue;
    }
    if (!HEADER_VALUE.test(entry.node.value)) {
      report(ctx, 'invalid_value', MESSAGES.invalidHeaderValue(name), entry.node.offset, at);
      ok = false;
      continue;
    }
    out.push([name.toLowerCase(), entry.node.value]);
  }
  return ok ? out : undefined;
}

function decodeSetState(
  node: Parameters<Shape<unknown>>[0],
  path: KeyPath,
  ctx: Parameters<Shape<unknown>>[2],
): Record<string, string> | undefined {
  if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table of scenario names to states');
  const out: Record<string, string> = {};
  let ok = true;
  for (const [name, entry] of node.entries) {
    const at: KeyPath = [...path, name];
    if (!SCENARIO_NAME.test(name)) {
      report(ctx, 'invalid_value', MESSAGES.invalidScenarioName(name), entry.keyOffset, at);
      ok = false;
    } else if (entry.node.kind !== 'string' || entry.node.value === '') {
      wrongType(ctx, entry.node, at, 'a non-empty string (the new state)');
      ok = false;
    } else out[name] = entry.node.value;
  }
  return ok ? out : undefined;
}

/** a header value: no CR, LF or other control characters */
const headerValue = described(
  shape<string>((node, path, ctx) => string(node, path, ctx), {
    type: 'string',
    schema: () => ({ type: 'string', pattern: HEADER_VALUE.source }),
  }),
  { doc: 'The header value.' },
);

const headerMapShape = map('header name', headerValue, decodeHeaderMap, HEADER_NAME);
const setStateShape = map(
  'scenario name',
  described(string, { doc: 'The state the scenario moves to.' }),
  decodeSetState,
  SCENARIO_NAME,
);

/** `"wiremock"`: the templates are WireMock's (its request model and helpers); it turns templates on */
function templateDialect(what: string) {
  return described(oneOf(TEMPLATE_DIALECTS), {
    doc: `Whose templates ${what} holds: \`"mock"\` (docs/templates.md) or \`"wiremock"\` (WireMock's request model and helpers, which turns templates on).`,
    default: 'mock',
    example: '"wiremock"',
    long: "In the WireMock dialect `request.path.[0]` is the first path segment, `request.query.ids.[1]` the second value, `request.body` the body text, and WireMock's helpers (`jsonPath … default=`, `regexExtract`, `formatJson`, `pickRandom … count=`, `math`, `parseDate`, …) answer as WireMock's do; a path outside its request model or a helper it lacks is a load error. See docs/templates.md#wiremock-dialect.",
  });
}

export const TEMPLATE_DIALECTS = ['mock', 'wiremock'] as const;

export const respondTable = record(
  {
    file_path: value(
      "Serve this file (relative to the config's folder and `prefix.respond_dir`); content type from its extension.",
      '"users.json"',
    ),
    text: value('A literal body, served as `text/plain; charset=utf-8`.', '"pong"'),
    json: value('A literal JSON body (validated, minified), served as `application/json`.', '\'{ "id": 1 }\''),
    status: described(int(100, 999), {
      doc: 'The status code; alone, the body is empty.',
      default: 200,
      example: '201',
    }),
    headers: described(headerMapShape, {
      doc: 'Response headers, name to value; a `content-type` here wins over the derived one.',
      example: '{ location = "/api/users/3" }',
    }),
    delay_response_milliseconds: described(delayShape, {
      doc: 'Wait this long before answering: milliseconds, `{ min, max }` (uniform) or `{ median, sigma }` (log-normal).',
      default: 0,
      example: '250',
    }),
    fault: faultShape,
    chunks: chunksShape,
    stream: streamShape,
    websocket: websocketShape,
    template: described(bool, {
      doc: 'Render `json`, `text`, each header value and the `file_path` value as Handlebars templates built from the request.',
      default: false,
      example: 'true',
      long: `Data: ${TEMPLATE_DATA}. Helpers: ${TEMPLATE_HELPERS}. A \`json\` template must render valid JSON (else a 500 naming the rule). See docs/templates.md.`,
    }),
    template_file: described(bool, {
      doc: 'Render the content of the `file_path` file as a template too (compiled once, again when the file changes).',
      default: false,
      example: 'true',
    }),
    template_dialect: templateDialect('this answer'),
    set_state: described(setStateShape, {
      doc: 'Move scenarios when this answer is sent: scenario name to its new state (see docs/state.md).',
      example: '{ cart = "paid" }',
      long: 'Every scenario starts at `"started"`; the move happens only once the answer is written (not for `mock get`, nor for a client that left).',
    }),
    callbacks: callbacksShape({ headers: headerMapShape, setState: setStateShape }),
  },
  {
    schema: () => {
      const pairs: string[][] = [];
      RESPOND_BODY_KEYS.forEach((a, i) => RESPOND_BODY_KEYS.slice(i + 1).forEach((b) => pairs.push([a, b])));
      if (!STATUS_WITH_FILE_PATH) pairs.push(['status', 'file_path']);
      return {
        dependencies: { template_file: ['file_path'] },
        anyOf: [...RESPOND_BODY_KEYS, 'status', 'fault'].map((k) => ({ required: [k] })),
        not: { anyOf: pairs.map((p) => ({ required: p })) },
      };
    },
  },
);

/** What a rule gets when it leaves `priority` or `weight` out (the loader applies them; the schema states them). */
export const RULE_DEFAULTS = { priority: 0, weight: 1 } as const;

// ---- the file --------------------------------------------------------------------------------------

export const ruleTable = record(
  {
    when: described(
      record(
        {
          request: described(later(requestShape), {
            doc: 'Conditions on the request; all must hold.',
            example: '{ url_path = "/api/users", method = "GET" }',
          }),
          state: described(later(stateShape), {
            doc: 'Scenario conditions, keyed by scenario name: the state each scenario must be in (every scenario starts at `"started"`).',
            example: '{ cart = "item_added" }',
            long: 'A string for an exact state, or `{ value, op }` with `op` `equal` or `not_equal`. Move a scenario with `respond.set_state`; see docs/state.md.',
          }),
        },
        { required: ['request'] },
      ),
      {
        doc: 'When the rule applies.',
        example: '{ request = { url_path = "/api/users" } }',
      },
    ),
    respond: described(later(respondTable), {
      doc: 'The answer: one of `file_path`, `text`, `json`, or `status` alone.',
      example: '{ status = 201, json = \'{ "id": 3 }\' }',
      long: `\`status\` goes with ${STATUS_WITH_FILE_PATH ? 'any body' : '`text` or `json` (not with `file_path`)'}; \`headers\` are added to the answer, and a \`content-type\` there wins over the derived one.`,
    }),
    priority: described(int(-2_147_483_648, 2_147_483_647), {
      doc: 'Used by the `priority` strategy: the highest wins.',
      default: RULE_DEFAULTS.priority,
      example: '10',
    }),
    weight: described(int(0, 4_294_967_295), {
      doc: 'Used by `weighted_random`: the share of picks.',
      default: RULE_DEFAULTS.weight,
      example: '9',
    }),
    limit: limitShape,
  },
  { required: ['when', 'respond'] },
);

export const collectionTable = record(
  {
    path: value(
      "The URL path the collection answers at (joined after the rule set's prefix): `GET`/`POST` there, `GET`/`PUT`/`PATCH`/`DELETE` at `<path>/<id>`.",
      '"/api/users"',
    ),
    data: value(
      "Its data: a JSON file holding an array of objects (or one object: a single resource), relative to the rule set's respond folder.",
      '"data/users.json"',
    ),
    id: described(string, { doc: "The field that holds each item's id.", default: 'id', example: '"uuid"' }),
    persist: described(bool, {
      doc: 'Write changes back to the data file (atomically, a moment after the last one), in its own formatting.',
      default: false,
      example: 'true',
    }),
    headers: described(map('header name', headerValue, decodeHeaderMap, HEADER_NAME), {
      doc: "Headers on every answer of the collection, name to value (a Mockoon environment's headers on its CRUD routes).",
      example: '{ x-api-version = "2" }',
    }),
  },
  { required: ['path', 'data'] },
);

export const ruleSetShape = described(
  record({
    prefix: described(
      record({
        url_path: value("Scopes the rule set: joined in front of every rule's `url_path`.", '"/api"'),
        respond_dir: value(
          "The folder `respond.file_path` is relative to, relative to the root config's folder.",
          '"responses"',
        ),
      }),
      { doc: 'A URL prefix and a respond folder for every rule.' },
    ),
    default: described(
      record({
        delay_response_milliseconds: described(int(0, 2_147_483_647), {
          doc: 'Accepted for compatibility; has no effect.',
        }),
      }),
      {
        doc: 'Accepted for compatibility; has no effect.',
      },
    ),
    rules: described(later(array(described(ruleTable, { doc: 'One rule: conditions and an answer.' }))), {
      doc: 'The rules (`[[rules]]`), in order.',
    }),
    collections: described(array(described(collectionTable, { doc: 'One collection: a path and its data file.' })), {
      doc: 'json-server style collections (`[[collections]]`), answered when none of the rules matched (docs/state.md).',
      example: '[{ path = "/users", data = "users.json" }]',
    }),
    strategy: described(decodeStrategy, {
      doc: 'How this rule set picks among matching rules; overrides `service.strategy`.',
      example: '"round_robin"',
    }),
    guard: described(anything, { doc: 'Accepted and ignored.' }),
    template: described(bool, {
      doc: "Every rule's answer is a template (as `respond.template = true` on each).",
      default: false,
      example: 'true',
    }),
    template_dialect: templateDialect("every rule's answer"),
  }),
  { doc: 'A rule-set file (`mock-rule-set.toml`).' },
);
