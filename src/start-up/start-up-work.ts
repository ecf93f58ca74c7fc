// V8 settings for one-shot start-up work (loading the configuration before the server listens), and a limit on
// the young generation while the server runs.
//
// Loading a large rule set runs the TOML parser and the decoders hot for a few dozen milliseconds, once. Left to
// its defaults, V8 optimises those functions with TurboFan (compiler memory, and machine code never run again),
// grows the young generation for the burst of surviving objects, and leaves the parse's promoted garbage in
// old-space pages it keeps; all of it stays resident while the server idles (V8's memory reducer returns some
// of it only ~10 s later). Measured on 200 rules: +10 MB resident and a slower start (the compiler threads
// compete for the two cores); on 2,000 rules: +45 MB. So from the first rule-set file the load decodes to the end
// of the load, the optimising compiler is off and the young generation keeps its size; both are restored before
// the first request, which is then optimised as usual. (A warm start, whose rule sets the load cache vouches for,
// decodes none: it sets nothing, and node:v8, ~1 ms to load, is not loaded before the server listens.) Rule sets the load cache left for later (docs/load-cache.md) are decoded after the
// server listens, each under the same settings. Once all of that is done, a start-up that left a lot behind is
// collected and compacted at once (~10 ms for 2,000 rules, ~20 ms for an imported workspace's cache): after the
// first requests, not on the way to them. Flags the user gave Node about any of this are left alone, and other V8 versions are left as
// they are (see CHECKED_V8).
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';

const require_ = createRequire(import.meta.url);
let v8Module: typeof import('node:v8') | undefined;
/** node:v8, required on first use */
const v8 = (): typeof import('node:v8') => (v8Module ??= require_('node:v8') as typeof import('node:v8'));
const setFlagsFromString = (flags: string): void => v8().setFlagsFromString(flags);

const OWN_FLAGS =
  /--(?:no-)?(?:turbofan|opt|expose-gc|compact-on-every-full-gc)\b|--semi-space-growth-factor|--(?:min|max)-semi-space-size/;

/**
 * A load after which the heap holds this much more memory than before (about a thousand rules or more) is
 * collected at once. Measured as the heap's size (the pages V8 holds), not its live objects: a collection V8 ran
 * during the load may have emptied pages it still keeps, and those pages are what the compaction gives back.
 */
const GROWTH_WORTH_COMPACTING = 4 * 1024 * 1024;

/**
 * The V8 versions these flags were checked on (Node.js 20). Elsewhere nothing is changed: V8 reports a flag it
 * does not know on stderr, and a renamed flag must not put a line in front of the server's output.
 */
const CHECKED_V8 = /^11\./;

/** whether these V8 flags may be changed here: a checked V8 version, and the user gave Node none of them */
function flagsAreOurs(): boolean {
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
  return CHECKED_V8.test(process.versions.v8) && !OWN_FLAGS.test(given);
}

/** A server's start-up work: the load before it listens, what is decoded after, and the collection when done. */
export interface StartUpWork {
  /** the load, before the server listens */
  load<T>(work: () => Promise<T>): Promise<T>;
  /** within load(): a rule-set file is about to be decoded; the settings apply from here to the end of the load */
  decoding(): void;
  /** one more piece of start-up work, after the server listens (a rule set the load cache left for later) */
  step<T>(work: () => T): T;
  /** start-up is over: a heap grown by more than GROWTH_WORTH_COMPACTING since load() began is compacted now */
  done(): void;
}

