// Sessions and a large collection, through the package as users import it (docs/state.md, "Where the data lives"):
// a session's first write to a collection does not copy the collection's data, so many sessions that each add an
// item to a 1 MB collection grow the heap by a little per session, not by a copy of the megabyte each.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, test } from 'node:test';
import { startMock } from 'folder-mock';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

test('300 sessions each adding an item to a 1 MB collection grow the heap by far less than 300 copies', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-collections-sessions-'));
  dirs.push(dir);
  // 2,000 items of ~500 bytes: ~1 MB of JSON, ~1.3 MB as objects
  const items = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, name: `item ${i}`, text: 'x'.repeat(480) }));
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ items }));
  writeFileSync(join(dir, 'mock.toml'), '[service]\ndb = "db.json"\nsessions = true\n');
  const m = await startMock({ root: dir, journal: false });
  try {
    const post = async (session: string, n: number): Promise<void> => {
      const r = await fetch(`${m.url}/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mock-session': session },
        body: JSON.stringify({ name: `new ${n}` }),
      });
      assert.equal(r.status, 201);
      await r.text();
    };
    // warm: the first session's write, the caches every session shares
    await post('warm', 0);
    const before = heapAfterGc();
    const sessions = 300;
    for (let i = 0; i < sessions; i++) await post(`s${i}`, i);
    const grown = heapAfterGc() - before;
    t.diagnostic(`heap grew ${(grown / 1048576).toFixed(1)} MiB for ${sessions} sessions`);
    // a copy each: 300 × ~1.3 MB ≈ 390 MB; shared items: 300 × (an array of 2,000 pointers, an item, a session)
    assert.ok(grown < 60 * 1024 * 1024, `heap grew ${(grown / 1048576).toFixed(1)} MiB for ${sessions} sessions`);
    // each session sees its own item, and only its own
    const r = await fetch(`${m.url}/items?name=new 7`, { headers: { 'x-mock-session': 's7' } });
    assert.deepEqual(
      ((await r.json()) as { name: string }[]).map((x) => x.name),
      ['new 7'],
    );
    const shared = await fetch(`${m.url}/items?_limit=1&name=new 7`);
    assert.deepEqual(await shared.json(), []);
  } finally {
    await m.close();
  }
});
