// The node:http/https adapter: start the listeners for a loaded workspace and answer every request through
// dispatch(). Startup printing is the CLI's job; startServer only returns the bound addresses.
//
// Shape: each listener is a net.Server that accepts connections paused and passes them through a
// ConnectionGate (a bound on connections in flight; extra ones queue). Admitted plain connections go straight to
// one shared http.Server (the "engine", which never listens itself); admitted TLS connections first complete
// their handshake in a TlsTerminator under an absolute deadline. The engine carries Node's header, request and
// keep-alive timeouts, so a slow client cannot hold the server.
//
// Listeners (docs/https-and-limits.md): no [listener.tls] → plain HTTP on listener.port. [listener.tls] without port → HTTPS
// only, on listener.port. With tls.port → HTTP on listener.port and HTTPS on tls.port. All bind or none.
//
// Not here: loading config (the caller passes a Workspace), printing startup lines, signal handling.
import { CallbackSender } from '../callbacks/sender.js';
import { CollectionFiles } from './collections-persist.js';
import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { bind, closeServer, createEngine, drain, formatHostPort, type ServerTimeouts } from './engine.js';
import { dispatch as realDispatch, type ContractGate, type DispatchEnv } from '../dispatch/dispatch.js';
import { MockError } from '../model/errors.js';
import { DEFAULTS, type Config } from '../model/config.js';
import type { ShownPaths } from '../dispatch/explain-view.js';
import type { Journal } from '../journal/journal.js';
import type { Workspace } from '../model/workspace.js';
import { createFsSource } from '../node/file-cache/fs-source.js';
import type { LiveWorkspaceHandle } from '../model/reload.js';
import { LiveWorkspace, type LiveWorkspaceOptions } from './live.js';
import { SocketActivity } from './activity.js';
import { attachClientErrorHandler } from './client-error.js';
import { ConnectionGate } from './gate.js';
import { PaceState } from '../dispatch/pace.js';
import { createListener, type DispatchFunction, type ListenerDeps } from './listener.js';
import type { RequestHook } from './hooks.js';
import type { RecordSettings } from './record/mode.js';
import type { TlsTerminator } from './tls.js';
import { Scopes } from './scopes.js';
import { WsHub } from './websocket/hub.js';
import { attachUpgrades } from './websocket/attach.js';
import { H2C_SOCKET, http2Engine, type Http2Setup } from './http2-setup.js';

export { formatHostPort, type ServerTimeouts } from './engine.js';

