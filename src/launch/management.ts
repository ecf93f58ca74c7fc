// The management listener (`--inspect`, the library's `inspect`): the inspector (inspector/index.ts) bound on
// 127.0.0.1 only, with the journal's routes, `GET /__mock/api/workspace`, `GET`/`PUT /__mock/api/state`, and the
// event stream fed by the journal (request rows, resets) and the live workspace (reloads). A rules POST reloads the workspace before it answers,
// so the new rule answers at once, watcher or not.
//
// Owns: binding (loopback only, whatever listener.ip_address says), mounting the routes, wiring the events, and
// closing (event streams first, then every connection). Leaves out: the routes' own logic (journal/http-routes.ts,
// inspector/*, the journal bridge), the security checks (inspector/security.ts, run by the router before any route).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  connectJournal,
  connectLive,
  createInspector,
  journalReplay,
  journalRoutes,
  stateRoutes,
  workspaceRoute,
} from '../inspector/index.js';
import type { StateStore } from '../state/store.js';
import { COLLECTION_KEY, SCENARIO_KEY, scenarioState, setScenarios } from '../state/scenarios.js';
import { JSON_HEADERS } from '../inspector/security.js';
import type { Journal } from '../journal/journal.js';
import { MockError } from '../model/errors.js';
import type { LiveWorkspaceHandle } from '../model/reload.js';
import { runtimeRoutes, type RuntimePort } from '../inspector/runtime-routes.js';
import { websocketRoutes, type WebSocketPort } from '../inspector/websocket-routes.js';
import { callbackRoutes } from '../inspector/callback-routes.js';
import type { RuntimeControl } from './runtime.js';
import { wiremockAdminRoutes, type WireMockAdminPort } from '../management/wiremock.js';

/** The only address the management listener ever binds. */
export const MANAGEMENT_HOST = '127.0.0.1';

export interface ManagementOptions {
  readonly version: string;
  readonly journal: Journal;
  readonly live: LiveWorkspaceHandle;
  /** restart the round-robin counters */
  readonly resetRotation: () => void;
  /** the server's runtime state (docs/state.md): `/__mock/api/state` shows and sets its scenarios, a reset clears them */
  readonly state: StateStore;
  /** where relative paths of a rules POST resolve (the workspace folder) */
  readonly cwd: string;
  /** the root config as given (-c / `config`), relative to `cwd` */
  readonly configPath: string | undefined;
  /** the mock port's base URL, for the file tree's links */
  readonly mockUrl: string;
  /** overrides and sessions over HTTP (`/__mock/api/overrides`, `/__mock/api/sessions`) */
  readonly runtime?: RuntimeControl;
  /** the WebSocket connections (`/__mock/api/websockets`, docs/websocket.md#over-http) */
  readonly websockets?: WebSocketPort;
  /** every request must carry `authorization: Bearer <token>`; then any Host is accepted */
  readonly token?: string;
  /** the address bound (default 127.0.0.1) */
  readonly host?: string;
}

export interface Management {
  readonly port: number;
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  close(): Promise<void>;
}

export const MANAGEMENT_MESSAGES = {
  bind: (host: string, port: number, reason: string) =>
    `cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port} for the inspector: ${reason}`,
} as const;

export interface ReservedManagement {
  readonly port: number;
  /** wire the inspector onto the bound listener (until then it answers 503) */
  mount(o: ManagementOptions): Management;
  /** give the port back (the mock failed to start) */
  close(): Promise<void>;
}

const STARTING = JSON.stringify({ error: 'the mock is still starting' });

/** Bind 127.0.0.1:<port> now (a busy port fails here, before the mock binds); mount the inspector once the mock runs. */
export async function reserveManagement(port: number, host = MANAGEMENT_HOST): Promise<ReservedManagement> {
  let handler = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(503, { ...JSON_HEADERS, 'content-length': String(STARTING.length) });
    res.end(STARTING);
  };
  const server = createServer((req, res) => handler(req, res));
  const bound = await listen(server, port, host);
  const release = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    port: bound,
    close: release,
    mount: (o) => {
      const m = mountInspector(o);
      handler = m.handler;
      let closing: Promise<void> | undefined;
      return {
        port: bound,
        url: `http://${urlHost(host)}:${bound}/`,
        close: () =>
          (closing ??= (async () => {
            m.stop();
            await release();
          })()),
      };
    },
  };
}

