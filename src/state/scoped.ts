// A session's share of the state store (docs/library.md#sessions): the same keys as the shared state, under the
// prefix `session:<id>/` of the one base store. Everything that goes through a StateStore (scenarios,
// collections, round-robin counters) is then scoped without knowing about sessions; clearing a session is
// `base.clear(prefix)`. A view holds nothing itself, so making one costs an object and it is kept per session.
import type { StateStore } from './store.js';

/** the prefix of a session's keys in the base store (the id percent-encoded: an id with a `/` cannot reach into another's keys) */
export function sessionPrefix(id: string): string {
  return `session:${encodeURIComponent(id)}/`;
}

/** `base` seen through `prefix`: keys are given and returned without it. */
export function scopedStore(base: StateStore, prefix: string): StateStore {
  return {
    get: (key) => base.get(prefix + key),
    set: (key, value) => base.set(prefix + key, value),
    update: <T>(key: string, fn: (current: T | undefined) => T): T => base.update<T>(prefix + key, fn),
    delete: (key) => base.delete(prefix + key),
    keys: (p = '') => base.keys(prefix + p).map((k) => k.slice(prefix.length)),
    clear: (p = '') => base.clear(prefix + p),
  };
}
