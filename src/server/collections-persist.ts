// The collections' Node edge (docs/state.md, "Collections"): writing a persisted collection back to its data file,
// and reseeding a collection whose data file was edited. Dispatch changes the data in the state store and says so
// (DispatchEnv.collectionChanged); this writes the file a moment later, at most once per PERSIST_EVERY_MS per file
// and always after the last change, through node/safe-write.ts (temp file, fsync, rename), so a kill at any moment
// leaves either the previous file or the new one. A session's copy of the data (a scoped store) is never written.
import { collectionKey, type Collection } from '../model/collection.js';
import type { ReloadEvent } from '../model/reload.js';
import type { Workspace } from '../model/workspace.js';
import { writeSafely } from '../node/safe-write.js';
import { renderJson, styleOf } from '../state/collections/format.js';
import type { StateStore } from '../state/store.js';

/** How long after a change its file is written (changes in between are written together). */
export const PERSIST_EVERY_MS = 50;

interface FileState {
  timer: ReturnType<typeof setTimeout> | undefined;
  writing: Promise<void> | undefined;
  /** a change came while the file was being written */
  again: boolean;
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
    private readonly everyMs = PERSIST_EVERY_MS,
  ) {
    this.ws = ws;
  }

  /** DispatchEnv.collectionChanged: schedule the write of a persisted collection's file. */
  readonly changed = (c: Collection, store: StateStore): void => {
    if (!c.persist || store !== this.state) return;
    let f = this.files.get(c.file);
    if (f === undefined) this.files.set(c.file, (f = { again: false, timer: undefined, writing: undefined }));
    if (f.writing !== undefined) {
      f.again = true;
      return;
    }
    f.timer ??= setTimeout(() => void this.write(c.file), this.everyMs);
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
    const pending: Promise<void>[] = [];
    for (const [file, f] of this.files) {
      if (f.timer !== undefined) {
        clearTimeout(f.timer);
        f.timer = undefined;
        pending.push(this.write(file));
      } else if (f.writing !== undefined) pending.push(f.writing);
    }
    await Promise.all(pending);
  }

  /** the store's copy of a collection, and every session's (`session:<id>/collection:<path>`) */
  private forget(path: string): void {
    const key = collectionKey({ path } as Collection);
    this.state.delete(key);
    for (const k of this.state.keys('session:')) if (k.endsWith(`/${key}`)) this.state.delete(k);
  }

  private write(file: string): Promise<void> {
    const f = this.files.get(file)!;
    f.timer = undefined;
    f.again = false;
    const text = this.render(file);
    const run = (async () => {
      if (text === undefined) return;
      try {
        this.written.set(file, text);
        await writeSafely(file, text, { placement: 'replace' });
      } catch (e) {
        this.log(`collection data not saved to ${file}: ${(e as Error).message}`);
      }
    })().finally(() => {
      f.writing = undefined;
      if (f.again) f.timer ??= setTimeout(() => void this.write(file), this.everyMs);
    });
    f.writing = run;
    return run;
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
