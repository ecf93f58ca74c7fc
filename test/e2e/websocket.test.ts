// WebSocket rules through the real program (docs/websocket.md), with a real `ws` client: messages on open with
// their delays, replies chosen by the message's text and JSON, templates over the message and the upgrade request,
// periodic pushes, a scripted sequence file, close codes and reasons, the drop and stall faults, echo, broadcast to
// one route's clients, and what a plain request to a WebSocket route gets. The library's `m.ws(path)` lists clients,
// waits for them and their messages, and sends to them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { startMock } from 'folder-mock';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const RULES = `
[[rules]]
when.request.url_path = "/ws/hello"
respond.websocket.on_open = [{ send = "welcome" }, { send = "ready", after_ms = 200 }]

[[rules]]
when.request.url_path = "/ws/echo"
respond.websocket = { echo = true }

[[rules]]
when.request.url_path = "/ws/chat"
respond.websocket = { broadcast = true }

[[rules]]
when.request.url_path = "/ws/replies"
[[rules.respond.websocket.replies]]
when.text = { value = "ping" }
send = [{ send = "pong" }]
[[rules.respond.websocket.replies]]
when.json = { type = { value = "subscribe" }, "topic.name" = { value = "^prices", op = "regex" } }
send = [{ send = '{"subscribed":true}' }, { send = '{"price":1}', after_ms = 100 }]
[[rules.respond.websocket.replies]]
when.text = { value = "bye", op = "contains" }
close = { code = 4001, reason = "asked to leave" }
[[rules.respond.websocket.replies]]
when.text = { value = "drop" }
fault = { kind = "drop" }
[[rules.respond.websocket.replies]]
when.text = { value = "stall" }
fault = { kind = "stall" }

[[rules]]
when.request.url_path = "/ws/template"
[rules.respond.websocket]
template = true
on_open = [{ send = 'hello {{request.query.name}}' }]
replies = [{ send = [{ send = 'you said {{message.text}}; n is {{message.json.n}} on {{request.path}}' }] }]

[[rules]]
when.request.url_path = "/ws/ticks"
respond.websocket = { pushes = [{ every_ms = 100, send = "tick" }] }

[[rules]]
when.request.url_path = "/ws/script"
respond.websocket = { script = "prices.ndjson" }

[[rules]]
when.request.url_path = "/ws/closing"
respond.websocket = { on_open = [{ send = "soon" }], close = { after_ms = 150, code = 4000, reason = "time is up" } }
`;

const SCRIPT = [
  { after_ms: 0, send: '{"price":100}' },
  { after_ms: 150, send: '{"price":101}' },
  { after_ms: 150, send: '{"price":102}' },
  { after_ms: 50, close: { code: 4002, reason: 'market closed' } },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

let dir: string;
let server: RunningMock;
let wsBase: string;

before(async () => {
  dir = makeTempDir('mock-ws-');
  await writeTree(dir, {
    'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
    'rules.toml': RULES,
    'prices.ndjson': SCRIPT + '\n',
  });
  server = await spawnMock(['--no-watch'], { cwd: dir });
  wsBase = server.url.replace(/^http/, 'ws');
});

after(async () => {
  await server?.stop();
  await removeDir(dir);
});

/** A client that keeps every message with its arrival time, and its close. */
class Client {
  readonly socket: WebSocket;
  readonly messages: { text: string; at: number }[] = [];
  readonly opened: Promise<void>;
  /** when the upgrade's answer came (ms from the start) */
  openedAt = 0;
  readonly closed: Promise<{ code: number; reason: string; at: number }>;
  private readonly start = performance.now();
  private waiters: (() => void)[] = [];

  constructor(url: string, headers?: Record<string, string>) {
    this.socket = new WebSocket(url, headers === undefined ? {} : { headers });
    this.socket.on('message', (data) => {
      this.messages.push({ text: (data as Buffer).toString(), at: performance.now() - this.start });
      for (const w of this.waiters.splice(0)) w();
    });
    this.socket.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => {
        this.openedAt = performance.now() - this.start;
        resolve();
      });
      this.socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.socket.once('close', (code, reason) =>
        resolve({ code, reason: reason.toString(), at: performance.now() - this.start }),
      ),
    );
  }

  /** waits (bounded) until `n` messages have come */
  async count(n: number, timeoutMs = 10_000): Promise<string[]> {
    const deadline = performance.now() + timeoutMs;
    while (this.messages.length < n) {
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`only ${this.messages.length} of ${n} messages: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.messages.map((m) => m.text);
  }
}

