import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentTypeFor, OCTET_STREAM, TEXT_PLAIN } from './content-type.js';

describe('contentTypeFor', () => {
  const cases: ReadonlyArray<readonly [string | undefined, boolean, string]> = [
    // [extension, valid UTF-8, content type]
    ['json', true, 'application/json'],
    ['JSON', true, 'application/json'],
    ['json5', true, 'application/json'],
    ['csv', true, 'application/json'],
    ['html', true, 'text/html; charset=utf-8'],
    ['css', true, 'text/css; charset=utf-8'],
    ['js', true, 'application/javascript; charset=utf-8'],
    ['svg', true, 'image/svg+xml'],
    ['txt', true, TEXT_PLAIN],
    ['xml', true, TEXT_PLAIN],
    ['md', true, TEXT_PLAIN],
    [undefined, true, TEXT_PLAIN],
    ['', true, TEXT_PLAIN],
    ['png', true, TEXT_PLAIN], // a .png holding valid UTF-8 is text
    ['toString', true, TEXT_PLAIN], // no prototype lookups
    ['png', false, 'image/png'],
    ['PNG', false, 'image/png'],
    ['jpg', false, 'image/jpeg'],
    ['jpeg', false, 'image/jpeg'],
    ['gif', false, 'image/gif'],
    ['bmp', false, 'image/bmp'],
    ['webp', false, 'image/webp'],
    ['mp3', false, 'audio/mpeg'],
    ['wav', false, 'audio/wav'],
    ['flac', false, 'audio/flac'],
    ['ogg', false, 'audio/ogg'],
    ['m4a', false, 'audio/mp4'],
    ['aac', false, 'audio/aac'],
    ['weba', false, 'audio/webm'],
    ['mp4', false, 'video/mp4'],
    ['m4v', false, 'video/mp4'],
    ['mpeg', false, 'video/mpeg'],
    ['mpg', false, 'video/mpeg'],
    ['avi', false, 'video/x-msvideo'],
    ['mov', false, 'video/quicktime'],
    ['webm', false, 'video/webm'],
    ['ogv', false, 'video/ogg'],
    ['pdf', false, 'application/pdf'],
    ['zip', false, 'application/zip'],
    ['txt', false, OCTET_STREAM], // a binary .txt
    ['svg', false, OCTET_STREAM],
    ['json', false, OCTET_STREAM],
    ['dat', false, OCTET_STREAM],
    ['gz', false, OCTET_STREAM],
    [undefined, false, OCTET_STREAM],
  ];
  for (const [ext, utf8, expected] of cases) {
    it(`${ext ?? '(none)'} ${utf8 ? 'text' : 'binary'} → ${expected}`, () =>
      assert.equal(contentTypeFor(ext, utf8), expected));
  }
});
