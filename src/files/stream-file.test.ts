import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownLargeStream, parsedLargeStream, parsedStreamFile } from './stream-file.js';
import type { FileStat } from './source.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('parsedStreamFile', () => {
  it('parses a version of the bytes once; the events are views into the one body', () => {
    const bytes = enc.encode('{"a":1}\r\n\n{"b":2}\n  \n{"c":3}');
    const first = parsedStreamFile(bytes, 'ndjson', 5);
    assert.equal(parsedStreamFile(bytes, 'ndjson', 5), first);
    assert.notEqual(parsedStreamFile(bytes, 'ndjson', 6), first);
    assert.equal(dec.decode(first.body), '{"a":1}\n{"b":2}\n{"c":3}\n');
    assert.deepEqual(
      first.events.map((e) => [e.pauseMs, dec.decode(e.bytes)]),
      [
        [0, '{"a":1}\n'],
        [5, '{"b":2}\n'],
        [5, '{"c":3}\n'],
      ],
    );
    for (const e of first.events) assert.equal(e.bytes.buffer, first.body.buffer);
  });
});

describe('large stream files kept parsed', () => {
  const now = 1_000_000;
  const stat = (size: number, mtimeMs: number): FileStat => ({ kind: 'file', size, mtimeMs });
  const sse = (n: number): Uint8Array => enc.encode('data: x\n\n'.repeat(n));

  it('a settled version is kept and found again by its size and mtime, not another version', () => {
    const bytes = sse(10);
    const st = stat(bytes.byteLength, now - 10_000);
    const parsed = parsedLargeStream('/k/settled.sse', st, bytes, 'sse', 0, now);
    assert.equal(knownLargeStream('/k/settled.sse', st, 'sse', 0), parsed);
    assert.equal(knownLargeStream('/k/settled.sse', stat(bytes.byteLength, now - 9_000), 'sse', 0), undefined);
    assert.equal(knownLargeStream('/k/settled.sse', stat(bytes.byteLength + 1, now - 10_000), 'sse', 0), undefined);
    assert.equal(knownLargeStream('/k/settled.sse', st, 'sse', 7), undefined);
  });

  it('a file modified a moment ago, or read at another length than its stat, is not kept', () => {
    const bytes = sse(3);
    parsedLargeStream('/k/fresh.sse', stat(bytes.byteLength, now - 100), bytes, 'sse', 0, now);
    assert.equal(knownLargeStream('/k/fresh.sse', stat(bytes.byteLength, now - 100), 'sse', 0), undefined);
    parsedLargeStream('/k/torn.sse', stat(bytes.byteLength + 5, now - 10_000), bytes, 'sse', 0, now);
    assert.equal(knownLargeStream('/k/torn.sse', stat(bytes.byteLength + 5, now - 10_000), 'sse', 0), undefined);
  });
});
