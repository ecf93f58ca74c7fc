// The ring buffer: bounds, cursors, filters, reset, listeners and waits; a fake clock drives every timer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MockError } from '../model/errors.js';
import { JournalClosedError, JournalOverflowError, JournalTimeoutError } from './errors.js';
import type { Entry } from './entry.js';
import { dispatched, fakeClock, newEnv, refused, type RequestSpec } from './fixtures/exchanges.js';
import { Journal, type JournalEvent, type JournalOptions } from './journal.js';
import { journalLimits } from './limits.js';
import { cases } from '../../test/helpers/test-loop.js';

const T0 = 1_700_000_000_000;

async function filled(opts: JournalOptions, specs: readonly RequestSpec[], startAt = T0): Promise<Journal> {
  const j = new Journal(opts);
  const env = newEnv();
  for (let i = 0; i < specs.length; i++) j.capture(await dispatched(specs[i]!, env, new Date(startAt + i * 1000)));
  return j;
}
const ids = (es: readonly Entry[]) => es.map((e) => e.id);
const many = (n: number, spec: RequestSpec = { target: '/api/users' }) => Array.from({ length: n }, () => spec);

test('limits: defaults, ranges, every problem reported', () => {
  assert.deepEqual(journalLimits(), {
    ok: true,
    value: { size: 1000, maxBytes: 32 * 1024 * 1024, bodyBytes: 64 * 1024 },
  });
  const cases: [object, number][] = [
    [{ size: 0 }, 1],
    [{ size: 100_001 }, 1],
    [{ size: 1.5 }, 1],
    [{ size: 0, maxBytes: 10, bodyBytes: -1 }, 3],
    [{ size: 1, maxBytes: 65536, bodyBytes: 0 }, 0],
  ];
  for (const [given, problems] of cases) {
    const r = journalLimits(given);
    assert.equal(r.ok ? 0 : r.error.length, problems, JSON.stringify(given));
  }
  assert.throws(
    () => new Journal({ size: 0 }),
    (e: unknown) => e instanceof MockError && e.kind === 'usage' && /between 1 and 100,000/.test(e.message),
  );
});

test('eviction by count: size 10 after 100 requests keeps ids 91-100; ids are never reused', async () => {
  const j = await filled({ size: 10 }, many(100));
  assert.deepEqual(ids(j.requests()), [91, 92, 93, 94, 95, 96, 97, 98, 99, 100]);
  assert.equal(j.lastId, 100);
  assert.deepEqual(j.query(), { entries: j.requests(), lastId: 100, dropped: 90, droppedExact: true });
  assert.equal(j.lookup(95).kind, 'found');
  assert.equal(j.lookup(90).kind, 'evicted');
  assert.equal(j.lookup(101).kind, 'unknown');
});

test('a stale since throws JournalOverflowError naming the count dropped and the size; a fresh one does not', async () => {
  const j = await filled({ size: 10 }, many(100));
  const cases: [number | Date, number | undefined][] = [
    // since, dropped (undefined: no throw)
    [0, 90],
    [50, 40],
    [89, 1],
    [90, undefined],
    [95, undefined],
    [100, undefined],
    [new Date(T0 + 80_000), 10],
    [new Date(T0 + 90_000), undefined],
  ];
  for (const [since, dropped] of cases) {
    if (dropped === undefined) {
      assert.doesNotThrow(() => j.requests({ since }), String(since));
      continue;
    }
    assert.throws(
      () => j.requests({ since }),
      (e: unknown) =>
        e instanceof JournalOverflowError &&
        e.code === 'journal_overflow' &&
        e.dropped === dropped &&
        e.size === 10 &&
        e.message.includes(`${dropped} journal entr`) &&
        e.message.includes('keeps 10'),
      String(since),
    );
    assert.equal(j.query({ since }).dropped, dropped, `query reports ${String(since)}`);
  }
  assert.deepEqual(ids(j.requests({ since: 97 })), [98, 99, 100]);
  // a Date cursor counts evicted arrival times; the record holds the last `size` of them, so beyond it: a lower bound
  const small = await filled({ size: 2 }, many(10));
  assert.deepEqual(
    [small.query({ since: new Date(T0 + 6500) }).dropped, small.query({ since: new Date(T0 + 6500) }).droppedExact],
    [1, true],
  );
  assert.deepEqual(
    [small.query({ since: new Date(T0) }).dropped, small.query({ since: new Date(T0) }).droppedExact],
    [2, false],
  );
  assert.throws(
    () => small.requests({ since: new Date(T0) }),
    /^JournalOverflowError: at least 2 journal entries after 2023-11-14T22:13:20.000Z were evicted/,
  );
});

