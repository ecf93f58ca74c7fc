// Record mode saves event streams (docs/record.md): `mock serve --record` against a local streaming upstream
// (SSE with pauses, NDJSON lines) writes a `.sse` file with the measured pauses as `: delay` lines (an `.ndjson`
// file with interval_ms) and appends a `respond.stream` rule; the next request, answered by that rule without
// the upstream, gets the same events with at least the recorded pauses. The upstream paces its events with
// timers (it is the thing being recorded); the test waits on events, never on a sleep.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, spawnMock, type RunningMock } from '../helpers/mock-cli.js';
import { lineMatching } from './serve-helpers.js';
import { events, raw } from '../helpers/inspector-server.js';

const SSE_EVENTS = ['data: {"token":"Hel"}', 'event: note\ndata: {"token":"lo"}', 'data: [DONE]'];
/** the upstream's pause before each event (ms) */
const SSE_PAUSES = [0, 250, 500];
const NDJSON_LINES = ['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}'];
const NDJSON_GAP = 200;

let upstream: Server;
let upstreamHits = 0;
let upstreamUrl = '';
const timers = new Set<NodeJS.Timeout>();

function paced(write: (i: number) => void, count: number, pauseOf: (i: number) => number, end: () => void): void {
  let i = 0;
  const next = (): void => {
    if (i === count) return end();
    const t = setTimeout(() => {
      timers.delete(t);
      write(i++);
      next();
    }, pauseOf(i));
    timers.add(t);
  };
  next();
}

