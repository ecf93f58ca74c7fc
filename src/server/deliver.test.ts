// The stream and dribble writers on a real socket with an injected clock: each event leaves when its declared
// pause has passed on that clock and not before, in order; a client that leaves stops the timer.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Answer, StreamEvent } from '../model/answer.js';
import { deliver, play, splitBody, TURN_BYTES, type Clock } from './deliver.js';

class FakeClock implements Clock {
  t = 0;
  private next = 1;
  readonly pending = new Map<number, { at: number; fn: () => void }>();
  now = (): number => this.t;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.next++;
    this.pending.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown): void => void this.pending.delete(h as number);
  /** moves time on, firing what falls due, in order */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, p]) => p.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.pending.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}

const enc = new TextEncoder();
const ev = (pauseMs: number, s: string): StreamEvent => ({ pauseMs, bytes: enc.encode(s) });

function streamAnswer(events: StreamEvent[]): Answer {
  return {
    status: 200,
    headers: [['content-type', 'text/event-stream']],
    body: new Uint8Array(0),
    delayMs: 0,
    delivery: { kind: 'stream', events },
  };
}

async function serve(answer: Answer, clock: Clock): Promise<{ port: number; server: http.Server }> {
  const server = http.createServer((_req, res) => deliver(res, answer, 'GET', { holdMs: 1000, clock }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server };
}

/** the response and a queue of the body pieces as they arrive */
async function open(port: number): Promise<{ res: IncomingMessage; nextData(): Promise<string>; received(): string }> {
  const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false });
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  let all = '';
  const waiting: ((s: string) => void)[] = [];
  const queued: string[] = [];
  res.setEncoding('utf8').on('data', (d: string) => {
    all += d;
    const w = waiting.shift();
    if (w) w(d);
    else queued.push(d);
  });
  return {
    res,
    nextData: () => (queued.length > 0 ? Promise.resolve(queued.shift()!) : new Promise((r) => waiting.push(r))),
    received: () => all,
  };
}

test('an SSE stream: events leave in order at their declared pauses on the injected clock', async () => {
  const clock = new FakeClock();
  const { port, server } = await serve(
    streamAnswer([ev(0, 'data: 1\n\n'), ev(120, 'data: 2\n\n'), ev(30, 'data: 3\n\n')]),
    clock,
  );
  try {
    const c = await open(port);
    assert.equal(c.res.headers['transfer-encoding'], 'chunked');
    assert.equal(c.res.headers['content-length'], undefined);
    assert.equal(await c.nextData(), 'data: 1\n\n', 'the first event at once');
    assert.deepEqual(
      [...clock.pending.values()].map((p) => p.at),
      [120],
      'the next one scheduled 120 ms on',
    );
    clock.advance(119);
    assert.equal(clock.pending.size, 1, 'not yet');
    clock.advance(1);
    assert.equal(await c.nextData(), 'data: 2\n\n');
    assert.deepEqual(
      [...clock.pending.values()].map((p) => p.at),
      [150],
      'due from the schedule, not from when it was sent',
    );
    clock.advance(30);
    const ended = once(c.res, 'end');
    assert.equal(await c.nextData(), 'data: 3\n\n');
    await ended;
    assert.equal(c.received(), 'data: 1\n\ndata: 2\n\ndata: 3\n\n');
    assert.equal(clock.pending.size, 0);
  } finally {
    server.close();
  }
});

test('a client that leaves mid-stream stops the timer: nothing is left scheduled', async () => {
  const clock = new FakeClock();
  let closed!: () => void;
  const responseClosed = new Promise<void>((r) => (closed = r));
  const answer = streamAnswer([ev(0, 'a\n'), ev(60_000, 'b\n'), ev(60_000, 'c\n')]);
  const server = http.createServer((_req, res) => {
    res.on('close', closed);
    deliver(res, answer, 'GET', { holdMs: 1000, clock });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const c = await open((server.address() as AddressInfo).port);
    assert.equal(await c.nextData(), 'a\n');
    assert.equal(clock.pending.size, 1);
    c.res.destroy();
    await responseClosed;
    assert.equal(clock.pending.size, 0, 'the timer was cleared');
  } finally {
    server.close();
  }
});

test('chunks: equal pieces, the first at once, then interval apart', () => {
  const pieces = splitBody(enc.encode('abcdefghij'), 3, 100);
  assert.deepEqual(
    pieces.map((p) => [p.pauseMs, new TextDecoder().decode(p.bytes)]),
    [
      [0, 'abc'],
      [100, 'def'],
      [100, 'ghij'],
    ],
  );
  assert.equal(splitBody(enc.encode('ab'), 5, 10).length, 2, 'never more pieces than bytes');
});

/** a response that takes `room` writes and then reports its buffer full until drain() */
class FullResponse extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  written: string[] = [];
  room: number;
  constructor(room: number) {
    super();
    this.room = room;
  }
  write(bytes: Uint8Array): boolean {
    this.written.push(Buffer.from(bytes).toString());
    return --this.room > 0;
  }
  end(): void {
    this.writableEnded = true;
  }
  drain(room: number): void {
    this.room = room;
    this.emit('drain');
  }
}

