import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { SocketActivity } from './activity.js';
import { readBody, type BodyRead } from './body.js';

/** Just what readBody reads of an IncomingMessage: its events, headers, completeness and socket. */
class FakeRequest extends EventEmitter {
  complete = false;
  readableEnded = false;
  resumed = 0;
  readonly socket = {};
  constructor(readonly headers: Record<string, string> = {}) {
    super();
  }
  resume(): this {
    this.resumed++;
    return this;
  }
}

function read(req: FakeRequest, cap: number, activity?: SocketActivity): BodyRead[] {
  const got: BodyRead[] = [];
  readBody(req as unknown as IncomingMessage, cap, got, (list, r) => list.push(r), activity);
  return got;
}

test('chunks are joined once the body ends; later events change nothing', () => {
  const req = new FakeRequest();
  const got = read(req, 10);
  req.emit('data', Buffer.from('abc'));
  req.emit('data', Buffer.from('def'));
  assert.equal(got.length, 0);
  req.complete = true;
  req.emit('end');
  req.emit('close');
  req.emit('error', new Error('late'));
  assert.equal(got.length, 1);
  assert.equal(got[0]!.kind, 'ok');
  assert.equal(Buffer.from((got[0] as { bytes: Uint8Array }).bytes).toString(), 'abcdef');
});

test('a declared length over the cap is refused at once; a body of exactly the cap is kept', () => {
  assert.deepEqual(read(new FakeRequest({ 'content-length': '11' }), 10), [{ kind: 'too_large' }]);
  const req = new FakeRequest({ 'content-length': '10' });
  const got = read(req, 10);
  req.emit('data', Buffer.alloc(10));
  req.complete = true;
  req.emit('end');
  assert.equal(got[0]!.kind, 'ok');
});

test('a body passing the cap mid-way: refused once, the rest read and dropped, nothing joined at its end', () => {
  const req = new FakeRequest();
  const got = read(req, 4);
  req.emit('data', Buffer.from('abc'));
  req.emit('data', Buffer.from('def'));
  assert.deepEqual(got, [{ kind: 'too_large' }]);
  assert.equal(req.resumed, 1);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, after the test
  const concat = Buffer.concat;
  let joined = 0;
  Buffer.concat = (...args: Parameters<typeof concat>) => {
    joined++;
    return concat(...args);
  };
  try {
    req.emit('data', Buffer.from('ghi'));
    req.complete = true;
    req.emit('end');
  } finally {
    Buffer.concat = concat;
  }
  assert.equal(joined, 0);
  assert.equal(got.length, 1);
});

test('a client gone before the end is aborted; a parser failure mid-body answers its status, once', () => {
  const gone = new FakeRequest();
  const got = read(gone, 10);
  gone.emit('data', Buffer.from('ab'));
  gone.emit('close');
  assert.deepEqual(got, [{ kind: 'aborted' }]);

  const activity = new SocketActivity();
  const broken = new FakeRequest();
  const got2 = read(broken, 10, activity);
  assert.equal(activity.interruptBody(broken.socket, 400), true);
  assert.equal(activity.interruptBody(broken.socket, 408), false, 'no longer reading');
  broken.emit('close');
  assert.deepEqual(got2, [{ kind: 'malformed', status: 400 }]);

  // once the body is complete, a failure on the connection belongs to a later request
  const done = new FakeRequest();
  const got3 = read(done, 10, activity);
  done.complete = true;
  assert.equal(activity.interruptBody(done.socket, 400), false);
  done.emit('end');
  assert.equal(got3[0]!.kind, 'ok');
  assert.equal(activity.interruptBody(done.socket, 400), false, 'unregistered when read');
});
