// A resolved file's body and content type: `.json` byte for byte, `.json5`/`.csv` converted, the rest as is.
//
// Conversion and content-type detection run once per file version: the FileSource returns the same Uint8Array
// object while a file is unchanged, so results are kept in a WeakMap keyed by that object (then by path, since
// one object can be reached through names with different extensions) and vanish with it.
import { contentTypeFor } from './content-type.js';
import { convertBody, isConvertedExtension } from './convert.js';
import { baseName, extensionOf } from './paths.js';
import type { FileSource } from './source.js';
import { isValidUtf8 } from '../shared/utf8.js';

export type FileBody =
  | { readonly kind: 'ok'; readonly body: Uint8Array; readonly contentType: string }
  | { readonly kind: 'missing' }
  /** unreadable or unconvertible: answered 500 with this plain-text message (never a filesystem path) */
  | { readonly kind: 'error'; readonly message: string };

export const READ_ERROR = 'failed to read response file';

const MISSING: FileBody = Object.freeze({ kind: 'missing' });
const UNREADABLE: FileBody = Object.freeze({ kind: 'error', message: READ_ERROR });
const served = new WeakMap<Uint8Array, Map<string, FileBody>>(); // bytes → path → result

export async function fileBody(path: string, files: FileSource): Promise<FileBody> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await files.read(path);
  } catch {
    return UNREADABLE;
  }
  if (bytes === undefined) return MISSING;
  let byPath = served.get(bytes);
  const cached = byPath?.get(path);
  if (cached !== undefined) return cached;
  const result = Object.freeze(bodyOf(extensionOf(baseName(path))?.toLowerCase() ?? '', bytes));
  if (byPath === undefined) served.set(bytes, (byPath = new Map<string, FileBody>()));
  byPath.set(path, result);
  return result;
}

function bodyOf(ext: string, bytes: Uint8Array): FileBody {
  const utf8 = isValidUtf8(bytes);
  const contentType = contentTypeFor(ext, utf8);
  if (!utf8 || !isConvertedExtension(ext)) return { kind: 'ok', body: bytes, contentType };
  const converted = convertBody(ext, bytes);
  return converted.kind === 'ok'
    ? { kind: 'ok', body: converted.body, contentType }
    : { kind: 'error', message: converted.message };
}

/**
 * Files larger than this are sent from disk as they are read (Delivery `file`), not read whole for each request:
 * the file cache keeps no file over 8 MiB (node/file-cache, maxFileBytes), so each request would hold its own copy
 * until its client had read it all.
 */
export const STREAM_FILE_BYTES = 8 * 1024 * 1024;
/** how much of a large file decides text or binary (the whole file decides for the others) */
export const SNIFF_BYTES = 64 * 1024;

export interface LargeFile {
  readonly size: number;
  readonly contentType: string;
}

/**
 * A file to send from disk as it is read: over STREAM_FILE_BYTES, served as it is (not converted), on a source that
 * can tell a large file (FileSource.largeFile). Its content type comes from its first SNIFF_BYTES. Undefined for every other file
 * (then fileBody reads it whole), and when the stat or the read fails (fileBody then says why).
 */
export async function largeFile(path: string, files: FileSource): Promise<LargeFile | undefined> {
  if (files.largeFile === undefined) return undefined;
  const ext = extensionOf(baseName(path))?.toLowerCase() ?? '';
  if (isConvertedExtension(ext)) return undefined;
  try {
    const large = await files.largeFile(path, STREAM_FILE_BYTES, SNIFF_BYTES);
    if (large === undefined) return undefined;
    const { size, head } = large;
    return { size, contentType: contentTypeFor(ext, isUtf8Start(head, head.byteLength < size)) };
  } catch {
    return undefined;
  }
}

/** Whether `bytes` are valid UTF-8, or (`cut`) the start of valid UTF-8 cut anywhere, even inside a character. */
function isUtf8Start(bytes: Uint8Array, cut: boolean): boolean {
  let end = bytes.byteLength;
  if (cut) {
    // leave out a last character the cut left incomplete
    for (let k = 1; k <= 3 && k <= end; k++) {
      const b = bytes[end - k]!;
      if ((b & 0xc0) === 0x80) continue;
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (length > k) end -= k;
      break;
    }
  }
  return isValidUtf8(end === bytes.byteLength ? bytes : bytes.subarray(0, end));
}
