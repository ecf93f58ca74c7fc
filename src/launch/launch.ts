// One way to start a mock, shared by `mock serve` (cli/commands/serve.ts: this plus its stdout lines) and the
// library's startMock() (start-mock.ts: this plus its handle): load the workspace, make the journal, bind the
// management listener (before the mock, so a busy inspector port stops everything before the mock binds), bind the
// mock's listeners, and prepare (not start) the watcher.
//
// Owns: the order of those steps, undoing them when one fails, and closing them in reverse (in-flight requests
// get a grace period, then the watcher and the management listener close). Leaves out: printing (the caller's
// `log` gets the request log; the CLI prints its startup lines itself), signals and process exit (the CLI's).
import type { ContractGate } from '../dispatch/dispatch.js';
import { prepareRuleSet, prepareWorkspace } from '../dispatch/prepare.js';
import { decodeRestSoon, type LaterWork } from '../start-up/decode-later.js';
import type { ShownPaths } from '../dispatch/explain-view.js';
import type { Journal, JournalOptions } from '../journal/journal.js';
import { MockError } from '../model/errors.js';
import type { Workspace } from '../model/workspace.js';
import type { DbOptions } from '../model/collection.js';
import { shownPathsFor } from '../workspace/shown-paths.js';
import type { RecordSettings } from '../server/record/mode.js';

export type { RecordSettings };
import type { ListeningAddress, ServerHandle } from '../server/start.js';
import { loadForServe, type ServeLoad } from '../workspace/tracked-load.js';
import type { WorkspaceWatcher } from '../workspace/watch.js';
import type { RuleSetCache } from '../start-up/load-cache.js';
import type { Management } from './management.js';
import type { LiveWorkspaceHandle } from '../model/reload.js';
import { RuntimeControl } from './runtime.js';
import { loadFailed } from './offline.js';

export interface LaunchSpec {
  /** absolute: where the config, the fallback directory and rules POSTs resolve */
  readonly cwd: string;
  /** the root config as given (-c), relative to cwd */
  readonly configPath?: string;
  /** the fallback directory override (-d), relative to cwd */
  readonly dir?: string;
  /** --db, relative to cwd, and --persist */
  readonly db?: string;
  readonly persist?: boolean;
  /** json-server's flags of --db (model/collection.ts) */
  readonly dbOptions?: DbOptions;
  /** overrides listener.port */
  readonly port?: number;
  /** overrides listener.ip_address */
  readonly host?: string;
  /** load with read tracking, so reload() works */
  readonly reloadable: boolean;
  /** the load cache (docs/load-cache.md): rule-set files unchanged since an earlier load are decoded on first need */
  readonly loadCache?: RuleSetCache;
  /** watch the files and reload on edits (needs reloadable) */
  readonly watch: boolean;
  /** record exchanges; undefined: no journal, nothing recorded */
  readonly journal?: JournalOptions;
  /** bind the management listener on this port (0: OS-chosen); needs a journal */
  readonly inspect?: number;
  /** the management listener's address (default 127.0.0.1); beyond loopback only with `inspectToken` */
  readonly inspectHost?: string;
  /** every management request must carry `authorization: Bearer <token>` (docs/inspector.md#from-a-container) */
  readonly inspectToken?: string;
  readonly log: (line: string) => void;
  readonly version: string;
  /** told of watch failures and failed reloads (the CLI prints them on stderr) */
  readonly onWatchFailed?: (dir: string, code: string) => void;
  readonly onReloadError?: (error: unknown) => void;
  /** told of the loaded workspace before anything binds (the CLI prints its warnings) */
  readonly onLoaded?: (ws: Workspace) => void;
  /** `--record`: the settings of record mode, made from the loaded workspace (may reject: nothing has bound yet) */
  readonly record?: (ws: Workspace) => Promise<RecordSettings>;
  /** `--contract`: the check made from the loaded workspace (may reject: nothing has bound yet); undefined: none */
  readonly contract?: (ws: Workspace) => Promise<ContractGate | undefined>;
  /**
   * the CLI's start-up tuning: wraps the load, then each rule set decoded after the server listens; done() once
   * those are decoded (or, with none, a moment after the server listens)
   */
  readonly startUp?: LaterWork & { load(work: () => Promise<ServeLoad>): Promise<ServeLoad>; decoding(): void };
}

export interface Launched {
  /** the workspace loaded at startup */
  readonly ws: Workspace;
  readonly server: ServerHandle;
  /** the server's live workspace */
  readonly live: LiveWorkspaceHandle;
  readonly addresses: readonly ListeningAddress[];
  readonly journal: Journal | undefined;
  readonly management: Management | undefined;
  /** overrides, sessions and the global reset (launch/runtime.ts) */
  readonly runtime: RuntimeControl;
  /** prepared, not started: start() it once the startup lines are out */
  readonly watcher: WorkspaceWatcher | undefined;
  /** idempotent: watcher, then the mock (in-flight requests get `graceMs`), then the management listener */
  close(graceMs?: number): Promise<void>;
}

export const LAUNCH_MESSAGES = {
  loadFailed,
  samePort: (port: number) => `the inspector port ${port} is the mock's own port: pick another (or 0, the default)`,
} as const;

