// The inspector's event stream through a burst: a page (here an event-stream client that behaves as EventSource
// does: it reconnects with Last-Event-ID when the stream ends) connected to the real program's management
// listener while 10,000 requests arrive receives one `request` event per request, each once, in order.
import assert from 'node:assert/strict';
import { Agent, request, type IncomingMessage } from 'node:http';
import { after, test } from 'node:test';
import { raw } from '../helpers/inspector-server.js';
import { makeTempDir, removeDir, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const BURST = 10_000;
/** requests in flight at once (keep-alive connections) */
const PARALLEL = 16;

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

interface Stream {
  /** the request events' ids, as they arrived (across reconnections) */
  readonly ids: number[];
  resets: number;
  reconnects: number;
  /** resolves once `n` request events have arrived; rejects after `ms` (a failure, never a pacing) */
  until(n: number, ms: number): Promise<void>;
  close(): void;
}

/** An EventSource-like client: parses `id:`/`event:` blocks, reconnects with Last-Event-ID when the stream ends. */
function stream(port: number): Promise<Stream> {
  let closed = false;
  let current: IncomingMessage | undefined;
  let wake = (): void => undefined;
  const s: Stream = {
    ids: [],
    resets: 0,
    reconnects: 0,
    until: (n, ms) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`${s.ids.length} of ${n} events after ${ms} ms`)), ms);
        wake = () => {
          if (s.ids.length >= n) {
            clearTimeout(t);
            resolve();
          }
        };
        wake();
      }),
    close: () => {
      closed = true;
      current?.destroy();
    },
  };
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const last = s.ids.at(-1);
      const headers: Record<string, string> = {
        host: `127.0.0.1:${port}`,
        ...(last !== undefined ? { 'last-event-id': String(last) } : {}),
      };
      const req = request({ host: '127.0.0.1', port, path: '/__mock/api/events', headers, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`event stream answered ${res.statusCode}`));
        current = res;
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const fields = new Map(
              block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)] as const),
            );
            if (fields.get('event') === 'reset') s.resets++;
            if (fields.get('event') === 'request') s.ids.push(Number(fields.get('id')));
          }
          wake();
        });
        res.on('close', () => {
          if (closed) return;
          s.reconnects++;
          open().catch(() => undefined);
        });
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
  return open().then(() => s);
}

/** `total` GETs of `path`, `PARALLEL` at a time on keep-alive connections; resolves with the statuses seen. */
async function burst(port: number, path: string, total: number): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
  const statuses = new Map<number, number>();
  let next = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
        res.resume().on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  const worker = async (): Promise<void> => {
    while (next < total) {
      next++;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

test(`a page connected through a burst of ${BURST.toLocaleString('en-US')} requests receives every event once, in order`, async () => {
  const dir = makeTempDir('mock-burst-');
  dirs.push(dir);
  await writeTree(dir, {
    'mock.toml': '[service]\nfallback_respond_dir = "data"\n',
    'data/api/users/42.json': '{"id":42}\n',
  });
  const mock = await spawnMock(['--inspect'], { cwd: dir });
  running.push(mock);
  const m = /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\//.exec(
    mock.stdoutLines.find((l) => l.startsWith('Inspector: ')) ?? '',
  );
  assert.ok(m, mock.stdoutLines.join('\n'));
  const port = Number(m[1]);

  const page = await stream(port);
  // the journal's newest id before the burst (the program's own readiness request may be in it)
  const before = await raw(port, 'GET', '/__mock/api/requests?limit=1');
  assert.equal(before.status, 200, before.text);
  const first = (before.json as { result: { last_id: number } }).result.last_id + 1;

  const statuses = await burst(mock.port, '/api/users/42', BURST);
  assert.deepEqual([...statuses], [[200, BURST]]);
  await page.until(BURST, 120_000);
  page.close();

  assert.equal(page.resets, 0, 'no reset: nothing the page was owed was evicted');
  assert.equal(page.ids.length, BURST, `${page.ids.length} events (after ${page.reconnects} reconnects)`);
  const wrong = page.ids.findIndex((id, k) => id !== first + k);
  assert.equal(
    wrong,
    -1,
    wrong < 0 ? '' : `event ${wrong} has id ${page.ids[wrong]}, expected ${first + wrong} (each once, in order)`,
  );
});
