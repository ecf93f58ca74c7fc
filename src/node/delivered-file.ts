// A file the dispatch answers with by reference (Delivery `file`), read whole for `mock get`, which prints it
// rather than streaming it as the server does.
import { readFile } from 'node:fs/promises';

/** The first `size` bytes of the file; none when it is gone or unreadable since dispatch found it (the server
 * would end the connection, so `get` prints no body). */
export async function readDeliveredFile(path: string, size: number): Promise<Uint8Array> {
  const bytes = await readFile(path).catch(() => new Uint8Array(0));
  return bytes.subarray(0, size);
}