test('eviction by bytes: the estimate never exceeds maxBytes, oldest go first', async () => {
  const body = (n: number) => '{"data":"' + 'x'.repeat(n) + '"}';
  const maxBytes = 128 * 1024;
  const j = new Journal({ maxBytes, bodyBytes: 8 * 1024 });
  const env = newEnv();
  const seen: number[] = [];
  for (let i = 0; i < 60; i++) {
    j.capture(
      await dispatched(
        { method: 'POST', target: '/api/cart', headers: [['content-type', 'application/json']], body: body(4000) },
        env,
      ),
    );
    assert.ok(j.estimatedBytes <= maxBytes, `after ${i + 1}: ${j.estimatedBytes}`);
    seen.push(j.length);
  }
  const held = ids(j.requests());
  assert.ok(held.length >= 4 && held.length < 20, `held ${held.length}`);
  assert.deepEqual(
    held,
    Array.from({ length: held.length }, (_, k) => 60 - held.length + 1 + k),
    'a run of the newest ids',
  );
  assert.equal(j.query().dropped, 60 - held.length);
  // a body over bodyBytes is kept as its size only, so it costs next to nothing
  const k = new Journal({ maxBytes, bodyBytes: 1024 });
  k.capture(
    await dispatched(
      { method: 'POST', target: '/api/cart', headers: [['content-type', 'application/json']], body: body(40_000) },
      env,
    ),
  );
  assert.deepEqual(k.requests()[0]!.request.body, {
    kind: 'bytes',
    byteLength: 40_011,
    contentType: 'application/json',
  });
  assert.ok(k.estimatedBytes < 20 * 1024, String(k.estimatedBytes)); // the 40 KB body would cost 80 KB
});

test('an entry too big for maxBytes alone keeps its size only, and the estimate still holds', async () => {
  const maxBytes = 64 * 1024;
  const j = new Journal({ maxBytes, bodyBytes: 1024 * 1024 });
  const text = 'y'.repeat(200 * 1024);
  const e = j.capture(
    await dispatched(
      { method: 'POST', target: '/api/cart', headers: [['content-type', 'text/plain']], body: text },
      newEnv(),
    ),
  );
  assert.deepEqual(e.request.body, { kind: 'bytes', byteLength: 200 * 1024, contentType: 'text/plain' });
  assert.equal(j.length, 1);
  assert.ok(j.estimatedBytes <= maxBytes);
});

