// A value now or later. The request path stays synchronous wherever no I/O is needed (rule answers, cached
// fallback resolutions): every `await` costs a microtask and a promise, which at tens of thousands of requests a
// second is a measurable share of the work.
export type ValueOrPromise<T> = T | Promise<T>;

/** `f(v)` now when `v` is a value, after it settles when it is a promise. */
export function chain<T, U>(v: ValueOrPromise<T>, f: (x: T) => ValueOrPromise<U>): ValueOrPromise<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}
