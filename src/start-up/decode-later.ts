// The rule sets the load cache left undecoded (docs/load-cache.md), decoded after the server listens, one per
// event-loop turn.
import type { RuleSet } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { undecoded } from './lazy-rule-set.js';

/** How the server's start-up runs the work it left for later (the CLI's V8 settings: start-up-work.ts). */
export interface LaterWork {
  step<T>(work: () => T): T;
  /** called once the last rule set is decoded */
  done(): void;
}

const NOW: LaterWork = { step: (work) => work(), done: () => {} };

/** makes a rule set ready for dispatch (its compiled rules and path index: dispatch/prepare.ts) */
export type Prepare = (rs: RuleSet) => void;

/**
 * Rule sets the load cache left undecoded are decoded and prepared `afterMs` from now, one per event-loop turn (a
 * request that needs one sooner decodes it itself): the server answers its first requests without waiting for
 * them all, and the rules are in place before a load arrives. Rules decoded while requests stream in were measured
 * to keep the garbage collector busy for the rest of the run (a 2,000-rule set served 40 % fewer requests in one
 * run of two), so that case is made rare rather than left to the first request under load.
 */
export function decodeRestSoon(ws: Workspace, prepare: Prepare, afterMs: number, work: LaterWork = NOW): void {
  const later = ws.ruleSets.filter(undecoded);
  if (later.length > 0 || work !== NOW) setTimeout(() => decodeSoon(later, 0, prepare, work), afterMs).unref();
}

function decodeSoon(sets: readonly RuleSet[], from: number, prepare: Prepare, work: LaterWork): void {
  let i = from;
  // a rule set a request has decoded meanwhile is only prepared (cheap once done)
  while (i < sets.length && !undecoded(sets[i]!)) prepare(sets[i++]!);
  if (i === sets.length) return work.done();
  const rs = sets[i]!;
  try {
    work.step(() => {
      void rs.rules; // decodes it
      prepare(rs);
    });
  } catch {
    // it failed to decode after all: a request that needs it is answered 500, and the log says why
  }
  if (i + 1 < sets.length) setImmediate(() => decodeSoon(sets, i + 1, prepare, work)).unref();
  else work.done();
}
