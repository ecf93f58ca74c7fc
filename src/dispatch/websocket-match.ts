// Which reply of a WebSocket conversation answers an incoming message (docs/websocket.md): the message stands for
// a request body (its text; its JSON when it parses), tested with the same conditions and operators as
// `when.request.body`, so `text` and `json."a.b"` mean here what they mean on a request.
import type { RequestSnapshot } from '../model/request.js';
import type { WebSocketPlan, WsReply } from '../model/websocket.js';
import { conditionHolds } from '../routing/check.js';
import { snapshotFrom } from './snapshot.js';

const encoder = new TextEncoder();
const JSON_HEADERS: readonly (readonly [string, string])[] = [['content-type', 'application/json']];
const TEXT_HEADERS: readonly (readonly [string, string])[] = [['content-type', 'text/plain']];

/** the first reply whose conditions all hold on `message`, or undefined */
export function replyFor(plan: WebSocketPlan, upgrade: RequestSnapshot, message: string): WsReply | undefined {
  if (plan.replies.length === 0) return undefined;
  const first = message.trimStart().charCodeAt(0);
  const json = first === 0x7b /* { */ || first === 0x5b /* [ */ || looksScalarJson(message);
  const snapshot = snapshotFrom({
    method: 'POST',
    target: upgrade.rawPath,
    headers: json ? JSON_HEADERS : TEXT_HEADERS,
    body: encoder.encode(message),
  });
  const asMessage = snapshot.body.kind === 'invalid_json' ? textSnapshot(upgrade, message) : snapshot;
  return plan.replies.find((r) => r.when.every((c) => conditionHolds(c, asMessage)));
}

function looksScalarJson(message: string): boolean {
  return /^\s*(?:"|-?\d|true\b|false\b|null\b)/.test(message);
}

function textSnapshot(upgrade: RequestSnapshot, message: string): RequestSnapshot {
  return snapshotFrom({
    method: 'POST',
    target: upgrade.rawPath,
    headers: TEXT_HEADERS,
    body: encoder.encode(message),
  });
}
