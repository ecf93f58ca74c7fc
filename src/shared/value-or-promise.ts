// A value now or later. The request path stays synchronous wherever no I/O is needed (rule answers, cached
// fallback resolutions): every `await` costs a microtask and a promise, which at tens of thousands of requests a
// second is a measurable share of the work.
//
// "Later" is a Promise, or a Soon: a value that arrives from a callback which releases many waiters at once (the
// file cache releases every file request of an event-loop turn together, node/file-cache/README.md). A Soon runs
// its continuations synchronously as it settles, so those requests go on to their answers in that one callback,
// with no promise or microtask each (docs/speed.md#workload-b-one-step-closer-2026-11-27).
export type ValueOrPromise<T> = T | Later<T>;
export type Later<T> = Promise<T> | Soon<T>;

/** `f(v)` now when `v` is a value, after it settles when it is a promise or a Soon. */
export function chain<T, U>(v: ValueOrPromise<T>, f: (x: T) => ValueOrPromise<U>): ValueOrPromise<U> {
  if (v instanceof Promise) return v.then(f);
  if (v instanceof Soon) return v.then(f);
  return f(v);
}

/** told once a Soon settles: `ok` with its value, else with the failure */
export type SoonListener = (ok: boolean, result: unknown) => void;

const PENDING = 0;
const DONE = 1;
const FAILED = 2;

/** told of a Soon's failure that nobody listened to by the end of the event-loop turn it failed in */
export type UnheardFailureReporter = (e: unknown) => void;

const reportToStderr: UnheardFailureReporter = (e) => {
  const shown = e instanceof Error ? (e.stack ?? e.message) : String(e);
  process.stderr.write(`mock: a failure nobody handled: ${shown}\n`);
};
let reportUnheard: UnheardFailureReporter = reportToStderr;

/**
 * Where a Soon's failure goes when nothing listened to it by the end of its turn, as an unhandled rejection
 * would for a promise (default: a line on stderr). Returns the reporter it replaced.
 */
export function setUnheardFailureReporter(f: UnheardFailureReporter | undefined): UnheardFailureReporter {
  const before = reportUnheard;
  reportUnheard = f ?? reportToStderr;
  return before;
}

/**
 * A value settled later by whoever made it (resolve/reject), whose listeners run synchronously, in the order they
 * were added, as it settles (or at once when it has settled already). A thenable, so `await` takes one. As with a
 * promise, a failure nobody listens to by the end of its event-loop turn is not lost: it goes to the unheard-failure
 * reporter (setUnheardFailureReporter).
 */
export class Soon<T> implements PromiseLike<T> {
  private state = PENDING;
  private result: unknown = undefined;
  private listeners: SoonListener | SoonListener[] | undefined = undefined;
  /** whether a listener was ever added (a failure without one is reported) */
  private heard = false;

  /** a failed Soon no listener had heard when it failed: reported unless one listened before the turn ended */
  private static checkHeard(this: void, s: Soon<unknown>): void {
    if (!s.heard) reportUnheard(s.result);
  }

  /** Settles with `v`, or, when `v` is a promise or a Soon, as `v` settles. Call it (or reject) once. */
  resolve(v: ValueOrPromise<T>): void {
    if (v instanceof Soon) v.listen((ok, x) => this.settle(ok, x));
    else if (v instanceof Promise)
      v.then(
        (x) => this.settle(true, x),
        (e: unknown) => this.settle(false, e),
      );
    else this.settle(true, v);
  }

  reject(e: unknown): void {
    this.settle(false, e);
  }

  /** `f` at settlement (now when settled). `f` must not throw: it is called from whoever settles this. */
  listen(f: SoonListener): void {
    this.heard = true;
    if (this.state !== PENDING) {
      f(this.state === DONE, this.result);
      return;
    }
    const l = this.listeners;
    if (l === undefined) this.listeners = f;
    else if (typeof l === 'function') this.listeners = [l, f];
    else l.push(f);
  }

  then<U = T, V = never>(
    onValue?: ((v: T) => ValueOrPromise<U> | PromiseLike<U>) | null,
    onFailure?: ((e: unknown) => ValueOrPromise<V> | PromiseLike<V>) | null,
  ): Soon<U | V> {
    const next = new Soon<U | V>();
    this.listen((ok, x) => {
      try {
        if (ok) next.resolve(onValue ? (onValue(x as T) as ValueOrPromise<U>) : (x as U));
        else if (onFailure) next.resolve(onFailure(x) as ValueOrPromise<V>);
        else next.reject(x);
      } catch (e) {
        next.reject(e);
      }
    });
    return next;
  }

  private settle(ok: boolean, x: unknown): void {
    if (this.state !== PENDING) return;
    this.state = ok ? DONE : FAILED;
    this.result = x;
    const l = this.listeners;
    if (l === undefined) {
      // setImmediate rather than a microtask: a listener added later in the same turn still counts as heard
      if (!ok) setImmediate(Soon.checkHeard, this);
      return;
    }
    this.listeners = undefined;
    if (typeof l === 'function') l(ok, x);
    else for (const f of l) f(ok, x);
  }
}
