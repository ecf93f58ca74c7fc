// The WebSocket connections over HTTP (docs/websocket.md#over-http), what `m.ws(path)` gives a test in-process:
//
//   GET  /__mock/api/websockets[?path=<path>]  → {connections: [{id, path, session?, opened_at, closed_at?,
//                                                 close_code?, open, frames: [{direction, at, size, text | base64}]}]}
//                                                 (open ones and the last closed ones, oldest first)
//   POST /__mock/api/websockets/send           → {sent: n}; body {text, path?, id?}: to every open connection (of
//                                                 `path`), or to the one with `id`
import type { WsConnectionInfo } from '../model/websocket.js';
import { failure, result, type Wire } from './envelope.js';
import type { Route } from './router.js';

/** what the routes need of the server's connections (server/websocket/hub.ts) */
export interface WebSocketPort {
  list(path?: string, closed?: boolean): WsConnectionInfo[];
  send(path: string | undefined, text: string, id?: number): number;
}

export const WEBSOCKET_ROUTES = {
  list: '/__mock/api/websockets',
  send: '/__mock/api/websockets/send',
} as const;

export const WEBSOCKET_ROUTE_MESSAGES = {
  body: 'the send body must be a JSON object: {"text": "…", "path"?: "/ws/…", "id"?: 1}',
} as const;

export function connectionToWire(c: WsConnectionInfo): Wire {
  return {
    id: c.id,
    path: c.path,
    ...(c.session !== undefined ? { session: c.session } : {}),
    opened_at: c.openedAt.toISOString(),
    ...(c.closedAt !== undefined ? { closed_at: c.closedAt.toISOString() } : {}),
    ...(c.closeCode !== undefined ? { close_code: c.closeCode } : {}),
    open: c.closedAt === undefined,
    frames: c.frames.map((f) => ({
      direction: f.direction,
      at: f.at.toISOString(),
      size: f.size,
      ...(f.text !== undefined ? { text: f.text } : {}),
      ...(f.base64 !== undefined ? { base64: f.base64 } : {}),
    })),
  };
}

export function websocketRoutes(port: WebSocketPort): Route[] {
  return [
    {
      method: 'GET',
      path: WEBSOCKET_ROUTES.list,
      handle: (ctx) => {
        const path = ctx.url.searchParams.get('path') ?? undefined;
        return result({ connections: port.list(path, true).map(connectionToWire) });
      },
    },
    {
      method: 'POST',
      path: WEBSOCKET_ROUTES.send,
      handle: async (ctx) => {
        const body = await ctx.body();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          return failure('usage', WEBSOCKET_ROUTE_MESSAGES.body);
        const o = body as Record<string, unknown>;
        const text = o['text'];
        const path = o['path'];
        const id = o['id'];
        if (
          typeof text !== 'string' ||
          (path !== undefined && typeof path !== 'string') ||
          (id !== undefined && !Number.isSafeInteger(id)) ||
          Object.keys(o).some((k) => !['text', 'path', 'id'].includes(k))
        )
          return failure('usage', WEBSOCKET_ROUTE_MESSAGES.body);
        return result({ sent: port.send(path, text, id as number | undefined) });
      },
    },
  ];
}