/** The events a client receives, each with the ms since the response head. */
function readEvents(
  url: string,
  separator: string,
): Promise<{ status: number; type: string; events: { at: number; text: string }[] }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const start = performance.now();
      let pending = '';
      const events: { at: number; text: string }[] = [];
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        pending += d;
        for (let k = pending.indexOf(separator); k >= 0; k = pending.indexOf(separator)) {
          events.push({ at: performance.now() - start, text: pending.slice(0, k) });
          pending = pending.slice(k + separator.length);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), events }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('mock --record saves an event stream and replays it with its pauses', () => {
  let dir: string;
  let m: RunningMock;
  before(async () => {
    upstream = createServer((req, res) => {
      upstreamHits++;
      if (req.url === '/v1/chat') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        paced(
          (i) => res.write(SSE_EVENTS[i] + '\n\n'),
          SSE_EVENTS.length,
          (i) => SSE_PAUSES[i]!,
          () => res.end(),
        );
      } else {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.flushHeaders();
        paced(
          (i) => res.write(NDJSON_LINES[i] + '\n'),
          NDJSON_LINES.length,
          (i) => (i === 0 ? 0 : NDJSON_GAP),
          () => res.end(),
        );
      }
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    dir = makeTempDir('mock-record-stream-');
    writeFileSync(join(dir, 'mock.toml'), '[service]\nfallback_respond_dir = "."\n');
    m = await spawnMock(['serve', '--record', upstreamUrl], { cwd: dir });
  });
  after(async () => {
    await m?.stop();
    for (const t of timers) clearTimeout(t);
    upstream.close();
    await removeDir(dir);
  });

  it('an SSE stream: passed on live, saved as .sse with : delay lines and a respond.stream rule, replayed with the same events and pauses', async () => {
    const live = await readEvents(`${m.url}/v1/chat`, '\n\n');
    assert.deepEqual(
      live.events.map((e) => e.text),
      SSE_EVENTS,
    );
    await lineMatching(m, /^recorded rule #1 in mock-recorded\.toml: GET \/v1\/chat/);
    // the saved rule answers once the workspace has reloaded
    await lineMatching(m, /^reloaded generation 2 /);
    const file = readFileSync(join(dir, '.mock-recorded/GET/v1/chat.sse'), 'utf8');
    // the pause measured before each event (the first: from the answer's head to its first event)
    const delays = file
      .split('\n\n')
      .filter((b) => b.trim() !== '')
      .map((b) => Number(/^: delay (\d+)$/m.exec(b)?.[1] ?? 0));
    assert.equal(delays.length, SSE_EVENTS.length, file);
    // Measured on this machine, where one event that reaches the recorder late makes the next pause look
    // shorter: so the check is on the running sum (the time since the head), at least the upstream's within a
    // margin for delivery jitter, and never wildly more.
    const sum = (xs: number[], upTo: number): number => xs.slice(0, upTo + 1).reduce((a, b) => a + b, 0);
    for (let i = 0; i < delays.length; i++) {
      assert.ok(sum(delays, i) >= sum(SSE_PAUSES, i) - 50, file);
      assert.ok(sum(delays, i) < sum(SSE_PAUSES, i) + 2000, file);
    }
    const rules = readFileSync(join(dir, 'mock-recorded.toml'), 'utf8');
    assert.match(rules, /respond\.stream\.file_path = ".*chat\.sse"/);

    const hits = upstreamHits;
    const replay = await readEvents(`${m.url}/v1/chat`, '\n\n');
    assert.equal(upstreamHits, hits, 'the replay never reached the upstream');
    assert.equal(replay.status, 200);
    assert.match(replay.type, /^text\/event-stream/);
    assert.deepEqual(
      replay.events.map((e) => e.text),
      SSE_EVENTS,
    );
    // each event leaves no earlier than the recorded pauses add up to (measured from the first event, with a
    // margin for delivery jitter on a loaded machine)
    for (let i = 1; i < replay.events.length; i++) {
      const since = replay.events[i]!.at - replay.events[0]!.at;
      const recorded = sum(delays, i) - delays[0]!;
      assert.ok(since >= recorded - 50, `event ${i}: ${since} ms after the first, recorded ${recorded}`);
    }
  });

  it('an NDJSON stream: saved as .ndjson with the lines and their median gap as interval_ms, replayed line by line', async () => {
    const live = await readEvents(`${m.url}/rows`, '\n');
    assert.deepEqual(
      live.events.map((e) => e.text),
      NDJSON_LINES,
    );
    await lineMatching(m, /^recorded rule #2 in mock-recorded\.toml: GET \/rows/);
    await lineMatching(m, /^reloaded generation 3 /);
    assert.equal(
      readFileSync(join(dir, '.mock-recorded/GET/rows.ndjson'), 'utf8'),
      NDJSON_LINES.map((l) => l + '\n').join(''),
    );
    const rules = readFileSync(join(dir, 'mock-recorded.toml'), 'utf8');
    const interval = Number(/respond\.stream\.interval_ms = (\d+)/.exec(rules)?.[1]);
    // the median of the measured gaps: robust to one late line, with a margin for delivery jitter
    assert.ok(interval >= NDJSON_GAP - 50 && interval < NDJSON_GAP + 2000, rules);
    const hits = upstreamHits;
    const replay = await readEvents(`${m.url}/rows`, '\n');
    assert.equal(upstreamHits, hits);
    assert.match(replay.type, /^application\/x-ndjson/);
    assert.deepEqual(
      replay.events.map((e) => e.text),
      NDJSON_LINES,
    );
    // line i leaves no earlier than i intervals after the first (a running sum, so one late line cannot fail it)
    for (let i = 1; i < replay.events.length; i++)
      assert.ok(replay.events[i]!.at - replay.events[0]!.at >= i * interval - 50);
  });
});

describe('mock --record --inspect: a passed-on event stream is in the journal as it flows', () => {
  let held: Server;
  let release = (): void => undefined;
  let dir: string;
  let m: RunningMock;
  before(async () => {
    // sends one event, then waits for the test to let it send the last one and end
    held = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"token":"first"}\n\n');
      release = () => res.end('data: [DONE]\n\n');
    });
    held.listen(0, '127.0.0.1');
    await once(held, 'listening');
    dir = makeTempDir('mock-record-stream-live-');
    writeFileSync(join(dir, 'mock.toml'), '[service]\nfallback_respond_dir = "."\n');
    m = await spawnMock(
      ['serve', '--record', `http://127.0.0.1:${(held.address() as AddressInfo).port}`, '--inspect'],
      { cwd: dir },
    );
  });
  after(async () => {
    release();
    await m?.stop();
    held.close();
    await removeDir(dir);
  });

  it('the inspector hears the first event before the upstream sends the last; the entry then names the saved file', async () => {
    const inspector = Number(
      /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\//.exec(
        m.stdoutLines.find((l) => l.startsWith('Inspector: ')) ?? '',
      )?.[1],
    );
    assert.ok(inspector > 0, m.stdoutLines.join('\n'));
    const page = await events(inspector);
    const heard = (needle: string, what: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`${what} not heard: ${page.text()}`)), 30_000);
        const check = (): void => {
          if (!page.text().includes(needle)) return;
          clearTimeout(t);
          page.res.off('data', check);
          resolve();
        };
        page.res.on('data', check);
        check();
      });
    const client = readEvents(`${m.url}/v1/live`, '\n\n');
    // the first event reaches the page while the upstream still holds the stream open
    await heard('first', 'the first event');
    assert.match(page.text(), /event: stream\n/);
    assert.doesNotMatch(page.text(), /\[DONE\]/);
    release();
    const got = await client;
    assert.deepEqual(
      got.events.map((e) => e.text),
      ['data: {"token":"first"}', 'data: [DONE]'],
    );
    // once the upstream ended it, the entry is closed and says what the recording saved
    await heard('event: update', 'the closing update');
    const id = Number(/event: update\nid: (\d+)/.exec(page.text())?.[1] ?? /"id":(\d+)/.exec(page.text())?.[1]);
    page.close();
    const entry = await raw(inspector, 'GET', `/__mock/api/requests/${id}`);
    assert.equal(entry.status, 200, entry.text);
    const e = (entry.json as { result: { answered_by: { kind: string; saved: string | null }; response: unknown } })
      .result;
    assert.equal(e.answered_by.kind, 'proxied');
    assert.match(String(e.answered_by.saved), /mock-recorded\.toml#1/);
    assert.match(JSON.stringify(e.response), /first[\s\S]*\[DONE\]/);
  });
});