function mountInspector(o: ManagementOptions): {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  stop: () => void;
} {
  const wsRoute = workspaceRoute(o.live);
  const inspector = createInspector({
    version: o.version,
    routes: [
      ...journalRoutes({
        journal: o.journal,
        version: o.version,
        resetRotation: o.resetRotation,
        resetState: () => void o.state.clear(SCENARIO_KEY),
        resetCollections: () => void o.state.clear(COLLECTION_KEY),
        ...(o.runtime !== undefined ? { runtime: runtimePort(o.runtime) } : {}),
      }),
      wsRoute,
      ...stateRoutes(o.state, o.live),
      ...(o.runtime !== undefined ? runtimeRoutes(runtimePort(o.runtime)) : []),
      ...(o.websockets !== undefined ? websocketRoutes(o.websockets) : []),
      ...(o.runtime !== undefined ? callbackRoutes((f) => o.runtime!.callbacks(f)) : []),
      ...(o.runtime !== undefined ? wiremockAdminRoutes(wiremockPort(o, o.runtime)) : []),
    ],
    // WireMock's admin API (docs/coming-from-wiremock.md): its clients send no x-mock-client header
    peerPrefixes: ['/__admin/'],
    ...(o.token !== undefined ? { token: o.token } : {}),
    files: {
      fallbackDir: () => o.live.workspace.fallbackDir,
      view: () => o.live.workspace.config.fileTreeView,
      mockUrl: () => o.mockUrl,
    },
    rules: {
      cwd: () => o.cwd,
      configPath: () => o.configPath,
      // the rule answers as soon as the POST has answered: the workspace is reloaded first
      onWritten: async () => void (await o.live.reload()),
    },
    events: { replay: journalReplay(o.journal) },
  });
  const stops = [
    connectJournal(o.journal, inspector.events),
    connectLive(o.live, inspector.events),
    () => wsRoute.close(),
  ];
  return {
    handler: inspector.handler,
    stop: () => {
      for (const stop of stops) stop();
      inspector.close();
    },
  };
}

/** how a URL names the bound address: a wildcard one is reached on loopback */
function urlHost(host: string): string {
  const ip = host === '0.0.0.0' ? MANAGEMENT_HOST : host === '::' ? '::1' : host;
  return ip.includes(':') ? `[${ip}]` : ip;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      const reason =
        e.code === 'EADDRINUSE' ? 'address already in use' : e.code === 'EACCES' ? 'permission denied' : e.message;
      reject(new MockError('io', MANAGEMENT_MESSAGES.bind(host, port, reason), [], { cause: e }));
    };
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** the runtime controls as the inspector's routes use them (the inspector does not import launch/) */
function runtimePort(r: RuntimeControl): RuntimePort {
  return {
    sessionsOn: () => r.sessionsOn,
    use: (rules, opts) => r.use(rules, opts),
    overrides: (session) => r.overrides(session),
    resetOverrides: (session) => r.resetOverrides(session),
    removeOverride: (id) => r.removeOverride(id),
    sessions: () => r.sessions(),
    closeSession: (id) => r.closeSession(id),
    reset: (session) => r.reset(session),
    viewFilter: (session, filter) => r.viewFilter(session, filter),
  };
}

/** WireMock's admin API over the shared overrides, the journal, the server's scenarios and the global reset */
function wiremockPort(o: ManagementOptions, r: RuntimeControl): WireMockAdminPort {
  return {
    version: o.version,
    use: (rules) => r.use(rules).map((v) => v.id),
    removeOverride: (id) => r.removeOverride(id),
    overrideIds: () => new Set(r.overrides().map((v) => v.id)),
    requests: () => o.journal.requests(),
    resetJournal: () => o.journal.reset(),
    scenarioState: (key) => scenarioState(o.state, key),
    setScenario: (key, state) => setScenarios(o.state, { [key]: state }),
    resetScenarios: () => void o.state.clear(SCENARIO_KEY),
    resetAll: () => r.reset(),
  };
}