test('filters: path (exact or RegExp), method, since, stage, rule, limit', async () => {
  const j = await filled({}, [
    { target: '/api/users' }, // 1 rule 0/0
    { method: 'POST', target: '/api/cart' }, // 2 rule 0/1
    { target: '/api/users/' }, // 3 same canonical path
    { target: '/hello.txt' }, // 4 fallback
    { target: '/absent' }, // 5 miss
    { target: '/api/none' }, // 6 prefix miss
    { target: '/rr' }, // 7 rule 1/0
    { target: '/rr' }, // 8 rule 1/1
    { method: 'OPTIONS', target: '/api/users' }, // 9 options
  ]);
  j.capture(refused({ target: '/api/cart' }, 99)); // 10
  const cases: [string, Parameters<Journal['requests']>[0], number[]][] = [
    ['all', {}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    ['exact path', { path: '/api/users' }, [1, 3, 9]],
    ['path is canonical, never the raw target', { path: '/api/users/' }, []],
    ['regexp', { path: /^\/api\/(users|cart)$/ }, [1, 2, 3, 9, 10]],
    ['global regexp is not stateful', { path: /rr/g }, [7, 8]],
    ['method any case', { method: 'post' }, [2, 10]],
    ['since id', { since: 7 }, [8, 9, 10]],
    ['since date', { since: new Date(T0 + 7000) }, [8, 9]],
    ['stage rule_set', { stage: 'rule_set' }, [1, 2, 3, 7, 8]],
    ['stage dyn_route: fallback and miss', { stage: 'dyn_route' }, [4, 5]],
    ['kind fallback', { stage: 'fallback' }, [4]],
    ['kind miss', { stage: 'miss' }, [5]],
    ['prefix miss', { stage: 'prefix_miss' }, [6]],
    ['refused', { stage: 'refused' }, [10]],
    ['options', { stage: 'options' }, [9]],
    ['rule by index', { rule: { ruleSet: 0, rule: 0 } }, [1, 3]],
    ['rule by file', { rule: { ruleSet: './rs1.toml', rule: 1 } }, [8]],
    ['any rule of a set', { rule: { ruleSet: 1 } }, [7, 8]],
    ['combined', { path: '/api/users', method: 'GET', stage: 'rule_set' }, [1, 3]],
    ['limit: the oldest', { stage: 'rule_set', limit: 2 }, [1, 2]],
  ];
  for (const [name, filter, want] of cases) assert.deepEqual(ids(j.requests(filter)), want, name);
  assert.equal(j.query({ stage: 'rule_set', limit: 2 }).lastId, 2, 'a cut list: the cursor is its last entry');
  assert.equal(j.query({ stage: 'rule_set', limit: 5 }).lastId, 10, 'a whole list: the cursor is the newest id');
  const bad: [object, RegExp][] = [
    [{ limit: 0 }, /limit must be/],
    [{ stage: 'rules' }, /unknown stage 'rules'/],
    [{ since: -1 }, /since must be/],
    [{ rule: { ruleSet: 0, rule: -2 } }, /rule.rule must be/],
  ];
  for (const [filter, message] of bad) {
    assert.throws(
      () => j.requests(filter),
      (e: unknown) => e instanceof MockError && e.kind === 'usage' && message.test(e.message),
      JSON.stringify(filter),
    );
  }
});

test('reset clears entries, ids keep counting, an old cursor is no overflow; listeners hear entries and resets', async () => {
  const j = await filled({ size: 3 }, many(5));
  const events: JournalEvent[] = [];
  const stop = j.subscribe((e) => events.push(e));
  j.reset();
  assert.deepEqual(j.requests(), []);
  assert.deepEqual(j.query(), { entries: [], lastId: 5, dropped: 0, droppedExact: true });
  assert.deepEqual(ids(j.requests({ since: 1 })), [], 'entries removed by reset are not evicted ones');
  assert.equal(j.lookup(4).kind, 'reset');
  j.capture(await dispatched({ target: '/api/users' }, newEnv()));
  assert.deepEqual(ids(j.requests()), [6]);
  stop();
  j.capture(await dispatched({ target: '/api/users' }, newEnv()));
  assert.deepEqual(
    events.map((e) =>
      e.kind === 'reset' ? `reset ${e.lastId}` : e.kind === 'stream' ? `stream ${e.id}` : `${e.kind} ${e.entry.id}`,
    ),
    ['reset 5', 'entry 6'],
  );
  const failing = new Journal({ onListenerError: (e) => errors.push(String(e)) });
  const errors: string[] = [];
  failing.subscribe(() => {
    throw new Error('listener broke');
  });
  failing.capture(await dispatched({ target: '/api/users' }, newEnv()));
  assert.deepEqual([errors, failing.length], [['Error: listener broke'], 1]);
});

test('waitFor: an entry already held, one that arrives later, a timeout listing the last 10, close, abort', async () => {
  const clock = fakeClock();
  const j = new Journal({ clock });
  const env = newEnv();
  for (let i = 0; i < 12; i++) j.capture(await dispatched({ target: i % 2 ? '/api/users' : '/absent' }, env));
  assert.equal((await j.waitFor({ path: '/api/users' })).id, 2, 'already held');
  const cursor = j.lastId;
  const later = j.waitFor({ method: 'POST', since: cursor }, { timeoutMs: 500 });
  assert.equal(clock.pending, 1);
  j.capture(await dispatched({ target: '/api/users' }, env));
  j.capture(await dispatched({ method: 'POST', target: '/api/cart' }, env));
  assert.equal((await later).id, 14);
  assert.equal(clock.pending, 0, 'its timer is cleared');

  const timedOut = j.waitFor({ path: '/never' }, { timeoutMs: 2000 });
  clock.advance(1999);
  j.capture(await dispatched({ target: '/hello.txt' }, env));
  clock.advance(1);
  await assert.rejects(timedOut, (e: unknown) => {
    assert.ok(e instanceof JournalTimeoutError && e.code === 'journal_timeout');
    const lines = e.message.split('\n');
    assert.equal(lines[0], 'no request matching { path: "/never" } arrived within 2000 ms; the last 10 of 15 entries:');
    assert.equal(lines.length, 11);
    assert.equal(lines[1], '  GET /api/users \u2192 200 (rule_set)');
    assert.equal(lines[2], '  GET /absent \u2192 404 (dyn_route)');
    assert.equal(lines[9], '  POST /api/cart \u2192 201 (rule_set)');
    assert.equal(lines[10], '  GET /hello.txt \u2192 200 (dyn_route)');
    return true;
  });
  const empty = new Journal({ clock });
  const none = empty.waitFor({}, { timeoutMs: 10 });
  clock.advance(10);
  await assert.rejects(none, /within 10 ms; the journal is empty/);

  const small = await filled({ size: 2, clock }, many(5));
  await assert.rejects(small.waitFor({ since: 1 }), JournalOverflowError, 'a stale cursor rejects at once');

  const pending = j.waitFor({ path: '/never' });
  const ac = new AbortController();
  const aborted = j.waitFor({ path: '/never' }, { signal: ac.signal });
  ac.abort(new Error('test over'));
  await assert.rejects(aborted, /test over/);
  j.close();
  await assert.rejects(
    pending,
    (e: unknown) => e instanceof JournalClosedError && /the mock was closed/.test(e.message),
  );
  assert.equal(clock.pending, 0, 'no timer left behind');
});

test('property: whatever arrives, the bounds hold and the held ids are the newest, consecutive', async () => {
  const env = newEnv();
  const pool = await Promise.all(
    [0, 100, 3000, 20_000, 70_000].flatMap((n) => [
      dispatched(
        {
          method: 'POST',
          target: '/api/cart',
          headers: [['content-type', 'application/json']],
          body: JSON.stringify({ d: 'x'.repeat(n) }),
        },
        env,
      ),
      dispatched(
        { method: 'POST', target: '/api/cart', headers: [['content-type', 'text/plain']], body: 'y'.repeat(n) },
        env,
      ),
    ]),
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 64 * 1024, max: 512 * 1024 }),
      fc.integer({ min: 0, max: 128 * 1024 }),
      fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { maxLength: 60 }),
      (size, maxBytes, bodyBytes, picks) => {
        const j = new Journal({ size, maxBytes, bodyBytes });
        for (const p of picks) {
          j.capture(pool[p]!);
          if (j.estimatedBytes > maxBytes || j.length > size) return false;
        }
        const held = ids(j.requests());
        const consecutive = held.every((id, k) => id === j.lastId - held.length + 1 + k);
        return consecutive && j.query().dropped === j.lastId - held.length && held.length <= size;
      },
    ),
    cases(150),
  );
});

