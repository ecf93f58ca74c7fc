// LiveWorkspace: the workspace a server answers from, swapped whole between requests.
//
// `current` is the one `live` reference: a LiveState holding the Workspace and its generation (1 at startup,
// +1 per applied reload). A request reads it once, when its headers arrive, and keeps that object for its body
// cap, dispatch, delay and log line, so no answer mixes two configs, and in-flight (delayed) requests finish on
// the workspace they started on. The generation travels with the request at no cost: it is a field of the object
// the request holds anyway.
//
// reload() runs the injected loader (startup's own loadWorkspace, with read tracking; the server does not know
// config/), one load at a time: calls during a load share one more load after it. A load whose files moved while
// they were read is dropped silently and rerun. Identical sources (a `touch`) change nothing. A failed load keeps
// the current workspace serving. After a swap the RotationState (which outlives swaps) forgets groups that can
// no longer occur, and scenarios no rule or script names any more are dropped. Listeners registered with onReload
// hear every applied or rejected reload; those registered with onRestored hear a failing workspace set right without a swap (a broken edit undone: the files are back to what
// serves, so the reload is `unchanged` and sends no reload event, yet the failure is over).
//
// Not here: watching files (workspace/watch.ts), printing (cli/render/reload.ts), rebinding (never done).
import { prepareRuleSet, prepareWorkspace } from '../dispatch/prepare.js';
import { decodeRestSoon } from '../start-up/decode-later.js';
import { DEFAULTS } from '../model/config.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type {
  LiveWorkspaceHandle,
  LoadAttempt,
  ReloadEvent,
  ReloadResult,
  SourceSet,
  WorkspaceLoad,
} from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import { liveGroupKeys, RotationState } from '../routing/rotation.js';
import { MemoryStore, type StateStore } from '../state/store.js';
import { listenerChanges } from './listener-changes.js';
import type { JsonShapeLimits } from './json-shape.js';
import { namesScenario } from '../dispatch/scenarios.js';
import { pruneScenarios } from '../state/scenarios.js';

/** What one request is served under: read once from LiveWorkspace.current when its headers arrive. */
export interface LiveState {
  readonly ws: Workspace;
  readonly generation: number;
  /** service.max_request_body_bytes */
  readonly cap: number;
  /** the shape limits of a JSON body (json-shape.ts) */
  readonly jsonLimits: JsonShapeLimits;
  /** log.verbose */
  readonly verbose: Workspace['config']['log']['verbose'];
}

export interface LiveWorkspaceOptions {
  /** loads the workspace again as startup did; without it reload() answers `unavailable` */
  readonly load?: WorkspaceLoad;
  /** what the startup load read (compared with each reload's sources) */
  readonly sources?: SourceSet;
  /** pause before rerunning a load whose files moved while read */
  readonly unstableRetryMs?: number;
  /** after this many unstable loads in a row, the last one is taken as it is */
  readonly unstableRetries?: number;
  readonly now?: () => number;
}

const NO_SOURCES: SourceSet = new Map();

export class LiveWorkspace implements LiveWorkspaceHandle {
  /** The `live` reference. Replaced by one assignment, never mutated. */
  current: LiveState;
  /** the runtime state (docs/state.md): the server owns it, so it survives a reload */
  readonly state: StateStore = new MemoryStore();
  /** round-robin counters for every generation, kept in the state (rotations survive a reload: docs/live-reload.md) */
  readonly rotation = new RotationState(this.state);

  private sources: SourceSet;
  /** the sources of the last rejected load, and its diagnostics, until a load applies */
  private rejected: { readonly sources: SourceSet; readonly diagnostics: readonly Diagnostic[] } | undefined;
  private running: Promise<ReloadResult> | undefined;
  private queued: Promise<ReloadResult> | undefined;
  private readonly listeners = new Set<(event: ReloadEvent) => void>();
  private readonly restoreListeners = new Set<(generation: number) => void>();
  private readonly now: () => number;

  constructor(
    ws: Workspace,
    private readonly opts: LiveWorkspaceOptions = {},
  ) {
    this.current = stateOf(ws, 1);
    this.sources = opts.sources ?? NO_SOURCES;
    this.now = opts.now ?? (() => performance.now());
  }

  get generation(): number {
    return this.current.generation;
  }

