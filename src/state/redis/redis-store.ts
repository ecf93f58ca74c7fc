// The state store on Redis (docs/scale.md): several `mock` processes, on one machine or many, that name the same
// Redis and the same workspace share scenarios, collections, round-robin counters and sessions as one mock.
//
// Layout under the namespace `<ns>` (one per workspace, so two workspaces on one Redis never meet):
//   <ns>v:<key>   the value, as JSON text (a session's keys carry a TTL when one is set)
//   <ns>order     a sorted set of every key, scored by when it was first written, so `keys` keeps insertion order
//   <ns>seq       the counter behind those scores
// Every operation is one Lua script, so it is atomic on the server. `update` runs the caller's function here, then
// writes only if the value is still the one it read (compare-and-set), and retries otherwise: an update never
// loses another process's write, and no connection is held in a WATCH.
import { Redis } from 'ioredis';
import { StoreUnavailableError, type AsyncStateStore } from '../store.js';

const SET = `
local existed = redis.call('EXISTS', KEYS[1])
if ARGV[3] ~= '0' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3]) else redis.call('SET', KEYS[1], ARGV[1]) end
if existed == 0 then redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[2]) end
return existed`;

// ARGV[4] is the text the caller read ('' with ARGV[5] = '0' when there was none)
const COMPARE_AND_SET = `
local now = redis.call('GET', KEYS[1])
if ARGV[5] == '0' then
  if now then return 0 end
elseif now ~= ARGV[4] then return 0 end
if ARGV[3] ~= '0' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3]) else redis.call('SET', KEYS[1], ARGV[1]) end
if not now then redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[2]) end
return 1`;

const DELETE = `
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])`;

// KEYS[1] the order set; ARGV[1] the namespace, ARGV[2] the prefix; keys whose value expired leave the order here
const KEYS_SCRIPT = `
local out = {}
for _, k in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(k, 1, #ARGV[2]) == ARGV[2] then
    if redis.call('EXISTS', ARGV[1] .. 'v:' .. k) == 1 then table.insert(out, k) else redis.call('ZREM', KEYS[1], k) end
  end
end
return out`;

const CLEAR = `
local n = 0
for _, k in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(k, 1, #ARGV[2]) == ARGV[2] then
    n = n + redis.call('DEL', ARGV[1] .. 'v:' .. k)
    redis.call('ZREM', KEYS[1], k)
  end
end
return n`;

export interface RedisStoreOptions {
  /** prefixes every key (default `mock:`); give each workspace its own */
  readonly namespace?: string;
  /** how long a session's keys (`session:<id>/…`) live after their last write, in ms; 0 keeps them */
  readonly sessionTtlMs?: number;
  /** told when the connection is lost and when it is back */
  readonly log?: (message: string) => void;
}

type Scripted = Redis & {
  mockSet(k1: string, k2: string, k3: string, json: string, key: string, ttl: string): Promise<number>;
  mockCas(
    k1: string,
    k2: string,
    k3: string,
    json: string,
    key: string,
    ttl: string,
    was: string,
    had: string,
  ): Promise<number>;
  mockDelete(k1: string, k2: string, key: string): Promise<number>;
  mockKeys(order: string, ns: string, prefix: string): Promise<string[]>;
  mockClear(order: string, ns: string, prefix: string): Promise<number>;
};

/** how many times `update` re-reads before it gives up (only under a storm of writes to one key) */
const MAX_ATTEMPTS = 1000;

export class RedisStore implements AsyncStateStore {
  private readonly ns: string;
  private readonly order: string;
  private readonly seq: string;
  private readonly sessionTtl: string;
  private down = false;

