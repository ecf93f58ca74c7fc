// An HTTP/1.1 upgrade request (docs/websocket.md): dispatched like any request; when the rule that answers it has
// `respond.websocket`, the connection is upgraded by the `ws` package and the plan is played on it
// (conversation.ts). Any other upgrade (another protocol, or a path whose answer is not a conversation) is answered
// as a plain request on that connection, which then closes. Loaded on the first upgrade only.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { DispatchEnv, Outcome } from '../../dispatch/dispatch.js';
import { wsParams, wsRenderer, type WsRender } from '../../dispatch/websocket-text.js';
import type { WebSocketPlan } from '../../model/websocket.js';
import { snapshotOf } from '../answer-paths.js';
import { LISTENER_MESSAGES, type ListenerDeps } from '../listener.js';
import { composeHooks, type HookChain, type InFlight, type Sent } from '../hooks.js';
import type { Answer } from '../../model/answer.js';
import { converse } from './conversation.js';
import type { WsHub } from './hub.js';

export interface UpgradeDeps {
  readonly deps: ListenerDeps;
  readonly envOf: (req: IncomingMessage) => DispatchEnv;
  readonly hub: WsHub;
  /** the listener's own handler, for an upgrade that is answered as a plain request */
  readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;
}

/** the largest message a client may send (ws closes the connection with 1009 past it) */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export function createUpgradeHandler(u: UpgradeDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  let render: Promise<WsRender> | undefined;
  const hooks = composeHooks(u.deps.hooks ?? []);
  const opts = hooks?.explain === true ? { explain: true } : {};
  const plain = (req: IncomingMessage, socket: Duplex): void => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.once('finish', () => socket.end());
    u.onRequest(req, res);
  };
  return (req, socket, head) => {
    socket.on('error', () => undefined);
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return plain(req, socket);
    const { deps } = u;
    const live = deps.live.current;
    const snapshot = snapshotOf(req);
    const env = u.envOf(req);
    const receivedAt = deps.now();
    Promise.resolve(deps.dispatch(live.ws, snapshot, env, opts))
      .then(async (outcome: Outcome) => {
        const d = outcome.answer.delivery;
        if (outcome.stage.kind === 'miss' && takenBy(u.deps, req, socket, head, snapshot, wss)) return;
        if (d?.kind !== 'websocket') return plain(req, socket);
        const plan: WebSocketPlan = d.plan;
        const r = plan.template ? await (render ??= wsRenderer(env.random)) : undefined;
        if (socket.destroyed) return;
        // an open conversation holds its connection (server/gate.ts): it never keeps a fresh connection queued, and
        // counts against listener.max_held_connections instead
        const holds = deps.holds;
        if (holds !== undefined && !holds.hold(socket)) return refuseHeld(socket, holds.limit);
        if (holds !== undefined) socket.once('close', () => holds.release(socket));
        wss.handleUpgrade(req, socket, head, (client) => {
          deps.log(`   [WS] ${snapshot.path} connection open`);
          const session = env.session === undefined ? undefined : String(env.session);
          const x: InFlight = {
            req,
            res: new ServerResponse(req),
            method: 'GET',
            snapshot,
            body: EMPTY,
            receivedAt,
            live,
            session,
          };
          const onFrame = journalFrames(hooks, x, outcome, client);
          converse(client, {
            ...(onFrame !== undefined ? { onFrame } : {}),
            plan,
            upgrade: snapshot,
            hub: u.hub,
            session: env.session === undefined ? undefined : String(env.session),
            render: r,
            params: plan.template ? wsParams(live.ws, outcome.stage, snapshot) : {},
            log: deps.log,
          });
        });
      })
      .catch((e: unknown) => {
        deps.log(`WebSocket upgrade failed: ${e instanceof Error ? e.message : String(e)}`);
        socket.destroy();
      });
  };
}

/** a hook (record mode) that answers an upgrade no rule took */
function takenBy(
  deps: ListenerDeps,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  snapshot: ReturnType<typeof snapshotOf>,
  wss: WebSocketServer,
): boolean {
  for (const h of deps.hooks ?? []) if (h.onUpgrade?.(req, socket, head, snapshot, wss) === true) return true;
  return false;
}

function refuseHeld(socket: Duplex, limit: number): void {
  const text = LISTENER_MESSAGES.tooManyHeld(limit);
  const head = [
    'HTTP/1.1 503 Service Unavailable',
    'content-type: text/plain; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    'connection: close',
    '',
    '',
  ].join('\r\n');
  socket.end(head + text);
}

const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/** the answer an upgrade got, as the journal shows it: its body is the frames' lines, hence the text type */
const SWITCHING: Answer = Object.freeze({
  status: 101,
  headers: [
    ['upgrade', 'websocket'],
    ['connection', 'Upgrade'],
    ['content-type', 'text/plain; charset=utf-8'],
  ] as const,
  body: EMPTY,
  delayMs: 0,
});

/**
 * The upgrade in the request journal (docs/websocket.md): an entry open from the upgrade to the close, its
 * response a 101 whose body grows by one line per frame (`> ` in, `< ` out; a binary frame by its size), shown
 * live by the inspector as a stream's events are. None without a journal.
 */
function journalFrames(
  hooks: HookChain | undefined,
  x: InFlight,
  outcome: Outcome,
  client: { once(event: 'close', run: () => void): unknown },
): ((direction: 'in' | 'out', data: string | Buffer) => void) | undefined {
  if (hooks?.streamTap === undefined && hooks?.afterWrite === undefined) return undefined;
  const sent: Sent = { kind: 'dispatch', response: SWITCHING, outcome };
  const tap = hooks.streamTap?.(x, sent);
  client.once('close', () => hooks.afterWrite?.(x, sent));
  if (tap === undefined) return undefined;
  return (direction, data) => {
    const shown = typeof data === 'string' ? data.replaceAll('\n', '\\n') : `(binary, ${data.byteLength} bytes)`;
    tap(encoder.encode(`${direction === 'in' ? '>' : '<'} ${shown}\n`));
  };
}
