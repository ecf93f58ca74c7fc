// The state store's contract, run against every implementation alike: the in-memory store (through asAsync) and
// the Redis store on a Redis of the test's own. A shared store that passes this behaves as the one in memory.
import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { RedisStore } from '../../src/state/redis/redis-store.js';
import { asAsync, MemoryStore, StoreUnavailableError, type AsyncStateStore } from '../../src/state/store.js';
import { REDIS_SERVER, startRedis, type TestRedis } from '../helpers/redis.js';

interface Kind {
  readonly name: string;
  /** a fresh, empty store; `namespace` tells two stores of one test apart */
  make(namespace: string): Promise<AsyncStateStore>;
  /** a second handle on the same data (another process's view) */
  twin(namespace: string): Promise<AsyncStateStore>;
}

let redis: TestRedis | undefined;
const opened: AsyncStateStore[] = [];
const memories = new Map<string, MemoryStore>();

const kinds: Kind[] = [
  {
    name: 'memory',
    make: async (ns) => {
      const m = new MemoryStore();
      memories.set(ns, m);
      return asAsync(m);
    },
    twin: async (ns) => asAsync(memories.get(ns)!),
  },
  {
    name: 'redis',
    make: async (ns) => {
      const s = await RedisStore.open(redis!.url, { namespace: `t:${ns}:` });
      opened.push(s);
      return s;
    },
    twin: async (ns) => {
      const s = await RedisStore.open(redis!.url, { namespace: `t:${ns}:` });
      opened.push(s);
      return s;
    },
  },
];

before(async () => {
  if (REDIS_SERVER !== undefined) redis = await startRedis();
});
after(async () => {
  for (const s of opened) await s.close();
  await redis?.dispose();
});

let n = 0;
const fresh = (): string => `c${++n}`;

for (const kind of kinds) {
  describe(`state store contract: ${kind.name}`, { skip: kind.name === 'redis' && REDIS_SERVER === undefined }, () => {
    test('get/set/delete round-trip JSON values; a missing key reads undefined', async () => {
      const s = await kind.make(fresh());
      assert.equal(await s.get('scenario:cart'), undefined);
      await s.set('scenario:cart', 'paid');
      await s.set('collection:/users', [{ id: 1, name: 'Ann', tags: ['a'], nested: { ok: true, n: 1.5 } }]);
      assert.equal(await s.get('scenario:cart'), 'paid');
      assert.deepEqual(await s.get('collection:/users'), [
        { id: 1, name: 'Ann', tags: ['a'], nested: { ok: true, n: 1.5 } },
      ]);
      assert.equal(await s.delete('scenario:cart'), true);
      assert.equal(await s.delete('scenario:cart'), false);
      assert.equal(await s.get('scenario:cart'), undefined);
    });

    test('keys come in first-write order, filtered by prefix; rewriting keeps the place, delete and rewrite moves it last', async () => {
      const s = await kind.make(fresh());
      await s.set('scenario:a', 1);
      await s.set('rotation:g', 0);
      await s.set('scenario:b', 2);
      await s.set('scenario:a', 3);
      assert.deepEqual(await s.keys(), ['scenario:a', 'rotation:g', 'scenario:b']);
      assert.deepEqual(await s.keys('scenario:'), ['scenario:a', 'scenario:b']);
      await s.delete('scenario:a');
      await s.set('scenario:a', 4);
      assert.deepEqual(await s.keys('scenario:'), ['scenario:b', 'scenario:a']);
      assert.deepEqual(await s.keys('nothing:'), []);
    });

    test('clear by prefix removes exactly those keys and counts them; clear() empties the store', async () => {
      const s = await kind.make(fresh());
      await s.set('session:a/scenario:x', 1);
      await s.set('session:a/rotation:g', 1);
      await s.set('session:ab/scenario:x', 1);
      await s.set('scenario:x', 1);
      assert.equal(await s.clear('session:a/'), 2);
      assert.deepEqual(await s.keys(), ['session:ab/scenario:x', 'scenario:x']);
      assert.equal(await s.clear(), 2);
      assert.deepEqual(await s.keys(), []);
      assert.equal(await s.get('scenario:x'), undefined);
    });

    test('update computes from the current value and returns the new one', async () => {
      const s = await kind.make(fresh());
      assert.equal(await s.update<number>('rotation:g', (c) => (c ?? 0) + 1), 1);
      assert.equal(await s.update<number>('rotation:g', (c) => (c ?? 0) + 1), 2);
      assert.equal(await s.get('rotation:g'), 2);
      assert.deepEqual(await s.keys(), ['rotation:g']);
    });

    test('concurrent updates from two handles on the same data lose none (300 increments, 2 writers)', async () => {
      const ns = fresh();
      const a = await kind.make(ns);
      const b = await kind.twin(ns);
      const bump = (s: AsyncStateStore): Promise<number> => s.update<number>('rotation:g', (c) => (c ?? 0) + 1);
      const results = await Promise.all(Array.from({ length: 300 }, (_, i) => bump(i % 2 === 0 ? a : b)));
      assert.equal(await a.get('rotation:g'), 300);
      assert.deepEqual(
        [...results].sort((x, y) => x - y),
        Array.from({ length: 300 }, (_, i) => i + 1),
        'each update saw a distinct value',
      );
    });

    test('a write through one handle is seen by the next read through the other; clear on one clears both', async () => {
      const ns = fresh();
      const a = await kind.make(ns);
      const b = await kind.twin(ns);
      await a.set('scenario:cart', 'full');
      assert.equal(await b.get('scenario:cart'), 'full');
      await b.clear();
      assert.equal(await a.get('scenario:cart'), undefined);
    });

    test('two namespaces on one store never see each other', async () => {
      const a = await kind.make(fresh());
      const b = await kind.make(fresh());
      await a.set('scenario:cart', 'a');
      assert.equal(await b.get('scenario:cart'), undefined);
      assert.deepEqual(await b.keys(), []);
      assert.equal(await b.clear(), 0);
      assert.equal(await a.get('scenario:cart'), 'a');
    });
  });
}

describe('Redis store specifics', { skip: REDIS_SERVER === undefined }, () => {
  test("a session's keys expire after the TTL and leave the key list; shared keys stay", async () => {
    const s = await RedisStore.open(redis!.url, { namespace: `t:${fresh()}:`, sessionTtlMs: 150 });
    opened.push(s);
    await s.set('session:a/scenario:cart', 'x');
    await s.set('scenario:cart', 'y');
    assert.deepEqual(await s.keys(), ['session:a/scenario:cart', 'scenario:cart']);
    // wait on the store itself: poll until Redis has expired the key (no fixed sleep)
    while ((await s.get('session:a/scenario:cart')) !== undefined) await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(await s.keys(), ['scenario:cart']);
  });

  test('nothing listens: open rejects with StoreUnavailableError naming the URL', async () => {
    const down = await startRedis();
    const url = down.url;
    await down.dispose();
    await assert.rejects(
      RedisStore.open(url),
      (e: unknown) => e instanceof StoreUnavailableError && e.message.includes(url),
    );
  });
});
