import assert from 'node:assert/strict';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { setImmediate as tick } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { raw, startInspectorServer, type InspectorServer } from '../../test/helpers/inspector-server.js';
import type { WireEntry } from '../journal/wire-types.js';
import { createEventHub, formatEvent, resumeId, type EventHub, type RequestEvent } from './events.js';

interface Sse {
  readonly res: IncomingMessage;
  readonly req: ClientRequest;
  readonly events: { event: string; id?: string; data: unknown }[];
  comments: number;
  /** resolves when `pred` holds over the events seen so far (checked on every chunk), or rejects after 10 s */
  until(pred: () => boolean, what: string): Promise<void>;
  close(): void;
}

function connect(
  port: number,
  path = '/__mock/api/events',
  headers: Record<string, string> = {},
): Promise<Sse | IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        if (res.statusCode !== 200) return resolve(res);
        const waiters: (() => boolean)[] = [];
        let buf = '';
        const sse: Sse = {
          res,
          req,
          events: [],
          comments: 0,
          until: (pred, what) =>
            new Promise((ok, fail) => {
              if (pred()) return ok();
              const t = setTimeout(
                () => fail(new Error(`timed out waiting for ${what}; saw ${JSON.stringify(sse.events)}`)),
                10_000,
              );
              waiters.push(() => {
                if (pred()) {
                  clearTimeout(t);
                  ok();
                  return true;
                }
                return false;
              });
            }),
          close: () => req.destroy(),
        };
        res.setEncoding('utf8').on('data', (chunk: string) => {
          buf += chunk;
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) sse.comments++;
              const m = /^(\w+): ?(.*)$/.exec(line);
              if (m !== null) fields[m[1]!] = m[2]!;
            }
            if (fields['event'] !== undefined)
              sse.events.push({
                event: fields['event'],
                ...(fields['id'] === undefined ? {} : { id: fields['id'] }),
                data: JSON.parse(fields['data'] ?? 'null'),
              });
          }
          for (let i = waiters.length - 1; i >= 0; i--) if (waiters[i]!()) waiters.splice(i, 1);
        });
        resolve(sse);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function open(port: number, path?: string, headers?: Record<string, string>): Promise<Sse> {
  const c = await connect(port, path, headers);
  assert.ok('events' in c, 'expected an event stream');
  return c;
}