async function open(path: string): Promise<Client> {
  const c = new Client(wsBase + path);
  await c.opened;
  return c;
}

describe('WebSocket rules', () => {
  test('messages on open, each after its delay', async () => {
    const c = await open('/ws/hello');
    assert.deepEqual(await c.count(2), ['welcome', 'ready']);
    // counted from the open, which the server's clock starts from too; the margin is wide because a loaded client
    // may see the open late (without the delay the two messages come together, well under it)
    const waited = c.messages[1]!.at - c.openedAt;
    assert.ok(waited >= 100, `the second message waited its 200 ms (${waited} ms after the open)`);
    c.socket.close();
  });

  test('echo sends each message back, text and binary', async () => {
    const c = await open('/ws/echo');
    c.socket.send('one');
    c.socket.send('two');
    assert.deepEqual(await c.count(2), ['one', 'two']);
    c.socket.close();
  });

  test('broadcast relays each message to the other clients of the same path, not to its sender', async () => {
    const [a, b, c] = await Promise.all([open('/ws/chat'), open('/ws/chat'), open('/ws/chat')]);
    const elsewhere = await open('/ws/echo');
    a.socket.send('hi from a');
    assert.deepEqual(await b.count(1), ['hi from a']);
    assert.deepEqual(await c.count(1), ['hi from a']);
    b.socket.send('hi from b');
    assert.deepEqual(await a.count(1), ['hi from b']);
    assert.deepEqual(await c.count(2), ['hi from a', 'hi from b']);
    assert.equal(elsewhere.messages.length, 0, 'another route hears nothing');
    for (const x of [a, b, c, elsewhere]) x.socket.close();
  });

  test('replies are chosen by the message: text equal, JSON paths with operators', async () => {
    const c = await open('/ws/replies');
    c.socket.send('ping');
    assert.deepEqual(await c.count(1), ['pong']);
    c.socket.send(JSON.stringify({ type: 'subscribe', topic: { name: 'prices.eu' } }));
    assert.deepEqual(await c.count(3), ['pong', '{"subscribed":true}', '{"price":1}']);
    c.socket.send(JSON.stringify({ type: 'subscribe', topic: { name: 'news' } }));
    c.socket.send('ping');
    assert.deepEqual((await c.count(4)).slice(3), ['pong'], 'a message no reply holds for gets nothing');
    c.socket.send('well, bye then');
    const closed = await c.closed;
    assert.deepEqual({ code: closed.code, reason: closed.reason }, { code: 4001, reason: 'asked to leave' });
  });

  test('the drop fault cuts the connection without a close frame', async () => {
    const c = await open('/ws/replies');
    c.socket.send('drop');
    const closed = await c.closed;
    assert.equal(closed.code, 1006, 'no close frame: 1006');
  });

  test('the stall fault sends and reads nothing more; the connection stays open', async () => {
    const c = await open('/ws/replies');
    c.socket.send('stall');
    // a ping that the stalled side never answers: the replies it would have given never come
    await new Promise((r) => setTimeout(r, 100));
    c.socket.send('ping');
    const raced = await Promise.race([c.count(1, 500).then(() => 'answered'), c.closed.then(() => 'closed')]).catch(
      () => 'silent',
    );
    assert.equal(raced, 'silent');
    assert.equal(c.socket.readyState, WebSocket.OPEN);
    c.socket.terminate();
  });

  test('templates see the upgrade request and the message', async () => {
    const c = await open('/ws/template?name=Ada');
    assert.deepEqual(await c.count(1), ['hello Ada']);
    c.socket.send('{"n": 7}');
    assert.deepEqual(await c.count(2), ['hello Ada', 'you said {"n": 7}; n is 7 on /ws/template']);
    c.socket.close();
  });

  test('periodic pushes keep coming until the client leaves', async () => {
    const c = await open('/ws/ticks');
    assert.deepEqual(await c.count(3), ['tick', 'tick', 'tick']);
    assert.ok(c.messages[2]!.at >= 250, `three ticks 100 ms apart (${c.messages[2]!.at} ms)`);
    c.socket.close();
  });

  test('a scripted sequence plays with its timing, then closes with its code and reason', async () => {
    const c = await open('/ws/script');
    assert.deepEqual(await c.count(3), ['{"price":100}', '{"price":101}', '{"price":102}']);
    const closed = await c.closed;
    assert.deepEqual({ code: closed.code, reason: closed.reason }, { code: 4002, reason: 'market closed' });
    // each line is due at its own time from the open (150 and 300 ms): a loaded client may hear one late, never early
    const t = c.messages.map((m) => m.at - c.openedAt);
    assert.ok(t[1]! >= 130 && t[2]! >= 280, `pauses kept: ${t.join(', ')} ms after the open`);
  });

  test('a close after a delay, with its code and reason', async () => {
    const c = await open('/ws/closing');
    assert.deepEqual(await c.count(1), ['soon']);
    const closed = await c.closed;
    assert.deepEqual({ code: closed.code, reason: closed.reason }, { code: 4000, reason: 'time is up' });
    assert.ok(closed.at >= 130, `closed after its 150 ms (${closed.at} ms)`);
  });

  test('a plain request to a WebSocket route is answered 426; an upgrade no rule answers gets that answer', async () => {
    const r = await fetch(server.url + '/ws/echo');
    assert.equal(r.status, 426);
    assert.match(await r.text(), /upgrade required/);
    const missing = new Client(wsBase + '/ws/nowhere');
    await assert.rejects(missing.opened, /HTTP 404/);
    const again = await fetch(server.url + '/ws/echo');
    assert.equal(again.status, 426, 'the server goes on');
  });
});

