// One WebSocket connection playing its rule's plan (docs/websocket.md): messages on open, the scripted sequence,
// periodic pushes, replies chosen by the incoming message, echo, broadcast to the route's other clients, a close
// with its code and reason, and the faults (drop: the TCP connection cut without a close frame; stall: nothing more
// is sent or read). Every timer is the connection's own and stops when it closes.
import { readFile } from 'node:fs/promises';
import type { RawData, WebSocket } from 'ws';
import type { WsRender } from '../../dispatch/websocket-text.js';
import { replyFor } from '../../dispatch/websocket-match.js';
import type { RequestSnapshot } from '../../model/request.js';
import type { WebSocketPlan, WsClose, WsFault, WsSend } from '../../model/websocket.js';
import type { WsHub } from './hub.js';

export interface ConversationContext {
  readonly plan: WebSocketPlan;
  readonly upgrade: RequestSnapshot;
  readonly hub: WsHub;
  readonly session: string | undefined;
  readonly render: WsRender | undefined;
  /** the upgrade's path parameters, for templates */
  readonly params: Readonly<Record<string, string>>;
  readonly log: (line: string) => void;
  /** hears each frame as it goes (the journal's open entry for the upgrade) */
  readonly onFrame?: (direction: 'in' | 'out', data: string | Buffer) => void;
}

/** the most lines a script file plays */
export const MAX_SCRIPT_LINES = 100_000;

export function converse(socket: WebSocket, ctx: ConversationContext): void {
  const { plan, hub } = ctx;
  const timers = new Set<NodeJS.Timeout>();
  let stalled = false;
  const later = (ms: number, run: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stalled && socket.readyState === socket.OPEN) run();
    }, ms);
    timers.add(t);
  };
  const peer = {
    send: (text: string): void => {
      if (stalled || socket.readyState !== socket.OPEN) return;
      socket.send(text);
      frame('out', text);
    },
  };
  const id = hub.add(ctx.upgrade.path, ctx.session, peer);
  const onFrame = ctx.onFrame;
  const frame = (direction: 'in' | 'out', data: string | Buffer): void => {
    hub.frame(id, direction, data);
    onFrame?.(direction, data);
  };
  const text = (source: string, message?: string): string =>
    ctx.render === undefined || !plan.template ? source : ctx.render(source, ctx.upgrade, ctx.params, message);
  /** the sends one after the other, each after its own pause, from now */
  const play = (sends: readonly WsSend[], message?: string): number => {
    let at = 0;
    for (const s of sends) {
      at += s.afterMs;
      // what is due at once leaves at once, ahead of anything the connection hears next
      if (at === 0) peer.send(text(s.text, message));
      else later(at, () => peer.send(text(s.text, message)));
    }
    return at;
  };
  const close = (c: WsClose, from: number): void => later(from + c.afterMs, () => socket.close(c.code, c.reason));
  const fault = (f: WsFault, from: number): void =>
    later(from + f.afterMs, () => {
      if (f.kind === 'drop') return socket.terminate();
      stalled = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      socket.pause();
    });

  const moves: Moves = { socket, plan, ctx, id, peer, frame, play, close, fault };
  socket.on('message', (data, isBinary) => {
    if (!stalled) heard(moves, data, isBinary);
  });
  socket.on('error', () => undefined);
  socket.once('close', (code) => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    hub.remove(id, code);
  });

  play(plan.onOpen);
  for (const p of plan.pushes) {
    const t = setInterval(() => {
      if (!stalled && socket.readyState === socket.OPEN) peer.send(text(p.text));
    }, p.everyMs);
    timers.add(t);
  }
  if (plan.close !== undefined) close(plan.close, 0);
  if (plan.fault !== undefined) fault(plan.fault, 0);
  if (plan.script !== undefined) playScript(plan.script, ctx, later, peer.send, text, (c, from) => close(c, from));
}

/** what a heard message may set going */
interface Moves {
  readonly socket: WebSocket;
  readonly plan: WebSocketPlan;
  readonly ctx: ConversationContext;
  readonly id: number;
  readonly peer: { send(text: string): void };
  readonly frame: (direction: 'in' | 'out', data: string | Buffer) => void;
  readonly play: (sends: readonly WsSend[], message?: string) => number;
  readonly close: (c: WsClose, from: number) => void;
  readonly fault: (f: WsFault, from: number) => void;
}

/** An incoming message: its reply (messages, then a close or a fault), its echo, its broadcast. */
function heard(m: Moves, data: RawData, isBinary: boolean): void {
  const { plan, socket } = m;
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  const message = isBinary ? undefined : buf.toString('utf8');
  m.frame('in', message ?? buf);
  if (message === undefined) {
    if (plan.echo) socket.send(buf, { binary: true });
    return;
  }
  const reply = replyFor(plan, m.ctx.upgrade, message);
  if (reply !== undefined) {
    const end = m.play(reply.send, message);
    if (reply.close !== undefined) m.close(reply.close, end);
    if (reply.fault !== undefined) m.fault(reply.fault, end);
  }
  if (plan.echo) m.peer.send(message);
  if (plan.broadcast) for (const other of m.ctx.hub.peersOf(m.id)) other.send(message);
}

/** `{ "after_ms": 100, "send": "…" }` lines (or `"close": { "code", "reason" }`), each after the previous */
function playScript(
  file: string,
  ctx: ConversationContext,
  later: (ms: number, run: () => void) => void,
  send: (text: string) => void,
  text: (source: string) => string,
  close: (c: WsClose, from: number) => void,
): void {
  readFile(file, 'utf8').then(
    (body) => {
      let at = 0;
      const lines = body.split('\n').slice(0, MAX_SCRIPT_LINES);
      lines.forEach((line, i) => {
        if (line.trim() === '') return;
        let step: { after_ms?: unknown; send?: unknown; close?: { code?: unknown; reason?: unknown } };
        try {
          step = JSON.parse(line) as typeof step;
        } catch {
          ctx.log(`${file}:${i + 1}: not a JSON line; skipped`);
          return;
        }
        at += typeof step.after_ms === 'number' && step.after_ms >= 0 ? step.after_ms : 0;
        const message =
          typeof step.send === 'string' ? step.send : step.send === undefined ? undefined : JSON.stringify(step.send);
        if (message !== undefined) {
          const due = at;
          later(due, () => send(text(message)));
        }
        if (step.close !== undefined) {
          const code = typeof step.close.code === 'number' ? step.close.code : 1000;
          const reason = typeof step.close.reason === 'string' ? step.close.reason : '';
          close({ afterMs: 0, code, reason }, at);
        }
      });
    },
    (e: unknown) => ctx.log(`cannot read the WebSocket script ${file}: ${e instanceof Error ? e.message : String(e)}`),
  );
}
