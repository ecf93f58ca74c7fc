// End-of-turn batching: the first answer made in an event-loop turn is written at once; the others made in the
// same turn are written together at its end (setImmediate), not one by one as each request is handled. The
// client, woken by the first, is still busy reading when the rest arrive, instead of going back to sleep between
// them and being woken by each write (a wake-up costs the writing server more than the write itself,
// docs/speed.md#measured-choices-in-the-code; a lone client is answered as soon as before). The order on a
// connection is node:http's: pipelined answers go out in request order whenever they are written.
import type { ServerResponse } from 'node:http';
import type { Outcome } from '../dispatch/dispatch.js';
import type { InFlight } from './hooks.js';
import type { Failed } from './settle.js';

/** writes one answer now (server/answer-paths.ts) */
export type WriteNow = (res: ServerResponse, method: string, outcome: Outcome, x: InFlight | undefined) => void;

/** an answer made, to be written at the end of the turn */
interface ReadyAnswer {
  readonly res: ServerResponse;
  readonly method: string;
  readonly outcome: Outcome;
  readonly x: InFlight | undefined;
}

/** `write` now for the first answer of a turn, at the turn's end for the others; a failure of one goes to `failed`. */
export function createTurnWriter(write: WriteNow, failed: Failed): WriteNow {
  // Whether an answer was written in this turn already, and the answers made after it, in order.
  let turnOpen = false;
  let ready: ReadyAnswer[] = [];
  const endTurn = (): void => {
    turnOpen = false;
    const batch = ready;
    if (batch.length === 0) return;
    ready = [];
    for (const { res, method, outcome, x } of batch) {
      try {
        write(res, method, outcome, x);
      } catch (e) {
        failed(res, e);
      }
    }
  };
  return (res, method, outcome, x) => {
    if (turnOpen) {
      ready.push({ res, method, outcome, x });
      return;
    }
    turnOpen = true;
    setImmediate(endTurn);
    write(res, method, outcome, x);
  };
}

/**
 * The time a request arrived, read once per event-loop turn: the requests handled in a poll phase had all arrived
 * when it began, and the log shows whole seconds (a clock read cost more than the rest of the log line,
 * docs/speed.md#workload-b-one-step-closer-2026-11-27). The bare path uses it; the hooks (the journal) read the
 * clock per request.
 */
export function createTurnClock(now: () => Date): () => Date {
  let turnStarted: Date | undefined;
  const turnEnded = (): void => {
    turnStarted = undefined;
  };
  return () => {
    if (turnStarted === undefined) {
      turnStarted = now();
      setImmediate(turnEnded);
    }
    return turnStarted;
  };
}
