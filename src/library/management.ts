// The management listener (`--inspect`, the library's `inspect`): the inspector (inspector/index.ts) bound on
// 127.0.0.1 only, with the journal's routes, `GET /__mock/api/workspace`, and the event stream fed by the journal
// (request rows, resets) and the live workspace (reloads). A rules POST reloads the workspace before it answers,
// so the new rule answers at once, watcher or not.
//
// Owns: binding (loopback only, whatever listener.ip_address says), mounting the routes, wiring the events, and
// closing (event streams first, then every connection). Leaves out: the routes' own logic (journal/http-routes.ts,
// inspector/*), the security checks (inspector/security.ts, run by the inspector's router before any route).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { diagnosticToWire } from '../cli/envelope.js';
import { createInspector, requestEventOf, type RequestEvent, type Route, type RouteContext, type Wire } from '../inspector/index.js';
import type { Entry } from '../journal/entry.js';
import { JSON_HEADERS } from '../inspector/security.js';
import { handleJournalRoute, JOURNAL_ROUTES, type JournalHttpResponse } from '../journal/http-routes.js';
import type { Journal } from '../journal/journal.js';
import { entryToWire } from '../journal/wire.js';
import { MockError } from '../model/errors.js';
import type { LiveWorkspaceHandle } from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import { workspaceRoute, type LastReload } from './workspace-route.js';

/** The only address the management listener ever binds. */
export const MANAGEMENT_HOST = '127.0.0.1';

export interface ManagementOptions {
  readonly version: string;
  readonly journal: Journal;
  readonly live: LiveWorkspaceHandle;
  /** restart the round-robin counters */
  readonly resetRotation: () => void;
  /** where relative paths of a rules POST resolve (the workspace folder) */
  readonly cwd: string;
  /** the root config as given (-c / `config`), relative to `cwd` */
  readonly configPath: string | undefined;
  /** the mock port's base URL, for the file tree's links */
  readonly mockUrl: string;
  /** how rule sets and scripts are named (as `get` names them) */
  readonly shownPaths: (ws: Workspace) => { ruleSet(i: number): string; middleware(i: number): string };
}

export interface Management {
  readonly port: number;
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  close(): Promise<void>;
}

export const MANAGEMENT_MESSAGES = {
  bind: (port: number, reason: string) => `cannot listen on ${MANAGEMENT_HOST}:${port} for the inspector: ${reason}`,
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
export async function reserveManagement(port: number): Promise<ReservedManagement> {
  let handler = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(503, { ...JSON_HEADERS, 'content-length': String(STARTING.length) });
    res.end(STARTING);
  };
  const server = createServer((req, res) => handler(req, res));
  const bound = await listen(server, port);
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
        url: `http://${MANAGEMENT_HOST}:${bound}/`,
        close: () =>
          (closing ??= (async () => {
            m.stop();
            await release();
          })()),
      };
    },
  };
}

function mountInspector(o: ManagementOptions): { handler: (req: IncomingMessage, res: ServerResponse) => void; stop: () => void } {
  let lastReload: LastReload = { ok: true, diagnostics: [] };
  const inspector = createInspector({
    version: o.version,
    routes: [...journalRoutesFor(o), workspaceRoute({ live: o.live, last: () => lastReload, shownPaths: o.shownPaths })],
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
    events: {
      replay: (afterId) => o.journal.requests({ since: afterId }).map(eventOf),
    },
  });
  const unsubscribe = o.journal.subscribe((event) => {
    if (event.kind === 'reset') inspector.events.reset();
    else inspector.events.request(eventOf(event.entry));
  });
  const stopReloads = o.live.onReload((event) => {
    const diagnostics = event.kind === 'applied' ? event.warnings : event.diagnostics;
    lastReload = { ok: event.kind === 'applied', diagnostics };
    inspector.events.reload({ generation: event.generation, ok: event.kind === 'applied', diagnostics: diagnostics.map(diagnosticToWire) });
  });
  return {
    handler: inspector.handler,
    stop: () => {
      unsubscribe();
      stopReloads();
      inspector.close();
    },
  };
}

function eventOf(e: Entry): RequestEvent {
  return requestEventOf(entryToWire(e) as { readonly [k: string]: Wire });
}

/** The journal's HTTP routes (journal/http-routes.ts) as inspector routes, answered as that module writes them. */
function journalRoutesFor(o: ManagementOptions): Route[] {
  const deps = { journal: o.journal, version: o.version, resetRotation: o.resetRotation };
  const answer = async (ctx: RouteContext): Promise<'handled'> => {
    const body = ctx.method === 'POST' ? await ctx.body() : undefined;
    const r = handleJournalRoute(
      { method: ctx.method === 'HEAD' ? 'GET' : ctx.method, target: ctx.url.pathname + ctx.url.search, body: body === undefined ? '' : JSON.stringify(body) },
      deps,
    );
    write(ctx.res, ctx.req, r);
    return 'handled';
  };
  const entry = new RegExp(`^${JOURNAL_ROUTES.entryPrefix.replace(/\//g, '\\/')}[^/]*$`);
  return [
    { method: 'GET', path: JOURNAL_ROUTES.requests, handle: answer },
    { method: 'DELETE', path: JOURNAL_ROUTES.requests, handle: answer },
    { method: 'GET', path: entry, handle: answer },
    { method: 'POST', path: JOURNAL_ROUTES.reset, handle: answer },
  ];
}

function write(res: ServerResponse, req: IncomingMessage, r: JournalHttpResponse | undefined): void {
  if (res.headersSent || res.destroyed) return;
  const status = r?.status ?? 404;
  const headers: Record<string, string> = { ...JSON_HEADERS };
  for (const [name, value] of r?.headers ?? []) headers[name] = value;
  if (status === 204) delete headers['content-type'];
  const body = r?.body ?? '';
  if (status !== 204) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(status === 204 || req.method === 'HEAD' ? undefined : body);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      const reason = e.code === 'EADDRINUSE' ? 'address already in use' : e.code === 'EACCES' ? 'permission denied' : e.message;
      reject(new MockError('io', MANAGEMENT_MESSAGES.bind(port, reason), [], { cause: e }));
    };
    server.once('error', onError);
    server.listen({ host: MANAGEMENT_HOST, port }, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

