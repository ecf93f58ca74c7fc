import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { memorySource } from './memory-source.js';
import { fileBody, largeFile, READ_ERROR, SNIFF_BYTES, STREAM_FILE_BYTES, type FileBody } from './file-body.js';
import type { FileSource } from './source.js';

const BINARY = Uint8Array.of(0xff, 0xfe, 0x00);
const decode = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

describe('fileBody', () => {
  const files = memorySource({
    '/d/pretty.json': '{\n  "b": 1,\n  "a": [1,   2]\n}\n',
    '/d/invalid.json': '{not json',
    '/d/empty.json': '',
    '/d/bom.json': '\ufeff{"a":1}',
    '/d/conf.json5': "// c\n{b: 1, a: 'x', n: 0x10,}",
    '/d/UPPER.JSON5': '{a: 1}',
    '/d/bad.json5': '{a: }',
    '/d/empty.json5': '',
    '/d/rows.csv': 'id,name\r\n1,"a, b"\r\n',
    '/d/ragged.csv': 'a,b\n1,2,3\n',
    '/d/empty.csv': '',
    '/d/page.html': '<p>hi</p>',
    '/d/notes.txt': 'plain',
    '/d/noext': 'plain',
    '/d/text.png': 'hi',
    '/d/image.png': BINARY,
    '/d/weird.txt': BINARY,
    '/d/binary.csv': BINARY,
    '/d/binary.json5': BINARY,
  });

  const cases: ReadonlyArray<readonly [string, FileBody['kind'], string, string]> = [
    // [file, kind, content type or error message, body]
    ['pretty.json', 'ok', 'application/json', '{\n  "b": 1,\n  "a": [1,   2]\n}\n'],
    ['invalid.json', 'ok', 'application/json', '{not json'],
    ['empty.json', 'ok', 'application/json', ''],
    ['bom.json', 'ok', 'application/json', '\ufeff{"a":1}'],
    ['conf.json5', 'ok', 'application/json', '{"b":1,"a":"x","n":16}'],
    ['UPPER.JSON5', 'ok', 'application/json', '{"a":1}'],
    ['bad.json5', 'error', 'invalid json content', ''],
    ['empty.json5', 'error', 'invalid json content', ''],
    ['rows.csv', 'ok', 'application/json', '[{"id":"1","name":"a, b"}]'],
    ['ragged.csv', 'error', 'failed to analyze csv records', ''],
    ['empty.csv', 'ok', 'application/json', '[]'],
    ['page.html', 'ok', 'text/html; charset=utf-8', '<p>hi</p>'],
    ['notes.txt', 'ok', 'text/plain; charset=utf-8', 'plain'],
    ['noext', 'ok', 'text/plain; charset=utf-8', 'plain'],
    ['text.png', 'ok', 'text/plain; charset=utf-8', 'hi'],
    ['image.png', 'ok', 'image/png', decode(BINARY)],
    ['weird.txt', 'ok', 'application/octet-stream', decode(BINARY)],
    ['binary.csv', 'ok', 'application/octet-stream', decode(BINARY)],
    ['binary.json5', 'ok', 'application/octet-stream', decode(BINARY)],
    ['missing.json', 'missing', '', ''],
  ];
  for (const [name, kind, typeOrMessage, body] of cases) {
    it(name, async () => {
      const got = await fileBody(`/d/${name}`, files);
      assert.equal(got.kind, kind);
      if (got.kind === 'ok') {
        assert.equal(got.contentType, typeOrMessage);
        assert.equal(decode(got.body), body);
      } else if (got.kind === 'error') {
        assert.equal(got.message, typeOrMessage);
      }
    });
  }

  it('serves .json bytes as the very object the source returned', async () => {
    const bytes = await files.read('/d/pretty.json');
    const got = await fileBody('/d/pretty.json', files);
    assert.ok(got.kind === 'ok' && got.body === bytes);
  });

  it('converts an unchanged file once, and again after it changes', async () => {
    const src = memorySource({ '/d/c.json5': '{a: 1}' });
    const first = await fileBody('/d/c.json5', src);
    const second = await fileBody('/d/c.json5', src);
    assert.equal(second, first, 'same result object: no second conversion');
    src.write('/d/c.json5', '{a: 2}');
    const third = await fileBody('/d/c.json5', src);
    assert.ok(third.kind === 'ok' && decode(third.body) === '{"a":2}');
  });

  it('a read failure is a 500 message without the path', async () => {
    const failing: FileSource = {
      ...memorySource({}),
      read: () =>
        Promise.reject(
          Object.assign(new Error("EACCES: permission denied, open '/secret/place.json'"), { code: 'EACCES' }),
        ),
    };
    const got = await fileBody('/secret/place.json', failing);
    assert.deepEqual(got, { kind: 'error', message: READ_ERROR });
  });

  it('error messages never contain a filesystem path', async () => {
    for (const name of ['bad.json5', 'ragged.csv']) {
      const got = await fileBody(`/d/${name}`, files);
      assert.ok(got.kind === 'error' && !got.message.includes('/'));
    }
  });
});

describe('largeFile', () => {
  const big = STREAM_FILE_BYTES + 1;
  // 'é' is two bytes: placed so that the first SNIFF_BYTES end between them
  const text = new Uint8Array(big).fill(0x61);
  text.set([0xc3, 0xa9], SNIFF_BYTES - 1);
  const binary = new Uint8Array(big).fill(0x61);
  binary[10] = 0xff;
  const plain = memorySource({
    '/d/big.txt': text,
    '/d/big.png': binary,
    '/d/big.json5': text,
    '/d/small.txt': 'ok',
  });
  /** the memory source with the large-file check the server's sources have */
  const files: FileSource = {
    ...plain,
    largeFile: async (p, above, n) => {
      const bytes = await plain.read(p);
      return bytes === undefined || bytes.byteLength <= above
        ? undefined
        : { size: bytes.byteLength, head: bytes.subarray(0, n) };
    },
  };

  it('is over the bound, served as it is: its size, and a type from its first bytes', async () => {
    assert.deepEqual(await largeFile('/d/big.txt', files), { size: big, contentType: 'text/plain; charset=utf-8' });
    assert.deepEqual(await largeFile('/d/big.png', files), { size: big, contentType: 'image/png' });
  });

  it('is not a small file, a converted one, a missing one, nor any file of a source that cannot read first bytes', async () => {
    assert.equal(await largeFile('/d/small.txt', files), undefined);
    assert.equal(await largeFile('/d/big.json5', files), undefined);
    assert.equal(await largeFile('/d/none.txt', files), undefined);
    assert.equal(await largeFile('/d/big.txt', plain), undefined);
  });
});