/** Rejects with a MockError: config_invalid / config_unreadable (with diagnostics), io (a port), usage. */
export async function launch(spec: LaunchSpec): Promise<Launched> {
  const startUp = spec.startUp;
  const loadOptions = {
    cwd: spec.cwd,
    ...(spec.configPath !== undefined ? { configPath: spec.configPath } : {}),
    ...(spec.dir !== undefined ? { dir: spec.dir } : {}),
    ...(spec.db !== undefined ? { db: spec.db } : {}),
    ...(spec.persist === true ? { persist: true } : {}),
    ...(spec.dbOptions !== undefined ? { dbOptions: spec.dbOptions } : {}),
    ...(spec.port !== undefined ? { port: spec.port } : {}),
    ...(spec.loadCache !== undefined ? { cache: spec.loadCache } : {}),
    ...(startUp !== undefined ? { onDecode: () => startUp.decoding() } : {}),
  };
  const load = async (): Promise<ServeLoad> => {
    const r = await loadForServe(loadOptions, spec.reloadable);
    if (r.result.ok) prepareWorkspace(r.result.value);
    return r;
  };
  const loaded = await (startUp !== undefined ? startUp.load(load) : load());
  if (!loaded.result.ok) {
    const f = loaded.result.error;
    throw new MockError(f.kind, LAUNCH_MESSAGES.loadFailed(f.message), f.diagnostics);
  }
  const ws = withHost(loaded.result.value, spec.host);
  spec.onLoaded?.(ws);
  if (spec.inspect !== undefined && spec.inspect !== 0 && ownPorts(ws).includes(spec.inspect)) {
    throw new MockError('usage', LAUNCH_MESSAGES.samePort(spec.inspect));
  }

  const record = spec.record === undefined ? undefined : await spec.record(ws);
  const contract = spec.contract === undefined ? undefined : await spec.contract(ws);

  const shownByWs = new WeakMap<Workspace, ShownPaths>();
  const shownPaths = (w: Workspace): ShownPaths => {
    let s = shownByWs.get(w);
    if (s === undefined) shownByWs.set(w, (s = shownPathsFor(spec.cwd, spec.configPath, w)));
    return s;
  };
  // the journal and the management listener are loaded only when asked for: `mock serve` without --inspect never reads them
  const journal =
    spec.journal === undefined ? undefined : new (await import('../journal/journal.js')).Journal(spec.journal);

  // the inspector binds first: a busy port stops everything before the mock binds
  const reserved =
    spec.inspect !== undefined && journal !== undefined
      ? await (await import('./management.js')).reserveManagement(spec.inspect, spec.inspectHost)
      : undefined;
  const { startServer } = await import('../server/start.js');
  const loadedLive = loaded.live;
  let s: ServerHandle;
  try {
    s = await startServer(ws, {
      log: spec.log,
      ...(loadedLive !== undefined
        ? {
            live: {
              load: async () => withHostAttempt(await loadedLive.load(), spec.host),
              sources: loadedLive.sources,
            },
          }
        : {}),
      ...(journal !== undefined ? { journal, shownPaths } : {}),
      ...(record !== undefined ? { record } : {}),
      ...(contract !== undefined ? { contract } : {}),
    });
  } catch (e) {
    await reserved?.close();
    throw e;
  }
  // what the load cache left undecoded, once the first requests have had their chance (docs/load-cache.md)
  decodeRestSoon(ws, prepareRuleSet, 100, startUp);
  const live = s.live;
  const runtime = new RuntimeControl(s, live, journal);
  const management =
    reserved === undefined || journal === undefined
      ? undefined
      : reserved.mount({
          version: spec.version,
          journal,
          live,
          resetRotation: () => s.rotation.reset(),
          state: s.state,
          runtime,
          websockets: s.websockets,
          ...(spec.inspectToken !== undefined ? { token: spec.inspectToken } : {}),
          ...(spec.inspectHost !== undefined ? { host: spec.inspectHost } : {}),
          cwd: spec.cwd,
          configPath: spec.configPath,
          mockUrl: urlOf(s.addresses),
        });

  let watcher: WorkspaceWatcher | undefined;
  if (spec.watch && loadedLive !== undefined) {
    const { WorkspaceWatcher } = await import('../workspace/watch.js');
    watcher = new WorkspaceWatcher(live, {
      onWatchFailed: spec.onWatchFailed ?? (() => {}),
      onReloadError: spec.onReloadError ?? (() => {}),
      unchangedSinceLoad: loadedLive.unchanged,
    });
  }

  let closing: Promise<void> | undefined;
  return {
    ws,
    server: s,
    live,
    addresses: s.addresses,
    journal,
    management,
    runtime,
    watcher,
    close: (graceMs = 0) =>
      (closing ??= (async () => {
        watcher?.close();
        loaded.live?.stop();
        try {
          await s.close({ graceMs });
        } finally {
          journal?.close();
          await management?.close();
        }
      })()),
  };
}

/** `http://127.0.0.1:3001` for the first listener (http before https); a wildcard address is reached on loopback. */
export function urlOf(addresses: readonly ListeningAddress[]): string {
  const a = addresses[0];
  if (a === undefined) return '';
  return addressUrl(a);
}

export function addressUrl(a: ListeningAddress): string {
  const ip = a.ip === '0.0.0.0' ? '127.0.0.1' : a.ip === '::' ? '::1' : a.ip;
  return `${a.scheme}://${ip.includes(':') ? `[${ip}]` : ip}:${a.port}`;
}

function ownPorts(ws: Workspace): number[] {
  const l = ws.config.listener;
  return [l.port, ...(l.tls?.port !== undefined ? [l.tls.port] : [])].filter((p) => p !== 0);
}

function withHost(ws: Workspace, host: string | undefined): Workspace {
  if (host === undefined || host === ws.config.listener.ipAddress) return ws;
  return { ...ws, config: { ...ws.config, listener: { ...ws.config.listener, ipAddress: host } } };
}

function withHostAttempt<T extends { readonly kind: string }>(attempt: T, host: string | undefined): T {
  if (attempt.kind !== 'loaded' || host === undefined) return attempt;
  const a = attempt as T & { readonly workspace: Workspace };
  return { ...a, workspace: withHost(a.workspace, host) };
}
