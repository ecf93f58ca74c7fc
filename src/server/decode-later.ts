// The rule sets the load cache left undecoded (docs/load-cache.md), decoded after the server listens, one per
// event-loop turn.
import type { RuleSet } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { decodeAndPrepare, prepareRuleSet, undecoded } from '../dispatch/prepare.js';

/** How the server's start-up runs the work it left for later (the CLI's V8 settings: node/start-up-work.ts). */
export interface LaterWork {
  step<T>(work: () => T): T;
  /** called once the last rule set is decoded */
  done(): void;
}

const NOW: LaterWork = { step: (work) => work(), done: () => {} };

/**
 * Rule sets the load cache left undecoded are decoded and prepared `afterMs` from now, one per event-loop turn (a
 * request that needs one sooner decodes it itself): the server answers its first requests without waiting for
 * them all, and the rules are in place before a load arrives. Rules decoded while requests stream in were measured
 * to keep the garbage collector busy for the rest of the run (a 2,000-rule set served 40 % fewer requests in one
 * run of two), so that case is made rare rather than left to the first request under load.
 */
export function decodeRestSoon(ws: Workspace, afterMs: number, work: LaterWork = NOW): void {
  const later = ws.ruleSets.filter(undecoded);
  if (later.length > 0 || work !== NOW) setTimeout(() => decodeSoon(later, 0, work), afterMs).unref();
}

function decodeSoon(sets: readonly RuleSet[], from: number, work: LaterWork): void {
  let i = from;
  // a rule set a request has decoded meanwhile is only prepared (cheap once done)
  while (i < sets.length && !undecoded(sets[i]!)) prepareRuleSet(sets[i++]!);
  if (i === sets.length) return work.done();
  const rs = sets[i]!;
  try {
    work.step(() => decodeAndPrepare(rs));
  } catch {
    // it failed to decode after all: a request that needs it is answered 500, and the log says why
  }
  if (i + 1 < sets.length) setImmediate(() => decodeSoon(sets, i + 1, work)).unref();
  else work.done();
}
