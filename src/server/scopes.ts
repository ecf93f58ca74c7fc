// Which runtime state a request is served with (docs/library.md#sessions, #overrides): the shared state, or with
// `service.sessions = true` and a request naming a session (header, or cookie), that session's share. A session
// has its own view of the state store (scenario states, collection data, round-robin counters, all under
// `session:<id>/`), its own rate-limit windows, its own overrides and its own journal view (entries carry the
// session id). Each is made on the session's first request and kept, with its dispatch env, until the session ends
// (close, idle time, the cap, a reset), so a request of a known session allocates nothing.
//
// The listener asks `envFor` only while sessions are on (`header` set); otherwise it takes `env`, the shared env,
// which holds the shared overrides only while there are some: with neither, a request does exactly the work it
// did before sessions and overrides existed.
import type { IncomingMessage } from 'node:http';
import type { DispatchEnv } from '../dispatch/dispatch.js';
import { OverrideList } from '../dispatch/overrides.js';
import type { PaceState } from '../dispatch/pace.js';
import type { SessionConfig } from '../model/config.js';
import { RotationState } from '../routing/rotation.js';
import { scopedStore, sessionPrefix } from '../state/scoped.js';
import { SessionRegistry } from '../state/sessions.js';
import type { StateStore } from '../state/store.js';

/** One session's share of the runtime state. */
export interface Session {
  readonly id: string;
  readonly state: StateStore;
  readonly rotation: RotationState;
  readonly pace: PaceState;
  readonly overrides: OverrideList;
  /** the journal's newest id when the session's view was last reset: its view starts after it */
  journalFloor: number;
  /** the dispatch env of its requests, remade when an override list changes */
  env: DispatchEnv;
  epoch: number;
}

export interface ScopesOptions {
  /** the shared env (its `state`, `rotation` and `pace` are the shared ones) */
  readonly env: DispatchEnv;
  readonly now?: () => number;
  /** the journal's newest id (a new session's view starts after it) */
  readonly journalLastId?: () => number;
}

const NO_SESSIONS: SessionConfig = Object.freeze({ header: '', idleMs: 600_000, max: 1000 });

export class Scopes {
  /** the overrides every request sees */
  readonly shared: OverrideList;
  /** the shared env: with the shared overrides while there are some */
  env: DispatchEnv;
  /** the session header (lower-case) while sessions are on; undefined: every request takes `env` */
  header: string | undefined;
  private cookie: string | undefined;
  private readonly bare: DispatchEnv;
  private readonly registry: SessionRegistry<Session>;
  private epoch = 0;
  private lastId = 0;
  private readonly ids = { next: () => ++this.lastId };

  constructor(private readonly opts: ScopesOptions) {
    this.bare = opts.env;
    this.env = opts.env;
    this.shared = new OverrideList(this.ids, () => this.changed());
    this.registry = new SessionRegistry<Session>(
      NO_SESSIONS,
      (id) => this.make(id),
      (_id, s) => this.ended(s),
      opts.now,
    );
  }

  /** Sessions on (their settings) or off; at start and after each applied reload. */
  configure(sessions: SessionConfig | undefined): void {
    if (sessions === undefined) {
      this.header = undefined;
      this.cookie = undefined;
      return;
    }
    this.header = sessions.header;
    this.cookie = sessions.cookie;
    this.registry.setLimits(sessions);
  }

  get sessionsOn(): boolean {
    return this.header !== undefined;
  }

  /** The env of one request while sessions are on: its session's, or the shared one when it names none. */
  envFor(req: IncomingMessage): DispatchEnv {
    const id = this.sessionOf(req);
    return id === undefined ? this.env : this.envOf(this.registry.get(id));
  }

  /** the session a request names (header first, then the cookie); undefined: none */
  sessionOf(req: IncomingMessage): string | undefined {
    const h = req.headers[this.header!];
    const v = typeof h === 'string' ? h : h?.[0];
    if (v !== undefined && v !== '') return v;
    if (this.cookie === undefined) return undefined;
    const c = req.headers.cookie;
    return c === undefined ? undefined : cookieValue(c, this.cookie);
  }

  /** the session, made now when it is not live (a handle's first call); marks it used */
  session(id: string): Session {
    return this.registry.get(id);
  }

  /** the session when it is live */
  peek(id: string): Session | undefined {
    return this.registry.peek(id);
  }

  /** the live session ids, least recently used first */
  sessionIds(): string[] {
    return this.registry.ids();
  }

  /** ends a session: its state, counters, windows and overrides go; false when it was not live */
  close(id: string): boolean {
    return this.registry.close(id);
  }

  /** ends every session (a global reset) */
  closeAll(): void {
    this.registry.clear();
  }

  /** resets one session's share without ending it: state, counters, windows, overrides; its journal view starts over */
  resetSession(s: Session): void {
    s.state.clear();
    s.overrides.clear();
    const fresh = this.make(s.id);
    (s as { pace: PaceState }).pace = fresh.pace;
    s.journalFloor = this.opts.journalLastId?.() ?? 0;
    s.epoch = -1;
  }

  private make(id: string): Session {
    const state = scopedStore(this.bare.state, sessionPrefix(id));
    const s: Session = {
      id,
      state,
      rotation: new RotationState(state),
      pace: this.bare.pace?.forSession() ?? (undefined as unknown as PaceState),
      overrides: new OverrideList(this.ids, () => this.changed(), id),
      journalFloor: this.opts.journalLastId?.() ?? 0,
      env: this.bare,
      epoch: -1,
    };
    return s;
  }

  private envOf(s: Session): DispatchEnv {
    if (s.epoch === this.epoch) return s.env;
    const lists = [s.overrides, this.shared].filter((l) => l.size > 0);
    const base = { ...this.bare, state: s.state, rotation: s.rotation, session: s.id };
    if (s.pace !== undefined) base.pace = s.pace;
    s.env = lists.length === 0 ? base : { ...base, overrides: lists };
    s.epoch = this.epoch;
    return s.env;
  }

  private ended(s: Session): void {
    s.state.clear();
    s.overrides.clear();
  }

  private changed(): void {
    this.epoch++;
    this.env = this.shared.size === 0 ? this.bare : { ...this.bare, overrides: [this.shared] };
  }
}

/** a cookie's value in a Cookie header (`a=1; b=2`), percent-decoded when it can be */
export function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let v = part.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    if (v === '') return undefined;
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  }
  return undefined;
}
