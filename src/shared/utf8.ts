// Lossy UTF-8 decoding for showing bodies: invalid sequences become U+FFFD.

const lossy = new TextDecoder('utf-8', { fatal: false });
const strict = new TextDecoder('utf-8', { fatal: true });

export function decodeLossy(bytes: Uint8Array): string {
  return lossy.decode(bytes);
}

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