/** Poll `pred` every 20 ms for up to 10 s. */
async function waitFor(pred: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ev = (id: number, path = '/a'): RequestEvent => ({
  id,
  method: 'GET',
  path,
  status: 200,
  stage: 'dyn_route',
  latency_ms: 1.5,
  generation: 1,
  answered_by: { kind: 'miss' },
});

let hub: EventHub;
let srv: InspectorServer;
const journal: RequestEvent[] = [];

before(async () => {
  hub = createEventHub({
    pingMs: 100,
    replay: (afterId) => {
      if (afterId < (journal[0]?.id ?? 1) - 1) throw new Error('evicted');
      return journal.filter((e) => e.id > afterId);
    },
  });
  srv = await startInspectorServer([hub.route]);
});
after(async () => {
  hub.close();
  await srv.close();
});

test('formatEvent and resumeId', () => {
  assert.equal(formatEvent('request', { a: 'x\ny' }, 7), 'id: 7\nevent: request\ndata: {"a":"x\\ny"}\n\n');
  assert.equal(formatEvent('reset', {}), 'event: reset\ndata: {}\n\n');
  assert.equal(resumeId('12', null), 12);
  assert.equal(resumeId(undefined, '3'), 3);
  assert.equal(resumeId('12', '3'), 12);
  assert.equal(resumeId('abc', null), undefined);
  assert.equal(resumeId(undefined, null), undefined);
});

test('request, reload and reset events reach every client, with the journal id as id:', async () => {
  const a = await open(srv.port);
  const b = await open(srv.port);
  assert.equal(a.res.headers['content-type'], 'text/event-stream; charset=utf-8');
  assert.equal(a.res.headers['cache-control'], 'no-store');
  assert.deepEqual(
    Object.keys(a.res.headers).filter((h) => h.startsWith('access-control-')),
    [],
  );
  await waitFor(() => hub.clientCount === 2, 'two clients');
  hub.request(ev(41, '/x'));
  hub.reload({ generation: 2, ok: true, diagnostics: [] });
  hub.reset();
  for (const c of [a, b]) {
    await c.until(() => c.events.length === 3, 'three events');
    assert.deepEqual(c.events, [
      { event: 'request', id: '41', data: ev(41, '/x') },
      { event: 'reload', data: { generation: 2, ok: true, diagnostics: [] } },
      { event: 'reset', data: {} },
    ]);
  }
  a.close();
  b.close();
  await waitFor(() => hub.clientCount === 0, 'clients gone');
});

test('pings arrive every pingMs', async () => {
  const a = await open(srv.port);
  await a.until(() => a.comments >= 3, 'pings');
  a.close();
});

test('Last-Event-ID (and ?since=) replays the entries after it; an evicted id gets reset', async () => {
  journal.splice(0, journal.length, ev(5), ev(6), ev(7));
  const a = await open(srv.port, undefined, { 'last-event-id': '5' });
  await a.until(() => a.events.length === 2, 'replay');
  assert.deepEqual(
    a.events.map((e) => e.id),
    ['6', '7'],
  );
  hub.request(ev(8));
  await a.until(() => a.events.length === 3, 'live after replay');
  const b = await open(srv.port, '/__mock/api/events?since=6');
  await b.until(() => b.events.length === 1, 'since');
  assert.equal(b.events[0]!.id, '7');
  const c = await open(srv.port, undefined, { 'last-event-id': '1' });
  await c.until(() => c.events.length === 1, 'reset');
  assert.equal(c.events[0]!.event, 'reset');
  for (const x of [a, b, c]) x.close();
});

test('a failing reload is sent to clients that connect later, until an ok one', async () => {
  hub.reload({
    generation: 3,
    ok: false,
    diagnostics: [
      { severity: 'error', code: 'toml_syntax', message: 'bad', file: '/w/rules.toml', line: 2, column: 5 },
    ],
  });
  const a = await open(srv.port);
  await a.until(() => a.events.length === 1, 'the failing reload');
  assert.equal((a.events[0]!.data as { ok: boolean }).ok, false);
  hub.reload({ generation: 3, ok: true, diagnostics: [] });
  const b = await open(srv.port);
  await b.until(() => b.comments >= 2, 'a ping');
  assert.deepEqual(b.events, []);
  a.close();
  b.close();
});

test('the 17th client gets 503; a freed slot is usable again', async () => {
  await waitFor(() => hub.clientCount === 0, 'no clients');
  const clients: Sse[] = [];
  for (let i = 0; i < 16; i++) clients.push(await open(srv.port));
  const refused = await connect(srv.port);
  assert.ok(!('events' in refused));
  assert.equal(refused.statusCode, 503);
  refused.resume();
  clients.pop()!.close();
  await waitFor(() => hub.clientCount === 15, 'a free slot');
  const again = await open(srv.port);
  clients.push(again);
  for (const c of clients) c.close();
});

test('a client that never reads is dropped past 1 MiB unsent; a reading client keeps up', async () => {
  await waitFor(() => hub.clientCount === 0, 'no clients');
  const reader = await open(srv.port);
  const stuck = await open(srv.port);
  stuck.res.pause();
  stuck.res.socket.pause();
  const droppedBefore = hub.droppedCount;
  const big = '/' + 'p'.repeat(16 * 1024);
  let sent = 0;
  // bounded: at most 4,000 × 16 KiB = 64 MiB offered (the kernel's socket buffers take a few MiB first)
  for (let i = 0; i < 4000 && hub.droppedCount === droppedBefore; i++) {
    hub.request(ev(1000 + i, big));
    sent++;
    if (i % 20 === 0) await tick();
  }
  assert.equal(hub.droppedCount, droppedBefore + 1, `the stuck client was not dropped after ${sent} events`);
  await reader.until(() => reader.events.length === sent, 'the reader got every event');
  assert.equal(hub.clientCount, 1);
  reader.close();
  stuck.close();
});

test('HEAD on the stream answers headers only; a foreign Host is refused', async () => {
  const h = await raw(srv.port, 'HEAD', '/__mock/api/events');
  assert.equal(h.status, 200);
  assert.equal((await raw(srv.port, 'GET', '/__mock/api/events', { host: 'evil.test' })).status, 403);
});

test('requestEventOf: a wire entry → the summary, no headers or bodies', async () => {
  const { requestEventOf } = await import('./events.js');
  const entry: WireEntry = {
    id: 3,
    received_at: '2026-01-01T00:00:00.000Z',
    latency_ms: 2.25,
    generation: 4,
    request: {
      method: 'POST',
      path: '/a',
      target: '/a?token=[redacted]',
      query: 'token=[redacted]',
      headers: [{ name: 'authorization', value: '[redacted]' }],
      body: { kind: 'none' },
    },
    response: { status: 201, headers: [], body: { kind: 'text', text: 'ok', byte_length: 2, truncated: false } },
    stage: 'rule_set',
    answered_by: { kind: 'rule_set', rule_set_index: 0, rule_index: 1 },
    matched: { rule_index: 1, rule_set_file: './r.toml', rule_set_index: 0 },
    why: { note: 'Answered from a rule set.', rule_sets: [] },
  };
  assert.deepEqual(requestEventOf(entry), {
    id: 3,
    method: 'POST',
    path: '/a',
    status: 201,
    stage: 'rule_set',
    latency_ms: 2.25,
    generation: 4,
    answered_by: { kind: 'rule_set', rule_set_index: 0, rule_index: 1 },
  });
});
