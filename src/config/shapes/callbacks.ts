// The shape of `respond.callbacks` (docs/callbacks.md): outgoing calls an answer makes once it is written. The
// loader decodes each entry with it (config/callbacks.ts checks what a shape cannot: the URL, the JSON text, one
// body key); the schema and the reference are generated from it. rule-set.ts hands in the shapes it owns (header
// maps, scenario moves), so the two files do not import each other.
import { DEFAULT_RETRY_ON } from '../../model/callback.js';
import { METHODS } from '../../model/operators.js';
import { array, bool, described, int, oneOf, record, strict, string, type Shape } from '../decode.js';
import { delayShape } from './delivery.js';

/** setTimeout's ceiling */
const MAX_MS = 2_147_483_647;

export const CALLBACK_DEFAULTS = { method: 'POST', retries: 0, retryDelayMs: 1000, timeoutMs: 10_000 } as const;

/** The body keys of a callback: at most one. */
export const CALLBACK_BODY_KEYS = ['body', 'json'] as const;

export interface CallbackShapeParts {
  /** a table of header names to values (rule-set.ts's `respond.headers` shape) */
  readonly headers: Shape<unknown>;
  /** a table of scenario names to states (rule-set.ts's `respond.set_state` shape) */
  readonly setState: Shape<unknown>;
}

/** `respond.callbacks`: an array of callback tables. */
export function callbacksShape(parts: CallbackShapeParts) {
  const effect = (when: string) =>
    described(strict(record({ set_state: described(parts.setState, { doc: `Scenarios moved when ${when}.` }) })), {
      doc: `What happens when ${when}.`,
      example: '{ set_state = { payment = "captured" } }',
    });
  const callbackTable = strict(
    record(
      {
        url: described(string, {
          doc: 'Where to send it: an absolute `http://` or `https://` URL (a template with `template = true`).',
          example: '"https://hooks.example.test/payments"',
          long: 'A URL whose host comes from a template is sent only to a host `service.callback_hosts` allows (by default loopback and the hosts written literally in callback URLs); a literal URL goes where it says.',
        }),
        method: described(oneOf(METHODS), { doc: 'The method.', default: CALLBACK_DEFAULTS.method }),
        headers: described(parts.headers, {
          doc: 'Request headers, name to value (`content-type` is derived from `json` or `body` unless given).',
          example: '{ "x-signature" = "t=1,v1=abc" }',
        }),
        body: described(string, { doc: 'A text body (`text/plain; charset=utf-8`).', example: '"paid"' }),
        json: described(string, {
          doc: 'A JSON body (`application/json`), validated when literal.',
          example: '\'{ "id": "{{response.body.id}}", "status": "succeeded" }\'',
        }),
        delay_ms: described(delayShape, {
          doc: 'Wait this long after the answer is written: milliseconds, `{ min, max }` or `{ median, sigma }`.',
          default: 0,
          example: '{ min = 500, max = 2000 }',
        }),
        template: described(bool, {
          doc: "Render `url`, `json`, `body` and header values as templates over the triggering request (`request.…`) and the answer (`response.status`, `response.headers`, `response.body`). Default: the rule's `template`.",
          example: 'true',
        }),
        retries: described(int(0, 100), {
          doc: 'Further attempts after a failed one (a connection failure, a timeout or a `retry_on` status).',
          default: CALLBACK_DEFAULTS.retries,
          example: '3',
        }),
        retry_on: described(array(int(100, 999)), {
          doc: 'Answer statuses that are retried; any other non-2xx status fails the delivery at once.',
          default: [...DEFAULT_RETRY_ON],
          example: '[500, 503]',
        }),
        retry_delay_ms: described(int(0, MAX_MS), {
          doc: 'The pause before the first retry (ms), doubled before each next one (at most 60 s).',
          default: CALLBACK_DEFAULTS.retryDelayMs,
          example: '200',
        }),
        timeout_ms: described(int(1, MAX_MS), {
          doc: "One attempt's limit, from connecting to the answer's last byte (ms).",
          default: CALLBACK_DEFAULTS.timeoutMs,
        }),
        on_success: effect('the delivery succeeds (a 2xx answer)'),
        on_failure: effect('the delivery fails for good (the last attempt failed, or the callback was refused)'),
      },
      {
        required: ['url'],
        schema: () => ({ not: { required: [...CALLBACK_BODY_KEYS] } }),
      },
    ),
  );
  return described(array(described(callbackTable, { doc: 'One callback.' })), {
    doc: 'HTTP calls made after this answer is written (webhooks): each with its URL, body, delay and retries (docs/callbacks.md).',
    example:
      '[{ url = "{{request.body.callbackUrl}}", json = \'{ "status": "paid" }\', delay_ms = 500, template = true }]',
    long: 'Sent after the answer (never for `mock get`, nor for a client that left); each attempt is journaled with the request that caused it. `service.callback_max` bounds the pending ones.',
  });
}
