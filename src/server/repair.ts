// Raw UTF-8 bytes in a request line. Node's HTTP parser refuses any byte >= 0x80 in the request-target
// (HPE_INVALID_URL), yet a file must be reachable by its literal UTF-8 name (docs/files-and-rules.md#files). The server's
// clientError handler gives the refused packet to repairRequestLine(), which percent-encodes those bytes;
// the repaired bytes are then parsed again exactly as if the client had sent `/caf%C3%A9`. Pure.
//
// Limitation: the repair sees the packet in which the parser failed. A request line split across two TCP reads
// (rare: clients write the request head in one go) cannot be repaired and is answered 400.

const SP = 0x20;
const CR = 0x0d;
const LF = 0x0a;

/** tchar of RFC 9110 (method tokens). */
function isTokenByte(b: number): boolean {
  return (
    (b >= 0x30 && b <= 0x39) ||
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    "!#$%&'*+-.^_`|~".includes(String.fromCharCode(b))
  );
}

const HEX = '0123456789ABCDEF';

/**
 * `packet` is the chunk the parser refused and `errorAt` the offset of the refused byte. Returns the bytes from
 * the start of that request line to the end of the packet, with every byte >= 0x80 of the request-target
 * percent-encoded; undefined when this is not a request line whose target holds such bytes.
 */
export function repairRequestLine(packet: Uint8Array, errorAt: number): Buffer | undefined {
  if (!Number.isInteger(errorAt) || errorAt < 0 || errorAt >= packet.length) return undefined;
  const lineStart = packet.lastIndexOf(LF, errorAt) + 1;
  let i = lineStart;
  while (i < packet.length && isTokenByte(packet[i]!)) i++;
  if (i === lineStart || packet[i] !== SP) return undefined;
  const targetStart = i + 1;
  let targetEnd = targetStart;
  while (
    targetEnd < packet.length &&
    packet[targetEnd] !== SP &&
    packet[targetEnd] !== CR &&
    packet[targetEnd] !== LF
  ) {
    targetEnd++;
  }
  if (errorAt < targetStart || errorAt >= targetEnd) return undefined;

  const out: number[] = [];
  let encoded = false;
  for (let j = targetStart; j < targetEnd; j++) {
    const b = packet[j]!;
    if (b >= 0x80) {
      out.push(0x25, HEX.charCodeAt(b >> 4), HEX.charCodeAt(b & 15));
      encoded = true;
    } else out.push(b);
  }
  if (!encoded) return undefined;
  return Buffer.concat([packet.subarray(lineStart, targetStart), Uint8Array.from(out), packet.subarray(targetEnd)]);
}
