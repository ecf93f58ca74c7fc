// Content type of a served file. Text versus binary is decided by UTF-8 validity of the bytes, not by the
// extension (a `.png` holding "hi" is text; a `.txt` holding ff fe 00 is binary); then the lowercased extension
// picks the type within that family. One table per family, as the reference serves them.

export const TEXT_PLAIN = 'text/plain; charset=utf-8';
export const OCTET_STREAM = 'application/octet-stream';

/** Valid UTF-8 files by extension; any other text file is TEXT_PLAIN. */
export const TEXT_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json',
  json5: 'application/json',
  csv: 'application/json',
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Files that are not valid UTF-8, by extension; anything else is OCTET_STREAM. */
export const BINARY_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  weba: 'audio/webm',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

/** `extension` without the dot, any case; `utf8` is whether the bytes are valid UTF-8. */
export function contentTypeFor(extension: string | undefined, utf8: boolean): string {
  const ext = extension?.toLowerCase() ?? '';
  const table = utf8 ? TEXT_TYPES : BINARY_TYPES;
  return Object.hasOwn(table, ext) ? table[ext]! : utf8 ? TEXT_PLAIN : OCTET_STREAM;
}
