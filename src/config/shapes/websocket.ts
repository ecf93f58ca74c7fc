// The shape of `respond.websocket` (docs/websocket.md): what a rule does with an upgraded connection. The
// loader decodes the conditions of each reply's `when` with the request body's decoder (config/websocket.ts).
import { WS_FAULTS } from '../../model/websocket.js';
import { anything, array, bool, described, int, later, oneOf, record, strict, string } from '../decode.js';

const ms = int(0, 2_147_483_647);

const afterMs = described(ms, { doc: 'Wait this long first (ms).', default: 0, example: '500' });

export const wsSendTable = strict(
  record(
    {
      send: described(string, { doc: 'The text frame to send.', example: '\'{"type":"hello"}\'' }),
      after_ms: afterMs,
    },
    { required: ['send'] },
  ),
);

export const wsCloseTable = strict(
  record({
    code: described(int(1000, 4999), {
      doc: 'The close code (1000 normal, 4000-4999 your own).',
      default: 1000,
      example: '4001',
    }),
    reason: described(string, { doc: 'The close reason (at most 123 bytes).', default: '', example: '"bye"' }),
    after_ms: afterMs,
  }),
);

export const wsFaultTable = strict(
  record(
    {
      kind: described(oneOf(WS_FAULTS), {
        doc: '`drop`: cut the connection with no close frame; `stall`: send and read nothing more.',
        example: '"drop"',
      }),
      after_ms: afterMs,
    },
    { required: ['kind'] },
  ),
);

const sends = described(array(wsSendTable), {
  doc: 'Messages to send, each after its own `after_ms` (counted from the previous one).',
  example: '[{ send = "welcome" }, { send = "ready", after_ms = 100 }]',
});

export const wsReplyTable = strict(
  record({
    when: described(later(anything), {
      doc: 'Conditions on the incoming message, as `when.request.body`: `text = { value, op }` on its text, `json."a.b" = { value, op }` on its JSON; every one must hold.',
      example: '{ json = { type = { value = "subscribe" } } }',
    }),
    send: sends,
    close: described(wsCloseTable, { doc: 'Close the connection after the messages.' }),
    fault: described(wsFaultTable, { doc: 'Drop or stall the connection instead.' }),
  }),
);

export const websocketShape = described(
  strict(
    record({
      on_open: described(array(wsSendTable), {
        doc: 'Messages sent once the connection is open, each `after_ms` after the previous one.',
        example: '[{ send = "welcome" }]',
      }),
      replies: described(array(wsReplyTable), {
        doc: 'Answers to incoming messages: the first whose `when` holds sends its messages (then closes or faults if it says so).',
        example: '[{ when = { text = { value = "ping" } }, send = [{ send = "pong" }] }]',
      }),
      echo: described(bool, { doc: 'Send each incoming message back to its sender.', default: false }),
      broadcast: described(bool, {
        doc: 'Relay each incoming message to every other client connected to the same path (and session): a chat room.',
        default: false,
      }),
      pushes: described(
        array(
          strict(
            record(
              {
                every_ms: described(int(1, 2_147_483_647), { doc: 'The period (ms).', example: '1000' }),
                send: described(string, { doc: 'The text frame to send.', example: '\'{"tick":true}\'' }),
              },
              { required: ['every_ms', 'send'] },
            ),
          ),
        ),
        {
          doc: 'Messages sent periodically while the connection is open.',
          example: '[{ every_ms = 1000, send = "tick" }]',
        },
      ),
      script: described(string, {
        doc: 'An NDJSON file (relative to the config\'s folder) of `{ "after_ms": 100, "send": "…" }` lines (or `"close": { "code", "reason" }`), played from the open.',
        example: '"prices.ndjson"',
      }),
      close: described(wsCloseTable, { doc: 'Close the connection `after_ms` after it opened.' }),
      fault: described(wsFaultTable, { doc: 'Drop or stall the connection `after_ms` after it opened.' }),
      template: described(bool, {
        doc: 'Render every `send` as a Handlebars template over `request` (the upgrade request) and `message` (`message.text`, `message.json`).',
        default: false,
      }),
    }),
  ),
  {
    doc: 'Answer a WebSocket upgrade with this conversation; a request that is not an upgrade gets 426.',
    example: '{ echo = true }',
  },
);