export interface ListeningAddress {
  readonly scheme: 'http' | 'https';
  readonly ip: string;
  /** the bound port (the real one when 0 was asked) */
  readonly port: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 120_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

/** Working connections on the plain HTTP listener before further ones queue, unless listener.max_connections says otherwise (the TLS one uses listener.tls.max_connections). */
export const PLAIN_HTTP_MAX_CONNECTIONS = DEFAULTS.plainMaxConnections;

export interface ServerOptions {
  /** console lines (request log, script output, warnings); one call may pass several, joined by `\n` */
  readonly log: (line: string) => void;
  /** defaults to the real filesystem (node/file-cache/fs-source.ts) */
  readonly files?: DispatchEnv['files'];
  /** the request pipeline; defaults to dispatch(). Tests may substitute one. */
  readonly dispatch?: DispatchFunction;
  /** clock for the request log; defaults to the real time */
  readonly now?: () => Date;
  /** for random strategies without a seed; defaults to Math.random */
  readonly random?: () => number;
  /** wall-clock budget for one middleware script run */
  readonly scriptTimeLimitMs?: number;
  readonly timeouts?: Partial<ServerTimeouts>;
  /** bound on plain HTTP connections in flight (default: listener.max_connections) */
  readonly plainMaxConnections?: number;
  /** how the live workspace reloads (server/live.ts); without it the workspace never changes */
  readonly live?: LiveWorkspaceOptions;
  /** `--record`: misses are forwarded to the target and saved (server/record/mode.ts, loaded only then) */
  readonly record?: RecordSettings;
  /** record every exchange here (server/listener.ts); absent: nothing is recorded, at no cost */
  readonly journal?: Journal;
  /** how the journal's explanations name a workspace's files */
  readonly shownPaths?: (ws: Workspace) => ShownPaths;
  /** `--contract`: requests and answers checked against an OpenAPI document (docs/contract.md); absent: no cost */
  readonly contract?: ContractGate;
}

export interface ServerHandle {
  readonly addresses: readonly ListeningAddress[];
  /** the workspace being served: its generation, reload() and onReload() */
  readonly live: LiveWorkspaceHandle;
  /** the round-robin counters (a reset restarts them) */
  readonly rotation: LiveWorkspace['rotation'];
  /** the runtime state: the state store, overrides and sessions (server/scopes.ts) */
  readonly state: LiveWorkspace['state'];
  readonly scopes: Scopes;
  /** the open WebSocket connections and their frames (docs/websocket.md) */
  readonly websockets: WsHub;
  /** the callbacks sent and pending (docs/callbacks.md) */
  readonly callbacks: CallbackSender;
  /**
   * Stop accepting and close. With `graceMs`, idle keep-alive connections close at once and requests in flight
   * (a delayed answer among them) get up to that long to finish before everything is dropped; without it, at once.
   */
  close(opts?: { readonly graceMs?: number }): Promise<void>;
}

export interface PlannedListener {
  readonly scheme: 'http' | 'https';
  readonly ip: string;
  readonly port: number;
}

/** Which listeners the config asks for, in binding (and printing) order: http first. */
export function planListeners(listener: Config['listener']): readonly PlannedListener[] {
  const ip = listener.ipAddress;
  if (listener.tls === undefined) return [{ scheme: 'http', ip, port: listener.port }];
  if (listener.tls.port === undefined) return [{ scheme: 'https', ip, port: listener.port }];
  return [
    { scheme: 'http', ip, port: listener.port },
    { scheme: 'https', ip, port: listener.tls.port },
  ];
}

/** Binds every listener or none. Rejects with a MockError (kind 'io' for a port in use, 'config_invalid' for TLS material) naming the cause. */
export async function startServer(ws: Workspace, opts: ServerOptions): Promise<ServerHandle> {
  const tlsConfig = ws.config.listener.tls;
  // TLS material first: a bad cert or key stops everything before any port is bound.
  const tls = tlsConfig === undefined ? undefined : await loadTls(tlsConfig);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const engine = createEngine(timeouts);
  const h2 = await http2Engine(ws, tls !== undefined, timeouts);
  const terminator = tls === undefined ? undefined : startTerminator(tls, opts.log, engine, h2);
  const live = new LiveWorkspace(ws, opts.live);
  // collections' files: written back when persisted, reseeded when edited (only a change or a reload runs this)
  const collectionFiles = new CollectionFiles(ws, live.state, opts.log);
  live.onReload(collectionFiles.reloaded);
  const hooks = await requestHooks(opts, live);
  // the file cache the server makes is the server's to close; one given in the options is its giver's
  const ownFiles = opts.files === undefined ? createFsSource() : undefined;
  const env = dispatchEnv(opts, opts.files ?? ownFiles!, live, collectionFiles);
  const scopes = scopesFor(ws, env, opts.journal, live);
  const held = heldConnections(ws);
  const activity = new SocketActivity();
  const callbacks = callbackSender(live, opts.log);
  const listenerDeps: ListenerDeps = {
    callbacks,
    holds: held.holds,
    hooks,
    live,
    env,
    scopes,
    dispatch: opts.dispatch ?? realDispatch,
    log: opts.log,
    now: opts.now ?? (() => new Date()),
    activity,
  };
  const listener = createListener(listenerDeps);
  engine.on('request', listener.onRequest);
  const websockets = new WsHub();
  attachUpgrades(engine, listenerDeps, listener.onRequest, websockets);
  h2?.serve(listener.onRequest);
  engine.on('checkContinue', listener.onCheckContinue);
  attachClientErrorHandler(engine, activity);

  const gates: ConnectionGate[] = [];
  const fronts: NetServer[] = [];
  const shutDown = async (graceMs = 0): Promise<void> => {
    const closed = Promise.all(fronts.map(closeServer));
    if (graceMs > 0) await drain(engine, gates, graceMs);
    // Every connection the engine serves sits on a gated socket, so this ends them all.
    for (const gate of gates) gate.destroyAll();
    listener.close();
    websockets.close();
    for (const h of hooks) await h.close?.();
    await callbacks.close(live.current.ws.config.service.callbackShutdown ?? DEFAULTS.callbackShutdown);
    await collectionFiles.flush();
    terminator?.close();
    h2?.engine.close();
    engine.close();
    // the file cache's own watches, opened a moment after the requests that needed them, close with the server
    ownFiles?.close();
    await closed;
  };
  let addresses: readonly ListeningAddress[];
  try {
    const gateFor = gateMaker(ws, opts, engine, terminator, held, h2?.plain(timeouts.headersMs));
    addresses = await bindAll(planListeners(ws.config.listener), gateFor, terminator, { gates, fronts }, opts.log);
  } catch (e) {
    await shutDown();
    throw e;
  }

  let closing: Promise<void> | undefined;
  return {
    addresses,
    live,
    rotation: live.rotation,
    state: live.state,
    scopes,
    websockets,
    callbacks,
    close: (o) => (closing ??= shutDown(o?.graceMs)),
  };
}

/** callbacks (docs/callbacks.md): the sender exists for the server's life, idle until an answer makes one */
function callbackSender(live: LiveWorkspace, log: ServerOptions['log']): CallbackSender {
  return new CallbackSender({ log, max: () => live.current.ws.config.service.callbackMax ?? DEFAULTS.callbackMax });
}

type TlsSettings = NonNullable<Config['listener']['tls']>;

interface LoadedTls {
  readonly module: typeof import('./tls.js');
  readonly material: ReturnType<typeof import('./tls.js')['loadServerTlsMaterial']>;
  readonly config: TlsSettings;
}

/** node:tls and the PEM parsing are loaded only when a TLS listener is configured (faster start, less memory). */
async function loadTls(config: TlsSettings): Promise<LoadedTls> {
  const module = await import('./tls.js');
  return { module, material: module.loadServerTlsMaterial(config), config };
}

/**
 * The TLS handshakes, in front of the engines (a connection that chose `h2` by ALPN goes to the HTTP/2 one); a
 * failure closes the engine before it is passed on.
 */
function startTerminator(
  tls: LoadedTls,
  log: (line: string) => void,
  engine: HttpServer,
  h2: Http2Setup | undefined,
): TlsTerminator {
  try {
    return new tls.module.TlsTerminator({
      material: tls.material,
      certEntry: tls.config.certEntry,
      handshakeTimeoutSeconds: tls.config.handshakeTimeoutSeconds,
      http2: h2 !== undefined,
      log,
      onSecure: (socket) =>
        socket.alpnProtocol === 'h2' && h2 !== undefined ? h2.accept(socket) : engine.emit('connection', socket),
    });
  } catch (e) {
    engine.close();
    throw e;
  }
}

/**
 * The capabilities on the request path, in the order their hooks run (docs/architecture.md, "Request hooks"):
 * observers first, so they see what the others answered. One that is off is not in the list.
 */
async function requestHooks(opts: ServerOptions, live: LiveWorkspace): Promise<RequestHook[]> {
  const hooks: RequestHook[] = [];
  if (opts.journal !== undefined)
    hooks.push((await import('./journal-hook.js')).journalHook(opts.journal, opts.shownPaths));
  if (opts.record !== undefined) {
    hooks.push(
      (await import('./record/mode.js')).createRecordMode(opts.record, { log: opts.log, reload: () => live.reload() }),
    );
  }
  return hooks;
}

function dispatchEnv(
  opts: ServerOptions,
  files: DispatchEnv['files'],
  live: LiveWorkspace,
  collectionFiles: CollectionFiles,
): DispatchEnv {
  return {
    files,
    rotation: live.rotation,
    random: opts.random ?? Math.random,
    pace: new PaceState(),
    log: opts.log,
    state: live.state,
    collectionChanged: collectionFiles.changed,
    ...(opts.scriptTimeLimitMs !== undefined ? { scriptTimeLimitMs: opts.scriptTimeLimitMs } : {}),
    ...(opts.contract !== undefined ? { contract: opts.contract } : {}),
  };
}

/** sessions and overrides, following service.sessions across reloads */
function scopesFor(ws: Workspace, env: DispatchEnv, journal: Journal | undefined, live: LiveWorkspace): Scopes {
  const scopes = new Scopes({ env, ...(journal !== undefined ? { journalLastId: () => journal.lastId } : {}) });
  scopes.configure(ws.config.service.sessions);
  live.onReload((e) => {
    if (e.kind === 'applied') scopes.configure(e.workspace.config.service.sessions);
  });
  return scopes;
}

interface HeldConnections {
  /** which gate admitted a connection, by its raw socket */
  readonly gateOf: WeakMap<object, ConnectionGate>;
  readonly limit: number;
  readonly holds: NonNullable<ListenerDeps['holds']>;
}

/**
 * Which gate admitted a connection, by the socket the engine serves (the TLS socket's own TCP socket on HTTPS):
 * the listener holds and releases a connection whose answer waits (server/gate.ts).
 */
function heldConnections(ws: Workspace): HeldConnections {
  const gateOf = new WeakMap<object, ConnectionGate>();
  const rawOf = (socket: object): Socket => {
    const s = socket as { _parent?: Socket | null; [H2C_SOCKET]?: Socket };
    return (s._parent ?? s[H2C_SOCKET] ?? socket) as Socket;
  };
  const limit = ws.config.listener.maxHeldConnections ?? DEFAULTS.maxHeldConnections;
  const holds = {
    limit,
    hold: (socket: object): boolean => {
      const raw = rawOf(socket);
      return gateOf.get(raw)?.hold(raw) ?? true;
    },
    release: (socket: object): void => {
      const raw = rawOf(socket);
      gateOf.get(raw)?.release(raw);
    },
  };
  return { gateOf, limit, holds };
}

type GateFor = (scheme: ListeningAddress['scheme']) => ConnectionGate;

/** A listener's gate: admitted plain connections go to the engine, TLS ones to their handshake first. */
function gateMaker(
  ws: Workspace,
  opts: ServerOptions,
  engine: HttpServer,
  terminator: TlsTerminator | undefined,
  held: HeldConnections,
  h2c: ((raw: Socket, http1: (raw: Socket) => void) => void) | undefined,
): GateFor {
  const http1 = (raw: Socket): void => {
    engine.emit('connection', raw);
    raw.resume();
  };
  return (scheme) => {
    if (scheme === 'http') {
      const limit = opts.plainMaxConnections ?? ws.config.listener.maxConnections ?? PLAIN_HTTP_MAX_CONNECTIONS;
      const gate: ConnectionGate = new ConnectionGate(
        Math.max(1, limit),
        (raw) => {
          held.gateOf.set(raw, gate);
          if (h2c === undefined) http1(raw);
          else h2c(raw, http1);
        },
        held.limit,
      );
      return gate;
    }
    const tlsConfig = ws.config.listener.tls;
    if (terminator === undefined || tlsConfig === undefined)
      throw new MockError('internal', 'an HTTPS listener without TLS settings');
    const gate: ConnectionGate = new ConnectionGate(
      Math.max(1, tlsConfig.maxConnections),
      (raw) => {
        held.gateOf.set(raw, gate);
        terminator.accept(raw);
      },
      held.limit,
    );
    return gate;
  };
}

/** Binds each planned listener in turn, adding its gate and server to `into` as it goes (so a failure closes them). */
async function bindAll(
  planned: readonly PlannedListener[],
  gateFor: GateFor,
  terminator: TlsTerminator | undefined,
  into: { readonly gates: ConnectionGate[]; readonly fronts: NetServer[] },
  log: (line: string) => void,
): Promise<ListeningAddress[]> {
  const addresses: ListeningAddress[] = [];
  for (const want of planned) {
    const gate = gateFor(want.scheme);
    const arm = want.scheme === 'https' ? terminator : undefined;
    const front = createNetServer({ pauseOnConnect: true, noDelay: true }, (raw: Socket) => {
      arm?.arm(raw);
      gate.offer(raw);
    });
    into.gates.push(gate);
    const port = await bind(front, want.ip, want.port);
    front.on('error', (e: Error) => log(`listener error on ${formatHostPort(want.ip, port)}: ${e.message}`));
    into.fronts.push(front);
    addresses.push({ scheme: want.scheme, ip: want.ip, port });
  }
  return addresses;
}
