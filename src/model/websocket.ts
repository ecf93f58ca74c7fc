// A WebSocket conversation (docs/websocket.md): what a rule's `respond.websocket` asks the server to do on an
// upgraded connection. Dispatch picks the rule and hands this plan on as the answer's delivery; the server edge
// (server/websocket/) does the socket work and the timing.
import type { Condition } from './rule-set.js';

/** One message the server sends, `afterMs` after the moment it is due from (the open, or the message replied to). */
export interface WsSend {
  readonly afterMs: number;
  /** a text frame; a template when the plan says so */
  readonly text: string;
}

/** A close frame, `afterMs` after its moment. */
export interface WsClose {
  readonly afterMs: number;
  readonly code: number;
  readonly reason: string;
}

export const WS_FAULTS = ['drop', 'stall'] as const;
/** `drop`: the TCP connection is cut with no close frame; `stall`: the server sends and reads nothing more */
export type WsFaultKind = (typeof WS_FAULTS)[number];

export interface WsFault {
  readonly kind: WsFaultKind;
  readonly afterMs: number;
}

/** A reply: when every condition holds on an incoming message (its text, its JSON), what the server does. */
export interface WsReply {
  /** conditions as a request body's (`json`, `text`); none: every message */
  readonly when: readonly Condition[];
  readonly send: readonly WsSend[];
  readonly close?: WsClose;
  readonly fault?: WsFault;
}

export interface WsPush {
  readonly everyMs: number;
  readonly text: string;
}

export interface WebSocketPlan {
  readonly onOpen: readonly WsSend[];
  /** tried in order; the first that holds answers (then echo and broadcast still apply) */
  readonly replies: readonly WsReply[];
  /** each incoming message is sent back to its sender */
  readonly echo: boolean;
  /** each incoming message is relayed to every other client of the same route (and session) */
  readonly broadcast: boolean;
  readonly pushes: readonly WsPush[];
  /** an NDJSON file of `{ "after_ms", "send" }` (or `"close"`) lines, played from the open (absolute) */
  readonly script?: string;
  readonly close?: WsClose;
  readonly fault?: WsFault;
  /** the texts are Handlebars templates over `request` (the upgrade) and `message` (docs/websocket.md) */
  readonly template: boolean;
}

/** One frame of a connection, as the journal and `m.ws(path)` show it. */
export interface WsFrame {
  readonly direction: 'in' | 'out';
  readonly at: Date;
  readonly size: number;
  /** the text, or for a binary frame a base64 excerpt of its first bytes */
  readonly text?: string;
  readonly base64?: string;
}

/** A connection: its upgrade's path and session, when it opened and closed, its frames (the latest, bounded). */
export interface WsConnectionInfo {
  readonly id: number;
  readonly path: string;
  readonly session?: string;
  readonly openedAt: Date;
  readonly closedAt?: Date;
  readonly closeCode?: number;
  readonly frames: readonly WsFrame[];
}
