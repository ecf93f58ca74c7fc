// multipart/form-data bodies for form conditions and scripts, parsed by busboy (a well-kept streaming parser). The
// body is already in memory, under the body limit: it is fed in one write, and busboy reports the fields and file
// parts while that write runs, so the result is there when `end` returns.
import busboy from 'busboy';
import type { FormFields } from '../model/request.js';

/** The text fields' values and the file parts' filenames (a file part without one: ''); undefined when the body is not a well-formed multipart form. */
export function parseMultipart(contentType: string, body: Uint8Array): FormFields | undefined {
  const fields = new Map<string, string[]>();
  const files = new Set<string>();
  let failed = false;
  const add = (name: string, value: string): void => {
    const list = fields.get(name);
    if (list === undefined) fields.set(name, [value]);
    else list.push(value);
  };
  try {
    const parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { fieldSize: body.byteLength },
    });
    parser.on('field', (name, value) => add(name, value));
    parser.on('file', (name, stream, info) => {
      files.add(name);
      add(name, info.filename ?? '');
      stream.resume();
    });
    parser.on('error', () => {
      failed = true;
    });
    parser.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  } catch {
    return undefined;
  }
  return failed && fields.size === 0 ? undefined : { fields, files };
}
