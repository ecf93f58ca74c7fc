// The running mock's runtime controls, shared by the library's handle (library/start-mock.ts) and the management
// listener's routes (inspector/runtime-routes.ts): overrides (add, list, remove), sessions (their journal view,
// reset, close) and the global reset. What a reset clears is listed once, in docs/library.md#what-reset-clears.
//
// Sessions off: every request is in the default session, and a session id given here names it too (the
// header means nothing, and neither does the id): a suite that turns sessions off sees what sharing one mock does.
import type { CallbackFilter, CallbackRecord } from '../callbacks/record.js';
import type { Override } from '../dispatch/overrides.js';
import type { RequestFilter } from '../journal/filter.js';
import type { Journal, WaitOptions } from '../journal/journal.js';
import type { Entry } from '../journal/entry.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { MockError } from '../model/errors.js';
import type { LiveWorkspaceHandle } from '../model/reload.js';
import type { Session } from '../server/scopes.js';
import type { ServerHandle } from '../server/start.js';
import { decodeOverrides, formatOverrideDiagnostic } from '../workspace/overrides.js';

export interface UseOptions {
  /** answer once, then step aside */
  readonly once?: boolean;
  /** the session the overrides belong to; absent: every request */
  readonly session?: string;
}

/** An active override as listed. */
export interface OverrideInfo {
  readonly id: number;
  /** absent: a shared one */
  readonly session?: string;
  readonly once: boolean;
  /** the rule as given */
  readonly rule: unknown;
  readonly addedAt: Date;
}

/** A session's runtime state, as `state()` shows it: what its share of the state store holds. */
export interface SessionState {
  /** scenario → its state; a scenario not listed is at `started` */
  readonly scenarios: Readonly<Record<string, unknown>>;
  /** collection path → its data, for collections this session has written */
  readonly collections: Readonly<Record<string, unknown>>;
  /** round-robin counters kept (match groups the session has used) */
  readonly rotations: number;
}

export const RUNTIME_MESSAGES = {
  overrides: (n: number, lines: readonly string[]) =>
    `${n === 1 ? 'an override is' : `${n} overrides are`} not valid:\n${lines.map((l) => `  ${l}`).join('\n')}`,
  sessionId: (v: unknown) => `a session id must be a non-empty string (got ${JSON.stringify(v) ?? String(v)})`,
  once: (v: unknown) => `once must be true or false (got ${String(v)})`,
  noJournal: 'the journal is off (startMock was given journal: false)',
} as const;

export class RuntimeControl {
  constructor(
    private readonly server: ServerHandle,
    private readonly live: LiveWorkspaceHandle,
    private readonly journal: Journal | undefined,
  ) {}

  get sessionsOn(): boolean {
    return this.server.scopes.sessionsOn;
  }

  /** Add overrides (rules in the rule-set shape); throws MockError 'usage' naming each problem by its key path. */
  use(rules: readonly unknown[], opts: UseOptions = {}): readonly OverrideInfo[] {
    if (opts.once !== undefined && typeof opts.once !== 'boolean')
      throw new MockError('usage', RUNTIME_MESSAGES.once(opts.once));
    const decoded = decodeOverrides(rules, this.live.workspace);
    if (!decoded.ok) throw overrideError(decoded.error);
    const list = this.listFor(opts.session);
    const added = list.add(
      decoded.value.map((rule, i) => ({ rule, source: rules[i] })),
      opts.once === true,
      new Date(),
    );
    return added.map(infoOf);
  }

  /** Remove the overrides of a session (or the shared ones); returns how many went. */
  resetOverrides(session?: string): number {
    return this.listFor(session).clear();
  }

  /** Remove one override by id, wherever it is; false when there is none. */
  removeOverride(id: number): boolean {
    const scopes = this.server.scopes;
    if (scopes.shared.remove(id)) return true;
    for (const sid of scopes.sessionIds()) if (scopes.peek(sid)?.overrides.remove(id)) return true;
    return false;
  }

