// The live workspace's vocabulary (types only): what a reload loads, what it reports, and the handle that the
// server owns and the watcher, the library API and the inspector call. The implementation is server/live.ts;
// loading with read tracking is workspace/tracked-load.ts; watching is workspace/watch.ts.
import type { Diagnostic } from './diagnostic.js';
import type { Workspace } from './workspace.js';

/**
 * What a load read: every file it read or looked for (absolute path), in the order it was read, mapped to a
 * content key: its whole content (compared as a string, so "identical" has no false positives and costs no hashing
 * at startup), or MISSING_SOURCE when it was not there. Two equal sets mean nothing a load sees has changed.
 */
export type SourceSet = ReadonlyMap<string, string>;
/** the key of a file that was not there; a present file's key always starts with CONTENT_KEY_PREFIX */
export const MISSING_SOURCE = '-';
export const CONTENT_KEY_PREFIX = '=';

export interface LoadFailureInfo {
  readonly kind: 'config_invalid' | 'config_unreadable';
  readonly message: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** One load of the workspace from disk. `stable`: no file's size or mtime moved while it was read. */
export type LoadAttempt =
  | { readonly kind: 'loaded'; readonly workspace: Workspace; readonly sources: SourceSet; readonly stable: boolean }
  | {
      readonly kind: 'failed';
      readonly failure: LoadFailureInfo;
      readonly sources: SourceSet;
      readonly stable: boolean;
    };

/** Loads the workspace again exactly as startup did (same -c, -d, -p), in reload mode. */
export type WorkspaceLoad = () => Promise<LoadAttempt>;

/** A `[listener]` key whose new value needs a restart: `listener.port` `3001` → `4000`. */
export interface ListenerChange {
  readonly key: string;
  readonly from: string;
  readonly to: string;
}

/** Sent to onReload listeners when a reload finishes with a change (an unchanged one sends nothing). */
export type ReloadEvent =
  | {
      readonly kind: 'applied';
      /** the new generation, now serving */
      readonly generation: number;
      readonly workspace: Workspace;
      /** files whose content changed (appeared, vanished), absolute, in load order */
      readonly changed: readonly string[];
      /** wall time of the load, retries included */
      readonly ms: number;
      /** the new workspace's warnings (an invalid `.json` respond target among them) */
      readonly warnings: readonly Diagnostic[];
      /** listener keys that changed and are not applied until a restart */
      readonly listenerChanges: readonly ListenerChange[];
    }
  | {
      readonly kind: 'rejected';
      /** the generation that keeps serving */
      readonly generation: number;
      readonly changed: readonly string[];
      readonly ms: number;
      /** every diagnostic of the failed load, as `mock validate` reports them */
      readonly diagnostics: readonly Diagnostic[];
    };

export type ReloadKind = 'applied' | 'unchanged' | 'rejected' | 'unavailable';

/** What reload() answers. `ok`: the files on disk are what is serving now. */
export interface ReloadResult {
  readonly ok: boolean;
  /** the generation serving after this reload */
  readonly generation: number;
  /** errors of a rejected load (also when unchanged since that rejection); warnings of an applied one */
  readonly diagnostics: readonly Diagnostic[];
  /** unavailable: the server was started without a loader */
  readonly outcome: ReloadKind;
}

/** The server's live workspace, as other parts (watcher, library API, inspector) see it. */
export interface LiveWorkspaceHandle {
  /** 1 at startup, +1 on each applied reload */
  readonly generation: number;
  readonly workspace: Workspace;
  /** the files the live workspace was loaded from, plus those the last rejected load tried to read */
  watchedFiles(): readonly string[];
  /** Load from disk and swap if it loads; one at a time, calls during a load share one more after it. */
  reload(): Promise<ReloadResult>;
  /** Called after every applied or rejected reload; returns the unsubscribe function. */
  onReload(listener: (event: ReloadEvent) => void): () => void;
  /**
   * Called with the serving generation when a failing workspace is set right without a swap (a broken edit undone:
   * the reload is `unchanged`, so onReload hears nothing); returns the unsubscribe function.
   */
  onRestored(listener: (generation: number) => void): () => void;
}
