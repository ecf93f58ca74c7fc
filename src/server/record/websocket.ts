// Record mode for WebSocket (docs/websocket.md, "Record and replay"): an upgrade that no rule answers is passed
// through to the target (ws:// or wss://, the `ws` client), the two connections relayed frame for frame, and the
// target's frames saved, once the connection has closed, as a script of `{ "after_ms", "send" }` lines (a close
// frame as a `close` line), each `after_ms` counted from the previous line and the first from the open, under
// `<fallback>/.mock-recorded/ws/`, with a rule whose `respond.websocket.script` names it, so the next connection
// is answered from the recording. The client's frames are relayed and not saved: replay plays the target's frames
// on their timing whatever the client sends. A binary frame is relayed but cannot be a script line: it is left
// out and the log says so. The first connection to a path (with its query) is saved; later ones while it is still
// open are relayed only.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, type RawData, type WebSocketServer } from 'ws';
import type { RequestSnapshot } from '../../model/request.js';
import type { CommitRule } from '../../record/commit-port.js';
import { isUsableSegment, queryConditions, RECORDED_DIR } from '../../record/plan.js';
import { forwardedPath, type RecordTarget } from '../../record/target.js';
import { writeConfined } from './confined-write.js';

export interface WsRecordSettings {
  readonly target: RecordTarget;
  readonly insecure: boolean;
  readonly dryRun: boolean;
  readonly fallbackDir: string;
  readonly commitRule: CommitRule;
  readonly connectTimeoutMs?: number;
  readonly log: (line: string) => void;
  /** reload the live workspace after a saved rule */
  readonly reload: () => Promise<unknown>;
}

export const WS_RECORD_MESSAGES = {
  failed: (path: string, reason: string) => `not passed through: WebSocket ${path} — the target failed: ${reason}`,
  binary: (path: string) =>
    `WebSocket ${path}: a binary frame from the target was relayed but is not in the recorded script (a script line is text)`,
  saved: (dry: boolean, file: string, frames: number, rule: string) =>
    `${dry ? 'would record' : 'recorded'} WebSocket script ${file} (${frames} frame${frames === 1 ? '' : 's'}), ${dry ? 'would append ' : ''}rule #${rule}`,
  notSaved: (path: string, why: string) => `not saved: WebSocket ${path} — ${why}`,
} as const;

/** request headers the `ws` client makes itself, or that belong to the hop */
const OWN_HEADERS = new Set([
  'host',
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'content-length',
  'transfer-encoding',
]);

