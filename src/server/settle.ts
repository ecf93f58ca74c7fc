// The value / Soon / promise split of the listener, once: an outcome made now goes on at once, one that waited
// (a promise, or a Soon released with the other file requests of its turn) goes on when it settles, and a failure
// anywhere after it is answered 500 through `failed`. Steps are shared functions that get the response, the method
// and the hooks' view of the request as arguments, so a request adds no closure of its own on the synchronous path
// (docs/speed.md#measured-choices-in-the-code).
import type { ServerResponse } from 'node:http';
import { Soon, type ValueOrPromise } from '../shared/value-or-promise.js';
import type { InFlight } from './hooks.js';

/** What a request does next with `v`; what it returns (a delay's timer) is watched for failure too. */
export type Step<T> = (res: ServerResponse, method: string, v: T, x: InFlight | undefined) => ValueOrPromise<void>;

/** a failure of a request's handling (answered 500, or the connection dropped) */
export type Failed = (res: ServerResponse, e: unknown) => void;

const NOTHING: Step<unknown> = () => undefined;

/**
 * `now(v)` when `v` is a value, `later(v)` once a promise or a Soon settles; a failure of `v`, a throw of either step
 * or a failure of what the step returns goes to `failed`.
 */
export function settle<T>(
  v: ValueOrPromise<T>,
  res: ServerResponse,
  method: string,
  x: InFlight | undefined,
  now: Step<T>,
  later: Step<T>,
  failed: Failed,
): void {
  if (v instanceof Promise)
    v.then(
      (o: T) => run(later, res, method, o, x, failed),
      (e: unknown) => failed(res, e),
    );
  else if (v instanceof Soon)
    v.listen((ok, o) => {
      if (ok) run(later, res, method, o as T, x, failed);
      else failed(res, o);
    });
  else run(now, res, method, v, x, failed);
}

/** What is left of a request's handling: its failure goes to `failed` (nothing to do for a value). */
export function watch(pending: ValueOrPromise<void>, res: ServerResponse, failed: Failed): void {
  if (pending !== undefined) settle(pending, res, '', undefined, NOTHING, NOTHING, failed);
}

function run<T>(
  step: Step<T>,
  res: ServerResponse,
  method: string,
  v: T,
  x: InFlight | undefined,
  failed: Failed,
): void {
  try {
    const rest = step(res, method, v, x);
    if (rest !== undefined) settle(rest, res, method, x, NOTHING, NOTHING, failed);
  } catch (e) {
    failed(res, e);
  }
}
