// `m.ws(path)` (docs/websocket.md#from-tests): the open WebSocket connections of one path, as a test sees them.
import type { WsConnectionInfo } from '../model/websocket.js';

/** what the library needs of the server's connections (server/websocket/hub.ts) */
export interface WsHubLike {
  list(path?: string): WsConnectionInfo[];
  send(path: string | undefined, text: string, id?: number): number;
  waitForClient(path: string | undefined, timeoutMs: number): Promise<WsConnectionInfo>;
  waitForMessage(path: string | undefined, timeoutMs: number): Promise<{ connection: WsConnectionInfo; text: string }>;
}

export interface WebSocketRoute {
  /** the open connections to this path (every session's), oldest first, each with its frames */
  clients(): WsConnectionInfo[];
  /** an open connection to this path, or the next one to open (rejects after `timeoutMs`, default 5 s) */
  waitForClient(opts?: { readonly timeoutMs?: number }): Promise<WsConnectionInfo>;
  /** the next text message a client of this path sends */
  waitForMessage(opts?: { readonly timeoutMs?: number }): Promise<{ connection: WsConnectionInfo; text: string }>;
  /** sends a text message to every open connection of this path, or to the one with `id`; how many it reached */
  send(text: string, id?: number): number;
}

export const WS_WAIT_MS = 5000;

export function wsRoute(hub: WsHubLike, path: string): WebSocketRoute {
  return Object.freeze({
    clients: () => hub.list(path),
    waitForClient: (opts?: { readonly timeoutMs?: number }) => hub.waitForClient(path, opts?.timeoutMs ?? WS_WAIT_MS),
    waitForMessage: (opts?: { readonly timeoutMs?: number }) => hub.waitForMessage(path, opts?.timeoutMs ?? WS_WAIT_MS),
    send: (text: string, id?: number) => hub.send(path, text, id),
  });
}
