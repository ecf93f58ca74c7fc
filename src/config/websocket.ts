// `respond.websocket` → WebSocketPlan (docs/websocket.md). The shape (config/shapes/websocket.ts) typed the table;
// here each reply's `when` is decoded with the request body's condition decoder (the message stands for the body),
// and the script file is resolved inside the respond folder and checked to exist like a `file_path`.
import type { Condition } from '../model/rule-set.js';
import type { WebSocketPlan, WsClose, WsFault, WsReply, WsSend } from '../model/websocket.js';
import { decodeBody } from './conditions.js';
import { report, type KeyPath } from './decode.js';
import { confinedFileRef, type RespondContext } from './respond.js';
import type { TomlNode } from './toml.js';

interface SendIn {
  readonly send?: string | undefined;
  readonly after_ms?: number | undefined;
}
interface CloseIn {
  readonly code?: number | undefined;
  readonly reason?: string | undefined;
  readonly after_ms?: number | undefined;
}
interface FaultIn {
  readonly kind?: WsFault['kind'] | undefined;
  readonly after_ms?: number | undefined;
}
interface ReplyIn {
  readonly when?: TomlNode | undefined;
  readonly send?: readonly SendIn[] | undefined;
  readonly close?: CloseIn | undefined;
  readonly fault?: FaultIn | undefined;
}
export interface WebSocketIn {
  readonly on_open?: readonly SendIn[] | undefined;
  readonly replies?: readonly ReplyIn[] | undefined;
  readonly echo?: boolean | undefined;
  readonly broadcast?: boolean | undefined;
  readonly pushes?:
    | readonly { readonly every_ms?: number | undefined; readonly send?: string | undefined }[]
    | undefined;
  readonly script?: string | undefined;
  readonly close?: CloseIn | undefined;
  readonly fault?: FaultIn | undefined;
  readonly template?: boolean | undefined;
}

/** the most a close reason may hold: a close frame's payload is 125 bytes, two of them the code */
const MAX_REASON_BYTES = 123;

export function decodeWebSocket(
  t: WebSocketIn,
  node: TomlNode,
  path: KeyPath,
  rc: RespondContext,
  templated: boolean,
): WebSocketPlan | undefined {
  let ok = true;
  const replies: WsReply[] = [];
  (t.replies ?? []).forEach((r, i) => {
    const at: KeyPath = [...path, 'replies', i];
    const when: Condition[] = r.when === undefined ? [] : decodeBody(r.when, [...at, 'when'], rc.decode);
    const close = r.close === undefined ? undefined : closeOf(r.close, [...at, 'close'], node, rc);
    if (close === null) ok = false;
    replies.push({
      when,
      send: sendsOf(r.send),
      ...(close ? { close } : {}),
      ...(r.fault?.kind !== undefined ? { fault: { kind: r.fault.kind, afterMs: r.fault.after_ms ?? 0 } } : {}),
    });
  });
  const close = t.close === undefined ? undefined : closeOf(t.close, [...path, 'close'], node, rc);
  if (close === null) ok = false;
  let script: string | undefined;
  if (t.script !== undefined) {
    script = scriptPath(t.script, node, [...path, 'script'], rc);
    if (script === undefined) ok = false;
  }
  if (!ok) return undefined;
  return {
    onOpen: sendsOf(t.on_open),
    replies,
    echo: t.echo === true,
    broadcast: t.broadcast === true,
    pushes: (t.pushes ?? []).map((p) => ({ everyMs: p.every_ms ?? 1000, text: p.send ?? '' })),
    ...(script !== undefined ? { script } : {}),
    ...(close ? { close } : {}),
    ...(t.fault?.kind !== undefined ? { fault: { kind: t.fault.kind, afterMs: t.fault.after_ms ?? 0 } } : {}),
    template: templated || t.template === true,
  };
}

function sendsOf(list: readonly SendIn[] | undefined): WsSend[] {
  return (list ?? []).map((s) => ({ afterMs: s.after_ms ?? 0, text: s.send ?? '' }));
}

/** null: refused (reported) */
function closeOf(c: CloseIn, path: KeyPath, node: TomlNode, rc: RespondContext): WsClose | null {
  const reason = c.reason ?? '';
  if (Buffer.byteLength(reason) > MAX_REASON_BYTES) {
    report(
      rc.decode,
      'invalid_value',
      `rule ${rc.rule + 1}: the close reason is longer than ${MAX_REASON_BYTES} bytes (a close frame holds no more)`,
      node.offset,
      path,
    );
    return null;
  }
  return { afterMs: c.after_ms ?? 0, code: c.code ?? 1000, reason };
}

function scriptPath(entry: string, node: TomlNode, path: KeyPath, rc: RespondContext): string | undefined {
  const outside = `rule ${rc.rule + 1}: the WebSocket script \`${entry}\` is outside ${rc.respondDir}`;
  return confinedFileRef(entry, node, path, rc, outside, {});
}
