// Record mode passes a WebSocket upgrade through to the target (docs/websocket.md, "Record and replay"): a real
// local `ws` upstream sends three messages with pauses and closes with a code; the client behind `mock serve
// --record` gets them through; the recording is a script with `after_ms` lines and a rule naming it; the next
// connection, with the upstream gone, gets the same frames in order, with at least the recorded pauses (wide
// margins: the machine is loaded). The upstream paces its frames with timers; the test waits on events.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import { makeTempDir, removeDir, spawnMock, type RunningMock } from '../helpers/mock-cli.js';
import { lineMatching } from './serve-helpers.js';

const FRAMES = ['{"price":1}', '{"price":2}', 'closing soon'];
const PAUSES = [0, 300, 600];

interface Heard {
  readonly frames: { at: number; text: string }[];
  readonly code: number;
  readonly reason: string;
}

async function listen(url: string, hello?: string): Promise<Heard> {
  const c = new WebSocket(url);
  const frames: { at: number; text: string }[] = [];
  let start = 0;
  c.on('open', () => {
    start = performance.now();
    if (hello !== undefined) c.send(hello);
  });
  c.on('message', (d) => frames.push({ at: performance.now() - start, text: (d as Buffer).toString() }));
  const [code, reason] = (await once(c, 'close')) as [number, Buffer];
  return { frames, code, reason: reason.toString() };
}

describe('mock --record passes WebSocket upgrades through and replays them', () => {
  let upstream: WebSocketServer;
  let dir = '';
  let m: RunningMock;
  const heardUpstream: string[] = [];

  before(async () => {
    upstream = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(upstream, 'listening');
    upstream.on('connection', (s, req) => {
      heardUpstream.push(`open ${req.url}`);
      s.on('message', (d) => heardUpstream.push((d as Buffer).toString()));
      let i = 0;
      const next = (): void => {
        if (i === FRAMES.length) return void setTimeout(() => s.close(4001, 'market closed'), 100);
        setTimeout(() => {
          s.send(FRAMES[i++]!);
          next();
        }, PAUSES[i]);
      };
      next();
    });
    dir = makeTempDir('mock-record-ws-');
    const port = (upstream.address() as AddressInfo).port;
    m = await spawnMock(['serve', '--record', `http://127.0.0.1:${port}`], { cwd: dir });
  });
  after(async () => {
    await m?.stop();
    upstream?.close();
    await removeDir(dir);
  });

  it('relays, saves a script and a rule, then replays the frames with their timing', async () => {
    const live = await listen(`ws://127.0.0.1:${m.port}/v1/prices?s=AB`, 'hello upstream');
    assert.deepEqual(
      live.frames.map((f) => f.text),
      FRAMES,
    );
    assert.equal(live.code, 4001);
    assert.equal(live.reason, 'market closed');
    assert.deepEqual(heardUpstream, ['open /v1/prices?s=AB', 'hello upstream']);

    await lineMatching(m, /recorded WebSocket script \.mock-recorded\/ws\/v1\/prices\.ndjson \(4 frames\), rule #1/);
    const lines = readFileSync(join(dir, '.mock-recorded/ws/v1/prices.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { after_ms: number; send?: string; close?: { code: number; reason: string } });
    assert.deepEqual(
      lines.map((l) => l.send ?? l.close),
      [...FRAMES, { code: 4001, reason: 'market closed' }],
    );
    assert.ok(lines[1]!.after_ms >= 250 && lines[2]!.after_ms >= 500, JSON.stringify(lines));
    const rules = readFileSync(join(dir, 'mock-recorded.toml'), 'utf8');
    assert.match(rules, /respond\.websocket\.script = "\.mock-recorded\/ws\/v1\/prices\.ndjson"/);

    upstream.close();
    const replay = await listen(`ws://127.0.0.1:${m.port}/v1/prices?s=AB`);
    assert.deepEqual(
      replay.frames.map((f) => f.text),
      FRAMES,
    );
    assert.equal(replay.code, 4001);
    // each frame no earlier than the script's time for it, less a wide margin for timers. Times are compared from
    // the first frame, not gap by gap: a replay keeps to the script's schedule, so a frame a loaded machine sends
    // late is followed by a shorter gap, and the frame after it is on time again
    const due = (k: number): number => lines.slice(1, k + 1).reduce((sum, l) => sum + l.after_ms, 0);
    const since = replay.frames.map((f) => f.at - replay.frames[0]!.at);
    assert.ok(since[1]! >= due(1) - 50 && since[2]! >= due(2) - 50, JSON.stringify({ since, lines }));
    assert.equal(heardUpstream.filter((h) => h.startsWith('open')).length, 1);
  });
});