test('a stream: open at once, each event kept and heard, bounded like a body; closed with its latency; waits settle then', async () => {
  const clock = fakeClock(T0);
  const j = new Journal({ clock, bodyBytes: 10 });
  const heard: string[] = [];
  j.subscribe((e) =>
    heard.push(
      e.kind === 'stream' ? `stream ${e.id}@${e.offset}` : e.kind === 'reset' ? 'reset' : `${e.kind} ${e.row.id}`,
    ),
  );
  const ex = await dispatched({ target: '/api/users' }, newEnv(), new Date(T0));
  const sse = { ...ex, response: { ...ex.response, headers: [['content-type', 'text/event-stream']] as const } };
  const id = j.open({ ...sse, response: { ...sse.response, body: new Uint8Array(0) } });
  const waited = j.waitFor({ since: 0 }, { timeoutMs: 60_000 });
  const first = j.lookup(id);
  assert.ok(first.kind === 'found');
  assert.deepEqual(first.entry.stream, { open: true, events: 0 });
  const enc = new TextEncoder();
  j.streamed(id, enc.encode('data: 1\n\n'));
  j.streamed(id, enc.encode('data: 2\n\n'));
  clock.advance(250);
  j.finish(id);
  j.streamed(id, enc.encode('data: late\n\n')); // after the end: ignored
  const done = await waited;
  assert.equal(done.id, id);
  assert.deepEqual(done.stream, { open: false, events: 2 });
  assert.equal(done.latencyMs, 250);
  // 18 bytes sent, 10 kept (a text body's cut, as for any body)
  assert.deepEqual(done.response.body, { kind: 'text', text: 'data: 1\n\nd', byteLength: 18, truncated: true });
  assert.deepEqual(heard, [`entry ${id}`, `stream ${id}@0`, `stream ${id}@9`, `update ${id}`]);
});
