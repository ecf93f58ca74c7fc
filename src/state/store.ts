// The one place runtime state lives (docs/state.md): scenario states, collection data and round-robin counters,
// each under its own key, in memory by default. Everything that moves on between requests reads and writes
// through this interface, so that a shared store (for several replicas behind a load balancer) could back it
// later without touching dispatch; docs/architecture.md says what such an adapter would need.
//
// Keys are plain strings with a kind prefix (`scenario:cart`, `collection:/api/users`, `rotation:<group>`);
// a session's share of the state sits under its own prefix (`session:<id>/scenario:cart`). Values are
// JSON-shaped data (what a shared store could serialise), owned by the store once written: a caller that
// changes a value it read writes it back through `set` or `update`.

export interface StateStore {
  /** the value under `key`, or undefined */
  get(key: string): unknown;
  /** replaces the value under `key` */
  set(key: string, value: unknown): void;
  /** reads, computes and writes one key as one step (no other write to that key in between); returns the new value */
  update<T>(key: string, fn: (current: T | undefined) => T): T;
  /** removes `key`; true when it was there */
  delete(key: string): boolean;
  /** the keys that start with `prefix` (every key without one), in insertion order */
  keys(prefix?: string): string[];
  /** removes every key that starts with `prefix` (every key without one); returns how many went */
  clear(prefix?: string): number;
}

/** The default store: a Map in this process. Single-threaded, so every update is atomic by construction. */
export class MemoryStore implements StateStore {
  private readonly values = new Map<string, unknown>();

  get(key: string): unknown {
    return this.values.get(key);
  }

  set(key: string, value: unknown): void {
    this.values.set(key, value);
  }

  update<T>(key: string, fn: (current: T | undefined) => T): T {
    const next = fn(this.values.get(key) as T | undefined);
    this.values.set(key, next);
    return next;
  }

  delete(key: string): boolean {
    return this.values.delete(key);
  }

  keys(prefix = ''): string[] {
    const out: string[] = [];
    for (const k of this.values.keys()) if (k.startsWith(prefix)) out.push(k);
    return out;
  }

  clear(prefix = ''): number {
    if (prefix === '') {
      const n = this.values.size;
      this.values.clear();
      return n;
    }
    let n = 0;
    for (const k of this.values.keys())
      if (k.startsWith(prefix)) {
        this.values.delete(k);
        n++;
      }
    return n;
  }

  /** keys held (for tests and diagnostics) */
  get size(): number {
    return this.values.size;
  }
}

// A store shared by several processes (docs/scale.md) answers over the network, so its interface is the same six
// operations returning promises. The in-memory store keeps its synchronous interface, so the single-process
// request path never waits; `asAsync` lets code written for the shared store run over it too.

/** The state store's operations, answered asynchronously (a store in another process or on Redis). */
export interface AsyncStateStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  /** reads, computes and writes one key as one step across every process sharing the store; returns the new value */
  update<T>(key: string, fn: (current: T | undefined) => T): Promise<T>;
  delete(key: string): Promise<boolean>;
  keys(prefix?: string): Promise<string[]>;
  clear(prefix?: string): Promise<number>;
  /** lets go of connections (a no-op for a store in this process) */
  close(): Promise<void>;
}

/** The shared store cannot be reached: requests that need state answer 503 with this message. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly where: string,
    cause?: unknown,
  ) {
    super(`the state store at ${where} cannot be reached${cause instanceof Error ? `: ${cause.message}` : ''}`);
    this.name = 'StoreUnavailableError';
  }
}

/** `store` behind the asynchronous interface (each answer already settled: nothing else runs in between). */
export function asAsync(store: StateStore): AsyncStateStore {
  return {
    get: async (key) => store.get(key),
    set: async (key, value) => store.set(key, value),
    update: async <T>(key: string, fn: (current: T | undefined) => T): Promise<T> => store.update<T>(key, fn),
    delete: async (key) => store.delete(key),
    keys: async (prefix) => store.keys(prefix),
    clear: async (prefix) => store.clear(prefix),
    close: async () => undefined,
  };
}
