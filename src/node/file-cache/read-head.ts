// The first bytes of a file, read with one open and one read (FileSource.head).
import { open } from 'node:fs/promises';

/** Up to `bytes` bytes from the start of `path`; undefined when it is missing or not a file. */
export async function readHead(path: string, bytes: number): Promise<Uint8Array | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    if (isGone(e)) return undefined;
    throw e;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isGone(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG';
}
