// startMock(): the mock as a library, for test suites. A real HTTP server (port 0 by default) any client reaches,
// with a request journal to ask what arrived and which rule answered. A good guest: no process.exit, no signal
// handlers, no output unless `log`, no patched globals; two instances share nothing (each has its own server,
// journal, round-robin counters and watcher).
//
// Owns: the options (defaults, checks), the handle. The starting and closing are launch.ts's, shared with the CLI.
import { wsRoute, type WebSocketRoute } from './websockets.js';
import type { CallbackFilter, CallbackRecord } from '../callbacks/record.js';
import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Entry } from '../journal/entry.js';
import type { RequestFilter } from '../journal/filter.js';
import { journalLimits, type JournalLimits } from '../journal/limits.js';
import { formatDiagnostic, type Diagnostic } from '../model/diagnostic.js';
import { DEFAULTS, type SessionConfig } from '../model/config.js';
import { MockError } from '../model/errors.js';
import { addressUrl, launch, urlOf } from '../launch/launch.js';
import {
  currentScenarios,
  resetStore,
  scenarioStatesProblem,
  setScenarios,
  workspaceScenarios,
} from '../state/scenarios.js';

const RESET_PARTS: readonly (keyof ResetOptions)[] = ['journal', 'rotation', 'state', 'collections'];
import type { OverrideInfo, RuntimeControl, SessionState, UseOptions } from '../launch/runtime.js';
import type { RuleShape } from './rule-shape.generated.js';

export type { OverrideInfo, SessionState, UseOptions };

export interface MockOptions {
  /** the workspace folder: its mock.toml, else zero-config on it (default: the current directory) */
  readonly root?: string;
  /** the root config, like `-c` (relative to `root`) */
  readonly config?: string;
  /** the fallback directory, like `-d` (relative to `root`) */
  readonly fallbackDir?: string;
  /** default 0: a free port, whatever the config says */
  readonly port?: number;
  /** default 127.0.0.1, whatever listener.ip_address says */
  readonly host?: string;
  /** reload on edits (default false: a test run stays reproducible; reload() is always there) */
  readonly watch?: boolean;
  /** the request journal's bounds, or false for none (then requests() and friends throw) */
  readonly journal?: false | Partial<JournalLimits>;
  /** redact secrets at capture (default true); false is refused with `inspect` */
  readonly redact?: boolean;
  /** the inspector on 127.0.0.1: true for a free port, or a port number */
  readonly inspect?: boolean | number;
  /** where the request log and reload lines go (default: nowhere); true: stdout */
  readonly log?: boolean | ((line: string) => void);
  /**
   * sessions on (as `service.sessions = true`, with its header `x-mock-session`), whatever mock.toml says; the
   * config's own session settings are kept when it turns them on (default: as mock.toml says)
   */
  readonly sessions?: boolean;
}

/** What reset() restarts: every part by default; a part set to false is kept. */
export interface ResetOptions {
  readonly journal?: boolean;
  readonly rotation?: boolean;
  /** the scenarios */
  readonly state?: boolean;
  readonly collections?: boolean;
}

export interface ReloadOutcome {
  readonly ok: boolean;
  /** the generation serving now */
  readonly generation: number;
  readonly diagnostics: readonly Diagnostic[];
}

