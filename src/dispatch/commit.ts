// The commit point (docs/architecture.md#the-pipeline): the state changes an answer makes (the scenarios it moves,
// a collection's write) are made here, when the answer is written, and never for an answer that is not (a client
// that left during a delay). Stages only plan them, on the outcome. The server calls this right before it writes
// an answer; a write that cannot be made as planned, or a persisted one that fails to reach its file, changes the
// answer. This is the one place a shared store makes the changes of one answer atomic.
import type { Answer } from '../model/answer.js';
import { commitTransition } from '../state/scenarios.js';
import { notSavedDraft } from './collection-parts.js';
import type { Draft } from './finalize.js';
import type { Outcome } from './types.js';

/**
 * Makes the outcome's changes; the outcome to write (its answer replaced when a change answered otherwise), now, or
 * once a persisted change is on disk. `redo` finalizes a replacement draft as dispatch finalizes every answer.
 */
export function commitOutcome(o: Outcome, redo: (draft: Draft) => Answer): Outcome | Promise<Outcome> {
  if (o.state !== undefined) commitTransition(o.state);
  const writes = o.writes;
  if (writes === undefined) return o;
  let instead: Draft | undefined;
  let saving: Promise<void>[] | undefined;
  for (const w of writes) {
    const other = w.apply();
    if (other !== undefined) {
      instead = other;
      continue;
    }
    const saved = w.save();
    if (saved !== undefined)
      (saving ??= []).push(
        saved.catch((e: unknown) => {
          instead = notSavedDraft(w.file, e);
        }),
      );
  }
  const settled = (): Outcome => (instead === undefined ? o : { ...o, answer: redo(instead) });
  return saving === undefined ? settled() : Promise.all(saving).then(settled);
}
