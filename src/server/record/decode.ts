// Undoing a response's content-encoding while it streams: gzip, deflate (zlib-wrapped or raw) and br, in any
// chain. `accept-encoding: identity` is asked for; this is for upstreams that compress anyway.
import { once } from 'node:events';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Duplex } from 'node:stream';

export const DECODABLE = ['gzip', 'x-gzip', 'deflate', 'br'] as const;

/** The codings of a content-encoding value, in the order applied ('identity' left out). */
export function codingsOf(value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

export function isDecodable(codings: readonly string[]): boolean {
  return codings.every((c) => (DECODABLE as readonly string[]).includes(c));
}

/** `source` with every coding undone (last applied, first undone). */
export function decodeAll(source: AsyncIterable<Buffer>, codings: readonly string[]): AsyncIterable<Buffer> {
  let out = source;
  for (const c of [...codings].reverse()) out = decodeOne(out, c);
  return out;
}

async function* decodeOne(source: AsyncIterable<Buffer>, coding: string): AsyncIterable<Buffer> {
  if (coding !== 'deflate') {
    yield* through(coding === 'br' ? createBrotliDecompress() : createGunzip(), source);
    return;
  }
  // "deflate" is meant to be zlib-wrapped; some servers send raw deflate. The first two bytes tell.
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done === true) return;
  const b = first.value;
  const wrapped = b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;
  async function* again(): AsyncIterable<Buffer> {
    yield b;
    for (let r = await it.next(); r.done !== true; r = await it.next()) yield r.value;
  }
  yield* through(wrapped ? createInflate() : createInflateRaw(), again());
}

/** Feed `source` into a transform stream and yield what comes out; an error on either side ends it. */
async function* through(z: Duplex, source: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const feed = (async (): Promise<void> => {
    try {
      for await (const chunk of source) if (!z.write(chunk)) await once(z, 'drain');
      z.end();
    } catch (e) {
      z.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  for await (const out of z) yield out as Buffer;
  await feed;
}
