// The commit point (docs/architecture.md#the-pipeline): an answer's state changes are made when the answer is
// written, never for an answer that is not. A collection POST delayed by service.delay whose client leaves before
// the answer changes nothing, in memory or (with --persist) on disk; a neighbour's POST made after it, and answered
// after its delay would have run out, is the only change.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, sendText, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const json = { 'content-type': 'application/json' };

/** Until `ok()` holds (checked every 10 ms), or fail after `ms`. */
async function until(ms: number, what: string, ok: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const persist of [false, true]) {
  describe(`a delayed collection POST whose client leaves changes nothing${persist ? ' (--persist)' : ''}`, () => {
    let dir: string;
    let mock: RunningMock;
    before(async () => {
      dir = makeTempDir('mock-commit-point-');
      await writeTree(dir, {
        'mock.toml': '[service]\ndb = "db.json"\ndelay = 600\n',
        'db.json': JSON.stringify({ items: [{ id: 1, name: 'seed' }] }),
      });
      mock = await spawnMock(['--no-watch', ...(persist ? ['--persist'] : [])], { cwd: dir });
    });
    after(async () => {
      await mock.stop();
      await removeDir(dir);
    });

    it('only the answered POST is stored', async () => {
      const body = JSON.stringify({ name: 'gone' });
      const socket = connect(mock.port, '127.0.0.1');
      await new Promise<void>((r) => socket.once('connect', () => r()));
      const seen = mock.stdoutLines.length;
      socket.write(
        `POST /items HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      // the server logs a request as it arrives, before its answer's delay
      await until(10_000, 'the POST to be logged', () =>
        mock.stdoutLines.slice(seen).some((l) => l.includes('<- /items')),
      );
      socket.destroy();
      const kept = await sendText(mock.port, 'POST', '/items', json, JSON.stringify({ name: 'kept' }));
      assert.equal(kept.status, 201);
      const list = await sendText(mock.port, 'GET', '/items');
      const names = (JSON.parse(list.text) as { name: string }[]).map((i) => i.name);
      assert.deepEqual(names, ['seed', 'kept']);
      if (persist) {
        const onDisk = JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) as { items: { name: string }[] };
        assert.deepEqual(
          onDisk.items.map((i) => i.name),
          ['seed', 'kept'],
        );
      }
    });
  });
}