export function startUpWork(): StartUpWork {
  const ours = flagsAreOurs();
  let before: number | undefined;
  let finished = false;
  // from the first step to done(), the young generation keeps its size: between steps, each step's surviving
  // objects would otherwise double it at the next scavenge (measured: 32 MB of young generation on an imported
  // workspace, past holdYoungGeneration's cap, and 14 % more CPU a request for the rest of the run)
  let holding = false;
  /** inside load(); and whether it has decoded (the settings are on) */
  let loading = false;
  let decoding = false;
  return {
    async load(work) {
      if (!ours) return work();
      // the heap's size as V8 counts it (no node:v8 needed): what the load and the steps after it grow
      before ??= process.memoryUsage().heapTotal;
      loading = true;
      try {
        return await work();
      } finally {
        loading = false;
        if (decoding) {
          decoding = false;
          setFlagsFromString('--turbofan');
          setFlagsFromString('--semi-space-growth-factor=2');
        }
      }
    },
    decoding() {
      if (!loading || decoding) return;
      decoding = true;
      setFlagsFromString('--no-turbofan');
      setFlagsFromString('--semi-space-growth-factor=1');
    },
    step(work) {
      if (!ours || finished) return work();
      if (!holding) setFlagsFromString('--semi-space-growth-factor=1');
      holding = true;
      setFlagsFromString('--no-turbofan');
      try {
        return work();
      } finally {
        setFlagsFromString('--turbofan');
      }
    },
    done() {
      if (finished || !ours) return;
      finished = true;
      if (holding) setFlagsFromString('--semi-space-growth-factor=2');
      if (before !== undefined && process.memoryUsage().heapTotal - before > GROWTH_WORTH_COMPACTING)
        collectAndCompact();
    },
  };
}

/** One piece of start-up work, and its collection right after (the settings of startUpWork). */
export async function asStartUpWork<T>(work: () => Promise<T>): Promise<T> {
  const s = startUpWork();
  try {
    return await s.load(() => {
      s.decoding();
      return work();
    });
  } finally {
    s.done();
  }
}

/**
 * The young generation (both semi-spaces) is let grow to this size and no further while the server runs.
 *
 * V8 doubles it each time enough of it survives collections (1 → 2 → 4 → 8 → 16 MB per semi-space on Node.js 20)
 * and only gives it back after a long idle spell. Under sustained load a server reaches the 16 MB step, 32 MB
 * of young generation for a few MB of live objects; when it gets there depends on how fast it allocates, so a
 * slow workload (a 1 MB file to 50 connections) took its last step 12 seconds into the load, a 14 MB jump in
 * resident memory. Held at 8 MB per semi-space, resident memory stays flat over a long load for a throughput cost
 * within the noise between two identical servers: more short-lived objects reach the old generation, which
 * grows slowly until its collections keep up. The figures: docs/speed.md#measured-choices-in-the-code.
 */
const YOUNG_GENERATION_CAP = 16 * 1024 * 1024;

/**
 * How often the young generation's size is looked at. From 16 MB, V8 grows it once 8 MB more have survived
 * collections: some 60 MB of allocation, half a second or more of a server's busiest load. A timer costs
 * nothing between looks; a garbage-collection observer, which would look after every collection, costs
 * throughput on every request (docs/speed.md#measured-choices-in-the-code).
 */
const CHECK_EVERY_MS = 100;

/**
 * Holds the young generation at YOUNG_GENERATION_CAP from now on: it may still grow while it is smaller, and if
 * V8 shrinks it again (after an idle spell) it grows back as usual. Left alone on other V8 versions and when the
 * user gave Node flags about it. Returns a function that lets go.
 */
export function holdYoungGeneration(everyMs = CHECK_EVERY_MS): () => void {
  if (!flagsAreOurs()) return () => {};
  let held = false;
  const check = (): void => {
    const full = youngGenerationSize() >= YOUNG_GENERATION_CAP;
    if (full === held) return;
    held = full;
    setFlagsFromString(full ? '--semi-space-growth-factor=1' : '--semi-space-growth-factor=2');
  };
  // first looked at after everyMs: the young generation starts far below the cap, and the server's first answer
  // does not wait for node:v8
  const timer = setInterval(check, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (held) setFlagsFromString('--semi-space-growth-factor=2');
    held = false;
  };
}

function youngGenerationSize(): number {
  for (const s of v8().getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_size;
  return 0;
}

/** One full, compacting collection (V8's gc() made reachable for this call only). */
function collectAndCompact(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  setFlagsFromString('--no-expose-gc');
  if (typeof gc !== 'function') return;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    (gc as () => void)();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
