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
