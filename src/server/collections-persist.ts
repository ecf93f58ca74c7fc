// The collections' Node edge (docs/state.md, "Collections"): writing a persisted collection back to its data file,
// and reseeding a collection whose data file was edited. Dispatch changes the data in the state store and says so
// (DispatchEnv.collectionChanged); the change is acknowledged only once it is on disk: `changed` hands back a
// promise that settles when a write holding it has been written, fsynced and renamed into place (node/safe-write.ts,
// which keeps the file's mode, owner and symbolic link), so a kill at any moment leaves the old file or the new
// one, and never loses a change a client was told about. Writes are group commits: the changes of one event-loop
// turn, and every change made while a write is under way, share the next write (docs/state.md, "Where the data
// lives"). A session's copy of the data (a scoped store) is never written.
import { collectionKey, type Collection } from '../model/collection.js';
import type { ReloadEvent } from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import { removeStaleTemps, writeSafely } from '../node/safe-write.js';
import { renderJson, styleOf } from '../state/collections/format.js';
import type { StateStore } from '../state/store.js';

/** the changes waiting for one write: settled when it is on disk */
interface Batch {
  readonly done: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

interface FileState {
  /** the write under way */
  writing: Promise<void> | undefined;
  /** the changes since that write took its text: the next write's */
  next: Batch | undefined;
  /** the next write is queued for the end of this turn */
  queued: boolean;
}

function batch(): Batch {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // the failure is the waiters' to answer (and logged): none waiting is no unhandled rejection
  done.catch(() => undefined);
  return { done, resolve, reject };
}

export class CollectionFiles {
  private readonly files = new Map<string, FileState>();
  /** the text last written to each file: a reload that reads it back is our own write, not an edit */
  private readonly written = new Map<string, string>();
  private ws: Workspace;

  constructor(
    ws: Workspace,
    private readonly state: StateStore,
    private readonly log: (line: string) => void,
  ) {
    this.ws = ws;
    // before this process writes any of them: what a killed run left beside its files
    const persisted = new Set((ws.collections ?? []).filter((c) => c.persist).map((c) => c.file));
    for (const file of persisted) {
      const n = removeStaleTemps(file);
      if (n > 0) log(`removed ${n} temp file${n === 1 ? '' : 's'} an interrupted write left beside ${file}`);
    }
  }

  /**
   * DispatchEnv.collectionChanged: a persisted collection's change is written with the next write of its file;
   * the promise settles once that write is on disk (rejects when it failed). Nothing to wait for otherwise.
   */
  readonly changed = (c: Collection, store: StateStore): Promise<void> | undefined => {
    if (!c.persist || store !== this.state) return undefined;
    let f = this.files.get(c.file);
    if (f === undefined) this.files.set(c.file, (f = { writing: undefined, next: undefined, queued: false }));
    f.next ??= batch();
    // a write under way takes this change with the one after it, started as it ends
    if (f.writing === undefined) this.queue(c.file, f);
    return f.next.done;
  };

  /** A reload: collections whose data file changed (and not by our own write) start again from it. */
  readonly reloaded = (event: ReloadEvent): void => {
    if (event.kind !== 'applied') return;
    const before = new Map((this.ws.collections ?? []).map((c) => [c.path, c]));
    this.ws = event.workspace;
    for (const c of event.workspace.collections ?? []) {
      const old = before.get(c.path);
      before.delete(c.path);
      if (old !== undefined && old.file === c.file && old.kind === c.kind && old.sourceText === c.sourceText) continue;
      if (old !== undefined && old.file === c.file && this.written.get(c.file) === c.sourceText) continue;
      this.forget(c.path);
    }
    for (const gone of before.keys()) this.forget(gone);
  };

  /** Every pending write, now (at shutdown). */
  async flush(): Promise<void> {
    for (;;) {
      const pending: Promise<void>[] = [];
      for (const [file, f] of this.files) {
        if (f.writing !== undefined) pending.push(f.writing);
        else if (f.next !== undefined) pending.push(this.write(file));
      }
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /** the store's copy of a collection, and every session's (`session:<id>/collection:<path>`) */
  private forget(path: string): void {
    const key = collectionKey({ path } as Collection);
    this.state.delete(key);
    for (const k of this.state.keys('session:')) if (k.endsWith(`/${key}`)) this.state.delete(k);
  }

  /** the next write of `file` at the end of this turn: the changes of the turn go together */
  private queue(file: string, f: FileState): void {
    if (f.queued) return;
    f.queued = true;
    setImmediate(() => {
      f.queued = false;
      if (f.writing === undefined && f.next !== undefined) void this.write(file);
    });
  }

  /** Writes the file's current text for the changes waiting; settles (never rejects) when it is done. */
  private write(file: string): Promise<void> {
    const f = this.files.get(file)!;
    const waiting = f.next ?? batch();
    f.next = undefined;
    const run = (async () => {
      const text = this.render(file);
      if (text !== undefined) {
        this.written.set(file, text);
        await writeSafely(file, text, { placement: 'replace', keep: true });
      }
    })().then(
      () => waiting.resolve(),
      (e: unknown) => {
        this.log(`collection data not saved to ${file}: ${(e as Error).message}`);
        waiting.reject(e);
      },
    );
    f.writing = run.finally(() => {
      f.writing = undefined;
      if (f.next !== undefined) void this.write(file);
    });
    return f.writing;
  }

  /** The file's new text: its collection's data, or (a db file) its top-level object with each collection's data. */
  private render(file: string): string | undefined {
    const mine = (this.ws.collections ?? []).filter((c) => c.file === file && c.persist);
    const first = mine[0];
    if (first === undefined) return undefined;
    const data = (c: Collection): unknown => this.state.get(collectionKey(c)) ?? c.seed;
    const style = styleOf(first.sourceText);
    if (first.key === undefined) return renderJson(data(first), style);
    const top = JSON.parse(first.sourceText) as Record<string, unknown>;
    for (const c of mine) if (c.key !== undefined) top[c.key] = data(c);
    return renderJson(top, style);
  }
}
