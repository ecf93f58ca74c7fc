// Faults and streams in the request journal (docs/faults.md): a fault is an entry naming its fault, captured once
// the connection is done with it; a stream's entry is there from its headers, open, holds the events sent so far,
// and closes when the stream ends.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startMock } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'mock-faults-journal-'));
let m: Awaited<ReturnType<typeof startMock>>;

before(async () => {
  writeFileSync(join(dir, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\n');
  writeFileSync(
    join(dir, 'rules.toml'),
    [
      '[[rules]]',
      'when.request.url_path = "/reset"',
      'respond = { fault = "connection_reset" }',
      '[[rules]]',
      'when.request.url_path = "/chat"',
      'respond = { stream = { file_path = "chat.sse" } }',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'chat.sse'), 'data: one\n\n: delay 150\ndata: two\n\n');
  m = await startMock({ root: dir });
});
after(async () => {
  await m.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a fault is a journal entry with its fault named, not an ordinary answer', async () => {
  await assert.rejects(fetch(`${m.url}/reset`));
  const e = await m.waitForRequest({ path: '/reset' }, { timeoutMs: 10_000 });
  assert.equal(e.fault, 'connection_reset');
  assert.equal(e.stage, 'rule_set');
});

test("a stream's entry is open with the events sent so far, then closed with all of them when it has ended", async () => {
  const res = await fetch(`${m.url}/chat`);
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.match(new TextDecoder().decode(first.value), /data: one/);
  // the first event is out, the second is still 150 ms away: the entry is open and holds the first
  const open = m.requests({ path: '/chat' });
  assert.equal(open.length, 1);
  assert.deepEqual(open[0]!.stream, { open: true, events: 1 });
  assert.deepEqual(open[0]!.response.body, { kind: 'text', text: 'data: one\n\n', byteLength: 11, truncated: false });
  while (!(await reader.read()).done);
  const e = await m.waitForRequest({ path: '/chat' }, { timeoutMs: 10_000 });
  assert.equal(e.id, open[0]!.id);
  assert.deepEqual(e.stream, { open: false, events: 2 });
  assert.equal(e.fault, undefined);
  assert.ok(e.latencyMs >= 140, `latency ${e.latencyMs} covers the stream`);
  assert.equal(e.response.body.kind, 'text');
  if (e.response.body.kind === 'text') assert.equal(e.response.body.text, 'data: one\n\ndata: two\n\n');
});
