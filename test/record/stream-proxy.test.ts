// Record mode and event streams (docs/record.md): an SSE answer from a local streaming upstream is passed to the
// client as it comes — its first event before the upstream has finished, never held to the total time limit —
// and is ended when the upstream falls silent for the idle limit. It is not saved.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { planRecording } from '../../src/record/plan.js';
import { parseRecordTarget } from '../../src/record/target.js';
import { memorySource } from '../../src/files/memory-source.js';
import { snapshotFrom } from '../../src/dispatch/snapshot.js';
import { createProxyClient, recordResponseOf } from '../../src/server/record/proxy.js';

let upstream: Server;
let base = '';
/** the streams the upstream is writing, to be moved on by the test (no timers) */
const open: ServerResponse[] = [];
let opened: (() => void) | undefined;
/** a total limit far shorter than the stream */
const TOTAL_MS = 300;

before(async () => {
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 0\n\n');
    open.push(res);
    opened?.();
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(() => {
  for (const r of open) r.destroy();
  upstream.close();
});

function target() {
  const t = parseRecordTarget(base);
  if (!t.ok) throw new Error(t.error);
  return t.value;
}

describe('an event stream through the record-mode proxy', () => {
  it('is handed over at its first event, outlives the total limit, and is not saved', async () => {
    const client = createProxyClient({ target: target(), totalTimeoutMs: TOTAL_MS, streamIdleMs: 10_000 });
    try {
      const startedAt = performance.now();
      const r = await client.forward({ method: 'GET', rawPath: '/events', query: '', headers: [] });
      assert.equal(r.kind, 'stream');
      if (r.kind !== 'stream') return;
      const chunks: string[] = [];
      r.rest.setEncoding('utf8');
      r.rest.on('data', (d: string) => chunks.push(d));
      const [first] = (await once(r.rest, 'data')) as [string];
      assert.equal(first, 'data: 0\n\n', 'the first event before the upstream is done');
      // the next event only once the total limit has passed (a buffered answer would have been cut by then)
      const upstreamRes = open[open.length - 1]!;
      while (performance.now() - startedAt <= TOTAL_MS * 2) await new Promise((r) => setTimeout(r, 20));
      upstreamRes.write('data: 1\n\n');
      upstreamRes.end();
      await once(r.rest, 'end');
      assert.equal(chunks.join(''), 'data: 0\n\ndata: 1\n\n');
      const response = recordResponseOf(r)!;
      const plan = await planRecording(
        { request: snapshotFrom({ method: 'GET', target: '/events', headers: [] }), response },
        { fallbackDir: '/ws', files: memorySource({}), recorded: new Set() },
      );
      assert.deepEqual(plan, { kind: 'skip', key: 'GET /events', reason: 'event_stream' });
    } finally {
      client.close();
    }
  });

  it('is ended when the upstream sends nothing for the idle limit', async () => {
    const client = createProxyClient({ target: target(), streamIdleMs: 150 });
    try {
      const r = await client.forward({ method: 'GET', rawPath: '/stalls', query: '', headers: [] });
      assert.equal(r.kind, 'stream');
      if (r.kind !== 'stream') return;
      r.rest.resume();
      const started = performance.now();
      await once(r.rest, 'close');
      assert.ok(
        performance.now() - started >= 75,
        'not before the idle limit (150 ms, measured from a little after it began)',
      );
    } finally {
      client.close();
    }
  });
});