test('the library: m.ws(path) lists clients, waits for a client and a message, sends to one or all', async () => {
  const m = await startMock({ root: dir });
  try {
    const base = m.url.replace(/^http/, 'ws');
    const chat = m.ws('/ws/chat');
    assert.deepEqual(chat.clients(), []);
    const waiting = chat.waitForClient();
    const a = new Client(base + '/ws/chat');
    await a.opened;
    const first = await waiting;
    assert.equal(first.path, '/ws/chat');
    const b = new Client(base + '/ws/chat');
    await b.opened;
    assert.equal(chat.clients().length, 2);
    const said = chat.waitForMessage();
    a.socket.send('from a');
    assert.equal((await said).text, 'from a');
    assert.equal(chat.send('to everyone'), 2);
    assert.deepEqual(await a.count(1), ['to everyone']);
    assert.deepEqual(await b.count(2), ['from a', 'to everyone']);
    assert.equal(chat.send('to a only', first.id), 1);
    assert.deepEqual(await a.count(2), ['to everyone', 'to a only']);
    const frames = chat.clients().find((c) => c.id === first.id)!.frames;
    assert.deepEqual(
      frames.map((f) => [f.direction, f.text]),
      [
        ['in', 'from a'],
        ['out', 'to everyone'],
        ['out', 'to a only'],
      ],
    );
    a.socket.close();
    b.socket.close();
  } finally {
    await m.close();
  }
});

