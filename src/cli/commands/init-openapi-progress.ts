// What a large `mock --init --from` says while it works, and how it stops on Ctrl-C (docs/openapi.md#large-documents).
// Progress: each step on stderr as it begins (reading, validating, planning, checking, writing), and the
// operations planned a tenth at a time; shown when the document is large (LARGE_BYTES) or has many operations.
// Stopping: until the import plans, Ctrl-C ends the process as usual (nothing is written before then). From the
// first operation planned, the first Ctrl-C (or SIGTERM) asks the import to stop at the next operation or file:
// the response files it created are removed and it exits 130, saying nothing was written. A second one stops at
// once: the files created so far are removed there and then, and the process exits 130. While the rule sets and
// the config are committed (a moment, atomic) a signal waits for the commit to end.
import { unlinkSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Io } from '../io.js';

const PREFIX = 'mock --init';
/** a document this large (bytes) shows its progress from the start */
export const LARGE_BYTES = 2 ** 20;
/** above this many operations the import says how far it is */
export const PROGRESS_OPERATIONS = 1000;
/** the event loop is given a turn this often (ms) while planning and writing, so a signal is heard */
const YIELD_MS = 50;

export const STOP_MESSAGES = {
  stopping: 'stopping: nothing will be written (Ctrl-C again to stop at once)',
  stopped: 'stopped; nothing was written',
  committing: 'the files are being committed; stopping when that is done',
} as const;

export class ImportProgress {
  private shown = -1;
  private large: boolean;
  constructor(
    private readonly io: Io,
    bytes: number,
  ) {
    this.large = bytes >= LARGE_BYTES;
  }

  /** did it say anything (a large import)? */
  get spoke(): boolean {
    return this.large;
  }

  step(what: string): void {
    if (this.large) this.io.err(`${PREFIX}: ${what}\n`);
  }

  operations(done: number, total: number): void {
    if (total > PROGRESS_OPERATIONS) this.large = true;
    if (!this.large) return;
    const tenth = total === 0 ? 10 : Math.floor((done * 10) / total);
    if (tenth === this.shown) return;
    this.shown = tenth;
    this.io.err(`${PREFIX}: ${done} of ${total} operations\n`);
  }
}

/** Thrown out of the import when a stop was asked for (nothing is written by then, or it is removed). */
export class Stopped extends Error {}

export class ImportStop {
  private asked = false;
  private committing = false;
  private off: () => void;
  private lastTurn = performance.now();
  /** response files created so far (removed on a stop) */
  readonly created: string[] = [];

  constructor(
    private readonly io: Io,
    private readonly exit: (code: number) => never = (code) => process.exit(code),
  ) {
    this.off = io.onShutdown(() => this.first());
  }

  private first(): void {
    this.asked = true;
    this.io.err(`${PREFIX}: ${this.committing ? STOP_MESSAGES.committing : STOP_MESSAGES.stopping}\n`);
    this.off = this.io.onShutdown(() => this.second());
  }

  private second(): void {
    if (this.committing) {
      this.off = this.io.onShutdown(() => this.second());
      return;
    }
    this.removeCreated();
    this.io.err(`${PREFIX}: ${STOP_MESSAGES.stopped}\n`);
    this.exit(130);
  }

  get requested(): boolean {
    return this.asked;
  }

  /** Give the event loop a turn now and then (so a signal is heard); throws Stopped once a stop is asked for. */
  async turn(): Promise<void> {
    if (performance.now() - this.lastTurn >= YIELD_MS) {
      await new Promise<void>((r) => setImmediate(r));
      this.lastTurn = performance.now();
    }
    if (this.asked) throw new Stopped();
  }

  /** While `work` runs (the atomic commit), a signal only asks; `work` is never cut short. */
  async commit<T>(work: () => Promise<T>): Promise<T> {
    if (this.asked) throw new Stopped();
    this.committing = true;
    try {
      return await work();
    } finally {
      this.committing = false;
    }
  }

  removeCreated(): void {
    for (const p of this.created.splice(0)) {
      try {
        unlinkSync(p);
      } catch {
        // already gone
      }
    }
  }

  dispose(): void {
    this.off();
  }
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection, at a step's end: what the step made and dropped (the parsed document once planned,
 * the decoded rule sets once checked) is freed before the next step allocates. V8 left alone lets the heap grow
 * towards its limit (4 GB on a machine with 16 GB or more) before it collects, and the import's peak memory
 * would be that garbage (docs/speed.md#the-largest-real-openapi-documents). Only for a large import.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
