// The inspector as one piece for the management listener: the page, the event stream, the file tree, the rules
// POST and whatever routes the caller adds (the journal's), behind the security checks, as one request handler.
//
// Use (the listener binds it; this module never listens):
//   const inspector = createInspector({
//     version,
//     routes: [...journalRoutes({ journal, version, resetRotation }), wsRoute],   // wsRoute = workspaceRoute(live)
//     files: { fallbackDir: () => live.workspace.fallbackDir, view: () => live.workspace.config.fileTreeView, mockUrl: () => mockBaseUrl },
//     rules: { cwd: () => process.cwd(), configPath: () => configFlag, onWritten: async () => void (await live.reload()) },
//     events: { replay: journalReplay(journal) },
//   });
//   const unsubscribe = connectJournal(journal, inspector.events);   // request + reset events
//   const unsubscribeLive = connectLive(live, inspector.events);      // reload events (server/live.ts's onReload)
//   http.createServer(inspector.handler).listen(port, '127.0.0.1');
//   on close: unsubscribe(); unsubscribeLive(); wsRoute.close(); inspector.close() (ends the event streams); then the server's close().
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createEventHub, type EventHub, type EventHubOptions } from './events.js';
import { fileTreeRoute, type FileTreeOptions } from './file-tree.js';
import { createManagementHandler, type Route } from './router.js';
import { rulesRoute, type RulesOptions } from './rules.js';

export { requestEventOf, type EventHub, type ReloadEvent, type RequestEvent } from './events.js';
export { connectJournal, journalReplay, journalRoutes, requestEventOfEntry } from './journal-bridge.js';
export { connectLive, reloadEventOf, workspaceRoute } from './live-bridge.js';
export { stateRoutes, STATE_PATH } from './state-route.js';
export { failure, result, type JsonAnswer, type Wire } from './envelope.js';
export type { Route, RouteContext } from './router.js';

export interface InspectorOptions {
  /** the program version, for the envelope's `mock` field */
  readonly version: string;
  /** routes mounted beside the inspector's own: the journal's (`/__mock/api/requests…`, `/__mock/api/reset`), `/__mock/api/workspace` */
  readonly routes?: readonly Route[];
  /** `GET /__mock/api/files` */
  readonly files: FileTreeOptions;
  /** `POST /__mock/api/rules` */
  readonly rules: RulesOptions;
  /** the event stream's replay source and limits (see EventHubOptions) */
  readonly events?: EventHubOptions;
  /** the page's folder; default: ui/ beside the router (dist/bin/ui in the bundle) */
  readonly uiDir?: string;
  /** `--inspect-token`: every request must carry it as a bearer token (security.ts) */
  readonly token?: string;
  /** path prefixes of routes a peer's own clients call (router.ts's `peerPrefixes`) */
  readonly peerPrefixes?: readonly string[];
}

export interface Inspector {
  /** the management listener's request handler */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** publish request, reload and reset events */
  readonly events: EventHub;
  /** end every event stream (call before closing the listener, so it can close) */
  close(): void;
}

export function createInspector(options: InspectorOptions): Inspector {
  const events = createEventHub(options.events);
  const handler = createManagementHandler({
    version: options.version,
    routes: [...(options.routes ?? []), events.route, fileTreeRoute(options.files), rulesRoute(options.rules)],
    ...(options.uiDir === undefined ? {} : { uiDir: options.uiDir }),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.peerPrefixes === undefined ? {} : { peerPrefixes: options.peerPrefixes }),
  });
  return { handler, events, close: () => events.close() };
}