test('mock get --why and match-test explain which rule takes an upgrade', async () => {
  const got = await runMock(['get', '/ws/echo', '-H', 'Upgrade: websocket', '-H', 'Connection: Upgrade', '--why'], {
    cwd: dir,
  });
  assert.equal(got.code, 0, got.stderr);
  assert.match(got.stdout, /Status: 426/);
  assert.match(got.stdout, /Answered: rule set #1, rule #2/);
  assert.match(got.stdout, /Rule #2: MATCH/);
  const matched = await runMock(['match-test', '--rule-set', 'rules.toml', '--rule', '2', '--path', '/ws/echo'], {
    cwd: dir,
  });
  assert.equal(matched.code, 0, matched.stdout + matched.stderr);
});

test('over HTTP: the management API lists connections with their frames and sends to them', async () => {
  const m = await startMock({ root: dir, inspect: true });
  try {
    const base = m.url.replace(/^http/, 'ws');
    const a = new Client(base + '/ws/echo');
    await a.opened;
    a.socket.send('marco');
    assert.deepEqual(await a.count(1), ['marco']);
    const api = new URL('/__mock/api/websockets', m.inspectUrl);
    const sent = await fetch(new URL('/__mock/api/websockets/send', m.inspectUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-client': 'test' },
      body: JSON.stringify({ path: '/ws/echo', text: 'from the API' }),
    });
    assert.equal(sent.status, 200);
    assert.equal(((await sent.json()) as { result: { sent: number } }).result.sent, 1);
    assert.deepEqual(await a.count(2), ['marco', 'from the API']);
    const listed = (await (await fetch(api)).json()) as {
      result: { connections: { path: string; open: boolean; frames: { direction: string; text: string }[] }[] };
    };
    const [conn] = listed.result.connections;
    assert.equal(conn?.path, '/ws/echo');
    assert.equal(conn?.open, true);
    assert.deepEqual(
      conn?.frames.map((f) => `${f.direction} ${f.text}`),
      ['in marco', 'out marco', 'out from the API'],
    );
    a.socket.close();
    await a.closed;
  } finally {
    await m.close();
  }
});

test('sessions scope a broadcast: a chat message reaches the clients of its own session only', async () => {
  const m = await startMock({ root: dir, sessions: true });
  try {
    const base = m.url.replace(/^http/, 'ws') + '/ws/chat';
    const as = (session: string): Client => new Client(base, { 'x-mock-session': session });
    const [a1, a2, b1] = [as('a'), as('a'), as('b')];
    await Promise.all([a1.opened, a2.opened, b1.opened]);
    a1.socket.send('for session a');
    b1.socket.send('for session b');
    assert.deepEqual(await a2.count(1), ['for session a']);
    // b1's own message went to nobody (it is alone in its session); a1 hears nothing from b
    a2.socket.send('a2 to a');
    assert.deepEqual(await a1.count(1), ['a2 to a']);
    assert.equal(b1.messages.length, 0);
    const sessions = m
      .ws('/ws/chat')
      .clients()
      .map((c) => c.session ?? '');
    assert.deepEqual(sessions.sort(), ['a', 'a', 'b']);
    for (const c of [a1, a2, b1]) c.socket.close();
  } finally {
    await m.close();
  }
});

test('the journal has the upgrade, open while the connection is, with a line per frame', async () => {
  const m = await startMock({ root: dir });
  try {
    const c = new Client(m.url.replace(/^http/, 'ws') + '/ws/echo');
    await c.opened;
    c.socket.send('hello');
    assert.deepEqual(await c.count(1), ['hello']);
    const [open] = m.requests({ path: '/ws/echo' });
    assert.equal(open?.response.status, 101);
    assert.equal(open?.stream?.open, true, 'open while the connection is');
    assert.deepEqual(open?.matched, { ruleSetIndex: 0, ruleSetFile: './rules.toml', ruleIndex: 1 });
    c.socket.close();
    await c.closed;
    const deadline = Date.now() + 5000;
    let done = m.requests({ path: '/ws/echo' })[0];
    while (done?.stream?.open === true && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      done = m.requests({ path: '/ws/echo' })[0];
    }
    assert.equal(done?.stream?.open, false);
    const body = done?.response.body;
    assert.equal(body?.kind, 'text');
    assert.equal(body?.kind === 'text' ? body.text : '', '> hello\n< hello\n');
  } finally {
    await m.close();
  }
});
