// Reliability figure 5 (docs/reliability.md): soak. Mixed load (static file, rule match, 404, JSON POST) at 50 keep-alive connections:
// no socket errors, no unexpected statuses, and the server's memory flat over the second half of the run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  delay,
  keepAliveClient,
  makeTempDir,
  maxOf,
  median,
  mib,
  MiB,
  ms,
  percentile,
  removeDir,
  rssOf,
  scale,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';

const SECONDS = scale(5, 60);
const CONNECTIONS = 50;
/** RSS may rise by at most this much from the middle of the run to its end (the short run is mostly warm-up) */
const FLAT_LIMIT = scale(32 * MiB, 10 * MiB);

const STATIC_BODY = '{"static": true, "items": [1, 2, 3]}\n';

interface Kind {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: (n: number) => string;
  readonly body?: string;
  readonly status: number;
  readonly expect?: string;
}

const KINDS: readonly Kind[] = [
  { name: 'static file', method: 'GET', path: () => '/static.json', status: 200, expect: STATIC_BODY },
  { name: 'rule match', method: 'GET', path: (n) => `/api/users/${n % 1000}`, status: 200, expect: '{"user":true}' },
  { name: '404', method: 'GET', path: (n) => `/missing/${n}`, status: 404, expect: '' },
  {
    name: 'JSON POST',
    method: 'POST',
    path: () => '/api/orders',
    body: '{"order": {"sku": "A-1", "qty": 2}}',
    status: 201,
    expect: '{"created":true}',
  },
];

describe(`soak: ${SECONDS} s of mixed load at ${CONNECTIONS} connections`, () => {
  let dir = '';
  let server: Server;
  before(async () => {
    dir = makeTempDir('mock-rel-soak-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["api.toml"]\n',
      'api.toml':
        '[prefix]\nurl_path = "/api"\n\n' +
        '[[rules]]\nwhen.request.url_path = { value = "/users/", op = "starts_with" }\nwhen.request.method = "GET"\nrespond.json = \'{"user":true}\'\n\n' +
        '[[rules]]\nwhen.request.url_path = "/orders"\nwhen.request.method = "POST"\nwhen.request.body.json."order.sku" = { value = "A-1" }\n' +
        'respond.json = \'{"created":true}\'\nrespond.status = 201\n',
      'static.json': STATIC_BODY,
    });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    await removeDir(dir);
  });

  it('no socket errors, no unexpected statuses, memory flat in the second half', {
    timeout: (SECONDS + 60) * 1000,
  }, async (t) => {
    // every kind answers as expected before the clock starts
    const client = keepAliveClient(server.port, CONNECTIONS);
    const one = (kind: Kind, n: number): ReturnType<typeof client.request> =>
      client.request(
        kind.method,
        kind.path(n),
        kind.body,
        kind.body !== undefined ? { 'content-type': 'application/json' } : {},
      );
    for (const kind of KINDS) {
      const r = await one(kind, 1);
      assert.equal(r.status, kind.status, `${kind.name}: ${r.body}`);
      if (kind.expect !== undefined) assert.equal(r.body, kind.expect, kind.name);
    }

    const counts = { requests: 0, socketErrors: 0, unexpected: 0 };
    const perKind = new Map<string, number>(KINDS.map((k) => [k.name, 0]));
    const examples: string[] = [];
    const latencies: number[] = [];
    const started = performance.now();
    const stopAt = started + SECONDS * 1000;
    const rss: { at: number; bytes: number }[] = [{ at: 0, bytes: server.rss() }];
    const sampler = setInterval(
      () => rss.push({ at: (performance.now() - started) / 1000, bytes: rssOf(server.pid) }),
      500,
    );
    let n = 0;
    const worker = async (lane: number): Promise<void> => {
      for (let i = 0; performance.now() < stopAt && i < 10_000_000; i++) {
        const kind = KINDS[(lane + i) % KINDS.length]!;
        const t0 = performance.now();
        const r = await one(kind, n++);
        latencies.push(performance.now() - t0);
        counts.requests++;
        perKind.set(kind.name, (perKind.get(kind.name) ?? 0) + 1);
        if (r.error !== undefined) {
          counts.socketErrors++;
          if (examples.length < 10) examples.push(`${kind.name}: ${r.error}`);
        } else if (r.status !== kind.status || (kind.expect !== undefined && r.body !== kind.expect)) {
          counts.unexpected++;
          if (examples.length < 10) examples.push(`${kind.name}: ${r.status} ${JSON.stringify(r.body.slice(0, 80))}`);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: CONNECTIONS }, (_, lane) => worker(lane)));
    } finally {
      clearInterval(sampler);
      client.close();
    }
    const elapsed = (performance.now() - started) / 1000;
    rss.push({ at: elapsed, bytes: rssOf(server.pid) });
    await delay(10);

    // "flat": the mean RSS over the last tenth of the run against the mean around its middle (a starved sampler may
    // leave a window empty; then the sample nearest its centre stands in)
    const mean = (from: number, to: number): number => {
      const xs = rss.filter((s) => s.at >= from && s.at <= to).map((s) => s.bytes);
      if (xs.length > 0) return xs.reduce((a, b) => a + b, 0) / xs.length;
      const centre = (from + to) / 2;
      return rss.reduce((best, s) => (Math.abs(s.at - centre) < Math.abs(best.at - centre) ? s : best)).bytes;
    };
    const mid = mean(SECONDS * 0.45, SECONDS * 0.55);
    const end = mean(SECONDS * 0.9, SECONDS + 1);
    const peak = maxOf(rss.map((s) => s.bytes));
    t.diagnostic(
      `figure 5: ${counts.requests} requests in ${elapsed.toFixed(1)} s (${Math.round(counts.requests / elapsed)}/s) at ${CONNECTIONS} connections ` +
        `(${[...perKind].map(([k, v]) => `${k} ${v}`).join(', ')}); socket errors ${counts.socketErrors}; unexpected statuses ${counts.unexpected}; ` +
        `latency p50 ${ms(median(latencies))} p99 ${ms(percentile(latencies, 99))} max ${ms(maxOf(latencies))}; ` +
        `RSS start ${mib(rss[0]!.bytes)}, middle ${mib(mid)}, end ${mib(end)} (change ${mib(end - mid)}), peak ${mib(peak)}`,
    );
    assert.deepEqual(examples, []);
    assert.equal(counts.socketErrors, 0);
    assert.equal(counts.unexpected, 0);
    assert.ok(counts.requests > SECONDS * 100, `the load ran (${counts.requests} requests)`);
    assert.ok(end - mid < FLAT_LIMIT, `RSS grew by ${mib(end - mid)} between the middle and the end of the run`);
    assert.ok(server.alive());
  });
});
