// The shapes of faults, latency, rate limits and streams (docs/faults.md): `respond.fault`, `respond.chunks`,
// `respond.stream`, a rule's `limit`, the `{ min, max }` and `{ median, sigma }` delay forms (also
// `service.delay`), `service.seed` and `service.fault_hold_ms`.
import { DEFAULTS } from '../../model/config.js';
import { FAULT_KINDS, type DelaySpec } from '../../model/answer.js';
import {
  bigInt,
  described,
  describePath,
  int,
  oneOf,
  record,
  report,
  shape,
  strict,
  string,
  union,
  wrongType,
  type Shape,
} from '../decode.js';

/** setTimeout's ceiling: longer delays would fire at once */
const MAX_MS = 2_147_483_647;

const ms = int(0, MAX_MS);

/** a non-negative finite number (an integer or a float) */
const nonNegative = shape<number>(
  (node, path, ctx) => {
    if (node.kind === 'integer') return Number(node.value);
    if (node.kind === 'float' && Number.isFinite(node.value) && node.value >= 0) return node.value;
    if (node.kind === 'float') {
      report(ctx, 'invalid_value', `\`${describePath(path)}\` must be a non-negative finite number`, node.offset, path);
      return undefined;
    }
    return wrongType(ctx, node, path, 'a number');
  },
  { type: 'integer or float ≥ 0', schema: () => ({ type: 'number', minimum: 0 }) },
);

const uniformTable = strict(
  record(
    {
      min: described(ms, { doc: 'The shortest delay (ms).', example: '100' }),
      max: described(ms, { doc: 'The longest delay (ms).', example: '400' }),
    },
    { required: ['min', 'max'] },
  ),
);

const lognormalTable = strict(
  record(
    {
      median: described(ms, { doc: 'The median delay (ms): half the delays are shorter.', example: '200' }),
      sigma: described(nonNegative, {
        doc: "The spread of the delay's logarithm (0.1 narrow, 1 wide).",
        example: '0.25',
      }),
    },
    { required: ['median', 'sigma'] },
  ),
);

/** `delay_response_milliseconds` and `service.delay`: a fixed number, `{ min, max }` or `{ median, sigma }`. */
export const delayShape: Shape<DelaySpec> = union<DelaySpec>(
  [
    described(ms, { doc: 'A fixed delay (ms).' }),
    described(uniformTable, { doc: 'Uniform between `min` and `max` (ms).' }),
    described(lognormalTable, { doc: 'Log-normal around `median` (ms) with spread `sigma`.' }),
  ],
  (node, path, ctx) => {
    if (node.kind === 'integer') {
      const v = ms(node, path, ctx);
      return v === undefined ? undefined : { kind: 'fixed', ms: v };
    }
    if (node.kind !== 'table') return wrongType(ctx, node, path, 'milliseconds, `{ min, max }` or `{ median, sigma }`');
    if (node.entries.has('median') || node.entries.has('sigma')) {
      const t = lognormalTable(node, path, ctx);
      return t?.median === undefined || t.sigma === undefined
        ? undefined
        : { kind: 'lognormal', median: t.median, sigma: t.sigma };
    }
    const t = uniformTable(node, path, ctx);
    if (t?.min === undefined || t.max === undefined) return undefined;
    // the two bounds in either order (the editor schema cannot compare them, so the loader does not refuse it)
    return { kind: 'uniform', min: Math.min(t.min, t.max), max: Math.max(t.min, t.max) };
  },
  'integer (ms), { min, max } or { median, sigma }',
);

export const faultShape = described(oneOf(FAULT_KINDS), {
  doc: 'Answer with a network fault instead of a response.',
  example: '"connection_reset"',
  enumDocs: (f) => FAULT_DOCS[f as keyof typeof FAULT_DOCS],
  long: 'See docs/faults.md for what each client reports.',
});

const FAULT_DOCS = {
  connection_reset: 'The connection is reset (TCP RST) once the request has been read.',
  empty_response: 'The connection is closed without a byte written.',
  malformed_response: 'A status line and headers, then a body that is not valid HTTP (a bad chunk).',
  malformed_chunk:
    "WireMock's `MALFORMED_RESPONSE_CHUNK`, byte for byte: `200 OK`, `Transfer-Encoding: chunked`, then text that is no chunk, and the connection closed.",
  partial_body: 'A `content-length` is announced, half the body is sent, then the connection is closed.',
  timeout: 'Nothing is sent; the connection stays open until the client leaves or `service.fault_hold_ms` passes.',
} as const;

export const chunksShape = described(
  strict(
    record(
      {
        count: described(int(1, 1_000_000), { doc: 'How many equal pieces.', example: '4' }),
        interval_ms: described(ms, { doc: 'The pause between pieces (ms).', default: 0, example: '250' }),
      },
      { required: ['count'] },
    ),
  ),
  {
    doc: 'Send the body in `count` equal pieces, `interval_ms` apart (the `content-length` is announced).',
    example: '{ count = 4, interval_ms = 250 }',
  },
);

export const streamShape = described(
  strict(
    record(
      {
        file_path: described(string, {
          doc: 'A `.sse` file (Server-Sent Events; `: delay <ms>` lines set the pauses) or a `.ndjson` file (one line per event).',
          example: '"chat.sse"',
        }),
        interval_ms: described(ms, {
          doc: 'The pause before each event that has no `: delay` of its own (ms).',
          default: 0,
          example: '100',
        }),
      },
      { required: ['file_path'] },
    ),
  ),
  {
    doc: 'Stream a file event by event with its pauses, without a `content-length`.',
    example: '{ file_path = "chat.sse" }',
  },
);

export const limitShape = described(
  strict(
    record(
      {
        requests: described(int(1, MAX_MS), { doc: 'How many answers a window allows.', example: '5' }),
        per_ms: described(int(1, MAX_MS), { doc: 'The window (ms), from its first request.', example: '60000' }),
      },
      { required: ['requests', 'per_ms'] },
    ),
  ),
  {
    doc: 'A rate limit for this rule: past `requests` within the window, `429` with a `retry-after`.',
    example: '{ requests = 5, per_ms = 60000 }',
  },
);

export const seedShape = described(bigInt(-(2n ** 63n), 2n ** 63n - 1n), {
  doc: "Seeds the workspace's one random generator (response templates' `randomInt`, `uuid`, `faker`… and random delays draw from it, advancing per request): a run repeats exactly. Unset: random.",
  example: '42',
  long: "One generator for the workspace, advancing with each request that draws from it; a reload starts it again from the seed. A random strategy's own `seed` keeps its meaning (a fresh generator per pick) and is not this one.",
});

export const serviceDelayShape = described(delayShape, {
  doc: 'A delay for every rule and file answer whose rule sets none (never OPTIONS, a 413 or a fault): milliseconds, `{ min, max }` or `{ median, sigma }`.',
  example: '{ min = 300, max = 1200 }',
});

export const faultHoldShape = described(int(1, MAX_MS), {
  doc: 'How long a `timeout` fault holds its connection before closing it (ms).',
  default: DEFAULTS.faultHoldMs,
});
