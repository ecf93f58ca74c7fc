import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkUpstream, type RecordedExchange, type SeenAnswer, type UpstreamPorts } from './upstream.js';

const json = (status: number, value: unknown, contentType = 'application/json'): SeenAnswer => ({
  status,
  contentType,
  body: new TextEncoder().encode(JSON.stringify(value)),
});

/** A fake clock: sleep advances it; every send is noted with the time it started. */
function ports(
  mine: Readonly<Record<string, SeenAnswer>>,
  theirs: Readonly<Record<string, SeenAnswer | string>>,
  sendCost = 0,
): UpstreamPorts & { readonly sent: { at: number; url: string; method: string; headers: unknown }[] } {
  let clock = 1000;
  const sent: { at: number; url: string; method: string; headers: unknown }[] = [];
  return {
    sent,
    now: () => clock,
    sleep: async (ms) => void (clock += ms),
    answerOf: async (x) => mine[x.target]!,
    send: async (url, method, headers) => {
      sent.push({ at: clock, url, method, headers });
      clock += sendCost;
      return theirs[new URL(url).pathname.replace(/^\/v2/, '') + new URL(url).search]!;
    },
  };
}

const x = (target: string, method = 'GET'): RecordedExchange => ({ method, target, heldBy: target.slice(1) });

describe('checkUpstream', () => {
  it('finds a renamed field, a changed type and a new status; each with its pointer', async () => {
    const p = ports(
      {
        '/users/1': json(200, { name: 'Ann', id: 1, tags: [{ label: 'a' }] }),
        '/count': json(200, { n: 3 }),
        '/gone': json(200, { ok: true }),
        '/same': json(200, { ok: true }),
      },
      {
        '/users/1': json(200, { full_name: 'Ann', id: 1, tags: [{ label: 1 }] }),
        '/count': json(200, { n: '3' }, 'application/json; charset=utf-8'),
        '/gone': json(410, { error: 'gone' }),
        '/same': json(200, { ok: false }),
      },
    );
    const r = await checkUpstream(
      [x('/users/1'), x('/count'), x('/gone'), x('/same'), x('/users', 'POST')],
      { base: 'http://127.0.0.1:9/v2', rate: 5, headers: [['authorization', 'Bearer t']] },
      p,
    );
    assert.equal(r.checked, 4);
    assert.equal(r.skipped, 1);
    assert.deepEqual(
      r.findings.map((f) => [f.kind, f.severity, f.where, f.pointer]),
      [
        ['upstream_shape', 'error', 'GET /users/1 (users/1)', '#/name'],
        ['upstream_shape', 'error', 'GET /users/1 (users/1)', '#/tags/*/label'],
        ['upstream_shape', 'warning', 'GET /users/1 (users/1)', '#/full_name'],
        ['upstream_shape', 'error', 'GET /count (count)', '#/n'],
        ['upstream_status', 'error', 'GET /gone (gone)', '#'],
      ],
    );
    assert.match(r.findings[4]!.message, /recording answers 200, the upstream 410/);
    assert.deepEqual(
      p.sent.map((s) => s.url),
      [
        'http://127.0.0.1:9/v2/users/1',
        'http://127.0.0.1:9/v2/count',
        'http://127.0.0.1:9/v2/gone',
        'http://127.0.0.1:9/v2/same',
      ],
    );
    assert.deepEqual(p.sent[0]!.headers, [['authorization', 'Bearer t']]);
  });

  it('a content type and an unreachable upstream are findings; HEAD compares no body', async () => {
    const p = ports(
      { '/a': json(200, { a: 1 }), '/b': json(200, {}), '/c': json(200, { a: 1 }) },
      { '/a': json(200, '<p>', 'text/html'), '/b': 'connect ECONNREFUSED', '/c': json(200, [], 'application/json') },
    );
    const r = await checkUpstream([x('/a'), x('/b'), x('/c', 'HEAD')], { base: 'http://h', rate: 5, headers: [] }, p);
    assert.deepEqual(
      r.findings.map((f) => f.kind),
      ['upstream_content_type', 'upstream_unreachable'],
    );
  });

  for (const [rate, cost] of [
    [5, 0],
    [2, 0],
    [2, 120],
    [0.5, 3000],
  ] as const) {
    it(`never starts more than --rate ${rate} requests a second (each send taking ${cost} ms)`, async () => {
      const targets = Array.from({ length: 12 }, (_, i) => `/r${i}`);
      const mine = Object.fromEntries(targets.map((t) => [t, json(200, {})]));
      const p = ports(mine, mine, cost);
      await checkUpstream(
        targets.map((t) => x(t)),
        { base: 'http://h', rate, headers: [] },
        p,
      );
      assert.equal(p.sent.length, 12);
      // every window of one second, starting at any send, holds at most `rate` sends (and at least one)
      for (const s of p.sent) {
        const inWindow = p.sent.filter((o) => o.at >= s.at && o.at < s.at + 1000).length;
        assert.ok(inWindow <= Math.max(1, rate), `${inWindow} sends in the second from ${s.at}`);
      }
      // and no slower than needed: the gaps are the interval (or the send's own time, when longer)
      const span = p.sent.at(-1)!.at - p.sent[0]!.at;
      assert.equal(span, 11 * Math.max(1000 / rate, cost));
    });
  }
});
