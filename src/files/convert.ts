// Bodies that are served converted: `.json5` → minified JSON, `.csv` → a JSON array of row objects.
// `.json` is never converted (served byte for byte, not even validated). Messages are the reference's and never
// carry a filesystem path, since they become the 500 body.
import { CsvError, csvToJson } from './csv.js';
import { Json5Error, json5ToJson } from './json5.js';

export const CONVERTED_EXTENSIONS = ['json5', 'csv'] as const;
export type ConvertedExtension = (typeof CONVERTED_EXTENSIONS)[number];

export const CONVERT_ERRORS = {
  json5: 'invalid json content',
  csv: 'failed to analyze csv records',
} as const satisfies Record<ConvertedExtension, string>;

export type Conversion =
  | { readonly kind: 'ok'; readonly body: Uint8Array }
  | { readonly kind: 'error'; readonly message: string; readonly detail: string };

export function isConvertedExtension(ext: string): ext is ConvertedExtension {
  return (CONVERTED_EXTENSIONS as readonly string[]).includes(ext);
}

const decoder = new TextDecoder('utf-8'); // drops a leading BOM
const encoder = new TextEncoder();

/** Convert valid UTF-8 bytes of a `.json5` or `.csv` file to JSON bytes. */
export function convertBody(ext: ConvertedExtension, bytes: Uint8Array): Conversion {
  const text = decoder.decode(bytes);
  try {
    return { kind: 'ok', body: encoder.encode(ext === 'json5' ? json5ToJson(text) : csvToJson(text)) };
  } catch (e) {
    if (!(e instanceof Json5Error) && !(e instanceof CsvError)) throw e;
    return { kind: 'error', message: CONVERT_ERRORS[ext], detail: e.message };
  }
}
