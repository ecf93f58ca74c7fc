// Held connections (docs/faults.md, docs/https-and-limits.md): connections whose answers wait on a timer or on
// their client (a `timeout` fault, a stream) do not count against listener.max_connections, so more of them than
// that bound never keep a fresh connection waiting; they have their own bound, listener.max_held_connections,
// past which such an answer is a 503 naming it.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import {
  delay,
  fetchOnce,
  makeTempDir,
  maxOf,
  ms,
  removeDir,
  selfSignedPair,
  spawnServer,
  writeTree,
  type Server,
} from './harness.js';
import { assertNeighbourFast, LOADED_NEIGHBOUR_MS, neighbourDelay } from './neighbour.js';

/** the plain listener's default bound on working connections (listener.max_connections) */
const WORKING = 512;
/** over it */
const HELD = 520;
const STREAMS = 600;
/** a stream that lasts longer than the test waits for any first byte */
const STREAM_EVENTS = 30;

const RULES = [
  '[[rules]]\nwhen.request.url_path = "/hang"\nrespond = { fault = "timeout" }\n',
  '[[rules]]\nwhen.request.url_path = "/events"\nrespond = { stream = { file_path = "slow.sse", interval_ms = 1000 } }\n',
].join('\n');

function sse(): string {
  let out = '';
  for (let i = 0; i < STREAM_EVENTS; i++) out += `data: ${i}\n\n`;
  return out;
}