  get workspace(): Workspace {
    return this.current.ws;
  }

  watchedFiles(): readonly string[] {
    const files = new Set(this.sources.keys());
    if (this.rejected !== undefined) for (const f of this.rejected.sources.keys()) files.add(f);
    return [...files];
  }

  reload(): Promise<ReloadResult> {
    if (this.queued !== undefined) return this.queued;
    if (this.running === undefined) return this.begin();
    this.queued = this.running.then(() => {
      this.queued = undefined;
      return this.begin();
    });
    return this.queued;
  }

  onReload(listener: (event: ReloadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onRestored(listener: (generation: number) => void): () => void {
    this.restoreListeners.add(listener);
    return () => void this.restoreListeners.delete(listener);
  }

  private begin(): Promise<ReloadResult> {
    const run = this.attempt().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async attempt(): Promise<ReloadResult> {
    const load = this.opts.load;
    if (load === undefined) return { ok: false, generation: this.generation, diagnostics: [], outcome: 'unavailable' };
    const started = this.now();
    const retries = this.opts.unstableRetries ?? 20;
    let loaded: LoadAttempt = await load();
    for (let i = 0; !loaded.stable && i < retries; i++) {
      await pause(this.opts.unstableRetryMs ?? 100);
      loaded = await load();
    }
    const ms = Math.round(this.now() - started);
    const generation = this.generation;
    if (sameSources(loaded.sources, this.sources)) {
      const restored = this.rejected !== undefined;
      this.rejected = undefined;
      if (restored) this.notify(this.restoreListeners, generation);
      return { ok: true, generation, diagnostics: [], outcome: 'unchanged' };
    }
    if (this.rejected !== undefined && sameSources(loaded.sources, this.rejected.sources)) {
      return { ok: false, generation, diagnostics: this.rejected.diagnostics, outcome: 'unchanged' };
    }
    const changed = changedFiles(this.sources, loaded.sources);
    if (loaded.kind === 'failed') {
      const diagnostics = loaded.failure.diagnostics;
      this.rejected = { sources: loaded.sources, diagnostics };
      this.emit({ kind: 'rejected', generation, changed, ms, diagnostics });
      return { ok: false, generation, diagnostics, outcome: 'rejected' };
    }
    const ws = loaded.workspace;
    prepareWorkspace(ws);
    decodeRestSoon(ws, prepareRuleSet, 0);
    const before = this.current.ws;
    this.current = stateOf(ws, generation + 1);
    this.sources = loaded.sources;
    this.rejected = undefined;
    this.rotation.prune(liveGroupKeys(ws.ruleSets));
    // a scenario keeps its state while the workspace still names it (docs/state.md#live-reload)
    pruneScenarios(this.state, namesScenario(ws));
    this.emit({
      kind: 'applied',
      generation: generation + 1,
      workspace: ws,
      changed,
      ms,
      warnings: ws.warnings,
      listenerChanges: listenerChanges(before.config.listener, ws.config.listener),
    });
    return { ok: true, generation: generation + 1, diagnostics: ws.warnings, outcome: 'applied' };
  }

  private emit(event: ReloadEvent): void {
    this.notify(this.listeners, event);
  }

  private notify<E>(listeners: ReadonlySet<(event: E) => void>, event: E): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own; the swap has happened and serving goes on
      }
    }
  }
}

function stateOf(ws: Workspace, generation: number): LiveState {
  const s = ws.config.service;
  const jsonLimits = {
    maxDepth: s.maxJsonDepth ?? DEFAULTS.maxJsonDepth,
    maxMembers: s.maxJsonMembers ?? DEFAULTS.maxJsonMembers,
  };
  return Object.freeze({ ws, generation, cap: s.maxRequestBodyBytes, jsonLimits, verbose: ws.config.log.verbose });
}

function sameSources(a: SourceSet, b: SourceSet): boolean {
  if (a.size !== b.size) return false;
  for (const [file, hash] of a) if (b.get(file) !== hash) return false;
  return true;
}

/** files whose hash differs, in the new load's order, then those the new load no longer read */
function changedFiles(before: SourceSet, after: SourceSet): readonly string[] {
  const out: string[] = [];
  for (const [file, hash] of after) if (before.get(file) !== hash) out.push(file);
  for (const file of before.keys()) if (!after.has(file)) out.push(file);
  return out;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