/** a close code a server may send in a close frame (1005, 1006 and 1015 are never sent) */
const sendable = (code: number): boolean =>
  (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

export interface WsRecorder {
  /** pass one upgrade through to the target and record it */
  readonly pass: (
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    snapshot: RequestSnapshot,
    wss: WebSocketServer,
  ) => void;
}

export function createWsRecorder(s: WsRecordSettings): WsRecorder {
  const open = new Set<string>();
  return {
    pass(req, socket, head, snapshot, wss) {
      const shown = snapshot.rawPath + (snapshot.query === '' ? '' : '?' + snapshot.query);
      const path = forwardedPath(snapshot.rawPath, s.target.basePath);
      if (!path.ok) return refuse(socket, 400, s.log, WS_RECORD_MESSAGES.failed(shown, path.error));
      const url =
        s.target.origin.replace(/^http/, 'ws') +
        s.target.basePath +
        path.value +
        (snapshot.query === '' ? '' : '?' + snapshot.query);
      const protocols = (req.headers['sec-websocket-protocol'] ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      const headers: Record<string, string> = {};
      for (const [k, v] of snapshot.headers) if (!OWN_HEADERS.has(k)) headers[k] = v;
      headers.host = s.target.host;
      const upstream = new WebSocket(url, protocols, {
        headers,
        perMessageDeflate: false,
        rejectUnauthorized: !s.insecure,
        handshakeTimeout: s.connectTimeoutMs ?? 5_000,
        followRedirects: false,
      });
      const key = snapshot.path + '?' + snapshot.query;
      const saving = !open.has(key);
      if (saving) open.add(key);
      const lines: string[] = [];
      let last = 0;
      const note = (step: Record<string, unknown>): void => {
        const now = performance.now();
        lines.push(JSON.stringify({ after_ms: Math.round(now - last), ...step }));
        last = now;
      };
      upstream.once('unexpected-response', (_r, res) => {
        if (saving) open.delete(key);
        res.resume();
        refuse(socket, 502, s.log, WS_RECORD_MESSAGES.failed(shown, `it answered ${res.statusCode ?? '?'}`));
        upstream.terminate();
      });
      let opened = false;
      upstream.on('error', (e) => {
        if (opened) return;
        if (saving) open.delete(key);
        refuse(socket, 502, s.log, WS_RECORD_MESSAGES.failed(shown, e.message));
      });
      upstream.once('open', () => {
        opened = true;
        last = performance.now();
        relay(
          req,
          socket,
          head,
          wss,
          upstream,
          shown,
          (step) => saving && note(step),
          s.log,
          () => {
            if (!saving) return;
            open.delete(key);
            void save(s, snapshot, lines).catch((e: unknown) =>
              s.log(WS_RECORD_MESSAGES.notSaved(shown, e instanceof Error ? e.message : String(e))),
            );
          },
        );
      });
    },
  };
}

/** The client's upgrade accepted once the target's is, then every frame passed on both ways until either closes. */
function relay(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  wss: WebSocketServer,
  upstream: WebSocket,
  shown: string,
  note: (step: Record<string, unknown>) => void,
  log: (line: string) => void,
  done: () => void,
): void {
  // what the target sends before the client's handshake is complete waits for it, in order
  const early: [RawData, boolean][] = [];
  let client: WebSocket | undefined;
  let saidBinary = false;
  upstream.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) {
      if (!saidBinary) log(WS_RECORD_MESSAGES.binary(shown));
      saidBinary = true;
    } else note({ send: textOf(data) });
    if (client === undefined) early.push([data, isBinary]);
    else if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
  });
  let clientClosed = false;
  // the end of the recording: the target's connection closed, by itself (a `close` line) or after the client's
  upstream.once('close', (code: number, reason: Buffer) => {
    if (!clientClosed && sendable(code)) note({ close: { code, reason: reason.toString('utf8') } });
    if (client === undefined) socket.destroy();
    else if (!clientClosed) {
      if (sendable(code)) client.close(code, reason);
      else client.close();
    }
    done();
  });
  if (socket.destroyed) {
    upstream.close();
    return;
  }
  wss.handleUpgrade(req, socket, head, (c) => {
    client = c;
    log(`   [WS] ${shown} connection open (passed through to the target)`);
    for (const [data, isBinary] of early.splice(0)) c.send(data, { binary: isBinary });
    c.on('message', (data: RawData, isBinary: boolean) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    });
    c.on('error', () => undefined);
    c.once('close', (code: number, reason: Buffer) => {
      if (upstream.readyState !== WebSocket.OPEN) return;
      clientClosed = true;
      if (sendable(code)) upstream.close(code, reason);
      else upstream.close();
    });
  });
  socket.once('close', () => {
    if (client === undefined) upstream.close();
  });
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** The script file written under the recordings, then the rule that plays it; the live workspace reloaded. */
async function save(s: WsRecordSettings, snapshot: RequestSnapshot, lines: readonly string[]): Promise<void> {
  const shown = snapshot.rawPath + (snapshot.query === '' ? '' : '?' + snapshot.query);
  const segments = snapshot.segments.filter((x) => x !== '');
  if (!segments.every((x) => isUsableSegment(x)))
    return s.log(WS_RECORD_MESSAGES.notSaved(shown, 'the path has a segment that cannot be a file name'));
  const names = [RECORDED_DIR, 'ws', ...(segments.length === 0 ? ['index'] : segments)];
  names[names.length - 1] += '.ndjson';
  const bytes = new TextEncoder().encode(lines.map((l) => l + '\n').join(''));
  const w = await writeConfined({ root: s.fallbackDir, names, bytes, unique: true, dryRun: s.dryRun });
  if (w.kind !== 'written')
    return s.log(WS_RECORD_MESSAGES.notSaved(shown, w.kind === 'failed' ? w.message : `the file was ${w.reason}`));
  const query = queryConditions(snapshot.query);
  const appended = await s.commitRule({
    urlPath: snapshot.path,
    method: 'GET',
    ...(query.length > 0 ? { query } : {}),
    body: { kind: 'websocket', abs: w.abs, bytes },
    headers: [],
  });
  if (!appended.ok) return s.log(WS_RECORD_MESSAGES.notSaved(shown, appended.error));
  const rule = `${appended.value.ruleNumber} in ${appended.value.ruleSet}`;
  // the live config is reloaded before the line is logged, so that once it is read the next upgrade is replayed
  if (!s.dryRun) await s.reload().catch(() => undefined);
  s.log(WS_RECORD_MESSAGES.saved(s.dryRun, w.names.join('/'), lines.length, rule));
}

function refuse(socket: Duplex, status: 400 | 502, log: (line: string) => void, line: string): void {
  log(line);
  if (socket.destroyed) return;
  const text = `mock: ${line}\n`;
  const reason = status === 400 ? 'Bad Request' : 'Bad Gateway';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