/** A connection that sends GET `path` and keeps what comes back; `firstByte` resolves with the time it took. */
function open(port: number, path: string): { socket: Socket; firstByte: Promise<number> } {
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`));
  socket.on('error', () => {});
  const firstByte = new Promise<number>((resolve) => {
    socket.once('data', () => resolve(performance.now() - started));
    socket.once('close', () => resolve(Number.POSITIVE_INFINITY));
  });
  return { socket, firstByte };
}

/** Until the server has logged `n` requests for `path` (each held connection's request was read). */
async function logged(server: Server, re: RegExp, n: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (server.count(re) < n) {
    if (Date.now() > deadline) assert.fail(`the server logged ${server.count(re)} of ${n} requests for ${re}`);
    await delay(50);
  }
}

describe('held connections', { timeout: 180_000 }, () => {
  let dir: string;
  let server: Server;
  const hang = /^<- \/hang$/;
  before(async () => {
    dir = makeTempDir('mock-held-');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rules.toml': RULES,
      'slow.sse': sse(),
      'small.txt': 'ok\n',
    });
    server = await spawnServer([], dir, [hang]);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });

  it(`${HELD} connections held by a timeout fault do not keep fresh connections waiting`, async (t) => {
    const held: Socket[] = [];
    try {
      const r = await neighbourDelay(
        server.port,
        '/small.txt',
        async () => {
          for (let i = 0; i < HELD; i++) held.push(open(server.port, '/hang').socket);
          // the first WORKING were admitted whatever counts them; the rest only if held ones do not
          await logged(server, hang, WORKING);
          await delay(1500);
        },
        { timeoutMs: 5000 },
      );
      t.diagnostic(`neighbour worst ${ms(r.worstMs)}, median ${ms(r.medianMs)} over ${r.probes} probes`);
      assertNeighbourFast(r, `${HELD} connections held by fault = "timeout"`);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it(`${STREAMS} streaming clients each get their first event at once`, async (t) => {
    const clients = Array.from({ length: STREAMS }, () => open(server.port, '/events'));
    try {
      const firsts = await Promise.all(clients.map((c) => c.firstByte));
      const worst = maxOf(firsts);
      t.diagnostic(`slowest first byte ${ms(worst)}`);
      // opening this many connections at once on a loaded machine takes a while itself: a wider margin
      assert.ok(
        worst <= LOADED_NEIGHBOUR_MS * 4,
        `the slowest of ${STREAMS} streaming clients waited ${ms(worst)} for its first byte`,
      );
    } finally {
      for (const c of clients) c.socket.destroy();
    }
  });
});

const hang = /^<- \/hang$/;

/** A server on the test's rules with `listener` as its [listener] table, started before and stopped after the suite. */
function serverWith(listener: string): { readonly server: () => Server } {
  let dir: string | undefined;
  let server: Server | undefined;
  before(async () => {
    dir = makeTempDir('mock-held-limit-');
    await writeTree(dir, {
      'mock.toml': `[listener]\n${listener}\n\n[service]\nrule_sets = ["rules.toml"]\n`,
      'rules.toml': RULES,
      'slow.sse': sse(),
      'small.txt': 'ok\n',
    });
    server = await spawnServer([], dir, [hang]);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });
  return { server: () => server! };
}

describe('listener.max_held_connections', { timeout: 60_000 }, () => {
  const running = serverWith('max_held_connections = 3');

  it('past the limit, an answer that would wait is a 503 naming the setting; others are answered', async () => {
    const server = running.server();
    const held = [open(server.port, '/hang'), open(server.port, '/hang'), open(server.port, '/events')];
    try {
      await logged(server, hang, 2);
      await held[2]!.firstByte;
      const over = await fetchOnce(server.port, '/hang', { timeoutMs: 5000 });
      assert.equal(over.status, 503, `expected a 503, got ${over.status} ${over.error ?? ''}`);
      assert.match(over.body, /listener\.max_held_connections = 3/);
      const stream = await fetchOnce(server.port, '/events', { timeoutMs: 5000 });
      assert.equal(stream.status, 503);
      const small = await fetchOnce(server.port, '/small.txt', { timeoutMs: 5000 });
      assert.equal(small.status, 200);
      // one held connection leaves: its place is free again once the server has seen it close (until then a new
      // one is refused at once), so a new one is tried until it is held, on a loaded machine for a while
      held[0]!.socket.destroy();
      const until = Date.now() + 10_000;
      for (;;) {
        const again = open(server.port, '/hang');
        held.push(again);
        const answered = await Promise.race([again.firstByte.then(() => 'answered'), delay(1000).then(() => 'held')]);
        if (answered === 'held') break;
        assert.ok(Date.now() < until, 'a freed place takes a new held connection');
      }
    } finally {
      for (const c of held) c.socket.destroy();
    }
  });
});

describe('listener.max_connections', { timeout: 60_000 }, () => {
  const running = serverWith('max_connections = 2');

  it('bounds the working connections of the plain listener; held ones do not count', async () => {
    const server = running.server();
    const held = [open(server.port, '/hang'), open(server.port, '/hang'), open(server.port, '/hang')];
    const idle: Socket[] = [];
    try {
      await logged(server, hang, 3);
      const beside = await fetchOnce(server.port, '/small.txt', { timeoutMs: 5000 });
      assert.equal(beside.status, 200, 'three held connections leave both working places free');
      // two connections that send nothing take both places: a third waits in the queue
      for (let i = 0; i < 2; i++) {
        const s = connect(server.port, '127.0.0.1');
        s.on('error', () => {});
        idle.push(s);
      }
      await delay(300);
      const queued = fetchOnce(server.port, '/small.txt', { timeoutMs: 8000 });
      const early = await Promise.race([queued.then(() => 'answered'), delay(1000).then(() => 'waiting')]);
      assert.equal(early, 'waiting', 'with max_connections = 2 taken, a third connection waits');
      idle[0]!.destroy();
      const later = await queued;
      assert.equal(later.status, 200, 'and is answered once a place frees');
    } finally {
      for (const c of held) c.socket.destroy();
      for (const s of idle) s.destroy();
    }
  });
});

describe('held connections over HTTPS', { timeout: 60_000 }, () => {
  let dir: string;
  let server: Server;
  let ca: string;
  before(async () => {
    dir = makeTempDir('mock-held-tls-');
    const pair = await selfSignedPair();
    ca = pair.cert;
    await writeTree(dir, {
      'mock.toml':
        '[listener.tls]\ncert = "cert.pem"\nkey = "key.pem"\nmax_connections = 2\n\n[service]\nrule_sets = ["rules.toml"]\n',
      'cert.pem': pair.cert,
      'key.pem': pair.key,
      'rules.toml': RULES,
      'slow.sse': sse(),
      'small.txt': 'ok\n',
    });
    server = await spawnServer([], dir);
  });
  after(async () => {
    await server?.stop();
    if (dir !== undefined) await removeDir(dir);
  });

  it('streams held past listener.tls.max_connections leave fresh HTTPS connections answered', async () => {
    const streams = Array.from({ length: 4 }, () =>
      tlsConnect({ port: server.port, host: '127.0.0.1', ca, servername: 'localhost' }),
    );
    try {
      await Promise.all(
        streams.map(
          (s) =>
            new Promise<void>((resolve, reject) => {
              s.once('secureConnect', () => s.write('GET /events HTTP/1.1\r\nhost: x\r\n\r\n'));
              s.once('data', () => resolve());
              s.once('error', reject);
            }),
        ),
      );
      const r = await neighbourDelay(server.port, '/small.txt', () => delay(1000), { ca, timeoutMs: 5000 });
      assertNeighbourFast(r, 'four held HTTPS streams with max_connections = 2');
    } finally {
      for (const s of streams) s.destroy();
    }
  });
});