export interface WaitForRequestOptions {
  /** default 2000 */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface MockHandle {
  /** the WebSocket connections of one path: list them, wait for one or its message, send (docs/websocket.md) */
  ws(path: string): WebSocketRoute;
  /** the base URL, `http://127.0.0.1:<port>` (https when only TLS listens) */
  readonly url: string;
  readonly urls: { readonly http?: string; readonly https?: string };
  /** the inspector's page, with `inspect` */
  readonly inspectUrl?: string;
  /** 1 at start, +1 on each applied reload */
  readonly generation: number;
  /** journal entries matching `filter`, oldest first; throws JournalOverflowError if a `since` cursor's successors were evicted */
  requests(filter?: RequestFilter): readonly Entry[];
  /** the newest journal id: pass it as `since` to see only what comes after */
  cursor(): number;
  /** the oldest matching entry, already held or arriving within `timeoutMs`; a timeout lists the last 10 entries */
  waitForRequest(filter?: RequestFilter, opts?: WaitForRequestOptions): Promise<Entry>;
  /**
   * Add runtime overrides: rules in the rule-set shape, tried before everything the workspace declares, newest
   * first, until resetOverrides() or reset(). Nothing is written to disk. Throws MockError (`usage`) naming each
   * problem by its key path (`rules[0].respond.statsu`). Returns what was added.
   */
  use(...rules: readonly (OverrideRule | UseOptions)[]): OverrideHandle;
  /** remove every shared override (a session's stay: its handle removes them) */
  resetOverrides(): void;
  /** the active overrides, in the order tried: each session's, then the shared ones */
  overrides(): readonly OverrideInfo[];
  /**
   * A handle on one session (`service.sessions = true` or `startMock({ sessions: true })`: requests carrying its
   * id in the session header or cookie). With sessions off every id names the one shared session, and the first
   * call says so once (a process warning, code MOCK_SESSIONS_OFF).
   */
  session(id: string): SessionHandle;
  /**
   * Clear everything a test can leave behind: the journal (ids keep counting), round-robin counters, scenario
   * states, collections, overrides and every session (docs/library.md#what-reset-clears).
   */
  reset(): void;
  /**
   * Clear everything a test can leave behind: the journal (ids keep counting), round-robin counters, scenario
   * states, collections, overrides and every session (docs/library.md#what-reset-clears). With `parts`, only those
   * not set to false (`{ state: false }` keeps the scenarios; overrides and sessions then stay).
   */
  reset(parts?: ResetOptions): void;
  /** every scenario the rules name, and every one moved, to its current state (docs/state.md) */
  state(): Record<string, string>;
  /** move scenarios: name to state (`started` puts one back at the start); the others keep theirs */
  setState(states: Readonly<Record<string, string>>): void;
  /** the callbacks the answers made (docs/callbacks.md), oldest first: the last 1000 finished, then the pending ones */
  callbacks(filter?: CallbackFilter): readonly CallbackRecord[];
  /** the first finished callback that matches (delivered, failed, refused or cancelled), held or within `timeoutMs` */
  waitForCallback(filter?: CallbackFilter, opts?: { readonly timeoutMs?: number }): Promise<CallbackRecord>;
  /** load the workspace again from disk; a broken edit keeps the last good one serving */
  reload(): Promise<ReloadOutcome>;
  /** idempotent: idle connections close at once, requests in flight get up to 2 s */
  close(): Promise<void>;
}

/**
 * A rule in the rule-set shape (`[[rules]]` of a rule-set file), as an object. Its type is generated from the
 * loader's own shapes (`npm run gen`), so a misspelt key fails to compile; bounds, patterns and which keys go
 * together are checked when the rule is added (MockError naming the key path).
 */
export type OverrideRule = RuleShape;

/** What one `use()` call added (like mockttp's MockedEndpoint): its rules' ids, what they answered, removing them. */
export interface OverrideHandle {
  /** the first rule's id (the journal's `answeredBy.id` of what it answered) */
  readonly id: number;
  /** every rule's id, in the order given */
  readonly ids: readonly number[];
  /** the rules, as `overrides()` lists them */
  readonly added: readonly OverrideInfo[];
  /** the journal entries these overrides answered, oldest first (the filter narrows them further) */
  requests(filter?: RequestFilter): readonly Entry[];
  /** remove these overrides now (false when none was left: answered once, reset, or removed before) */
  remove(): boolean;
}

/** One session's share of the mock (docs/library.md#sessions). */
export interface SessionHandle {
  readonly id: string;
  /** this session's journal entries since its last reset, oldest first */
  requests(filter?: RequestFilter): readonly Entry[];
  /** the oldest matching entry of this session, held or arriving within `timeoutMs` */
  waitForRequest(filter?: RequestFilter, opts?: WaitForRequestOptions): Promise<Entry>;
  /** overrides for this session only, tried before the shared ones */
  use(...rules: readonly (OverrideRule | UseOptions)[]): OverrideHandle;
  /** remove this session's overrides */
  resetOverrides(): void;
  /** this session's share of everything: journal view, counters, scenario states, collections, overrides, rate-limit windows */
  reset(): void;
  /** what this session's share of the state holds */
  state(): SessionState;
  /** end the session now (its state goes; a later request with its id starts a fresh one) */
  close(): void;
}

/** In-flight requests get this long when closing. */
export const CLOSE_GRACE_MS = 2000;

export const OPTION_MESSAGES = {
  notObject: 'startMock options must be an object',
  unknown: (key: string) => `unknown startMock option '${key}' (allowed: ${OPTION_KEYS.join(', ')})`,
  type: (key: string, want: string) => `startMock option '${key}' must be ${want}`,
  port: (key: string, v: unknown) => `startMock option '${key}' must be a port number 0..65535 (got ${String(v)})`,
  redactInspect: 'redact: false cannot go with inspect: the inspector never shows unredacted secrets',
  inspectJournal: 'inspect needs the journal (journal: false turns it off)',
  noJournal: 'the journal is off (startMock was given journal: false)',
  resetParts: 'reset() takes an object with optional boolean fields journal, rotation, state and collections',
  rootMissing: (given: string, abs: string) =>
    `startMock option 'root' names a folder that does not exist: '${given}' (${abs})`,
  fallbackDirMissing: (given: string) =>
    `startMock option 'fallbackDir' names a folder that does not exist: '${given}'`,
  sessionsOff:
    'm.session(id): sessions are off, so every id names the one shared session (its overrides, state and journal ' +
    "are everyone's); turn them on with startMock({ sessions: true }) or service.sessions = true in mock.toml",
} as const;

const OPTION_KEYS = [
  'root',
  'config',
  'fallbackDir',
  'port',
  'host',
  'watch',
  'journal',
  'redact',
  'inspect',
  'log',
  'sessions',
] as const;

/** Start a mock. Rejects with MockError: `config_invalid` / `config_unreadable` (diagnostics), `io` (a port), `usage` (options). */
export async function startMock(options: MockOptions = {}): Promise<MockHandle> {
  const o = checkOptions(options);
  const root = resolve(o.root ?? process.cwd());
  if (o.root !== undefined && !(await isDir(root)))
    throw new MockError('usage', OPTION_MESSAGES.rootMissing(o.root, root));
  const log =
    o.log === true
      ? (line: string) => void process.stdout.write(line + '\n')
      : typeof o.log === 'function'
        ? o.log
        : () => {};
  const inspectPort = o.inspect === true ? 0 : typeof o.inspect === 'number' ? o.inspect : undefined;
  const launched = await launch({
    cwd: root,
    ...(o.config !== undefined ? { configPath: o.config } : {}),
    ...(o.fallbackDir !== undefined ? { dir: o.fallbackDir } : {}),
    port: o.port ?? 0,
    host: o.host ?? '127.0.0.1',
    reloadable: true,
    watch: o.watch === true,
    ...(o.journal === false ? {} : { journal: { ...o.journal, redact: o.redact !== false } }),
    ...(inspectPort !== undefined ? { inspect: inspectPort } : {}),
    log,
    version: libraryVersion(),
    onWatchFailed: (dir, code) => log(`mock: cannot watch ${dir} (${code}): edits there are not seen`),
    onReloadError: (e) => log(`mock: reload failed: ${e instanceof Error ? e.message : String(e)}`),
  }).catch((e: unknown) => {
    // `-d` is the command line's name for it; a library caller gave `fallbackDir`
    if (
      e instanceof MockError &&
      o.fallbackDir !== undefined &&
      e.diagnostics.some((d) => d.message.includes('given with -d'))
    ) {
      throw new MockError('usage', OPTION_MESSAGES.fallbackDirMissing(o.fallbackDir), e.diagnostics, { cause: e });
    }
    // the message names every diagnostic (file:line:col), so a failing test's output says what is wrong
    if (e instanceof MockError && e.diagnostics.length > 0) {
      throw new MockError(
        e.kind,
        [e.message, ...e.diagnostics.map((d) => formatDiagnostic(d))].join('\n'),
        e.diagnostics,
        { cause: e },
      );
    }
    throw e;
  });
  if (o.sessions === true) forceSessions(launched);
  launched.watcher?.start();
  const { journal, server } = launched;
  let warnedSessionsOff = false;
  const need = (): NonNullable<typeof journal> => {
    if (journal === undefined) throw new MockError('usage', OPTION_MESSAGES.noJournal);
    return journal;
  };
  const urls: { http?: string; https?: string } = {};
  for (const a of launched.addresses) urls[a.scheme] ??= addressUrl(a);
  return Object.freeze({
    url: urlOf(launched.addresses),
    urls: Object.freeze(urls),
    ...(launched.management !== undefined ? { inspectUrl: launched.management.url } : {}),
    get generation() {
      return server.live.generation;
    },
    requests: (filter?: RequestFilter) => need().requests(filter),
    cursor: () => need().lastId,
    waitForRequest: (filter?: RequestFilter, opts?: WaitForRequestOptions) => {
      try {
        return need().waitFor(filter, opts);
      } catch (e) {
        return Promise.reject(e);
      }
    },
    use: (...args: readonly (OverrideRule | UseOptions)[]) => useWith(launched.runtime, undefined, args),
    resetOverrides: () => void launched.runtime.resetOverrides(),
    overrides: () => launched.runtime.overrides(),
    session: (id: string) => {
      const handle = sessionHandle(launched.runtime, id);
      if (!launched.runtime.sessionsOn && !warnedSessionsOff) {
        warnedSessionsOff = true;
        process.emitWarning(OPTION_MESSAGES.sessionsOff, { code: 'MOCK_SESSIONS_OFF' });
      }
      return handle;
    },
    reset: (given?: ResetOptions) => {
      const parts = resetParts(given);
      if (RESET_PARTS.every((k) => parts[k] !== false)) return launched.runtime.reset();
      if (parts.journal !== false) journal?.reset();
      resetStore(server.state, parts);
    },
    state: () => currentScenarios(server.state, workspaceScenarios(server.live.workspace)),
    setState: (states: Readonly<Record<string, string>>) => {
      const problem = scenarioStatesProblem(states);
      if (problem !== undefined) throw new MockError('usage', `setState: ${problem}`);
      setScenarios(server.state, states);
    },
    callbacks: (filter?: CallbackFilter) => server.callbacks.records(filter),
    waitForCallback: (filter?: CallbackFilter, opts?: { readonly timeoutMs?: number }) =>
      server.callbacks.waitFor(filter, opts?.timeoutMs),
    reload: async () => {
      const r = await launched.live.reload();
      return { ok: r.ok, generation: r.generation, diagnostics: r.diagnostics };
    },
    ws: (path: string) => wsRoute(server.websockets, path),
    close: () => launched.close(CLOSE_GRACE_MS),
  });
}

/**
 * reset()'s parts, checked. Anything but a plain object (undefined, or the context a test runner passes to
 * `beforeEach(m.reset)`) resets everything, as reset() did before it took parts; a plain object must name only
 * known parts, with booleans.
 */
function resetParts(given: unknown): ResetOptions {
  if (given === undefined || given === null || typeof given !== 'object') return {};
  const proto = Object.getPrototypeOf(given) as unknown;
  if (proto !== Object.prototype && proto !== null) return {};
  for (const [k, v] of Object.entries(given))
    if (!RESET_PARTS.includes(k as keyof ResetOptions) || typeof v !== 'boolean')
      throw new MockError('usage', OPTION_MESSAGES.resetParts);
  return given;
}

/** The session settings `sessions: true` turns on when the config has none: the config's defaults. */
const FORCED_SESSIONS: SessionConfig = {
  header: DEFAULTS.sessionHeader.toLowerCase(),
  idleMs: DEFAULTS.sessionIdleMs,
  max: DEFAULTS.sessionMax,
};

/** `sessions: true`: on now, and again after each reload (a reload configures the scopes from the file). */
function forceSessions(launched: Awaited<ReturnType<typeof launch>>): void {
  const scopes = launched.server.scopes;
  const apply = (configured: SessionConfig | undefined): void => scopes.configure(configured ?? FORCED_SESSIONS);
  apply(launched.ws.config.service.sessions);
  // registered after the server's own listener, so this runs after it and has the last word
  launched.live.onReload((e) => {
    if (e.kind === 'applied') apply(e.workspace.config.service.sessions);
  });
}

/** `use(rule, rule, …, { once })`: the rules, then optionally the options last */
function useWith(
  runtime: RuntimeControl,
  session: string | undefined,
  args: readonly (OverrideRule | UseOptions)[],
): OverrideHandle {
  const last = args[args.length - 1];
  const isOptions =
    typeof last === 'object' && last !== null && !('respond' in last) && !('when' in last) && 'once' in last;
  const rules = isOptions ? args.slice(0, -1) : args;
  const once = isOptions ? last.once : undefined;
  const added = runtime.use(rules, {
    ...(once !== undefined ? { once } : {}),
    ...(session !== undefined ? { session } : {}),
  });
  return overrideHandle(runtime, added);
}

function overrideHandle(runtime: RuntimeControl, added: readonly OverrideInfo[]): OverrideHandle {
  const ids = added.map((a) => a.id);
  const mine = (e: Entry): boolean => e.answeredBy.kind === 'override' && ids.includes(e.answeredBy.id);
  return Object.freeze({
    id: ids[0]!,
    ids: Object.freeze(ids),
    added,
    requests: (filter: RequestFilter = {}) => {
      // every session's entries: an override's id is unique across them; the limit counts this handle's entries
      const { limit, ...rest } = filter;
      const answered = runtime.requests(undefined, { ...rest, stage: 'override' }).filter(mine);
      return limit === undefined ? answered : answered.slice(0, limit);
    },
    remove: () => ids.map((id) => runtime.removeOverride(id)).some(Boolean),
  });
}

function sessionHandle(runtime: RuntimeControl, id: string): SessionHandle {
  if (typeof id !== 'string' || id === '')
    throw new MockError('usage', `session(id): id must be a non-empty string (got ${String(id)})`);
  return Object.freeze({
    id,
    requests: (filter?: RequestFilter) => runtime.requests(id, filter),
    waitForRequest: (filter?: RequestFilter, opts?: WaitForRequestOptions) => runtime.waitForRequest(id, filter, opts),
    use: (...args: readonly (OverrideRule | UseOptions)[]) => useWith(runtime, id, args),
    resetOverrides: () => void runtime.resetOverrides(id),
    reset: () => runtime.reset(id),
    state: () => runtime.state(id),
    close: () => void (runtime.sessionsOn ? runtime.closeSession(id) : undefined),
  });
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The options with their types checked (callers may be untyped JavaScript). */
function checkOptions(options: MockOptions): MockOptions {
  if (typeof options !== 'object' || options === null) throw new MockError('usage', OPTION_MESSAGES.notObject);
  const problems: string[] = [];
  const bag = options as Record<string, unknown>;
  for (const key of Object.keys(bag))
    if (!(OPTION_KEYS as readonly string[]).includes(key)) problems.push(OPTION_MESSAGES.unknown(key));
  for (const key of ['root', 'config', 'fallbackDir', 'host'] as const) {
    const v = bag[key];
    if (v !== undefined && (typeof v !== 'string' || v === ''))
      problems.push(OPTION_MESSAGES.type(key, 'a non-empty string'));
  }
  for (const key of ['watch', 'redact'] as const) {
    const v = bag[key];
    if (v !== undefined && typeof v !== 'boolean') problems.push(OPTION_MESSAGES.type(key, 'true or false'));
  }
  const isPort = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535;
  if (options.port !== undefined && !isPort(options.port)) problems.push(OPTION_MESSAGES.port('port', options.port));
  if (options.inspect !== undefined && typeof options.inspect !== 'boolean' && !isPort(options.inspect))
    problems.push(OPTION_MESSAGES.port('inspect', options.inspect));
  const j = options.journal;
  if (j !== undefined && j !== false) {
    if (typeof j !== 'object' || j === null)
      problems.push(OPTION_MESSAGES.type('journal', 'false or {size, maxBytes, bodyBytes}'));
    else {
      const limits = journalLimits(j);
      if (!limits.ok) problems.push(...limits.error);
    }
  }
  if (options.sessions !== undefined && typeof options.sessions !== 'boolean')
    problems.push(OPTION_MESSAGES.type('sessions', 'true or false'));
  if (options.log !== undefined && typeof options.log !== 'boolean' && typeof options.log !== 'function')
    problems.push(OPTION_MESSAGES.type('log', 'a function or a boolean'));
  const inspecting = options.inspect !== undefined && options.inspect !== false;
  if (inspecting && options.redact === false) problems.push(OPTION_MESSAGES.redactInspect);
  if (inspecting && options.journal === false) problems.push(OPTION_MESSAGES.inspectJournal);
  if (problems.length > 0) throw new MockError('usage', problems.join('; '));
  return options;
}

let version: string | undefined;

/** This package's version (the envelope's `mock`), from its package.json above this module. */
function libraryVersion(): string {
  if (version !== undefined) return version;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    try {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'folder-mock' && typeof pkg.version === 'string') return (version = pkg.version);
    } catch {
      // not ours: keep looking
    }
  }
  return (version = '0.0.0');
}
