// Upgrades on the HTTP/1.1 engine: the handler (and the `ws` package) is loaded on the first upgrade request, so a
// server that never sees one never loads it. Node hands every request with `Upgrade:` here once a listener is on
// 'upgrade'; upgrade.ts answers the ones that are not WebSocket conversations as plain requests.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { DispatchEnv } from '../../dispatch/dispatch.js';
import type { ListenerDeps } from '../listener.js';
import type { WsHub } from './hub.js';

type Handler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export function attachUpgrades(
  engine: HttpServer,
  deps: ListenerDeps,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
  hub: WsHub,
): void {
  const scopes = deps.scopes;
  const envOf = (req: IncomingMessage): DispatchEnv =>
    scopes === undefined ? deps.env : scopes.header === undefined ? scopes.env : scopes.envFor(req);
  let handler: Promise<Handler> | undefined;
  engine.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', ignore);
    handler ??= import('./upgrade.js').then((m) => m.createUpgradeHandler({ deps, envOf, hub, onRequest }));
    handler.then(
      (h) => h(req, socket, head),
      () => socket.destroy(),
    );
  });
}

function ignore(): void {}