  private constructor(
    private readonly client: Scripted,
    private readonly where: string,
    options: RedisStoreOptions,
  ) {
    this.ns = options.namespace ?? 'mock:';
    this.order = `${this.ns}order`;
    this.seq = `${this.ns}seq`;
    this.sessionTtl = String(Math.max(0, Math.floor(options.sessionTtlMs ?? 0)));
    const log = options.log ?? (() => undefined);
    client.on('error', (e: Error) => {
      if (this.down) return;
      this.down = true;
      log(`state store ${where} lost (${e.message}); reconnecting, requests that need state answer 503 meanwhile`);
    });
    client.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      log(`state store ${where} reconnected`);
    });
  }

  /** Connects to `url` (`redis://host:port/db`); rejects with StoreUnavailableError when it cannot. */
  static async open(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
    const where = redactUrl(url);
    const client = new Redis(url, {
      lazyConnect: true,
      // a request never waits for a reconnection: it answers 503 at once (docs/scale.md#when-redis-is-down)
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(50 * times, 1000),
    }) as Scripted;
    client.defineCommand('mockSet', { numberOfKeys: 3, lua: SET });
    client.defineCommand('mockCas', { numberOfKeys: 3, lua: COMPARE_AND_SET });
    client.defineCommand('mockDelete', { numberOfKeys: 2, lua: DELETE });
    client.defineCommand('mockKeys', { numberOfKeys: 1, lua: KEYS_SCRIPT });
    client.defineCommand('mockClear', { numberOfKeys: 1, lua: CLEAR });
    const store = new RedisStore(client, where, options);
    try {
      await client.connect();
    } catch (e) {
      client.disconnect();
      throw new StoreUnavailableError(where, e);
    }
    return store;
  }

  /** false while the connection is lost */
  get connected(): boolean {
    return this.client.status === 'ready';
  }

  async get(key: string): Promise<unknown> {
    const text = await this.run(() => this.client.get(this.valueKey(key)));
    return text === null ? undefined : JSON.parse(text);
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.run(() =>
      this.client.mockSet(this.valueKey(key), this.order, this.seq, encode(value), key, this.ttlOf(key)),
    );
  }

  async update<T>(key: string, fn: (current: T | undefined) => T): Promise<T> {
    const vk = this.valueKey(key);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const was = await this.run(() => this.client.get(vk));
      const next = fn(was === null ? undefined : (JSON.parse(was) as T));
      const done = await this.run(() =>
        this.client.mockCas(
          vk,
          this.order,
          this.seq,
          encode(next),
          key,
          this.ttlOf(key),
          was ?? '',
          was === null ? '0' : '1',
        ),
      );
      if (done === 1) return next;
    }
    throw new Error(`state store ${this.where}: key ${key} changed under ${MAX_ATTEMPTS} updates in a row`);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.run(() => this.client.mockDelete(this.valueKey(key), this.order, key))) === 1;
  }

  async keys(prefix = ''): Promise<string[]> {
    return this.run(() => this.client.mockKeys(this.order, this.ns, prefix));
  }

  async clear(prefix = ''): Promise<number> {
    return this.run(() => this.client.mockClear(this.order, this.ns, prefix));
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private valueKey(key: string): string {
    return `${this.ns}v:${key}`;
  }

  private ttlOf(key: string): string {
    return key.startsWith('session:') ? this.sessionTtl : '0';
  }

  /** one command; a lost connection becomes StoreUnavailableError (the caller answers 503) */
  private async run<T>(op: () => Promise<T>): Promise<T> {
    if (this.client.status !== 'ready') throw new StoreUnavailableError(this.where);
    try {
      return await op();
    } catch (e) {
      if (this.client.status !== 'ready' || isConnectionError(e)) throw new StoreUnavailableError(this.where, e);
      throw e;
    }
  }
}

function encode(value: unknown): string {
  // undefined is not JSON: a key set to undefined reads back as undefined, as in memory
  return JSON.stringify(value === undefined ? null : value);
}

function isConnectionError(e: unknown): boolean {
  const m = e instanceof Error ? e.message : '';
  return /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|EPIPE|max retries/i.test(m);
}

/** the URL without its password, for messages */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'the configured Redis';
  }
}