  /** Every active override, in the order tried: per session (least recently used session first), then the shared ones. */
  overrides(session?: string): readonly OverrideInfo[] {
    const scopes = this.server.scopes;
    if (session !== undefined) return this.listFor(session, false)?.list().map(infoOf) ?? [];
    const out: OverrideInfo[] = [];
    for (const sid of scopes.sessionIds()) out.push(...(scopes.peek(sid)?.overrides.list().map(infoOf) ?? []));
    out.push(...scopes.shared.list().map(infoOf));
    return out;
  }

  /** The live session ids, least recently used first. */
  sessions(): readonly string[] {
    return this.server.scopes.sessionIds();
  }

  /**
   * Globally: the journal, round-robin counters, scenario states, collections, overrides and every session. For a
   * session: its share of each (its journal view starts over, its state, counters, windows and overrides go).
   */
  reset(session?: string): void {
    const scopes = this.server.scopes;
    if (session !== undefined && scopes.sessionsOn) {
      checkId(session);
      scopes.resetSession(scopes.session(session));
      return;
    }
    this.journal?.reset();
    // the callbacks still waiting are cancelled and the records forgotten (docs/callbacks.md)
    this.server.callbacks.reset();
    scopes.closeAll();
    scopes.shared.clear();
    this.server.rotation.reset();
    this.server.state.clear();
  }

  /** The callbacks the answers made (docs/callbacks.md), oldest first. */
  callbacks(filter: CallbackFilter = {}): readonly CallbackRecord[] {
    return this.server.callbacks.records(filter);
  }

  /** Ends a session: its state, counters, windows and overrides go (its journal entries stay). */
  closeSession(session: string): boolean {
    checkId(session);
    return this.server.scopes.close(session);
  }

  /** A session's journal view (every entry with sessions off), oldest first. */
  requests(session: string | undefined, filter: RequestFilter = {}): readonly Entry[] {
    return this.needJournal().requests(this.viewFilter(session, filter));
  }

  waitForRequest(session: string | undefined, filter: RequestFilter = {}, opts?: WaitOptions): Promise<Entry> {
    try {
      return this.needJournal().waitFor(this.viewFilter(session, filter), opts);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The journal filter of a session's view: its entries since its last reset. */
  viewFilter(session: string | undefined, filter: RequestFilter): RequestFilter {
    if (session === undefined || !this.sessionsOn) {
      const { session: _named, ...all } = filter;
      return all;
    }
    checkId(session);
    const floor = this.server.scopes.peek(session)?.journalFloor ?? 0;
    return floor === 0 ? { ...filter, session } : { ...filter, session, after: floor };
  }

  /** What a session's share of the state store holds (the shared state without a session, or with sessions off). */
  state(session?: string): SessionState {
    const scopes = this.server.scopes;
    const store = session !== undefined && scopes.sessionsOn ? scopes.session(session).state : this.server.state;
    const scenarios: Record<string, unknown> = {};
    const collections: Record<string, unknown> = {};
    for (const key of store.keys('scenario:')) scenarios[key.slice('scenario:'.length)] = store.get(key);
    for (const key of store.keys('collection:')) collections[key.slice('collection:'.length)] = store.get(key);
    return { scenarios, collections, rotations: store.keys('rotation:').length };
  }

  private listFor(session: string | undefined): Session['overrides'];
  private listFor(session: string | undefined, make: false): Session['overrides'] | undefined;
  private listFor(session: string | undefined, make = true): Session['overrides'] | undefined {
    const scopes = this.server.scopes;
    if (session === undefined || !scopes.sessionsOn) return scopes.shared;
    checkId(session);
    return make ? scopes.session(session).overrides : scopes.peek(session)?.overrides;
  }

  private needJournal(): Journal {
    if (this.journal === undefined) throw new MockError('usage', RUNTIME_MESSAGES.noJournal);
    return this.journal;
  }
}

function checkId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '') throw new MockError('usage', RUNTIME_MESSAGES.sessionId(id));
}

function infoOf(o: Override): OverrideInfo {
  return {
    id: o.id,
    ...(o.session !== undefined ? { session: o.session } : {}),
    once: o.once,
    rule: o.source,
    addedAt: o.addedAt,
  };
}

function overrideError(ds: readonly Diagnostic[]): MockError {
  const errors = ds.filter((d) => d.severity === 'error');
  return new MockError('usage', RUNTIME_MESSAGES.overrides(errors.length, errors.map(formatOverrideDiagnostic)), ds);
}