test('a full socket stops the stream until it drains, and the pause counts from the drain', () => {
  const clock = new FakeClock();
  const res = new FullResponse(2);
  const events = [ev(0, 'a'), ev(10, 'b'), ev(10, 'c'), ev(100, 'd'), ev(0, 'e')];
  play(res as unknown as ServerResponse, events, clock);
  clock.advance(10);
  assert.deepEqual(res.written, ['a', 'b']);
  clock.advance(5000);
  assert.deepEqual(res.written, ['a', 'b'], 'nothing is written while the buffer is full');
  res.drain(10);
  clock.advance(9);
  assert.deepEqual(res.written, ['a', 'b'], 'the schedule stood still while the socket was full');
  clock.advance(1);
  assert.deepEqual(res.written, ['a', 'b', 'c']);
  clock.advance(100);
  assert.deepEqual(res.written, ['a', 'b', 'c', 'de'], 'events due together leave in one write');
  assert.equal(res.writableEnded, true);
});

test('a turn writes at most TURN_BYTES to one stream, and goes on in the next', () => {
  const clock = new FakeClock();
  const res = new FullResponse(1000);
  const piece = 'x'.repeat(1024);
  const count = (3 * TURN_BYTES) / 1024;
  play(
    res as unknown as ServerResponse,
    Array.from({ length: count }, () => ev(0, piece)),
    clock,
  );
  assert.equal(res.written.length, 1);
  assert.equal(res.written[0]!.length, TURN_BYTES);
  clock.advance(0);
  assert.equal(res.written.join('').length, 3 * TURN_BYTES);
  assert.equal(res.writableEnded, true);
});

test('a client that leaves while the socket is full leaves no listener or timer behind', () => {
  const clock = new FakeClock();
  const res = new FullResponse(1);
  play(res as unknown as ServerResponse, [ev(0, 'a'), ev(10, 'b')], clock);
  assert.equal(res.listenerCount('drain'), 1);
  res.destroyed = true;
  res.emit('close');
  assert.equal(res.listenerCount('drain'), 0);
  assert.equal(res.listenerCount('close'), 0);
  assert.equal(clock.pending.size, 0);
});

/** A file delivery of `size` bytes of the file at `path`, and what one client got of it. */
async function fetchFile(path: string, size: number): Promise<{ bytes: string; complete: boolean }> {
  const answer: Answer = {
    status: 200,
    headers: [
      ['content-type', 'text/plain'],
      ['content-length', String(size)],
    ],
    body: new Uint8Array(0),
    delayMs: 0,
    delivery: { kind: 'file', path, size },
  };
  const { port, server } = await serve(answer, new FakeClock());
  try {
    return await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let bytes = '';
        res.setEncoding('latin1');
        res.on('data', (c: string) => (bytes += c));
        res.on('end', () => resolve({ bytes, complete: res.complete }));
        res.on('error', () => resolve({ bytes, complete: false }));
        res.on('aborted', () => resolve({ bytes, complete: false }));
      });
      // the connection ended before any answer (the file was gone when it was opened)
      req.on('error', () => resolve({ bytes: '', complete: false }));
    });
  } finally {
    server.close();
  }
}

test('a file delivery sends the first `size` bytes; a file shorter than announced ends the connection', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-deliver-file-'));
  try {
    const file = join(dir, 'f.txt');
    writeFileSync(file, 'a'.repeat(200_000));
    assert.deepEqual(await fetchFile(file, 200_000), { bytes: 'a'.repeat(200_000), complete: true });
    // grown since its size was taken: cut at the size announced
    assert.deepEqual(await fetchFile(file, 150_000), { bytes: 'a'.repeat(150_000), complete: true });
    // shrunk since: the client sees an incomplete body, never one announced as whole
    const short = await fetchFile(file, 300_000);
    assert.equal(short.complete, false);
    assert.ok(short.bytes.length <= 200_000);
    // gone: likewise
    assert.equal((await fetchFile(join(dir, 'gone.txt'), 10)).complete, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
